"""The free-spins ladder in the terminal: the collection meter in the status, the bonus
symbols of a spin, each free spin played on Enter with its level, multiplier, spins left and
the meter, and the feature's total."""

from __future__ import annotations

from typing import Any

from reelsmith.engine import round as core
from reelsmith.engine.ladder import check_screen, ladder_rules
from reelsmith.engine.ladder_state import BetState
from reelsmith.engine.model import GameModel
from reelsmith.engine.round import VOIDED, Round, Spin, SpinSetup
from reelsmith.mechanics.ladder.live import FREE_SPIN, FREE_SPINS, Climb
from reelsmith.mechanics.pots.live import CARRIED


class LadderTerminal:
    def __init__(self, model: GameModel) -> None:
        self.rules = ladder_rules(model)

    def meter(self, state: BetState | None) -> str:
        filled = state.meter if state else 0
        return "●" * filled + "○" * (self.rules.spots - filled)

    def status_segment(self, state: BetState | None) -> str:
        return f"collection meter {self.meter(state)}"

    def show(self, game: Any, round_: Round, spin: Spin) -> None:
        climb = spin.parts.get("ladder")
        if climb is not None and climb.bonus:
            game.print(
                f"  {climb.bonus} bonus symbols; meter {climb.meter_after}/{self.rules.spots}"
            )

    def check(self, model: GameModel, grid: Any) -> None:
        """Refuse a screen the reels cannot show: two bonus symbols or two gems on a reel."""
        check_screen(model, grid)

    def evaluate_setup(self, model: GameModel, level: int) -> tuple[SpinSetup, str]:
        """The spin a screen is read as at free-spins ``level`` (0: the main game): its
        level's multiplier on line wins."""
        from reelsmith.terminal.evaluation import EvaluateOptionError

        rules = self.rules
        if not 0 <= level <= rules.levels:
            raise EvaluateOptionError(
                f"--level must be 0 (main game) or 1 to {rules.levels}, got {level}"
            )
        multiplier = rules.multipliers[level - 1] if level else 1
        setup = SpinSetup(
            "free" if level else "base",
            rules.free_reel_set if level else "base",
            model.line_pays,
            model.scatter_pays,
            multiplier,
        )
        more = f", free-spins level {level} ({multiplier}x line wins)" if level else ""
        self.level = level
        return setup, more

    def evaluate_json(self, model: GameModel, grid: Any, stake: Any, out: dict[str, Any]) -> None:
        rules = self.rules
        bonus = int((grid == rules.bonus).sum())
        main = getattr(self, "level", 0) == 0
        out["bonus"] = bonus
        out["free_spins_triggered"] = main and bonus >= rules.trigger_count
        out["collection_spot"] = main and bonus == rules.main_game_bonus_per_spot

    def handles(self, round_: Round) -> bool:
        return round_.phase == FREE_SPINS

    def step(self, game: Any, round_: Round) -> Round:
        climb: Climb = round_.part("ladder")
        if len(round_.spins) == 1:
            game.print("[bold green]Free spins![/]")
        multiplier = self.rules.multipliers[climb.level - 1]
        game.read(
            f"Level {climb.level} ({multiplier}x): {climb.level_spins_left} spins left, "
            f"unlocked up to level {climb.unlocked}, meter {self.meter(round_.part(CARRIED))}. "
            "Enter to spin"
        )
        round_ = core.act(game.composition, round_, FREE_SPIN, game.rng)
        if round_.phase != VOIDED:
            spin = round_.spins[-1]
            played = spin.parts["ladder"]
            game.show_spin(round_, spin, f"Level {played.level} free spin ({played.multiplier}x)")
        return round_

    def after(self, game: Any, round_: Round) -> None:
        free = round_.spins[1:]
        if free and round_.phase != VOIDED:
            won = sum(s.win_coins for s in free)
            game.print(
                f"[bold green]Free spins over:[/] {len(free)} spins won {game.money(round_, won)}"
            )


def face(model: GameModel) -> LadderTerminal:
    return LadderTerminal(model)
