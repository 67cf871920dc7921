"""Variable rows in the terminal: each reel's drawn height and the ways the screen shows (the
cells below a height print as ``-``)."""

from __future__ import annotations

import math
from typing import Any

from reelsmith.engine.model import GameModel
from reelsmith.engine.round import Round, Spin
from reelsmith.mechanics.heights.live import shown_heights


class HeightsTerminal:
    def show(self, game: Any, round_: Round, spin: Spin) -> None:
        heights = shown_heights(spin.grid)
        game.print(
            f"  heights {' '.join(map(str, heights))}: {math.prod(heights):,} ways",
            markup=False,
        )


def face(model: GameModel) -> HeightsTerminal:
    return HeightsTerminal()
