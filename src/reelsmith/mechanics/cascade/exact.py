"""The cascade's exact law: every stop combination of a reel set played through its whole chain.

A cascade refills from the strips, so a spin's stops decide every screen of its chain; the
law of a spin is the law over its reel set's full cycle, each combination counted once. The
enumeration (:func:`chain_sums`) walks the cycle in numba, spread over the cores by the first
reel's stop, and pays each screen by the one line rule (:func:`reelsmith.engine.lines.
line_award`), the scatter by its count and the fall by :func:`.rules.fall`: the rules live play
calls. A stop combination of the first reels on which no payline can still make its least
paying run and the scatter cannot reach a count that pays or triggers is a first screen that
pays nothing, whatever the other reels show: its block of the cycle is counted without being
played.

Free spins on such chains are independent spins of their own reel set (no state crosses a
spin), so the round's figures follow from each reel set's sums (:class:`ChainSums`) by Wald's
identities: a free spin's total ``T`` (its win and the spins it adds, each with its own total)
has ``E[T] = mu_f / (1 - q_f)`` and ``E[T^2] (1 - q_f) = E[Y^2] + 2 E[Y A] E[T] + E[A (A - 1)]
E[T]^2``; a round is the base spin's ``X`` and ``A_0`` such totals.
"""

from __future__ import annotations

import math
from contextvars import ContextVar
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
from numba import njit, prange

from reelsmith.analysis.catalogue_exact import CatalogueFigures, total_coins
from reelsmith.engine.catalogue import (
    RETRIGGER_PER_SYMBOL,
    RETRIGGER_TABLE,
    mechanics,
    spins_by_count,
)
from reelsmith.engine.held import held
from reelsmith.engine.lines import count_symbol_on, line_award
from reelsmith.engine.model import GameModel, ModelError, ReelSet
from reelsmith.mechanics import evaluator
from reelsmith.mechanics.anywhere.rules import (
    anywhere_pay,
    anywhere_rules,
    mark_removed,
    pays_nothing,
    screen_pays,
)
from reelsmith.mechanics.cascade.rules import CascadeRules, cascade_rules, fall, least_paid
from reelsmith.mechanics.ways.rules import symbol_bits, ways_pay_marking, ways_rules, ways_walk

#: Columns of a first stop's sums: pay, awards, pay x awards, awards squared, hits, the
#: largest pay, the scatter's pay and the spins that award free spins; from ``S_QUIET`` on,
#: column ``S_QUIET + a`` counts the chains that pay nothing and award ``a`` spins (a >= 1).
S_PAY, S_AWARDS, S_PAY_AWARDS, S_AWARDS_SQUARED, S_HITS, S_MAX, S_SCATTER, S_TRIGGERED = range(8)
S_QUIET = 8


class Ways(NamedTuple):
    """The ways rule's tables for the enumeration (``on`` False: a lines title)."""

    on: bool
    paying: npt.NDArray[np.int64]
    weights: npt.NDArray[np.int64]
    min_run: int
    pure_wild: int
    #: each symbol's bits of the paying symbols it counts for (:func:`~reelsmith.mechanics.
    #: ways.rules.symbol_bits`)
    bits: npt.NDArray[np.int64]


class Anywhere(NamedTuple):
    """The count rule's tables for the enumeration (``on`` False: paylines or ways)."""

    on: bool
    pays: npt.NDArray[np.int64]  # [symbol, count], the screen's (a free spin's multiplied)
    paying: npt.NDArray[np.int64]
    pure_wild: int
    wild_pays: bool
    least: npt.NDArray[np.int64]  # [symbol]: the least count its row pays (0: none)


@njit(cache=True, nogil=True, inline="always")
def _counted(
    grid: npt.NDArray[np.int8],
    scatter: int,
    scatter_mask: npt.NDArray[np.bool_],
    scatter_pays: npt.NDArray[np.int64],
    scatter_unit: int,
    trigger_symbol: int,
    trigger_mask: npt.NDArray[np.bool_],
    required: npt.NDArray[np.bool_],
) -> tuple[int, int]:
    """A screen's scatter pay (in coins) and its trigger count (0 where a required reel shows
    no trigger symbol)."""
    rows, reels = grid.shape
    scatter_win = 0
    triggers = 0
    scatters = 0
    if scatter >= 0:
        scatters = count_symbol_on(grid, scatter, scatter_mask)
        scatter_win = scatter_pays[min(scatters, scatter_pays.shape[0] - 1)] * scatter_unit
    if trigger_symbol >= 0:
        triggers = count_symbol_on(grid, trigger_symbol, trigger_mask)
        for reel in range(reels):
            if required[reel]:
                shown = False
                for row in range(rows):
                    shown = shown or grid[row, reel] == trigger_symbol
                if not shown:
                    triggers = 0
    return scatter_win, triggers


@njit(cache=True, nogil=True)
def _ways_screen(
    grid: npt.NDArray[np.int8],
    removed: npt.NDArray[np.bool_],
    line_pays: npt.NDArray[np.int64],
    wild: int,
    substitutable: npt.NDArray[np.bool_],
    line_coins: int,
    scatter: int,
    scatter_mask: npt.NDArray[np.bool_],
    scatter_pays: npt.NDArray[np.int64],
    scatter_unit: int,
    scatter_least: int,
    trigger_symbol: int,
    trigger: int,
    trigger_mask: npt.NDArray[np.bool_],
    required: npt.NDArray[np.bool_],
    ways: Ways,
) -> tuple[int, int, int]:
    """:func:`_screen` on a ways title, in one reading of the cells: each reel's symbols (as
    the bits of the paying symbols they count for), its scatters and its trigger symbols are
    read together, and only the symbols that show on each of the first ``min_run`` reels are
    walked by the ways rule (:func:`~reelsmith.mechanics.ways.rules.ways_pay_marking`'s walk).
    The same figures and marks as the general reading; the chain reads every screen here."""
    rows, reels = grid.shape
    bits = ways.bits
    alive = np.int64(-1)
    scatters = 0
    triggers = 0
    missing = False
    for reel in range(reels):
        shown = np.int64(0)
        scattered = 0
        triggered = 0
        for row in range(rows):
            cell = grid[row, reel]
            removed[row, reel] = False
            shown |= bits[cell]
            scattered += cell == scatter
            triggered += cell == trigger_symbol
        if reel < ways.min_run:
            alive &= shown
        if scatter_mask[reel]:
            scatters += scattered
        if trigger_mask[reel]:
            triggers += triggered
        if required[reel] and triggered == 0:
            missing = True
    line_win = 0
    if alive != 0:
        line_win = ways_walk(
            grid,
            line_pays,
            ways.paying,
            alive,
            wild,
            substitutable,
            ways.weights,
            ways.min_run,
            ways.pure_wild,
            removed,
        )
    scatter_win = 0
    if scatter >= 0:
        scatter_win = scatter_pays[min(scatters, scatter_pays.shape[0] - 1)] * scatter_unit
    if trigger_symbol < 0 or missing:
        triggers = 0
    if scatter >= 0 and (
        (scatter_least > 0 and scatters >= scatter_least)
        or (trigger_symbol == scatter and triggers >= trigger)
    ):
        for reel in range(reels):
            if scatter_mask[reel]:
                for row in range(rows):
                    if grid[row, reel] == scatter:
                        removed[row, reel] = True
    held(
        grid.shape[0]
        + removed.shape[0]
        + line_pays.shape[0]
        + substitutable.shape[0]
        + scatter_mask.shape[0]
        + scatter_pays.shape[0]
        + trigger_mask.shape[0]
        + required.shape[0]
        + ways.paying.shape[0]
        + ways.weights.shape[0]
        + bits.shape[0]
    )
    return line_win * line_coins, scatter_win, triggers


