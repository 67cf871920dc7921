"""The hold-and-spin in the terminal: the coins that started it with their values, each
respin's new coins and the respins left, then what the feature pays and the jackpots it won."""

from __future__ import annotations

from typing import Any

from reelsmith.engine.model import GameModel
from reelsmith.engine.round import Round, Spin
from reelsmith.mechanics.hold_and_spin.rules import hold_and_spin_rules


def _coins(found: Any) -> str:
    return ", ".join(
        f"{value.label} at row {row + 1} reel {reel + 1}" for (row, reel), value in found
    )


class HoldAndSpinTerminal:
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
            f"  [bold yellow]Hold and Spin![/] {len(record.start)} coins stick: "
            f"{_coins(record.start)}; {record.respins_full} respins"
        )
        for index, respin in enumerate(record.respins, start=1):
            landed = _coins(respin.landed) if respin.landed else "no coin"
            game.print(f"    respin {index}: {landed}; {respin.left} left")
        jackpots = record.jackpots()
        won = f", jackpots {', '.join(jackpots)}" if jackpots else ""
        game.print(
            f"  Hold and Spin over: {len(record.coins)} coins pay {record.total_bets}x the bet"
            f"{won}, {game.bets.pay_text(game, round_, record.win_coins)}"
        )


def face(model: GameModel) -> HoldAndSpinTerminal:
    return HoldAndSpinTerminal()
