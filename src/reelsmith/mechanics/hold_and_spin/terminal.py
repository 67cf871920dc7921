"""The hold-and-spin in the terminal: the coin symbols that started it with their values, each
respin's new ones and the respins left (a collector shown as "collect", a multiplier as "x2"),
then what the feature pays, what each collector collected, the grid's multiplier and the
jackpots it won. The
coin symbol is called by its name in the model (Lucky Lanterns' "Lantern"), never "coin"."""

from __future__ import annotations

from typing import Any

from rich.markup import escape

from reelsmith.engine.model import GameModel
from reelsmith.engine.round import Round, Spin
from reelsmith.mechanics.hold_and_spin.rules import hold_and_spin_rules


def counted(count: int, name: str) -> str:
    """``count`` symbols called ``name``: "1 Lantern", "6 Lanterns" (a name already ending in
    "s" is left as it is)."""
    plural = name if count == 1 or name.endswith("s") else f"{name}s"
    return f"{count} {plural}"


def _values(found: Any) -> str:
    return ", ".join(
        f"{value.label} at row {row + 1} reel {reel + 1}" for (row, reel), value in found
    )


class HoldAndSpinTerminal:
    def __init__(self, model: GameModel) -> None:
        rules = hold_and_spin_rules(model)
        #: The coin symbol's name as the model writes it, markup escaped.
        self.name = escape(model.symbols[rules.symbol].name)

    def evaluate_json(self, model: GameModel, grid: Any, stake: Any, out: dict[str, Any]) -> None:
        """``reelsmith evaluate``: the coins the screen shows and whether they start the
        feature (the trigger count or more anywhere, as the live step counts them)."""
        rules = hold_and_spin_rules(model)
        shown = int((grid == rules.symbol).sum())
        out["hold_and_spin"] = {
            "symbol": model.symbols[rules.symbol].id,
            "coins": shown,
            "trigger": rules.trigger,
            "triggered": shown >= rules.trigger,
        }

    def show(self, game: Any, round_: Round, spin: Spin) -> None:
        record = spin.parts.get("hold_and_spin")
        if record is None:
            return
        game.print(
            f"  [bold yellow]Hold and Spin![/] {counted(len(record.start), self.name)} stick: "
            f"{_values(record.start)}; {record.respins_full} respins"
        )
        for index, respin in enumerate(record.respins, start=1):
            landed = (
                f"{counted(len(respin.landed), self.name)} landed: {_values(respin.landed)}"
                if respin.landed
                else f"no {self.name} landed"
            )
            game.print(f"    respin {index}: {landed}; {respin.left} left")
        jackpots = record.jackpots()
        won = f", jackpots {', '.join(jackpots)}" if jackpots else ""
        if record.grid_multiplier is not None:
            won = f", multiplier x{record.grid_multiplier}{won}"
        if record.collected is not None:
            collectors = sum(1 for _, value in record.coins if value.collects)
            if collectors:
                won = f", {collectors} collecting {record.collected}x the bet each{won}"
        game.print(
            f"  Hold and Spin over: {counted(len(record.coins), self.name)} pay "
            f"{record.total_bets}x the bet{won}, "
            f"{game.bets.pay_text(game, round_, record.win_coins)}"
        )


def face(model: GameModel) -> HoldAndSpinTerminal:
    return HoldAndSpinTerminal(model)