@njit(cache=True, nogil=True)
def _screen(
    grid: npt.NDArray[np.int8],
    removed: npt.NDArray[np.bool_],
    paylines: npt.NDArray[np.int8],
    lines: npt.NDArray[np.int64],
    n_lines: int,
    line_pays: npt.NDArray[np.int64],
    wild: int,
    substitutable: npt.NDArray[np.bool_],
    wild_multiplier: int,
    ties_to_wild: bool,
    line_coins: int,
    scatter: int,
    scatter_mask: npt.NDArray[np.bool_],
    scatter_pays: npt.NDArray[np.int64],
    scatter_unit: int,
    scatter_least: int,
    trigger_symbol: int,
    trigger: int,
    trigger_mask: npt.NDArray[np.bool_],
    required: npt.NDArray[np.bool_],
    cells: npt.NDArray[np.int8],
    ways: Ways,
    anywhere: Anywhere,
    counts: npt.NDArray[np.int64],
    out: npt.NDArray[np.int64],
) -> tuple[int, int, int]:
    """One screen: (line, way or count coins before the screen's multiplier, scatter coins,
    trigger count), ``removed`` marking the cells its wins take away (a ways title's by
    :func:`_ways_screen`)."""
    if ways.on:
        line_win, scatter_win, triggers = _ways_screen(
            grid,
            removed,
            line_pays,
            wild,
            substitutable,
            line_coins,
            scatter,
            scatter_mask,
            scatter_pays,
            scatter_unit,
            scatter_least,
            trigger_symbol,
            trigger,
            trigger_mask,
            required,
            ways,
        )
    else:
        line_win, scatter_win, triggers = _lines_screen(
            grid,
            removed,
            paylines,
            lines,
            n_lines,
            line_pays,
            wild,
            substitutable,
            wild_multiplier,
            ties_to_wild,
            line_coins,
            scatter,
            scatter_mask,
            scatter_pays,
            scatter_unit,
            scatter_least,
            trigger_symbol,
            trigger,
            trigger_mask,
            required,
            cells,
            anywhere,
            counts,
            out,
        )
    held(
        grid.shape[0]
        + removed.shape[0]
        + paylines.shape[0]
        + lines.shape[0]
        + line_pays.shape[0]
        + substitutable.shape[0]
        + scatter_mask.shape[0]
        + scatter_pays.shape[0]
        + trigger_mask.shape[0]
        + required.shape[0]
        + cells.shape[0]
        + ways.paying.shape[0]
        + ways.weights.shape[0]
        + ways.bits.shape[0]
        + anywhere.pays.shape[0]
        + anywhere.paying.shape[0]
        + anywhere.least.shape[0]
        + counts.shape[0]
        + out.shape[0]
    )
    return line_win, scatter_win, triggers


@njit(cache=True, nogil=True)
def _lines_screen(
    grid: npt.NDArray[np.int8],
    removed: npt.NDArray[np.bool_],
    paylines: npt.NDArray[np.int8],
    lines: npt.NDArray[np.int64],
    n_lines: int,
    line_pays: npt.NDArray[np.int64],
    wild: int,
    substitutable: npt.NDArray[np.bool_],
    wild_multiplier: int,
    ties_to_wild: bool,
    line_coins: int,
    scatter: int,
    scatter_mask: npt.NDArray[np.bool_],
    scatter_pays: npt.NDArray[np.int64],
    scatter_unit: int,
    scatter_least: int,
    trigger_symbol: int,
    trigger: int,
    trigger_mask: npt.NDArray[np.bool_],
    required: npt.NDArray[np.bool_],
    cells: npt.NDArray[np.int8],
    anywhere: Anywhere,
    counts: npt.NDArray[np.int64],
    out: npt.NDArray[np.int64],
) -> tuple[int, int, int]:
    """:func:`_screen` on a lines or pay-anywhere title."""
    rows, reels = grid.shape
    removed[:, :] = False
    line_win = 0
    if anywhere.on:
        line_win += (
            anywhere_pay(
                grid,
                counts,
                anywhere.pays,
                anywhere.paying,
                wild,
                substitutable,
                anywhere.pure_wild,
                anywhere.wild_pays,
                out[0],
                out[2],
            )
            * line_coins
        )
        mark_removed(grid, anywhere.paying, wild, substitutable, out[2], removed)
    for j in range(n_lines):
        line = lines[j]
        for reel in range(reels):
            cells[reel] = grid[paylines[line, reel], reel]
        _symbol, count, pay = line_award(
            cells, line_pays, wild, substitutable, wild_multiplier, ties_to_wild
        )
        if pay > 0:
            line_win += pay * line_coins
            for reel in range(count):
                removed[paylines[line, reel], reel] = True
    scatter_win, triggers = _counted(
        grid,
        scatter,
        scatter_mask,
        scatter_pays,
        scatter_unit,
        trigger_symbol,
        trigger_mask,
        required,
    )
    if scatter >= 0 and (
        (scatter_least > 0 and count_symbol_on(grid, scatter, scatter_mask) >= scatter_least)
        or (trigger_symbol == scatter and triggers >= trigger)
    ):
        for reel in range(reels):
            if scatter_mask[reel]:
                for row in range(rows):
                    if grid[row, reel] == scatter:
                        removed[row, reel] = True
    held(
        grid.shape[0]
        + removed.shape[0]
        + paylines.shape[0]
        + lines.shape[0]
        + line_pays.shape[0]
        + substitutable.shape[0]
        + scatter_mask.shape[0]
        + scatter_pays.shape[0]
        + trigger_mask.shape[0]
        + required.shape[0]
        + cells.shape[0]
        + anywhere.pays.shape[0]
        + anywhere.paying.shape[0]
        + anywhere.least.shape[0]
        + counts.shape[0]
        + out.shape[0]
    )
    return line_win, scatter_win, triggers


