"""Line and scatter evaluation kernels (numba), shared by live play, enumeration and simulation.

Symbols are small integers, a screen is an ``int8[rows, reels]`` array, paylines are an
``int8[lines, reels]`` array of row indices and line pays an ``int64[symbols, reels + 1]`` array
indexed by ``[symbol, count]``. The same compiled functions evaluate a live spin, every cell of a
full-cycle enumeration and every spin of a simulation, so the rules exist once.

Line rule
---------
A line pays left to right from reel 1 on consecutive reels. Two combinations are candidates:

* the wild run: the wilds from reel 1 on, paid on the wild's own row of the paytable;
* the substituted run: the first non-wild symbol ``s``, if the wild substitutes for it, and the
  run of ``s`` or wild from reel 1 on, paid on ``s``'s row.

The line pays the higher of the two (the highest combination per line only). A symbol the wild
does not substitute for (a scatter, a bonus symbol) ends the line.

Two parameters of the model's ``[wild]`` table refine the rule (both default to the plain rule
above): ``multiplier`` multiplies the substituted run's pay when the run holds at least one
wild (the wild "doubles the wins it completes" at 2), and ``ties`` says which combination a
line pays when both pay the same: the wild run (``"wild"``, the default) or the substituted
run (``"symbol"``). The comparison is made on the pays as paid, multiplier included.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from reelsmith.engine.held import held

NO_SYMBOL = -1


@njit(cache=True, nogil=True)
def line_award(
    cells: npt.NDArray[np.int8],
    line_pays: npt.NDArray[np.int64],
    wild: int,
    substitutable: npt.NDArray[np.bool_],
    wild_multiplier: int,
    ties_to_wild: bool,
) -> tuple[int, int, int]:
    """Evaluate the symbols on one payline: returns ``(symbol, count, coins per line coin)``.

    ``symbol`` is ``NO_SYMBOL`` and the pay 0 when the line does not win. This is the one line
    rule of reelsmith: live play, the simulation kernel and the exact analysis all call it.
    """
    reels = cells.shape[0]
    wild_count = 0
    if wild >= 0:
        while wild_count < reels and cells[wild_count] == wild:
            wild_count += 1
    wild_pay = line_pays[wild, wild_count] if wild >= 0 else 0
    won_symbol, won_count, won = NO_SYMBOL, 0, 0
    if wild_pay > 0:
        won_symbol, won_count, won = wild, wild_count, wild_pay
    if wild_count < reels and substitutable[cells[wild_count]]:
        symbol = cells[wild_count]
        count = wild_count + 1
        has_wild = wild_count > 0
        while count < reels and (cells[count] == symbol or cells[count] == wild):
            if cells[count] == wild:
                has_wild = True
            count += 1
        pay = line_pays[symbol, count]
        if has_wild:
            pay *= wild_multiplier
        if pay > wild_pay or (pay == wild_pay and pay > 0 and not ties_to_wild):
            won_symbol, won_count, won = symbol, count, pay
    held(cells.shape[0] + line_pays.shape[0] + substitutable.shape[0])
    return won_symbol, won_count, won


@njit(cache=True, nogil=True)
def line_win(
    cells: npt.NDArray[np.int8],
    line_pays: npt.NDArray[np.int64],
    wild: int,
    substitutable: npt.NDArray[np.bool_],
) -> tuple[int, int, int]:
    """:func:`line_award` with the plain rule: no wild multiplier, ties paid as the wild run."""
    return line_award(cells, line_pays, wild, substitutable, 1, True)


@njit(cache=True, nogil=True)
def evaluate_lines(
    grid: npt.NDArray[np.int8],
    paylines: npt.NDArray[np.int8],
    n_lines: int,
    line_pays: npt.NDArray[np.int64],
    wild: int,
    substitutable: npt.NDArray[np.bool_],
    wild_multiplier: int,
    ties_to_wild: bool,
    out_symbol: npt.NDArray[np.int64],
    out_count: npt.NDArray[np.int64],
    out_pay: npt.NDArray[np.int64],
) -> int:
    """Evaluate the first ``n_lines`` paylines of ``grid``.

    Writes each line's symbol, count and pay (per line coin) into the ``out_*`` arrays and
    returns the total pay per line coin.
    """
    reels = grid.shape[1]
    cells = np.empty(reels, dtype=np.int8)
    total = 0
    for line in range(n_lines):
        for reel in range(reels):
            cells[reel] = grid[paylines[line, reel], reel]
        symbol, count, pay = line_award(
            cells, line_pays, wild, substitutable, wild_multiplier, ties_to_wild
        )
        out_symbol[line] = symbol
        out_count[line] = count
        out_pay[line] = pay
        total += pay
    return total


@njit(cache=True, nogil=True)
def count_symbol(grid: npt.NDArray[np.int8], symbol: int) -> int:
    """How many cells of ``grid`` show ``symbol`` (scatters count anywhere on the screen)."""
    count = 0
    for row in range(grid.shape[0]):
        for reel in range(grid.shape[1]):
            if grid[row, reel] == symbol:
                count += 1
    return count


@njit(cache=True, nogil=True, inline="always")
def count_symbol_on(grid: npt.NDArray[np.int8], symbol: int, reels: npt.NDArray[np.bool_]) -> int:
    """How many cells of ``grid`` show ``symbol`` on the reels marked in ``reels``."""
    count = 0
    for reel in range(grid.shape[1]):
        if reels[reel]:
            for row in range(grid.shape[0]):
                if grid[row, reel] == symbol:
                    count += 1
    return count


@njit(cache=True, nogil=True)
def fill_window(
    padded: npt.NDArray[np.int8],
    stops: npt.NDArray[np.int64],
    grid: npt.NDArray[np.int8],
) -> None:
    """Write the screen shown by ``stops`` (top row = stop position) into ``grid``."""
    rows = grid.shape[0]
    for reel in range(grid.shape[1]):
        stop = stops[reel]
        for row in range(rows):
            grid[row, reel] = padded[reel, stop + row]
