"""The heights' live part: no draw of its own (a reel's height is drawn with its stop, by the
strips' one ``reel_stop`` draw per reel), only the event that tells a client each reel's height
and the ways the screen shows."""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from reelsmith.engine.model import BLANK, GameModel
from reelsmith.engine.round import Part, Spin


def shown_heights(grid: npt.NDArray[np.int8]) -> tuple[int, ...]:
    """Each reel's height on a landed screen: its cells above the first blank one."""
    return tuple(int((grid[:, reel] != BLANK).sum()) for reel in range(grid.shape[1]))


class HeightsPart(Part):
    name = "heights"
    stage = 15  # after the window, before any window modifier that reads the screen

    def spin_events(self, spin: Spin) -> list[dict[str, object]]:
        heights = shown_heights(spin.grid)
        return [
            {
                "type": "heights_drawn",
                "heights": list(heights),
                "stops": list(spin.stops),
                "ways": math.prod(heights),
            }
        ]


def part(model: GameModel) -> HeightsPart:
    return HeightsPart()