@njit(cache=True, nogil=True)
def _open_lines(
    grid: npt.NDArray[np.int8],
    paylines: npt.NDArray[np.int8],
    depth: int,
    wild: int,
    substitutable: npt.NDArray[np.bool_],
    out: npt.NDArray[np.int64],
) -> int:
    """The paylines whose cells on the first ``depth`` reels form a run (of a symbol and wilds,
    or wilds alone) that the later reels could still make pay, into ``out``; their number.
    Every other payline pays nothing on this screen, whatever the later reels show."""
    found = 0
    for line in range(paylines.shape[0]):
        symbol = -1
        runs = True
        for reel in range(depth):
            cell = grid[paylines[line, reel], reel]
            if cell == wild:
                continue
            if symbol < 0:
                if not substitutable[cell] and reel > 0:
                    runs = False
                    break
                symbol = cell
            elif cell != symbol:
                runs = False
                break
        if runs:
            out[found] = line
            found += 1
    return found


@njit(cache=True, nogil=True)
def _ways_open(
    grid: npt.NDArray[np.int8],
    depth: int,
    paying: npt.NDArray[np.int64],
    wild: int,
    substitutable: npt.NDArray[np.bool_],
) -> bool:
    """Whether some paying symbol (or the wild alone) shows on each of the first ``depth``
    reels, a wild standing in where it substitutes: else no way pays, whatever the later
    reels show."""
    rows = grid.shape[0]
    found = False
    i = 0
    while not found and i < paying.shape[0] + 1:
        symbol = paying[i] if i < paying.shape[0] else wild
        runs = True
        for reel in range(depth):
            shown = False
            for row in range(rows):
                cell = grid[row, reel]
                if cell == symbol or (cell == wild and (symbol == wild or substitutable[symbol])):
                    shown = True
            if not shown:
                runs = False
                break
        found = runs
        i += 1
    held(grid.shape[0] + paying.shape[0] + substitutable.shape[0])
    return found


@njit(cache=True, nogil=True)
def _scatter_may_reach(
    grid: npt.NDArray[np.int8],
    depth: int,
    scatter: int,
    scatter_mask: npt.NDArray[np.bool_],
    scatter_reach: int,
    most_per_reel: int,
) -> bool:
    """Whether the scatter could reach ``scatter_reach`` (its least count that pays or
    triggers) with what the first ``depth`` reels show and the most the other reels can."""
    if scatter < 0 or scatter_reach <= 0:
        return False
    rows, reels = grid.shape
    shown = 0
    for reel in range(reels):
        if not scatter_mask[reel]:
            continue
        if reel < depth:
            for row in range(rows):
                if grid[row, reel] == scatter:
                    shown += 1
        else:
            shown += most_per_reel
    return shown >= scatter_reach


@njit(cache=True, nogil=True)
def _scatter_quiet(
    grid: npt.NDArray[np.int8],
    scatter: int,
    scatter_mask: npt.NDArray[np.bool_],
    scatter_reach: int,
) -> bool:
    """Whether the screen's scatter stays below its least count that pays or triggers."""
    quiet = True
    if scatter >= 0 and scatter_reach > 0:
        quiet = count_symbol_on(grid, scatter, scatter_mask) < scatter_reach
    held(grid.shape[0] + scatter_mask.shape[0])
    return quiet


@njit(cache=True, nogil=True)
def _first_screen_quiet(
    grid: npt.NDArray[np.int8],
    paylines: npt.NDArray[np.int8],
    open_lines: npt.NDArray[np.int64],
    n_open: int,
    line_pays: npt.NDArray[np.int64],
    wild: int,
    substitutable: npt.NDArray[np.bool_],
    wild_multiplier: int,
    ties_to_wild: bool,
    cells: npt.NDArray[np.int8],
    scatter: int,
    scatter_mask: npt.NDArray[np.bool_],
    scatter_reach: int,
) -> bool:
    """Whether a first screen pays nothing and its scatter neither pays nor triggers (the
    chain ends at once): the open paylines alone are read, by the one line rule."""
    reels = grid.shape[1]
    quiet = True
    j = 0
    while quiet and j < n_open:
        line = open_lines[j]
        for reel in range(reels):
            cells[reel] = grid[paylines[line, reel], reel]
        if line_award(cells, line_pays, wild, substitutable, wild_multiplier, ties_to_wild)[2]:
            quiet = False
        j += 1
    quiet = quiet and _scatter_quiet(grid, scatter, scatter_mask, scatter_reach)
    held(
        grid.shape[0]
        + paylines.shape[0]
        + open_lines.shape[0]
        + line_pays.shape[0]
        + substitutable.shape[0]
        + cells.shape[0]
        + scatter_mask.shape[0]
    )
    return quiet


@njit(cache=True, nogil=True)
def _ways_quiet(
    grid: npt.NDArray[np.int8],
    n_open: int,
    pays: npt.NDArray[np.int64],
    wild: int,
    substitutable: npt.NDArray[np.bool_],
    ways: Ways,
    removed: npt.NDArray[np.bool_],
    scatter: int,
    scatter_mask: npt.NDArray[np.bool_],
    scatter_reach: int,
) -> bool:
    """Whether a first screen of a ways title pays nothing and its scatter neither pays nor
    triggers, by the ways rule itself (``removed``: scratch, its marks left for the screen's
    own reading to clear)."""
    quiet = not (
        n_open
        and ways_pay_marking(
            grid,
            pays,
            ways.paying,
            ways.bits,
            wild,
            substitutable,
            ways.weights,
            ways.min_run,
            ways.pure_wild,
            removed,
        )
    )
    quiet = quiet and _scatter_quiet(grid, scatter, scatter_mask, scatter_reach)
    held(
        grid.shape[0]
        + pays.shape[0]
        + substitutable.shape[0]
        + ways.paying.shape[0]
        + ways.bits.shape[0]
        + ways.weights.shape[0]
        + removed.shape[0]
        + scatter_mask.shape[0]
    )
    return quiet


@njit(cache=True, nogil=True)
def _anywhere_open(
    prefix: npt.NDArray[np.int64],
    more: int,
    anywhere: Anywhere,
    wild: int,
    substitutable: npt.NDArray[np.bool_],
) -> bool:
    """Whether some symbol (or the wild alone) could still reach its least paying count with
    the counts the first reels show (``prefix``) and ``more`` cells of the others."""
    wilds = prefix[wild] if wild >= 0 else 0
    reach = False
    i = 0
    while not reach and i < anywhere.paying.shape[0]:
        s = anywhere.paying[i]
        shown = prefix[s] + (wilds if wild >= 0 and substitutable[s] else 0)
        reach = shown + more >= anywhere.least[s]
        i += 1
    reach = reach or (anywhere.wild_pays and wilds + more >= anywhere.least[wild])
    held(
        prefix.shape[0]
        + anywhere.paying.shape[0]
        + anywhere.least.shape[0]
        + anywhere.pays.shape[0]
        + substitutable.shape[0]
    )
    return reach


