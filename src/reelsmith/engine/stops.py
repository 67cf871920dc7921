"""Reel stops: the draw that picks where each reel stops, written once for live play and the
simulation kernel.

An unweighted reel draws its stop directly, ``randbelow(len(strip))``. A reel whose stops carry
weights (``stop_weights``) draws one number below its total weight ``W`` and stops at the first
stop whose cumulative weight exceeds it (:func:`stop_for_draw`), so stop ``s`` comes up with
probability ``w_s / W`` and a stop of weight 0 never does. Both record one ``reel_stop`` draw
per reel; a replay feeds the recorded number through the same mapping.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from reelsmith.engine.model import ReelSet
from reelsmith.rng import RandomSource

#: The purpose every reel's stop draw is recorded with.
REEL_STOP = "reel_stop"
#: The purpose of one cell's draw on a reel set whose cells are drawn one by one.
CELL = "cell"


@njit(cache=True, nogil=True)
def stop_for_draw(cumulative: npt.NDArray[np.int64], length: int, value: int) -> int:
    """The stop a draw ``value`` below the total weight lands on: the first of the ``length``
    stops whose cumulative weight ``cumulative[s]`` (the weights of stops 0..s) is above
    ``value`` (a binary search; the kernel calls the same function)."""
    low = 0
    high = length - 1
    while low < high:
        middle = (low + high) >> 1
        if cumulative[middle] > value:
            high = middle
        else:
            low = middle + 1
    return low


def draw_stops(reel_set: ReelSet, rng: RandomSource) -> tuple[int, ...]:
    """Each reel's stop, one recorded ``reel_stop`` draw per reel: below the strip's length
    for an unweighted reel set, below the reel's total weight for a weighted one (a reel of
    variable rows draws its position: its stop and height together). A reel set of drawn
    cells makes one recorded ``cell`` draw per cell instead, each reel's rows top to bottom,
    below its cell table's total weight; the reel lands on the position of that window."""
    if reel_set.cells is not None:
        return draw_cell_positions(reel_set, rng)
    if not reel_set.weighted:
        return tuple(rng.randbelow(int(n), REEL_STOP) for n in reel_set.lengths)
    cumulative = reel_set.cumulative
    counts = reel_set.position_counts
    return tuple(
        int(stop_for_draw(cumulative[reel], int(n), rng.randbelow(int(total), REEL_STOP)))
        for reel, (n, total) in enumerate(zip(counts, reel_set.totals, strict=True))
    )


def draw_cell_positions(reel_set: ReelSet, rng: RandomSource) -> tuple[int, ...]:
    """Each reel's position on a reel set of drawn cells: ``rows`` ``cell`` draws per reel
    (rows top to bottom), each symbol's place in its reel's table the digit of its row."""
    positions = []
    for reel in range(len(reel_set.strips)):
        count = len(reel_set.strips[reel])
        position = 0
        for _ in range(reel_set.rows):
            position = position * count + draw_cell(reel_set, reel, rng)
        positions.append(position)
    return tuple(positions)


def draw_cell(reel_set: ReelSet, reel: int, rng: RandomSource) -> int:
    """One cell of ``reel`` on a reel set of drawn cells: one recorded ``cell`` draw below its
    table's total weight; returns the symbol's place in the table (``reel_set.strips[reel]``)."""
    total, cumulative = reel_set.cell_draws(reel)
    return int(stop_for_draw(cumulative, len(cumulative), rng.randbelow(total, CELL)))
