"""The sticky wilds' one rule, as live play and the chain kernel both play it.

:func:`stick` takes a free spin's screen as it landed and the cells stuck so far, and in place
overlays the stuck wilds (never over the scatter or the trigger symbol) and adds the cells where
the wild landed on a sticking reel. Live play (:mod:`.live`) calls it on a copy of the landed
screen; the chain kernel (:mod:`reelsmith.mechanics.cascade.kernel`) calls it after each free
spin's stops, before the screen is paid, and clears the stuck cells when a feature starts. The
rule draws nothing, so a kernel round's draws replay through live play unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from numba import njit

from reelsmith.engine.model import GameModel
from reelsmith.mechanics.sticky.rules import sticky_rules


@dataclass(frozen=True, eq=False)
class StickyTables:
    """The kernel's view of the mechanic: the wild (-1: the model declares no sticky wilds),
    whether each reel's landed wilds stick, and the two symbols a stuck wild never covers."""

    wild: int
    sticks: npt.NDArray[np.bool_]
    scatter: int
    trigger: int

    def args(self) -> tuple[int, npt.NDArray[np.bool_], int, int]:
        return self.wild, self.sticks, self.scatter, self.trigger


def tables(model: GameModel) -> StickyTables:
    """The model's :class:`StickyTables`."""
    if "sticky_wilds" not in model.raw:
        return StickyTables(-1, np.zeros(model.reels, dtype=np.bool_), -1, -1)
    rules = sticky_rules(model)
    return StickyTables(rules.wild, rules.sticks, rules.scatter, rules.trigger)


@njit(cache=True, nogil=True)
def stick(
    screen: npt.NDArray[np.int8],
    stuck: npt.NDArray[np.bool_],
    wild: int,
    sticks: npt.NDArray[np.bool_],
    scatter: int,
    trigger: int,
) -> None:
    """In place: every stuck cell of ``screen`` shows the wild unless it landed the scatter or
    the trigger symbol, and every cell where the wild landed on a sticking reel is stuck from
    now on (no wild, ``wild`` -1: nothing changes)."""
    if wild < 0:
        return
    rows, reels = screen.shape
    for reel in range(reels):
        for row in range(rows):
            shown = screen[row, reel]
            if stuck[row, reel]:
                if shown != scatter and shown != trigger:
                    screen[row, reel] = wild
            elif shown == wild and sticks[reel]:
                stuck[row, reel] = True