@njit(cache=True, nogil=True, inline="always")
def _anywhere_quiet(
    prefix: npt.NDArray[np.int64],
    columns: npt.NDArray[np.int64],
    stop: int,
    anywhere: Anywhere,
    wild: int,
    substitutable: npt.NDArray[np.bool_],
    scatter_reach: int,
) -> bool:
    """Whether a first screen of a pay-anywhere title pays nothing and its scatter neither
    pays nor triggers, by the count rule itself, from the counts of the reels before the last
    (``prefix``) and the last reel's column at ``stop`` (:func:`column_counts`: each symbol's
    count, then the scatter's where it counts)."""
    n = substitutable.shape[0]
    last = columns.shape[0] - 1
    if scatter_reach > 0 and prefix[n] + columns[last, stop, n] >= scatter_reach:
        return False
    return pays_nothing(
        prefix,
        columns,
        last,
        stop,
        anywhere.pays,
        anywhere.paying,
        wild,
        substitutable,
        anywhere.pure_wild,
        anywhere.wild_pays,
    )


def column_counts(
    padded: npt.NDArray[np.int8],
    lengths: npt.NDArray[np.int64],
    rows: int,
    n_symbols: int,
    scatter: int,
    scatter_mask: npt.NDArray[np.bool_],
) -> npt.NDArray[np.int64]:
    """``columns[reel, stop]``: each symbol's cells in the reel's window at ``stop``, then
    (the last slot) the scatters it shows where the scatter counts."""
    reels = len(lengths)
    columns = np.zeros((reels, int(lengths.max()), n_symbols + 1), dtype=np.int64)
    for reel in range(reels):
        for stop in range(int(lengths[reel])):
            for row in range(rows):
                cell = int(padded[reel, stop + row])
                columns[reel, stop, cell] += 1
                if cell == scatter and scatter_mask[reel]:
                    columns[reel, stop, n_symbols] += 1
    return columns


@njit(cache=True, nogil=True, inline="always")
def _advance(stops: npt.NDArray[np.int64], lengths: npt.NDArray[np.int64], reel: int) -> int:
    """Move the odometer of reels 1.. one step at ``reel`` (the reels after it at 0), carrying
    into the reels before it; the first reel whose stop changed."""
    while reel > 0:
        stops[reel] += 1
        if stops[reel] < lengths[reel]:
            return reel
        stops[reel] = 0
        reel -= 1
    return 1


@njit(cache=True, nogil=True, parallel=True)
def chain_sums(
    padded: npt.NDArray[np.int8],
    lengths: npt.NDArray[np.int64],
    rows: int,
    paylines: npt.NDArray[np.int8],
    line_pays: npt.NDArray[np.int64],
    wild: int,
    substitutable: npt.NDArray[np.bool_],
    wild_multiplier: int,
    ties_to_wild: bool,
    line_coins: int,
    scatter: int,
    scatter_mask: npt.NDArray[np.bool_],
    scatter_pays: npt.NDArray[np.int64],
    scatter_unit: int,
    scatter_least: int,
    scatter_reach: int,
    trigger_symbol: int,
    trigger: int,
    trigger_mask: npt.NDArray[np.bool_],
    required: npt.NDArray[np.bool_],
    spins: npt.NDArray[np.int64],
    multipliers: npt.NDArray[np.int64],
    limit: int,
    depth: int,
    most_per_reel: int,
    prune: bool,
    ways: Ways,
    anywhere: Anywhere,
    columns: npt.NDArray[np.int64],
    scatter_final: bool,
    first_open: bool,
    start: int,
    stop: int,
) -> tuple[
    npt.NDArray[np.int64],
    npt.NDArray[np.float64],
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
]:
    """Every stop combination's chain whose first reel stops at ``start`` to ``stop - 1``,
    summed per first-reel stop: ``sums[s0]`` (the columns ``S_*``), ``squares[s0]`` (the sum
    of squared pays, in double precision), ``reached[s0, k]`` (the combinations whose chain
    reads a (k+1)-th screen) and ``by_step[s0, k]`` (the coins paid on the (k+1)-th screens);
    the other first-reel stops' rows stay 0. ``prune`` False plays every combination's first
    screen in full (the benchmark's baseline). ``first_open``: a first screen reads only the
    paylines its block of the first ``depth`` reels leaves open (``depth`` the least run a
    payline pays, so that no other payline can pay on it); later screens read every one."""
    reels = lengths.shape[0]
    first = lengths[0]
    most_awarded = spins.max() if spins.shape[0] > 0 else 0
    sums = np.zeros((first, S_QUIET + most_awarded + 1), dtype=np.int64)
    squares = np.zeros(first, dtype=np.float64)
    reached = np.zeros((first, limit), dtype=np.int64)
    by_step = np.zeros((first, limit), dtype=np.int64)
    for s0 in prange(start, stop):
        grid = np.empty((rows, reels), dtype=np.int8)
        screen = np.empty((rows, reels), dtype=np.int8)
        removed = np.zeros((rows, reels), dtype=np.bool_)
        cells = np.empty(reels, dtype=np.int8)
        out = np.zeros((3, max(ways.paying.shape[0], anywhere.paying.shape[0]) + 1), dtype=np.int64)
        n_symbols = substitutable.shape[0]
        counts = np.zeros(n_symbols, dtype=np.int64)
        prefix = np.zeros(n_symbols + 1, dtype=np.int64)
        stops = np.zeros(reels, dtype=np.int64)
        tops = np.zeros(reels, dtype=np.int64)
        stops[0] = s0
        for row in range(rows):
            grid[row, 0] = padded[0, s0 + row]
        # the other reels' stops, as an odometer over reels 1..reels-1
        total_rest = 1
        for reel in range(1, reels):
            total_rest *= lengths[reel]
        later = 1
        for reel in range(depth, reels):
            later *= lengths[reel]
        open_lines = np.empty(paylines.shape[0], dtype=np.int64)
        every_line = np.arange(paylines.shape[0])
        n_open = 0
        # a screen can end its chain at once only where the scatter is the one trigger
        quiet_first = prune and (trigger_symbol < 0 or trigger_symbol == scatter)
        index = 0
        changed = 1  # the first reel whose column the odometer moved
        while index < total_rest:
            if anywhere.on and changed < reels - 1:
                # the counts of every reel but the last, read again when one of them moved
                for slot in range(prefix.shape[0]):
                    prefix[slot] = columns[0, s0, slot]
                    for reel in range(1, reels - 1):
                        prefix[slot] += columns[reel, stops[reel], slot]
            for reel in range(changed, reels):
                for row in range(rows):
                    grid[row, reel] = padded[reel, stops[reel] + row]
            # a reel of the first `depth` moved (or the walk begins): a new block
            block = changed < depth or index == 0
            changed = reels
            if block:
                # a new block of the first `depth` reels' stops: the paylines it leaves open
                if anywhere.on:
                    # the prefix holds the first `depth` reels (every reel but the last)
                    more = rows * (reels - depth)
                    n_open = 1 if _anywhere_open(prefix, more, anywhere, wild, substitutable) else 0
                elif ways.on:
                    n_open = 1 if _ways_open(grid, depth, ways.paying, wild, substitutable) else 0
                else:
                    n_open = _open_lines(grid, paylines, depth, wild, substitutable, open_lines)
                if (
                    quiet_first
                    and n_open == 0
                    and not _scatter_may_reach(
                        grid, depth, scatter, scatter_mask, scatter_reach, most_per_reel
                    )
                ):
                    # `later` combinations whose first screen pays nothing
                    reached[s0, 0] += later
                    index += later
                    if index < total_rest:
                        changed = _advance(stops, lengths, depth - 1)
                    continue
            if quiet_first and (
                _anywhere_quiet(
                    prefix,
                    columns,
                    stops[reels - 1],
                    anywhere,
                    wild,
                    substitutable,
                    scatter_reach if scatter >= 0 else 0,
                )
                if anywhere.on
                else _ways_quiet(
                    grid,
                    n_open,
                    line_pays,
                    wild,
                    substitutable,
                    ways,
                    removed,
                    scatter,
                    scatter_mask,
                    scatter_reach,
                )
                if ways.on
                else _first_screen_quiet(
                    grid,
                    paylines,
                    open_lines,
                    n_open,
                    line_pays,
                    wild,
                    substitutable,
                    wild_multiplier,
                    ties_to_wild,
                    cells,
                    scatter,
                    scatter_mask,
                    scatter_reach,
                )
            ):
                reached[s0, 0] += 1
                index += 1
                if index < total_rest:
                    changed = _advance(stops, lengths, reels - 1)
                continue
            reached[s0, 0] += 1
            for reel in range(reels):
                tops[reel] = stops[reel]
            screen[:, :] = grid
            pay = 0
            scattered = 0
            awarded = 0
            last = 0
            for step in range(limit):
                last = step
                if step > 0:
                    reached[s0, step] += 1
                first_lines = first_open and step == 0
                line_win, scatter_win, triggers = _screen(
                    screen,
                    removed,
                    paylines,
                    open_lines if first_lines else every_line,
                    n_open if first_lines else every_line.shape[0],
                    line_pays,
                    wild,
                    substitutable,
                    wild_multiplier,
                    ties_to_wild,
                    line_coins,
                    -1 if scatter_final else scatter,
                    scatter_mask,
                    scatter_pays,
                    scatter_unit,
                    scatter_least,
                    -1 if scatter_final else trigger_symbol,
                    trigger,
                    trigger_mask,
                    required,
                    cells,
                    ways,
                    anywhere,
                    counts,
                    out,
                )
                won = line_win * multipliers[step] + scatter_win
                pay += won
                scattered += scatter_win
                by_step[s0, step] += won
                if trigger_symbol >= 0 and triggers >= trigger:
                    awarded += spins_by_count(spins, triggers)
                if not removed.any():
                    break
                if step + 1 < limit:
                    fall(screen, removed, padded, lengths, tops)
            if scatter_final:
                # the chain's final screen: the one place the scatter counts
                scatter_win, triggers = _counted(
                    screen,
                    scatter,
                    scatter_mask,
                    scatter_pays,
                    scatter_unit,
                    trigger_symbol,
                    trigger_mask,
                    required,
                )
                pay += scatter_win
                scattered += scatter_win
                by_step[s0, last] += scatter_win
                if trigger_symbol >= 0 and triggers >= trigger:
                    awarded += spins_by_count(spins, triggers)
            sums[s0, S_PAY] += pay
            sums[s0, S_AWARDS] += awarded
            sums[s0, S_PAY_AWARDS] += pay * awarded
            sums[s0, S_AWARDS_SQUARED] += awarded * awarded
            sums[s0, S_SCATTER] += scattered
            if awarded > 0:
                sums[s0, S_TRIGGERED] += 1
            if pay > 0 or awarded > 0:
                sums[s0, S_HITS] += 1
            if pay == 0 and awarded > 0:
                sums[s0, S_QUIET + awarded] += 1
            if pay > sums[s0, S_MAX]:
                sums[s0, S_MAX] = pay
            squares[s0] += float(pay) * float(pay)
            index += 1
            if index < total_rest:
                changed = _advance(stops, lengths, reels - 1)
    return sums, squares, reached, by_step


