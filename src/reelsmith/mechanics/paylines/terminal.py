"""The paylines in the terminal: each winning payline, its cells highlighted."""

from __future__ import annotations

from typing import Any

from rich.markup import escape

from reelsmith.engine.evaluation import Position
from reelsmith.engine.model import GameModel
from reelsmith.engine.round import Round, Spin


class PaylinesTerminal:
    def highlight(self, spin: Spin) -> list[Position]:
        wins = spin.parts.get("paylines")
        return [p for w in wins.wins for p in w.positions] if wins is not None else []

    def show(self, game: Any, round_: Round, spin: Spin) -> None:
        wins = spin.parts.get("paylines")
        if wins is None:
            return
        multiplier = max((getattr(r, "multiplier", 1) for r in spin.parts.values()), default=1)
        suffix = f" x{multiplier}" if multiplier > 1 else ""
        for win in wins.wins:
            game.print(
                f"  payline {win.line}: {win.count} x {escape(game.names[win.symbol])} "
                f"pays {game.bets.pay_text(game, round_, win.coins)}{suffix}"
            )


def face(model: GameModel) -> PaylinesTerminal:
    return PaylinesTerminal()
