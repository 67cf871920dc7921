"""The scatter in the terminal: what the scattered symbols paid, their cells highlighted."""

from __future__ import annotations

from typing import Any

from rich.markup import escape

from reelsmith.engine.catalogue import check_screen
from reelsmith.engine.evaluation import Position
from reelsmith.engine.model import GameModel
from reelsmith.engine.round import Round, Spin


class ScatterTerminal:
    def check(self, model: GameModel, grid: Any) -> None:
        """Refuse a screen the reels cannot show: more scatters on one reel than the model's
        ``scatter.max_per_reel`` allows."""
        check_screen(model, grid)

    def highlight(self, spin: Spin) -> list[Position]:
        shown = spin.parts.get("scatter")
        return list(shown.win.positions) if shown is not None and shown.win else []

    def show(self, game: Any, round_: Round, spin: Spin) -> None:
        shown = spin.parts.get("scatter")
        if shown is None or shown.win is None:
            return
        w = shown.win
        game.print(f"  {w.count} {escape(game.names[w.symbol])} scattered pay {w.coins:,} coins")


def face(model: GameModel) -> ScatterTerminal:
    return ScatterTerminal()