@dataclass(frozen=True)
class ChainSums:
    """One reel set's chains over its full cycle, in coins: the spin's pay ``Y`` and the free
    spins it awards ``A``, summed as the identities need them, the chain counters and the pay
    by screen."""

    cycle: int
    pay: int
    pay_squared: float
    awards: int
    pay_awards: int
    awards_squared: int
    hits: int
    max_pay: int
    scatter_pay: int
    triggered: int  # combinations whose chain awards free spins
    reached: tuple[int, ...]  # reached[k]: combinations whose chain reads a (k+1)-th screen
    by_step: tuple[int, ...]
    #: quiet_awards[a]: combinations whose chain pays nothing and awards ``a`` spins (a >= 1;
    #: entry 0 unused); None where the law was not counted so (drawn cells' count law)
    quiet_awards: tuple[int, ...] | None = None

    def no_pay_law(self) -> tuple[list[Fraction], list[int]] | None:
        """The chances that a spin pays nothing and awards ``a`` spins, beside those ``a``
        (``a`` = 0 first); None where :attr:`quiet_awards` was not counted."""
        if self.quiet_awards is None:
            return None
        chances = [Fraction(self.cycle - self.hits, self.cycle)]
        added = [0]
        for a, n in enumerate(self.quiet_awards):
            if a and n:
                chances.append(Fraction(n, self.cycle))
                added.append(a)
        return chances, added

    @property
    def mean(self) -> Fraction:
        return Fraction(self.pay, self.cycle)

    @property
    def awards_mean(self) -> Fraction:
        return Fraction(self.awards, self.cycle)


#: The one screen of a spin without cascades: the enumeration reads its first screen alone.
ONE_SCREEN = CascadeRules(1, np.ones(1, dtype=np.int64), np.ones(1, dtype=np.int64))


def screens_of(model: GameModel) -> CascadeRules:
    """The screens a spin of ``model`` reads: its cascade's, or one screen (a pay-anywhere
    title without cascades, whose window's whole law is the same enumeration's)."""
    return cascade_rules(model) if "cascade" in model.raw else ONE_SCREEN


class ScreenTables(NamedTuple):
    """One reel set's screens as the enumeration and the simulation kernel read them: its
    strips, its pay tables (a free spin's own), the rules of the wild, the scatter and the
    trigger, the spins a trigger (base) or a retrigger (free) awards by count, and the
    chain's multipliers by screen."""

    padded: npt.NDArray[np.int8]
    lengths: npt.NDArray[np.int64]
    rows: int
    paylines: npt.NDArray[np.int8]
    line_pays: npt.NDArray[np.int64]
    wild: int
    substitutable: npt.NDArray[np.bool_]
    wild_multiplier: int
    ties_to_wild: bool
    scatter: int
    scatter_mask: npt.NDArray[np.bool_]
    scatter_pays: npt.NDArray[np.int64]
    scatter_unit: int
    scatter_least: int  # the least scatter count the table pays (0: none)
    trigger_symbol: int  # -1: no free spins
    trigger: int
    trigger_mask: npt.NDArray[np.bool_]
    required: npt.NDArray[np.bool_]
    spins: npt.NDArray[np.int64]
    multipliers: npt.NDArray[np.int64]
    limit: int
    scatter_final: bool
    ways: Ways
    anywhere: Anywhere
    every_line: npt.NDArray[np.int64]  # 0 .. paylines - 1: a screen reads every payline


