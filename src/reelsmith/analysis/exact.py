"""Exact building blocks: per-reel symbol counts, line-pay enumeration, scatter distributions.

All counts are integers over the full cycle of stop combinations, so the figures derived from
them are exact fractions; floats appear only when a figure is printed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt
from numba import njit

from reelsmith.engine.lines import NO_SYMBOL, line_win
from reelsmith.engine.model import GameModel, ReelSet


def symbol_counts(model: GameModel, reel_set: ReelSet) -> npt.NDArray[np.int64]:
    """``counts[reel, symbol]``: how many stops of each strip carry each symbol."""
    counts = np.zeros((model.reels, len(model.symbols)), dtype=np.int64)
    for reel, strip in enumerate(reel_set.strips):
        counts[reel] = np.bincount(strip, minlength=len(model.symbols))
    return counts


def symbol_weights(model: GameModel, reel_set: ReelSet) -> npt.NDArray[np.int64]:
    """``weights[reel, symbol]``: the stop weights each strip's stops of each symbol carry
    (:func:`symbol_counts` when the reel set is unweighted)."""
    return row_symbol_weights(model, reel_set, [0] * model.reels)


def row_symbol_weights(
    model: GameModel, reel_set: ReelSet, rows: Sequence[int]
) -> npt.NDArray[np.int64]:
    """``counts[reel, symbol]``: the stop weights of ``reel`` whose window shows ``symbol`` on
    row ``rows[reel]``. Unweighted, every row of a reel shows each stop once, so this is
    :func:`symbol_counts` whatever the rows; with stop weights the rows differ (the row below
    the top shows the stop after the weighted one). On a reel set of drawn cells every cell
    of a reel shows its table's law, whatever the row: the counts are the table's weights, a
    reel's total its table's (not its windows')."""
    counts = np.zeros((model.reels, len(model.symbols)), dtype=np.int64)
    if reel_set.cells is not None:
        for reel, table in enumerate(reel_set.cells):
            for symbol, weight in table:
                counts[reel, symbol] += weight
        return counts
    for reel, row in enumerate(rows):
        length = int(reel_set.lengths[reel])
        shown = reel_set.padded[reel, row : row + length]
        np.add.at(counts[reel], shown, reel_set.stop_weights(reel))  # integers, kept exact
    return counts


def window_symbol_counts(model: GameModel, reel_set: ReelSet, symbol: int) -> npt.NDArray[np.int64]:
    """``counts[reel, k]``: how many stops of each reel show ``symbol`` exactly ``k`` times."""
    counts = np.zeros((model.reels, model.rows + 1), dtype=np.int64)
    for reel, length in enumerate(reel_set.lengths):
        window = np.lib.stride_tricks.sliding_window_view(reel_set.padded[reel], model.rows)
        shown = (window[: int(length)] == symbol).sum(axis=1)
        counts[reel] = np.bincount(shown, minlength=model.rows + 1)
    return counts


@njit(cache=True)
def _enumerate_line(
    counts: npt.NDArray[np.int64],
    line_pays: npt.NDArray[np.int64],
    wild: int,
    substitutable: npt.NDArray[np.bool_],
    ways: npt.NDArray[np.int64],
) -> None:
    """Add, for every symbol tuple on a payline, its number of stop combinations to
    ``ways[symbol, count]`` of the combination it pays (``ways[-1, 0]`` for no win)."""
    reels, n_symbols = counts.shape
    digits = np.zeros(reels, dtype=np.int64)
    cells = np.empty(reels, dtype=np.int8)
    while True:
        weight = 1
        for reel in range(reels):
            weight *= counts[reel, digits[reel]]
        if weight > 0:
            for reel in range(reels):
                cells[reel] = digits[reel]
            symbol, count, _pay = line_win(cells, line_pays, wild, substitutable)
            if symbol == NO_SYMBOL:
                ways[n_symbols, 0] += weight
            else:
                ways[symbol, count] += weight
        reel = reels - 1
        while reel >= 0:
            digits[reel] += 1
            if digits[reel] < n_symbols:
                break
            digits[reel] = 0
            reel -= 1
        if reel < 0:
            return


@dataclass(frozen=True)
class LineAnalysis:
    """Exact distribution of one payline's award over the full cycle of a reel set.

    ``ways[symbol, count]`` is the number of stop combinations whose line pays that award
    (row ``len(symbols)`` holds the losing combinations); ``cycle`` is the number of stop
    combinations. Every payline has the same distribution, because each row of a reel shows
    each stop equally often.
    """

    ways: npt.NDArray[np.int64]
    cycle: int
    line_pays: npt.NDArray[np.int64]

    @property
    def pay_sum(self) -> int:
        n_symbols = self.line_pays.shape[0]
        return int((self.ways[:n_symbols] * self.line_pays).sum())

    @property
    def rtp(self) -> Fraction:
        """Expected line pay per coin bet on the line."""
        return Fraction(self.pay_sum, self.cycle)

    def probability(self, symbol: int, count: int) -> Fraction:
        return Fraction(int(self.ways[symbol, count]), self.cycle)


def analyze_line(model: GameModel, reel_set: ReelSet) -> LineAnalysis:
    counts = symbol_counts(model, reel_set)
    ways = np.zeros((len(model.symbols) + 1, model.reels + 1), dtype=np.int64)
    _enumerate_line(counts, model.line_pays, model.wild, model.substitutable, ways)
    return LineAnalysis(ways, reel_set.cycle, model.line_pays)


def scatter_count_ways(model: GameModel, reel_set: ReelSet, symbol: int) -> list[int]:
    """``ways[k]``: stop combinations showing ``symbol`` exactly ``k`` times on the screen."""
    per_reel = window_symbol_counts(model, reel_set, symbol)
    ways = [1]
    for reel in range(model.reels):
        row = [int(x) for x in per_reel[reel]]
        combined = [0] * (len(ways) + len(row) - 1)
        for i, a in enumerate(ways):
            if a:
                for j, b in enumerate(row):
                    combined[i + j] += a * b
        ways = combined
    return ways


def expected_symbols_shown(model: GameModel, reel_set: ReelSet, symbol: int) -> Fraction:
    """Expected number of ``symbol`` cells on one screen."""
    per_reel = window_symbol_counts(model, reel_set, symbol)
    total = Fraction(0)
    for reel, length in enumerate(reel_set.lengths):
        shown = sum(k * int(per_reel[reel, k]) for k in range(model.rows + 1))
        total += Fraction(shown, int(length))
    return total


@njit(cache=True)
def _line_gradient(
    counts: npt.NDArray[np.int64],
    line_pays: npt.NDArray[np.int64],
    wild: int,
    substitutable: npt.NDArray[np.bool_],
    gradient: npt.NDArray[np.int64],
) -> None:
    """``gradient[r, x]``: the line pay summed over every stop combination of the other reels
    with reel ``r`` showing ``x`` on the line (all symbol tuples, present on reel r or not)."""
    reels, n_symbols = counts.shape
    digits = np.zeros(reels, dtype=np.int64)
    cells = np.empty(reels, dtype=np.int8)
    while True:
        for reel in range(reels):
            cells[reel] = digits[reel]
        _symbol, _count, pay = line_win(cells, line_pays, wild, substitutable)
        if pay > 0:
            for reel in range(reels):
                weight = pay
                for other in range(reels):
                    if other != reel:
                        weight *= counts[other, digits[other]]
                gradient[reel, digits[reel]] += weight
        reel = reels - 1
        while reel >= 0:
            digits[reel] += 1
            if digits[reel] < n_symbols:
                break
            digits[reel] = 0
            reel -= 1
        if reel < 0:
            return


def line_gradient(model: GameModel, reel_set: ReelSet) -> npt.NDArray[np.int64]:
    """How the line pay sum over the full cycle changes with each reel's symbol counts.

    The line pay sum is linear in each reel's counts (the other reels fixed), so replacing one
    stop showing ``a`` by ``b`` on reel ``r`` changes it by exactly
    ``gradient[r, b] - gradient[r, a]`` (the cycle is unchanged): the tuner's exact step size.
    """
    counts = symbol_counts(model, reel_set)
    gradient = np.zeros(counts.shape, dtype=np.int64)
    _line_gradient(counts, model.line_pays, model.wild, model.substitutable, gradient)
    return gradient
