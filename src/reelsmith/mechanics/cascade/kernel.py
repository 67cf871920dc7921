"""The simulation kernel of a spin read as a chain of screens: a cascade's (after each win its
cells removed and the strip above falling in) or a pay-anywhere window's (one screen, counted
whole). ``reelsmith simulate`` and the parity tests play such a title here.

Each screen is paid by the one function the full-cycle enumeration calls
(:func:`.exact._screen`: the line, way or count rule, the scatter and the trigger), the fall
is :func:`.rules.fall`, and the free spins' awards are the engine's
(:func:`~reelsmith.engine.catalogue.trigger_spins`, :func:`~reelsmith.engine.catalogue.
award_spins`) summed over the screens of a chain as live play sums them. The draws are live
play's: one reel stop per reel a spin (below the strip's length, or below the reel's total
weight looked up in its cumulative weights), nothing else, since a spin's stops decide its
whole chain; on a title of drawn cells, one ``cell`` draw per cell of its first screen and per
new cell of a later one (reels left to right, rows top to bottom, as live play's
:func:`.live.refill_cells`). The statistics and the recorded results are the round loop's
(the ``S_*``, ``F_*`` and ``R_*`` slots of :mod:`reelsmith.analysis.kernel.rounds`), so a
simulation of such a title is read and reported as any other.

Where a spin's stops alone decide its chain (the strips refill, and nothing else is drawn or
changed during the spin), each reel set's chain of every stop combination is played once by
the same function into a table (:class:`Outcomes`) and a round reads its spin's row after
drawing its stops: the same draws and figures, ten times the rounds a second on Crystal
Caverns (``bench/bench_chain_kernel.py``). The round loop reads that table with its arrays
taken out of their tuples before the loop: an array bound to a new name inside it is
reference-counted with an atomic instruction each time, which cost more than the look-up.

Mystery symbols are revealed here too (:func:`reelsmith.mechanics.mystery.kernel.
reveal_screen`): after a screen's stops and before it is paid, one draw by the spin's table
where the screen shows the mystery, as live play's window modifier makes it, so a mystery
title's spins are played whole by this kernel. So is an expanding symbol
(:mod:`reelsmith.mechanics.expanding.kernel`): drawn once a base spin awards free spins, after its
stops, and paid on each free spin beside the screen's own wins. Sticky wilds too
(:func:`reelsmith.mechanics.sticky.kernel.stick`): the stuck cells cleared when a feature
starts, and each free spin's screen changed by the one rule after its stops, before it is paid.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
from numba import njit

from reelsmith.analysis.kernel import rounds as r
from reelsmith.analysis.pcg64 import load_stream, store_stream, stream_bounded
from reelsmith.engine.catalogue import award_spins, mechanics, trigger_spins
from reelsmith.engine.model import GameModel, ModelError
from reelsmith.engine.stops import stop_for_draw
from reelsmith.mechanics.cascade.exact import ScreenTables, _counted, screen_pay, screen_tables
from reelsmith.mechanics.cascade.rules import drop, fall
from reelsmith.mechanics.expanding.kernel import ExpandingTables, draw_symbol, expansion
from reelsmith.mechanics.expanding.kernel import tables as expanding_tables
from reelsmith.mechanics.mystery.kernel import MysteryTables, reveal_screen
from reelsmith.mechanics.mystery.kernel import tables as mystery_tables
from reelsmith.mechanics.sticky.kernel import StickyTables, stick
from reelsmith.mechanics.sticky.kernel import tables as sticky_tables

#: The most stop combinations a reel set's :class:`Outcomes` table holds (16 bytes each).
OUTCOME_LIMIT = 8_000_000


class Outcomes(NamedTuple):
    """A reel set's chains, one per stop combination (``on`` False: none, the chain is played
    screen by screen). Where a spin's stops alone decide its chain (the strip refills, no
    mystery, sticky or expanding symbol and, in free spins, no cap on the feature's spins), the
    chain of every combination is played once, by :func:`_chain` itself, and a round reads its
    spin's row: the same figures, drawn by the same stop draws. Row ``index`` of ``rows`` (the
    stops read as a number, reel 1's the most significant digit) holds the chain's pay in
    coins, then one word of its scatter part (from bit 24), the spins it awards (bits 8-23)
    and the most trigger symbols a screen showed (bits 0-7): one cache line a spin, since the
    table is far larger than the caches and a round's time is its look-up's."""

    on: bool
    rows: npt.NDArray[np.int64]  # [combination, 2]


def no_outcomes() -> Outcomes:
    """An :class:`Outcomes` that is off."""
    return Outcomes(False, np.zeros((1, 2), dtype=np.int64))


@dataclass(frozen=True, eq=False)
class ChainGame:
    """A chain title's variant as :func:`play_chain_rounds` reads it: the base reel set's and
    the free spins' :class:`~.exact.ScreenTables` (the base one twice without free spins),
    each reel set's stop weights, and the free spins' round rules."""

    base: ScreenTables
    free: ScreenTables
    weighted: bool
    cumulative: npt.NDArray[np.int64]  # [set, reel, stop]
    totals: npt.NDArray[np.int64]  # [set, reel]
    #: ``[set, reel, k]``: a reel of drawn cells' table's symbols (``cell_counts[set, reel]``
    #: of them; 0: a strip's reel), ``cumulative`` and ``totals`` then its cell draw's.
    cell_symbols: npt.NDArray[np.int8]
    cell_counts: npt.NDArray[np.int64]
    retrigger: int
    per_symbol: int
    max_spins: int
    total_bet: int
    #: The model's cap on a round's win in coins (``[max_win]``); 0: no cap.
    cap_coins: int = 0
    #: The mystery symbols' tables (symbol -1: the model has none).
    mystery: MysteryTables | None = None
    #: The expanding symbol's table (no symbols: the model has none).
    expanding: ExpandingTables | None = None
    #: Whether a cascade's new cells are drawn from the cell tables (not the strip above).
    refill_cells: bool = False
    #: The sticky wilds' tables (wild -1: the model has none).
    sticky: StickyTables | None = None
    #: The purposes of the draws a trace records, by their kind.
    draw_purposes: tuple[str, ...] = ("reel_stop", "mystery", "expanding_symbol", "", "cell")
    #: The base reel set's and the free spins' chains by stop combination, where built.
    base_outcomes: Outcomes | None = None
    free_outcomes: Outcomes | None = None

    def args(self) -> tuple[Any, ...]:
        return (
            self.base,
            self.free,
            self.weighted,
            self.cumulative,
            self.totals,
            self.cell_symbols,
            self.cell_counts,
            self.retrigger,
            self.per_symbol,
            self.max_spins,
            self.cap_coins,
            self.refill_cells,
            r.band_edges_in_coins(self.total_bet),
            *self._mystery(),
            *self._expanding(),
            *self._sticky(),
            self.base_outcomes or no_outcomes(),
            self.free_outcomes or no_outcomes(),
        )

    def _sticky(self) -> tuple[int, npt.NDArray[np.bool_], int, int]:
        found = self.sticky
        if found is None:
            return -1, np.zeros(self.base.lengths.shape[0], dtype=np.bool_), -1, -1
        return found.args()

    def _expanding(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        found = self.expanding
        if found is None:
            return np.zeros(0, dtype=np.int64), np.ones(1, dtype=np.int64)
        return found.symbols, found.cumulative

    def _mystery(self) -> tuple[int, npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        found = self.mystery
        if found is None:
            empty = np.ones((2, 1), dtype=np.int64)
            return -1, empty * 0, empty
        return found.symbol, found.values, found.cumulative


def build(model: GameModel, variant_id: str) -> ChainGame:
    """The :class:`ChainGame` of ``variant_id``; ModelError naming what the kernel does not
    play on a chain (an award revealed per symbol, multipliers set by the trigger's count)."""
    rules = mechanics(model)
    free = rules.free_spins
    where = f"{model.source or model.id}"
    if free is not None and free.reveal is not None:
        raise ModelError(
            f"{where}: free_spins.reveal: the simulation kernel does not play an award "
            "revealed per symbol on a chain of screens or a count"
        )
    if free is not None and free.trigger_multipliers is not None:
        raise ModelError(
            f"{where}: free_spins.multipliers: the simulation kernel does not play multipliers "
            "set by the trigger's count on a chain of screens or a count"
        )
    variant = model.variant(variant_id)
    base = screen_tables(model, variant.id, False)
    sets = [variant.reel_sets["base"]]
    free_tables = base
    if free is not None:
        free_tables = screen_tables(model, variant.id, True)
        sets.append(variant.reel_sets[free.reel_set])
    else:
        sets.append(sets[0])
    width = max(int(s.lengths.max()) for s in sets)
    cumulative = np.zeros((2, model.reels, width), dtype=np.int64)
    totals = np.zeros((2, model.reels), dtype=np.int64)
    cell_symbols = np.zeros((2, model.reels, width), dtype=np.int8)
    cell_counts = np.zeros((2, model.reels), dtype=np.int64)
    for index, reel_set in enumerate(sets):
        if reel_set.cells is not None:  # each cell drawn from its reel's table
            totals[index], cumulative[index] = reel_set.cell_draw_tables(width)
            for reel, strip in enumerate(reel_set.strips):
                cell_symbols[index, reel, : len(strip)] = strip
                cell_counts[index, reel] = len(strip)
            continue
        found = reel_set.cumulative
        cumulative[index, :, : found.shape[1]] = found
        cumulative[index, :, found.shape[1] :] = found[:, -1:]
        totals[index] = reel_set.totals
    from reelsmith.analysis.catalogue_exact import total_coins
    from reelsmith.mechanics.cascade.exact import screens_of
    from reelsmith.mechanics.max_win.rules import model_cap

    cap = model_cap(model)
    refill_cells = screens_of(model).refill_cells
    mystery = mystery_tables(model)
    expanding = expanding_tables(model)
    sticky = sticky_tables(model)
    plain = (
        not refill_cells and (mystery is None or mystery.symbol < 0) and not int(cell_counts.max())
    )
    base_outcomes = free_outcomes = None
    if plain:
        base_outcomes = outcomes(base, False, 2, 0, free.max_spins if free is not None else 0)
        if (
            free is not None
            and free.max_spins == 0
            and (expanding is None or not expanding.symbols.shape[0])
            and (sticky is None or sticky.wild < 0)
        ):
            free_outcomes = outcomes(
                free_tables, True, free.retrigger, free.spins_per_symbol, free.max_spins
            )
    return ChainGame(
        base=base,
        free=free_tables,
        weighted=any(s.weights is not None for s in sets),
        cumulative=cumulative,
        totals=totals,
        cell_symbols=cell_symbols,
        cell_counts=cell_counts,
        retrigger=free.retrigger if free is not None else 2,
        per_symbol=free.spins_per_symbol if free is not None else 0,
        max_spins=free.max_spins if free is not None else 0,
        total_bet=total_coins(model),
        cap_coins=0 if cap is None else cap.cap_coins(total_coins(model)),
        mystery=mystery,
        expanding=expanding,
        refill_cells=refill_cells,
        sticky=sticky,
        base_outcomes=base_outcomes,
        free_outcomes=free_outcomes,
    )


def outcomes(
    t: ScreenTables, free: bool, retrigger: int, per_symbol: int, max_spins: int
) -> Outcomes | None:
    """The :class:`Outcomes` of the reel set ``t`` (``free``: the free spins', whose
    retriggers are ``retrigger`` / ``per_symbol``); None where its stop combinations are more
    than :data:`OUTCOME_LIMIT`."""
    combinations = int(np.prod(t.lengths.astype(np.float64)))
    if combinations > OUTCOME_LIMIT:
        return None
    rows = np.zeros((combinations, 2), dtype=np.int64)
    unfit = np.zeros(1, dtype=np.int64)
    first = int(t.lengths[0])
    threads = max(1, min(first, os.cpu_count() or 1))
    bounds = [first * k // threads for k in range(threads + 1)]
    args = (t, free, retrigger, per_symbol, max_spins)
    tables = (rows, unfit)
    with ThreadPoolExecutor(threads) as pool:
        for done in [
            pool.submit(_fill_outcomes, *args, bounds[k], bounds[k + 1], *tables)
            for k in range(threads)
        ]:
            done.result()
    if unfit[0]:  # a chain whose figures do not fit a row's word: played screen by screen
        return None
    return Outcomes(True, rows)


@njit(cache=True, nogil=True)
def _fill_outcomes(
    t: ScreenTables,
    free: bool,
    retrigger: int,
    per_symbol: int,
    max_spins: int,
    start: int,
    stop: int,
    rows: npt.NDArray[np.int64],
    unfit: npt.NDArray[np.int64],
) -> None:
    """Play the chain of every stop combination of ``t`` whose reel 1 stops at ``start`` to
    ``stop - 1`` by :func:`_chain` into the rows of :class:`Outcomes` (one thread's share;
    the GIL is released)."""
    for s0 in range(start, stop):
        _fill_block(t, free, retrigger, per_symbol, max_spins, s0, rows, unfit)


@njit(cache=True, nogil=True)
def _fill_block(
    t: ScreenTables,
    free: bool,
    retrigger: int,
    per_symbol: int,
    max_spins: int,
    s0: int,
    rows: npt.NDArray[np.int64],
    unfit: npt.NDArray[np.int64],
) -> None:
    """:func:`_fill_outcomes`' rows whose reel 1 stops at ``s0``."""
    reels = t.lengths.shape[0]
    height = t.rows
    rest = rows.shape[0] // t.lengths[0]
    width = max(t.ways.paying.shape[0], t.anywhere.paying.shape[0]) + 1
    screen = np.empty((height, reels), dtype=np.int8)
    removed = np.zeros((height, reels), dtype=np.bool_)
    cells = np.empty(reels, dtype=np.int8)
    counts = np.zeros(t.substitutable.shape[0], dtype=np.int64)
    out = np.zeros((3, width), dtype=np.int64)
    tops = np.zeros(reels, dtype=np.int64)
    log = np.zeros((1, 3), dtype=np.int64)
    unused = (
        np.zeros((1, 1, 1), dtype=np.int64),
        np.zeros((1, 1), dtype=np.int64),
        np.zeros((1, 1, 1), dtype=np.int8),
        np.zeros((1, 1), dtype=np.int64),
    )
    stream = load_stream(np.zeros(6, dtype=np.uint64))  # never drawn: the strips refill
    for j in range(rest):
        left = j
        for reel in range(reels - 1, 0, -1):
            tops[reel] = left % t.lengths[reel]
            left //= t.lengths[reel]
        tops[0] = s0
        for reel in range(reels):
            for row in range(height):
                screen[row, reel] = t.padded[reel, tops[reel] + row]
        won, scatter_part, shown, awarded, stream, _at = _chain(
            t,
            screen,
            removed,
            cells,
            counts,
            out,
            tops,
            free,
            0,
            retrigger,
            per_symbol,
            max_spins,
            (False, 0, stream, unused, False, log, 0),
        )
        index = s0 * rest + j
        if not (0 <= shown < 256 and 0 <= awarded < 65536 and 0 <= scatter_part < 1 << 39):
            unfit[0] = 1
        rows[index, 0] = won
        rows[index, 1] = (scatter_part << 24) | (awarded << 8) | shown


@njit(cache=True, nogil=True, inline="always")
def _outcome_row(t: ScreenTables, tops: npt.NDArray[np.int64]) -> int:
    """The :class:`Outcomes` row of the stops ``tops`` of ``t``'s reel set."""
    index = tops[0]
    for reel in range(1, t.lengths.shape[0]):
        index = index * t.lengths[reel] + tops[reel]
    return int(index)


@njit(cache=True, nogil=True)
def _chain(
    t: ScreenTables,
    screen: npt.NDArray[np.int8],
    removed: npt.NDArray[np.bool_],
    cells: npt.NDArray[np.int8],
    counts: npt.NDArray[np.int64],
    out: npt.NDArray[np.int64],
    tops: npt.NDArray[np.int64],
    free: bool,
    awarded: int,
    retrigger: int,
    per_symbol: int,
    max_spins: int,
    draws: Any,
) -> tuple[int, int, int, int, Any, int]:
    """One spin's chain from the screen ``screen`` shows (``tops``: its stops), in place:
    (its win in coins, the scatter's part of it, the most trigger symbols a screen showed,
    the free spins it awards: a base spin's trigger summed over the screens that reach it and
    cut at the cap, a free spin's retriggers after ``awarded`` spins of the feature), then
    the stream and the log's end. ``draws`` (whether the refill is drawn, the reel set's index,
    the stream, the cell draws' tables, whether to record, the log and its end) draw the new
    cells where the refill is drawn. Called, not inlined: the round loop stays small (its
    registers its own) where most spins read their chain from :class:`Outcomes`."""
    refill, index, stream, cells_tables, record, log, log_at = draws
    final = t.scatter_final
    pay = 0
    scattered = 0
    most = 0
    added = 0
    for step in range(t.limit):
        line_win, scatter_win, triggers = screen_pay(t, screen, removed, cells, counts, out, final)
        pay += line_win * t.multipliers[step] + scatter_win
        scattered += scatter_win
        if not final and t.trigger_symbol >= 0:
            most = max(most, triggers)
            if free:
                added += award_spins(
                    retrigger, t.spins, per_symbol, triggers, awarded + added, max_spins
                )
            elif triggers >= t.trigger:
                added += trigger_spins(t.spins, triggers, -1, max_spins)
        if not removed.any():
            break
        if step + 1 < t.limit:
            if refill:
                stream, log_at = _refill(
                    screen, removed, (refill, index, stream, cells_tables, record, log, log_at)
                )
            else:
                fall(screen, removed, t.padded, t.lengths, tops)
    if final:
        scatter_win, triggers = _counted(
            screen,
            t.scatter,
            t.scatter_mask,
            t.scatter_pays,
            t.scatter_unit,
            t.trigger_symbol,
            t.trigger_mask,
            t.required,
        )
        pay += scatter_win
        scattered += scatter_win
        if t.trigger_symbol >= 0:
            most = triggers
            if free:
                added += award_spins(retrigger, t.spins, per_symbol, triggers, awarded, max_spins)
            elif triggers >= t.trigger:
                added += trigger_spins(t.spins, triggers, -1, max_spins)
    if not free and max_spins > 0 and added > max_spins:
        added = max_spins
    return pay, scattered, most, added, stream, log_at


@njit(cache=True, nogil=True, inline="always")
def _draw_cell(
    index: int,
    reel: int,
    stream: Any,
    cells: Any,
    record: bool,
    log: npt.NDArray[np.int64],
    log_at: int,
) -> tuple[Any, int, int]:
    """One cell of reel set ``index``'s ``reel`` drawn as live play draws it (one ``cell``
    draw below its table's total, logged with ``record``): the stream, the log's end and the
    symbol. ``cells``: the cell draws' (cumulative weights, totals, symbols, symbol counts)."""
    cumulative, totals, cell_symbols, cell_counts = cells
    bound = totals[index, reel]
    stream, value = stream_bounded(stream, bound)
    digit = stop_for_draw(cumulative[index, reel], cell_counts[index, reel], value)
    if record:
        log[log_at, 0] = r.DRAW_CELL
        log[log_at, 1] = bound
        log[log_at, 2] = value
        log_at += 1
    return stream, log_at, cell_symbols[index, reel, digit]


@njit(cache=True, nogil=True, inline="always")
def _refill(
    screen: npt.NDArray[np.int8],
    removed: npt.NDArray[np.bool_],
    draws: Any,
) -> tuple[Any, int]:
    """The cascade's refill drawn cell by cell, in place, as live play's
    :func:`reelsmith.mechanics.cascade.live.refill_cells` draws it (``draws``: as
    :func:`_chain` takes them); returns the stream and the log's end."""
    _refill_on, index, stream, cells, record, log, log_at = draws
    for reel in range(screen.shape[1]):
        for row in range(drop(screen, removed, reel)):
            stream, log_at, screen[row, reel] = _draw_cell(
                index, reel, stream, cells, record, log, log_at
            )
    return stream, log_at


@njit(cache=True, nogil=True, inline="always")
def _draw_screen(
    t: ScreenTables,
    index: int,
    stream: Any,
    weighted: bool,
    cumulative: npt.NDArray[np.int64],
    totals: npt.NDArray[np.int64],
    cell_symbols: npt.NDArray[np.int8],
    cell_counts: npt.NDArray[np.int64],
    screen: npt.NDArray[np.int8],
    tops: npt.NDArray[np.int64],
    record: bool,
    log: npt.NDArray[np.int64],
    log_at: int,
    show: bool = True,
) -> tuple[Any, int]:
    """Draw reel set ``index``'s stops as live play does (``tops``), show them on
    ``screen`` (not with ``show`` False: the chain is read from :class:`Outcomes`) and, with
    ``record``, log each draw; returns the stream and the log's end. A reel of drawn cells
    draws each cell, rows top to bottom, as live play does."""
    rows = t.rows
    for reel in range(t.lengths.shape[0]):
        count = cell_counts[index, reel]
        if count > 0:
            tops[reel] = 0
            for row in range(rows):
                stream, log_at, screen[row, reel] = _draw_cell(
                    index,
                    reel,
                    stream,
                    (cumulative, totals, cell_symbols, cell_counts),
                    record,
                    log,
                    log_at,
                )
            continue
        length = t.lengths[reel]
        if weighted:
            bound = totals[index, reel]
            stream, value = stream_bounded(stream, bound)
            stop = stop_for_draw(cumulative[index, reel], length, value)
        else:
            bound = length
            stream, value = stream_bounded(stream, bound)
            stop = value
        tops[reel] = stop
        if show:
            for row in range(rows):
                screen[row, reel] = t.padded[reel, stop + row]
        if record:
            log[log_at, 0] = r.DRAW_REEL_STOP
            log[log_at, 1] = bound
            log[log_at, 2] = value
            log_at += 1
    return stream, log_at


@njit(cache=True, nogil=True)
def play_chain_rounds(
    rng: npt.NDArray[np.uint64],
    n_rounds: int,
    game: tuple[Any, ...],
    stats: npt.NDArray[np.int64],
    float_stats: npt.NDArray[np.float64],
    record: bool,
    results: npt.NDArray[np.int64],
    log: npt.NDArray[np.int64],
    log_ends: npt.NDArray[np.int64],
) -> int:
    """Play ``n_rounds`` rounds of a chain title (``game``: :meth:`ChainGame.args`), adding
    their statistics to ``stats`` / ``float_stats`` as :func:`~reelsmith.analysis.kernel.
    rounds.play_rounds` counts them; with ``record`` each round's ``R_*`` fields go to
    ``results[i]`` and its draws to ``log`` ending at ``log_ends[i]``, a round that would
    overflow ``log`` undone and the call returning early. Returns the rounds played."""
    (
        base,
        free,
        weighted,
        cumulative,
        totals,
        cell_symbols,
        cell_counts,
        retrigger,
        per_symbol,
        max_spins,
        cap_coins,
        refill,
        edges,
        mystery,
        mystery_values,
        mystery_cumulative,
        expanding_symbols,
        expanding_cumulative,
        sticky_wild,
        sticky_reels,
        sticky_scatter,
        sticky_trigger,
        base_outcomes,
        free_outcomes,
    ) = game
    reels = base.lengths.shape[0]
    rows = base.rows
    n_symbols = base.substitutable.shape[0]
    screen = np.empty((rows, reels), dtype=np.int8)
    removed = np.zeros((rows, reels), dtype=np.bool_)
    base_lengths = base.lengths
    base_rows = base_outcomes.rows
    cells = np.empty(reels, dtype=np.int8)
    counts = np.zeros(n_symbols, dtype=np.int64)
    width = max(base.ways.paying.shape[0], base.anywhere.paying.shape[0]) + 1
    out = np.zeros((3, width), dtype=np.int64)
    tops = np.zeros(reels, dtype=np.int64)
    cells_tables = (cumulative, totals, cell_symbols, cell_counts)
    stuck = np.zeros((rows, reels), dtype=np.bool_)  # the sticky wilds' cells
    # the log rows of one spin's draws at most (a reel of drawn cells: one per cell, and each
    # later screen of a chain may draw every cell again; the expanding symbol's draw after a
    # base spin)
    screen_rows = (
        reels * (rows if cell_counts.max() > 0 else 1) * (base.limit if refill else 1)
        + (1 if mystery >= 0 else 0)
        + (1 if expanding_symbols.shape[0] else 0)
    )
    lines = free.paylines.shape[0]
    hit_triggers = base.trigger if base.trigger_symbol >= 0 else 1 << 62
    top_band = edges.shape[0] - 1
    bands = np.zeros(edges.shape[0], dtype=np.int64)
    stream = load_stream(rng)
    total = base_line_sum = base_scatter_sum = free_sum = 0
    base_hits = round_hits = triggered = free_spins_sum = retriggers = capped = cap_hits = 0
    max_win = max_free_spins = 0
    win_sq = base_win_sq = 0.0
    log_at = 0
    played_rounds = 0
    for i in range(n_rounds):
        saved = stream
        round_start = log_at
        round_retriggers = 0
        overflow = record and log_at + screen_rows > log.shape[0]
        if overflow:
            break
        if base_outcomes.on:  # the spin's chain, played once for its stops
            at = 0
            for reel in range(reels):  # the stops drawn as _draw_screen draws them
                length = base_lengths[reel]
                if weighted:
                    bound = totals[0, reel]
                    stream, value = stream_bounded(stream, bound)
                    stop = stop_for_draw(cumulative[0, reel], length, value)
                else:
                    bound = length
                    stream, value = stream_bounded(stream, bound)
                    stop = value
                tops[reel] = stop
                at = at * length + stop
                if record:
                    log[log_at, 0] = r.DRAW_REEL_STOP
                    log[log_at, 1] = bound
                    log[log_at, 2] = value
                    log_at += 1
            pay = base_rows[at, 0]
            word = base_rows[at, 1]
            base_scatter = word >> 24
            base_triggers = int(word & 255)
            awarded = int((word >> 8) & 65535)
        else:
            stream, log_at = _draw_screen(
                base,
                0,
                stream,
                weighted,
                cumulative,
                totals,
                cell_symbols,
                cell_counts,
                screen,
                tops,
                record,
                log,
                log_at,
            )
            stream, log_at = reveal_screen(
                screen,
                mystery,
                mystery_values[0],
                mystery_cumulative[0],
                stream,
                record,
                log,
                log_at,
            )
            pay, base_scatter, base_triggers, awarded, stream, log_at = _chain(
                base,
                screen,
                removed,
                cells,
                counts,
                out,
                tops,
                False,
                0,
                0,
                0,
                max_spins,
                (refill, 0, stream, cells_tables, record, log, log_at),
            )
        base_line = pay - base_scatter
        remaining = awarded
        if cap_coins > 0 and pay >= cap_coins:
            remaining = 0  # the base spin reached the round's cap: no free spin is played
        played = free_win = free_triggers = added_sum = 0
        special = -1
        if awarded > 0:  # the free spins start: their expanding symbol is drawn
            stream, special, log_at = draw_symbol(
                expanding_symbols, expanding_cumulative, stream, record, log, log_at
            )
            stuck[:] = False  # a feature starts with no wild stuck
        while remaining > 0:
            if record and log_at + screen_rows > log.shape[0]:
                overflow = True
                break
            stream, log_at = _draw_screen(
                free,
                1,
                stream,
                weighted,
                cumulative,
                totals,
                cell_symbols,
                cell_counts,
                screen,
                tops,
                record,
                log,
                log_at,
                not free_outcomes.on,
            )
            if free_outcomes.on:  # the spin's chain, played once for its stops
                at = _outcome_row(free, tops)
                spin_win = free_outcomes.rows[at, 0]
                word = free_outcomes.rows[at, 1]
                shown = int(word & 255)
                added = int((word >> 8) & 65535)
                expanded = 0
            else:
                stream, log_at = reveal_screen(
                    screen,
                    mystery,
                    mystery_values[1],
                    mystery_cumulative[1],
                    stream,
                    record,
                    log,
                    log_at,
                )
                stick(screen, stuck, sticky_wild, sticky_reels, sticky_scatter, sticky_trigger)
                expanded = expansion(screen, special, free.line_pays, lines)
                spin_win, _scatter, shown, added, stream, log_at = _chain(
                    free,
                    screen,
                    removed,
                    cells,
                    counts,
                    out,
                    tops,
                    True,
                    awarded,
                    retrigger,
                    per_symbol,
                    max_spins,
                    (refill, 1, stream, cells_tables, record, log, log_at),
                )
            free_win += spin_win + expanded
            free_triggers += shown
            if added > 0:
                round_retriggers += 1
            awarded += added
            added_sum += added
            remaining += added - 1
            played += 1
            if cap_coins > 0:
                so_far = base_line + base_scatter + free_win
                if so_far >= cap_coins:  # the round reached its cap: the feature ends here
                    free_win -= so_far - cap_coins
                    remaining = 0
        if overflow:  # undo the round: the next call draws it again
            stream = saved
            log_at = round_start
            break
        retriggers += round_retriggers
        win = base_line + base_scatter + free_win
        base_win = base_line + base_scatter
        if cap_coins > 0 and win >= cap_coins:
            win = cap_coins  # a base spin above the cap (a free spin's excess is cut above)
            cap_hits += 1
        if record:
            row = results[i]
            row[r.R_WIN] = win
            row[r.R_BASE_LINE] = base_line
            row[r.R_BASE_SCATTER] = base_scatter
            row[r.R_BASE_TRIGGERS] = base_triggers
            row[r.R_AWARDED] = awarded - added_sum
            row[r.R_FREE_SPINS] = played
            row[r.R_FREE_WIN] = free_win
            row[r.R_FREE_TRIGGERS] = free_triggers
            row[r.R_ADDED] = added_sum
            log_ends[i] = log_at
        played_rounds += 1
        total += win
        base_line_sum += base_line
        base_scatter_sum += base_scatter
        base_win_sq += float(base_win) * float(base_win)
        base_hits += (base_win > 0) | (base_triggers >= hit_triggers)
        round_hits += win > 0
        band = 0
        for b in range(top_band):
            band += win > edges[b]
        bands[band] += 1
        win_sq += float(win) * float(win)
        max_win = max(max_win, win)
        if played > 0:
            triggered += 1
            free_sum += free_win
            free_spins_sum += played
            max_free_spins = max(max_free_spins, played)
            if max_spins > 0 and awarded >= max_spins:
                capped += 1
    store_stream(stream, rng)
    stats[r.S_ROUNDS] += played_rounds
    stats[r.S_WIN] += total
    stats[r.S_BASE_LINE] += base_line_sum
    stats[r.S_BASE_SCATTER] += base_scatter_sum
    stats[r.S_FREE_WIN] += free_sum
    stats[r.S_BASE_HITS] += base_hits
    stats[r.S_ROUND_HITS] += round_hits
    stats[r.S_TRIGGERS] += triggered
    stats[r.S_FREE_SPINS] += free_spins_sum
    stats[r.S_RETRIGGERS] += retriggers
    stats[r.S_CAPPED] += capped
    stats[r.S_CAP_HITS] += cap_hits
    stats[r.S_MAX_WIN] = max(stats[r.S_MAX_WIN], max_win)
    stats[r.S_MAX_FREE_SPINS] = max(stats[r.S_MAX_FREE_SPINS], max_free_spins)
    for b in range(edges.shape[0]):
        stats[r.S_BANDS + b] += bands[b]
    float_stats[r.F_WIN_SQ] += win_sq
    float_stats[r.F_BASE_WIN_SQ] += base_win_sq
    return played_rounds