@njit(cache=True, nogil=True, inline="always")
def screen_pay(
    t: ScreenTables,
    grid: npt.NDArray[np.int8],
    removed: npt.NDArray[np.bool_],
    cells: npt.NDArray[np.int8],
    counts: npt.NDArray[np.int64],
    out: npt.NDArray[np.int64],
    final: bool,
) -> tuple[int, int, int]:
    """:func:`_screen` on ``t``'s tables, one coin a line (``final``: the scatter and the
    trigger left to the chain's final screen, as the cascade's ``scatter = "final"`` says)."""
    return _screen(
        grid,
        removed,
        t.paylines,
        t.every_line,
        t.every_line.shape[0],
        t.line_pays,
        t.wild,
        t.substitutable,
        t.wild_multiplier,
        t.ties_to_wild,
        1,
        -1 if final else t.scatter,
        t.scatter_mask,
        t.scatter_pays,
        t.scatter_unit,
        t.scatter_least,
        -1 if final else t.trigger_symbol,
        t.trigger,
        t.trigger_mask,
        t.required,
        cells,
        t.ways,
        t.anywhere,
        counts,
        out,
    )


def screen_tables(model: GameModel, variant_id: str, free: bool) -> ScreenTables:
    """The :class:`ScreenTables` of the base game's reel set (``free`` False) or the free
    spins' (True) of ``variant_id``."""
    rules = mechanics(model)
    cascade = screens_of(model)
    variant = model.variant(variant_id)
    spins_rules = rules.free_spins
    if free:
        assert spins_rules is not None
        reel_set: ReelSet = variant.reel_sets[spins_rules.reel_set]
        line_pays, scatter_pays = rules.free_line_pays, rules.free_scatter_pays
        multipliers = cascade.free_multipliers
    else:
        reel_set = variant.reel_sets["base"]
        line_pays, scatter_pays = model.line_pays, model.scatter_pays
        multipliers = cascade.multipliers
    line_pays = np.asarray(line_pays, dtype=np.int64)
    paylines = model.paylines[: model.line_count]
    ways = Ways(
        False,
        np.zeros(0, dtype=np.int64),
        np.ones(model.reels, dtype=np.int64),
        0,
        0,
        np.zeros(len(model.symbols), dtype=np.int64),
    )
    if evaluator(model).name == "ways":
        found = ways_rules(model)
        if found.free_weights:
            raise ModelError(
                f"{model.id} {variant_id}: the cascade's chain takes fixed wild weights; "
                "ways.free_spins_wild_weights draws them"
            )
        ways = Ways(
            True,
            found.paying,
            found.weights,
            found.min_run,
            found.pure_wild,
            symbol_bits(len(model.symbols), found.paying, model.wild, model.substitutable),
        )
        paylines = np.zeros((0, model.reels), dtype=np.int8)
    anywhere = Anywhere(
        False,
        np.zeros((len(model.symbols), 1), dtype=np.int64),
        np.zeros(0, dtype=np.int64),
        0,
        False,
        np.zeros(len(model.symbols), dtype=np.int64),
    )
    if evaluator(model).name == "anywhere":
        counted = anywhere_rules(model)
        table = np.ascontiguousarray(screen_pays(model, free), dtype=np.int64)
        least = np.array([least_paid(table[s]) for s in range(len(model.symbols))], dtype=np.int64)
        anywhere = Anywhere(
            True, table, counted.paying, counted.pure_wild, counted.wild_pays, least
        )
        paylines = np.zeros((0, model.reels), dtype=np.int8)
    scatter_pays = np.asarray(scatter_pays, dtype=np.int64)
    trigger_symbol, trigger = -1, 0
    spins = np.zeros(1, dtype=np.int64)
    required = np.zeros(model.reels, dtype=np.bool_)
    trigger_mask = np.ones(model.reels, dtype=np.bool_)
    if spins_rules is not None:
        trigger_symbol, trigger = spins_rules.symbol, spins_rules.trigger
        spins = spins_rules.spins
        if free:
            spins = (
                spins_rules.retrigger_spins
                if spins_rules.retrigger == RETRIGGER_TABLE
                else np.zeros(1, dtype=np.int64)
            )
        trigger_mask = rules.trigger_mask
        if spins_rules.required is not None:
            required = spins_rules.required
    return ScreenTables(
        padded=reel_set.padded,
        lengths=reel_set.lengths,
        rows=model.rows,
        paylines=paylines,
        line_pays=line_pays,
        wild=model.wild,
        substitutable=model.substitutable,
        wild_multiplier=model.wild_multiplier,
        ties_to_wild=model.ties_to_wild,
        scatter=model.scatter,
        scatter_mask=model.scatter_mask,
        scatter_pays=scatter_pays,
        scatter_unit=1 if model.scatter_pays_per_coin else total_coins(model),
        scatter_least=least_paid(scatter_pays),
        trigger_symbol=trigger_symbol,
        trigger=trigger,
        trigger_mask=trigger_mask,
        required=required,
        spins=np.asarray(spins, dtype=np.int64),
        multipliers=np.asarray(multipliers, dtype=np.int64),
        limit=cascade.limit,
        scatter_final=cascade.scatter_final,
        ways=ways,
        anywhere=anywhere,
        every_line=np.arange(paylines.shape[0], dtype=np.int64),
    )


@cache
def chain_law(model: GameModel, variant_id: str, free: bool, prune: bool = True) -> ChainSums:
    """The full cycle's :class:`ChainSums` of the base game's reel set (``free`` False) or the
    free spins' (True) of ``variant_id``; ``prune`` False reads every first screen in full."""
    spins_rules = mechanics(model).free_spins
    variant = model.variant(variant_id)
    reel_set = variant.reel_sets[spins_rules.reel_set if free and spins_rules else "base"]
    if reel_set.weights is not None and reel_set.cells is None:
        raise ModelError(
            f"{model.id} {variant_id}: the cascade's exact law counts every stop once; its reel "
            "sets take no stop_weights"
        )
    if spins_rules is not None and spins_rules.retrigger == RETRIGGER_PER_SYMBOL:
        raise ModelError(
            f"{model.id} {variant_id}: the cascade's exact law adds free spins by a count "
            'table (retrigger = "table" or "none"), not per symbol shown'
        )
    t = screen_tables(model, variant_id, free)
    if reel_set.cells is not None:  # drawn cells: a count's law is its counts' law
        from reelsmith.mechanics.cells.counts import count_law

        return count_law(model, reel_set, t)
    first = int(reel_set.lengths[0])
    address = ENUMERATION_CLUSTER.get()
    if address is None:
        found = cycle_slice(model, variant_id, free, prune, 0, first)
    else:
        found = _on_cluster(model, variant_id, free, prune, first, address)
    sums, squares, reached, by_step = found
    return ChainSums(
        cycle=int(np.prod(reel_set.lengths.astype(object))),
        pay=sums[S_PAY],
        pay_squared=math.fsum(squares),
        awards=sums[S_AWARDS],
        pay_awards=sums[S_PAY_AWARDS],
        awards_squared=sums[S_AWARDS_SQUARED],
        hits=sums[S_HITS],
        max_pay=sums[S_MAX],
        scatter_pay=sums[S_SCATTER],
        triggered=sums[S_TRIGGERED],
        reached=tuple(reached),
        by_step=tuple(by_step),
        quiet_awards=(0, *(int(n) for n in sums[S_QUIET + 1 :])),
    )


