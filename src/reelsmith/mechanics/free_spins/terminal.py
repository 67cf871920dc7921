"""Free spins in the terminal: the award (and each symbol's reveal), each free spin played on
Enter with the spins left and the feature's win so far, and the feature's total."""

from __future__ import annotations

from typing import Any

from rich.markup import escape

from reelsmith.engine import round as core
from reelsmith.engine.catalogue import mechanics
from reelsmith.engine.model import GameModel
from reelsmith.engine.round import VOIDED, Round, Spin
from reelsmith.mechanics.free_spins.live import FREE_SPIN, FREE_SPINS, FeatureSpins


class FreeSpinsTerminal:
    def __init__(self, model: GameModel) -> None:
        free = mechanics(model).free_spins
        assert free is not None
        self.trigger_name = model.symbols[free.symbol].name

    def show(self, game: Any, round_: Round, spin: Spin) -> None:
        award = spin.parts.get("free_spins")
        if award is None or not award.spins_added:
            return
        if spin.kind == "base":
            revealed = (
                " (revealed " + " + ".join(str(v) for v in award.reveals) + ")"
                if award.reveals
                else ""
            )
            state: FeatureSpins = round_.part("free_spins")
            times = f", wins but scatter wins x{state.multiplier}" if state.multiplier > 1 else ""
            game.print(
                f"  [bold green]{award.triggers} {escape(self.trigger_name)} start the free "
                f"spins![/] [bold]{award.spins_added} free spins{times}[/]{revealed}"
            )
        else:
            game.print(f"  [green]+{award.spins_added} free spins[/]")

    def evaluate_json(self, model: GameModel, grid: Any, stake: Any, out: dict[str, Any]) -> None:
        rules = mechanics(model)
        free = rules.free_spins
        assert free is not None
        shown = free.counted(grid, rules.trigger_mask)
        out["free_spins_triggered"] = shown >= free.trigger

    def handles(self, round_: Round) -> bool:
        return round_.phase == FREE_SPINS

    def step(self, game: Any, round_: Round) -> Round:
        state: FeatureSpins = round_.part("free_spins")
        number = len(round_.spins)
        won = sum(s.win_coins for s in round_.spins[1:])
        answer = game.read(
            f"Free spin {number} — {state.remaining} left "
            f"(free spins won so far {won:,} coins). Enter to spin"
        )
        if answer.strip().lower() == "q":
            game.print("The free spins must be played out; playing on.")
        round_ = core.act(game.composition, round_, FREE_SPIN, game.rng)
        if round_.phase != VOIDED:
            game.show_spin(round_, round_.spins[-1], f"Free spin {number}")
        return round_

    def after(self, game: Any, round_: Round) -> None:
        state: FeatureSpins = round_.part("free_spins")
        if state.awarded and round_.phase != VOIDED:
            free = round_.spins[1:]
            game.print(
                f"[bold green]Free spins over:[/] {len(free)} spins won "
                f"{sum(s.win_coins for s in free):,} coins"
            )


def face(model: GameModel) -> FreeSpinsTerminal:
    return FreeSpinsTerminal(model)
