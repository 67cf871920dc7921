"""The cap in the terminal: the screen that took the round to its maximum win says so, with
what the screens paid before the cap, and that the round ends there."""

from __future__ import annotations

from typing import Any

from reelsmith.engine.model import GameModel
from reelsmith.engine.round import Round, Spin


class MaxWinTerminal:
    def show(self, game: Any, round_: Round, spin: Spin) -> None:
        record = spin.parts.get("max_win")
        if record is None:
            return
        game.print(
            f"  [bold magenta]Maximum win reached: {record.multiplier:,}x the bet, "
            f"{record.cap_coins:,} coins[/] (the screens paid {record.uncapped_coins:,}); "
            "the round ends here"
        )


def face(model: GameModel) -> MaxWinTerminal:
    return MaxWinTerminal()