#: The Ray address a full cycle's enumeration is spread over (``reelsmith analyze --cluster``;
#: None: this machine's cores).
ENUMERATION_CLUSTER: ContextVar[str | None] = ContextVar("enumeration_cluster", default=None)
#: First-reel stops per task when a full cycle is spread over a cluster.
CLUSTER_SLICE = 4

Slice = tuple[list[int], list[float], list[int], list[int]]


def cycle_slice(
    model: GameModel, variant_id: str, free: bool, prune: bool, start: int, stop: int
) -> Slice:
    """The chains of the reel set's stop combinations whose first reel stops at ``start`` to
    ``stop - 1``, summed: the ``S_*`` columns (``S_MAX`` the largest), the sums of squared
    pays by first-reel stop (added by :func:`math.fsum` in :func:`chain_law`, so the figure
    does not depend on how the cycle was split), the chains reaching each screen and the coins
    each screen paid."""
    t = screen_tables(model, variant_id, free)
    paying_counts = [c for c in (t.scatter_least,) if c > 0]
    if t.trigger_symbol >= 0 and t.trigger_symbol == model.scatter:
        paying_counts.append(t.trigger)
    # the least run a payline pays: the depth of the first reels that decide a screen
    runs = [n for n in range(1, model.reels + 1) if (t.line_pays[:, n] > 0).any()]
    depth = min(runs) if runs else model.reels
    if t.ways.on:
        depth = min(max(depth, t.ways.min_run), model.reels)
    if t.anywhere.on:
        depth = model.reels - 1  # the last reel's cells decide a count; the others bound it
    if model.scatter >= 0 and t.trigger_symbol >= 0 and t.trigger_symbol != model.scatter:
        depth = model.reels  # a bonus symbol's trigger: nothing decides a screen early
    most = int(model.raw.get("scatter", {}).get("max_per_reel", model.rows))
    sums, squares, reached, by_step = chain_sums(
        t.padded,
        t.lengths,
        t.rows,
        t.paylines,
        t.line_pays,
        t.wild,
        t.substitutable,
        t.wild_multiplier,
        t.ties_to_wild,
        1,
        t.scatter,
        t.scatter_mask,
        t.scatter_pays,
        t.scatter_unit,
        t.scatter_least,
        min(paying_counts) if paying_counts else 0,
        t.trigger_symbol,
        t.trigger,
        t.trigger_mask,
        t.required,
        t.spins,
        t.multipliers,
        t.limit,
        depth,
        most,
        prune,
        t.ways,
        t.anywhere,
        column_counts(
            t.padded, t.lengths, t.rows, len(model.symbols), model.scatter, model.scatter_mask
        )
        if t.anywhere.on
        else np.zeros((model.reels, 1, len(model.symbols) + 1), dtype=np.int64),
        t.scatter_final,
        prune and not t.ways.on and not t.anywhere.on and bool(runs) and depth == min(runs),
        start,
        stop,
    )
    total = [int(x) for x in sums.sum(axis=0)]
    total[S_MAX] = int(sums[:, S_MAX].max())
    return (
        total,
        [float(x) for x in squares[start:stop]],
        [int(x) for x in reached.sum(axis=0)],
        [int(x) for x in by_step.sum(axis=0)],
    )


def run_cycle_slice(
    folder: str, variant_id: str, free: bool, prune: bool, index: int, start: int, stop: int
) -> tuple[Any, ...]:
    """:func:`cycle_slice` in a Ray task, the model loaded from its folder; returns the slice's
    index and its sums."""
    from reelsmith.engine.model import load_model

    return (index, *cycle_slice(load_model(Path(folder)), variant_id, free, prune, start, stop))


def _on_cluster(
    model: GameModel, variant_id: str, free: bool, prune: bool, first: int, address: str
) -> Slice:
    """The full cycle spread over the Ray cluster at ``address``: one task per
    :data:`CLUSTER_SLICE` first-reel stops, their sums added (the largest pay the largest)."""
    from reelsmith.analysis.chunks import run_chunks

    if model.source is None:
        raise ModelError(
            f"{model.id}: a model without a folder is enumerated on this machine only: "
            "analyze it without --cluster"
        )
    folder = str(Path(model.source).parent)
    starts = range(0, first, CLUSTER_SLICE)
    slices = [(i, min(CLUSTER_SLICE, first - at)) for i, at in enumerate(starts)]

    def bounds(index: int, size: int) -> tuple[int, int]:
        return index * CLUSTER_SLICE, index * CLUSTER_SLICE + size

    found, _backend = run_chunks(
        slices,
        here=lambda index, size: cycle_slice(model, variant_id, free, prune, *bounds(index, size)),
        job=lambda index, size: (folder, variant_id, free, prune, index, *bounds(index, size)),
        worker=run_cycle_slice,
        cluster=address,
    )
    parts = [found[i] for i in sorted(found)]
    total = [sum(p[0][k] for p in parts) for k in range(len(parts[0][0]))]
    total[S_MAX] = max(p[0][S_MAX] for p in parts)
    return (
        total,
        [x for p in parts for x in p[1]],
        [sum(col) for col in zip(*(p[2] for p in parts), strict=True)],
        [sum(col) for col in zip(*(p[3] for p in parts), strict=True)],
    )


@dataclass(frozen=True)
class CascadeFigures:
    """A cascade variant's exact figures per unit of total bet (``bet`` coins a round)."""

    bet: int
    base: ChainSums
    free: ChainSums | None

    @property
    def base_rtp(self) -> Fraction:
        return self.base.mean / self.bet

    @property
    def free_spin_total(self) -> Fraction:
        """E[T]: a free spin's win with every spin it adds, in coins."""
        if self.free is None:
            return Fraction(0)
        return self.free.mean / (1 - self.free.awards_mean)

    @property
    def free_spins_rtp(self) -> Fraction:
        return self.base.awards_mean * self.free_spin_total / self.bet

    @property
    def rtp(self) -> Fraction:
        return self.base_rtp + self.free_spins_rtp

    @property
    def hit_frequency(self) -> Fraction:
        return Fraction(self.base.hits, self.base.cycle)

    @property
    def std_dev(self) -> float:
        """Of a round's win per unit bet (double precision)."""
        b = self.base
        mean = float(self.rtp) * self.bet
        second = b.pay_squared / b.cycle
        f = self.free
        if f is not None and b.awards:
            t = float(self.free_spin_total)
            q = float(f.awards_mean)
            t2 = (
                f.pay_squared / f.cycle
                + 2 * f.pay_awards / f.cycle * t
                + (f.awards_squared - f.awards) / f.cycle * t * t
            ) / (1 - q)
            second += (
                2 * b.pay_awards / b.cycle * t
                + b.awards / b.cycle * t2
                + (b.awards_squared - b.awards) / b.cycle * t * t
            )
        return math.sqrt(max(second - mean * mean, 0.0)) / self.bet

    def catalogue_figures(self) -> CatalogueFigures:
        """The figures as the RTP route gives every lines or ways variant's."""
        b, f = self.base, self.free
        bet = self.bet
        scatter = Fraction(b.scatter_pay, b.cycle * bet)
        zero = Fraction(0)
        if f is None or not b.triggered:
            return CatalogueFigures(
                self.base_rtp - scatter,
                scatter,
                zero,
                zero,
                zero,
                zero,
                zero,
                zero,
                self.base_rtp,
            )
        initial = Fraction(b.awards, b.triggered)
        return CatalogueFigures(
            line_rtp=self.base_rtp - scatter,
            scatter_rtp=scatter,
            free_spins_rtp=self.free_spins_rtp,
            trigger_probability=Fraction(b.triggered, b.cycle),
            expected_initial_spins=initial,
            expected_free_spins=initial / (1 - f.awards_mean),
            added_per_free_spin=f.awards_mean,
            free_spin_win=f.mean / bet,
            base_spin_rtp=self.base_rtp,
        )


def _ratio(free: npt.NDArray[np.int64], base: npt.NDArray[np.int64]) -> int:
    """The whole number ``c`` with ``free == c * base`` entry by entry (0: none)."""
    paying = base > 0
    if not paying.any() or (free[~paying] != 0).any() or (free[paying] % base[paying]).any():
        return 0
    ratios = set((free[paying] // base[paying]).tolist())
    return int(ratios.pop()) if len(ratios) == 1 and min(ratios) >= 1 else 0


def scaled_free_law(model: GameModel, base: ChainSums) -> ChainSums | None:
    """The free spins' chains read off the base game's, where they are the same chains paid
    ``c`` times as much: the same reel set, a scatter that pays nothing, free line pays ``c``
    times the base ones (times the ratio of the screens' multipliers), and the same spins
    awarded by a trigger and a retrigger. None where that does not hold: the free reel set is
    then enumerated on its own."""
    rules = mechanics(model)
    cascade = screens_of(model)
    free = rules.free_spins
    if free is None or free.reel_set != "base" or free.retrigger != RETRIGGER_TABLE:
        return None
    if np.asarray(model.scatter_pays).any() or np.asarray(rules.free_scatter_pays).any():
        return None
    top = model.reels * model.rows
    if any(
        spins_by_count(free.spins, n) != spins_by_count(free.retrigger_spins, n)
        for n in range(top + 1)
    ):
        return None
    lines = _ratio(np.asarray(rules.free_line_pays), np.asarray(model.line_pays))
    steps = _ratio(cascade.free_multipliers, cascade.multipliers)
    if not lines or not steps:
        return None
    c = lines * steps
    return ChainSums(
        cycle=base.cycle,
        pay=base.pay * c,
        pay_squared=base.pay_squared * c * c,
        awards=base.awards,
        pay_awards=base.pay_awards * c,
        awards_squared=base.awards_squared,
        hits=base.hits,
        max_pay=base.max_pay * c,
        scatter_pay=0,
        triggered=base.triggered,
        reached=base.reached,
        by_step=tuple(x * c for x in base.by_step),
        quiet_awards=base.quiet_awards,
    )


def cascade_figures(model: GameModel, variant_id: str | None = None) -> CascadeFigures:
    """The exact figures of ``model``'s cascade variant (see the module's account)."""
    variant = model.variant(variant_id)
    rules = mechanics(model)
    free = rules.free_spins
    if free is not None and (
        free.reveal is not None or free.max_spins or free.trigger_multipliers is not None
    ):
        raise ModelError(
            f"{model.id} {variant.id}: the cascade's exact law needs free spins with a count "
            "table, no cap on their spins and no trigger multipliers"
        )
    base = chain_law(model, variant.id, False)
    free_law = None
    if free is not None:
        free_law = scaled_free_law(model, base) or chain_law(model, variant.id, True)
    if free_law is not None and free_law.awards_mean >= 1:
        raise ModelError(
            f"{model.id} {variant.id}: a free spin adds {float(free_law.awards_mean):.4f} "
            "spins on average: the free spins never end"
        )
    return CascadeFigures(total_coins(model), base, free_law)


def cascade_rtp(model: GameModel, variant_id: str | None = None) -> Any:
    """The RTP figures of a cascade variant, as the catalogue's RTP route gives them
    (:class:`reelsmith.analysis.catalogue_exact.CatalogueFigures`): its chain law enumerated
    over the reel sets' full cycles."""
    return cascade_figures(model, variant_id).catalogue_figures()


def feature_given(model: GameModel, variant_id: str | None, triggers: int) -> Any:
    """The free spins' exact law started by ``triggers`` trigger symbols (a bought feature,
    :class:`reelsmith.analysis.catalogue_exact.FeatureGiven`), from the free reel set's full
    cycle of chains: the count table's spins for ``triggers``, each spin's whole chain with the
    spins it adds by Wald's identities (:func:`reelsmith.analysis.compound.tree_moments`); the
    chance that no spin pays is the least root of its fixed point over the chains that pay
    nothing and the spins they add."""
    from reelsmith.analysis.catalogue_exact import FeatureGiven, no_win_per_spin
    from reelsmith.analysis.compound import Moments, SpinMoments, random_sum, tree_moments

    figures = cascade_figures(model, variant_id)
    free, rules = figures.free, mechanics(model).free_spins
    assert free is not None and rules is not None
    bet = figures.bet
    spin = SpinMoments(
        win=Fraction(free.pay, free.cycle * bet),
        win_sq=Fraction(free.pay_squared) / (free.cycle * bet * bet),
        added=free.awards_mean,
        added_sq=Fraction(free.awards_squared, free.cycle),
        win_added=Fraction(free.pay_awards, free.cycle * bet),
    )
    tree_win, tree_spins = tree_moments(spin)
    start = spins_by_count(rules.spins, triggers)
    initial = Moments.constant(start)
    quiet = free.no_pay_law()
    if quiet is None:
        raise ModelError(
            f"{model.source or model.id}: the chance that a feature started directly pays "
            "nothing is not written for drawn cells"
        )
    return FeatureGiven(
        triggers,
        random_sum(initial, tree_win),
        random_sum(initial, tree_spins),
        no_win_per_spin(*quiet) ** start,
        Fraction(free.max_pay, bet),
    )
