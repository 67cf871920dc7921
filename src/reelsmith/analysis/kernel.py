"""The one simulation kernel of every catalogue title: base spin, trigger, reveals, free spins
with retriggers and the cap, compiled (numba), for any grid of 3-7 reels and 1-8 rows and any
number of paylines.

Same draws, same rules
----------------------
:func:`play_rounds` makes the draws live play makes (:mod:`reelsmith.engine.catalogue_round`),
in the same order: one ``reel_stop`` per reel, ``randbelow(len(strip))``; on a trigger whose
award is revealed, one draw below the reveal table's total weight per triggering symbol,
looked up in the cumulative weights (as :func:`reelsmith.rng.weighted_index` does); then each
free spin's reel stops on the free-spin reel set. The rules are the engine's own compiled
functions, called here and by live play alike: the line rule
:func:`reelsmith.engine.lines.line_award` (with the model's wild multiplier and tie rule, on
the base pays or the free-spin pays of :func:`reelsmith.engine.catalogue.free_spin_pays`), the
count of a symbol on the reels it counts on :func:`~reelsmith.engine.lines.count_symbol_on`,
the trigger's award :func:`~reelsmith.engine.catalogue.trigger_spins` and the retrigger
:func:`~reelsmith.engine.catalogue.award_spins` (both through
:func:`~reelsmith.engine.catalogue.spins_by_count`). The gamble is fair and leaves the return
unchanged, so a simulated round ends when its free spins do, as a round that collects does.
The parity tests replay the kernel's recorded draws through live play and require identical
rounds.

Tables, built from the rules
----------------------------
A reel set is prepared once (:class:`ReelTables`): each reel's window per stop, and per stop
the count of the scatter and of the trigger symbol in that reel's window (``count_symbol_on``
on the window, so a symbol counted only on some reels counts nowhere else). The line pays use
the prefix trick: for every stop combination of the first ``depth`` reels (3 where the table
stays under :data:`PREFIX_LIMIT` entries, else fewer) the table holds the total pay of the
paylines those reels decide (their run has broken, so ``line_award`` gives their pay with any
completion) and the index of the set of paylines still open; a spin evaluates only the open
ones, with ``line_award`` on the full screen, and a screen whose paylines are all decided (most
of them) skips that loop. Open sets are stored as lists of payline numbers (any number of
paylines), deduplicated. The (pay, open set) pairs are deduplicated too: a reel set has a few
thousand, so the table a spin reads at random holds 16-bit indices into them and stays in a
core's cache (300 KB for three 53-stop reels). Building the table works out each payline's part
once per symbol tuple of its first ``depth`` cells, not once per stop combination.
``depth = 0`` gives the kernel without tables (every payline evaluated on every screen): the
benchmark's baseline and a parity check.

The whole round loop is one function with one screen routine for both reel sets (their tables
stacked in shared arrays: a helper per screen would cost more than the screen, since numba
reference-counts every array handed to a call). The same loop keeps the statistics and, with
``record``, each round's results and draws, so the parity tests cover the code that simulates.
Draws come from :mod:`reelsmith.analysis.pcg64` (numpy's PCG64 and ``Generator.integers``).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from reelsmith.analysis.enumeration import run_decided, stop_windows
from reelsmith.analysis.pcg64 import bounded
from reelsmith.engine.catalogue import Mechanics, award_spins, mechanics, trigger_spins
from reelsmith.engine.lines import count_symbol_on, line_award
from reelsmith.engine.model import GameModel, ModelError, ReelSet
from reelsmith.rng import Draw

# Draw kinds in a trace (the purposes live play records: reel stops, then the reveal table's).
DRAW_REEL_STOP = 0
DRAW_REVEAL = 1

# Per-round results recorded by play_rounds (trace mode).
R_WIN, R_BASE_LINE, R_BASE_SCATTER, R_BASE_TRIGGERS, R_AWARDED = range(5)
R_FREE_SPINS, R_FREE_WIN, R_FREE_TRIGGERS, R_ADDED = range(5, 9)
ROUND_FIELDS = 9
ROUND_FIELD_NAMES = (
    "win",
    "base_line",
    "base_scatter",
    "base_triggers",
    "awarded",
    "free_spins",
    "free_win",
    "free_triggers",
    "added",
)

# Statistics (int64 slots), all in coins at one coin per line on every payline.
S_ROUNDS, S_WIN, S_BASE_LINE, S_BASE_SCATTER, S_FREE_WIN = range(5)
S_BASE_HITS = 5  # base spins that pay or trigger the feature (the exact hit frequency's event)
S_ROUND_HITS = 6  # rounds that win
S_TRIGGERS = 7  # rounds that play free spins
S_FREE_SPINS = 8  # free spins played
S_RETRIGGERS = 9  # free spins that added spins
S_CAPPED = 10  # features whose spins reached the cap
S_MAX_WIN = 11  # largest round win
S_MAX_FREE_SPINS = 12  # most free spins in one round
S_BANDS = 13  # round-win bands follow
N_BANDS = 10
N_INT_STATS = S_BANDS + N_BANDS
#: Slots merged by maximum rather than by sum.
MAX_SLOTS = (S_MAX_WIN, S_MAX_FREE_SPINS)
F_WIN_SQ = 0  # float64 slots: sum of squared round wins (coins^2)
F_BASE_WIN_SQ = 1  # sum of squared base-spin wins (coins^2)
N_FLOAT_STATS = 2

#: Upper edges of the round-win bands in multiples of the total bet; band 0 is "no win", band
#: ``b`` holds wins above edge ``b - 1`` up to edge ``b``, the last band is open-ended.
BAND_EDGES = (0, 1, 2, 5, 10, 20, 50, 100, 500)

#: A screen's scatter count and trigger count travel in one word (a count is at most 56).
COUNT_BITS = 8
COUNT_MASK = (1 << COUNT_BITS) - 1

#: A prefix entry: the decided pay above PAY_SHIFT bits, the open set's index below them.
PAY_SHIFT = 32
SET_MASK = (1 << PAY_SHIFT) - 1

#: Index of the empty open set (every payline decided) in every reel set's open sets.
EMPTY_SET = 0

#: Largest prefix table (entries) the kernel builds: the depth is cut until the table fits.
PREFIX_LIMIT = 1 << 20
MAX_DEPTH = 3
#: Largest table of symbol tuples (``symbols ** depth``) the prefix builder memoizes.
MEMO_LIMIT = 1 << 24


def band_edges_in_coins(total_bet: int) -> npt.NDArray[np.int64]:
    """Band upper edges in coins for the kernel (the last entry stands for "no limit")."""
    return np.array([e * total_bet for e in BAND_EDGES] + [2**62], dtype=np.int64)


def band_labels() -> list[str]:
    edges = BAND_EDGES
    return [
        "no win",
        *(f"over {lo}x to {hi}x" for lo, hi in itertools.pairwise(edges)),
        f"over {edges[-1]}x",
    ]


def merge_stats(into: list[int], other: list[int] | npt.NDArray[np.int64]) -> None:
    """Add a chunk's statistics to ``into`` (maxima in :data:`MAX_SLOTS`)."""
    for slot, value in enumerate(other):
        into[slot] = max(into[slot], int(value)) if slot in MAX_SLOTS else into[slot] + int(value)


# ---------------------------------------------------------------------------------------
# Tables
# ---------------------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def _window_counts(
    windows: npt.NDArray[np.int8],
    lengths: npt.NDArray[np.int64],
    symbol: int,
    reels_mask: npt.NDArray[np.bool_],
    out: npt.NDArray[np.int64],
) -> None:
    """``out[reel, stop]``: the count of ``symbol`` that reel's window adds to the screen's,
    from ``count_symbol_on`` on a screen showing that window alone."""
    reels, _width, rows = windows.shape
    grid = np.full((rows, reels), -1, dtype=np.int8)
    for reel in range(reels):
        for other in range(reels):
            for row in range(rows):
                grid[row, other] = -1
        for stop in range(lengths[reel]):
            for row in range(rows):
                grid[row, reel] = windows[reel, stop, row]
            out[reel, stop] = count_symbol_on(grid, symbol, reels_mask)


@njit(cache=True, nogil=True)
def _prefix_tables(
    windows: npt.NDArray[np.int8],
    lengths: npt.NDArray[np.int64],
    depth: int,
    paylines: npt.NDArray[np.int8],
    line_pays: npt.NDArray[np.int64],
    wild: int,
    substitutable: npt.NDArray[np.bool_],
    wild_multiplier: int,
    ties_to_wild: bool,
    memo: npt.NDArray[np.int64],
    pays: npt.NDArray[np.int64],
    open_words: npt.NDArray[np.uint64],
) -> None:
    """For every stop combination of the first ``depth`` reels (index in mixed radix, reel 1
    most significant): the pay of the paylines they decide and the bit set of those still
    open (``open_words[index, line // 64]``).

    A payline's part depends only on the symbols its first ``depth`` cells show, so it is
    worked out once per symbol tuple (``run_decided``, then ``line_award``) and kept in
    ``memo`` (indexed by the tuple in mixed radix; -2 unknown, -1 open, else the pay)."""
    reels = windows.shape[0]
    n_lines = paylines.shape[0]
    n_symbols = line_pays.shape[0]
    stops = np.zeros(max(depth, 1), dtype=np.int64)
    cells = np.empty(reels, dtype=np.int8)
    for index in range(pays.shape[0]):
        rest = index
        for reel in range(depth - 1, -1, -1):
            stops[reel] = rest % lengths[reel]
            rest //= lengths[reel]
        pay = 0
        for line in range(n_lines):
            key = 0
            for reel in range(depth):
                cells[reel] = windows[reel, stops[reel], paylines[line, reel]]
                key = key * n_symbols + cells[reel]
            known = memo[key]
            if known == -2:
                if depth == reels or (depth > 0 and run_decided(cells, depth, wild, substitutable)):
                    for reel in range(depth, reels):
                        cells[reel] = cells[depth - 1]  # any completion pays the same now
                    known = line_award(
                        cells, line_pays, wild, substitutable, wild_multiplier, ties_to_wild
                    )[2]
                else:
                    known = -1
                memo[key] = known
            if known >= 0:
                pay += known
            else:
                open_words[index, line >> 6] |= np.uint64(1) << np.uint64(line & 63)
        pays[index] = pay


def _unique_rows(
    words: npt.NDArray[np.uint64],
) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.int64]]:
    """The distinct rows of ``words`` (sorted) and each row's index among them."""
    if words.shape[1] == 1:
        sets, inverse = np.unique(words[:, 0], return_inverse=True)
        return sets.reshape(-1, 1), inverse.reshape(-1).astype(np.int64)
    order = np.lexsort(words.T[::-1])
    ordered = words[order]
    starts = np.ones(len(ordered), dtype=np.bool_)
    starts[1:] = (ordered[1:] != ordered[:-1]).any(axis=1)
    inverse = np.empty(len(words), dtype=np.int64)
    inverse[order] = np.cumsum(starts) - 1
    return ordered[starts], inverse


def prefix_depth(lengths: npt.NDArray[np.int64], reels: int) -> int:
    """The deepest prefix (at most :data:`MAX_DEPTH` reels) whose table fits the limit."""
    depth = min(MAX_DEPTH, reels)
    while depth > 0 and int(np.prod(lengths[:depth], dtype=np.int64)) > PREFIX_LIMIT:
        depth -= 1
    return depth


@dataclass(frozen=True, eq=False)
class ReelTables:
    """One reel set and pay table prepared for the kernel.

    ``pays[i]`` and ``set_of[i]`` are the decided pay and the open set of prefix ``i``;
    open set ``k`` lists the paylines ``set_lines[set_starts[k]:set_starts[k + 1]]``.
    """

    windows: npt.NDArray[np.int8]  # [reel, stop, row]
    scatter_shown: npt.NDArray[np.int64]  # [reel, stop]
    trigger_shown: npt.NDArray[np.int64]  # [reel, stop]
    lengths: npt.NDArray[np.int64]
    depth: int
    pays: npt.NDArray[np.int64]
    set_of: npt.NDArray[np.int64]
    set_starts: npt.NDArray[np.int64]
    set_lines: npt.NDArray[np.int64]

    @classmethod
    def build(
        cls,
        model: GameModel,
        reel_set: ReelSet,
        line_pays: npt.NDArray[np.int64],
        rules: Mechanics,
        depth: int | None = None,
    ) -> ReelTables:
        windows = stop_windows(reel_set, model.rows)
        lengths = reel_set.lengths.astype(np.int64)
        depth = prefix_depth(lengths, model.reels) if depth is None else depth
        if not 0 <= depth <= model.reels:
            raise ValueError(f"prefix depth must be 0..{model.reels}, got {depth}")
        scatter_shown = np.zeros(windows.shape[:2], dtype=np.int64)
        if model.scatter >= 0:
            _window_counts(windows, lengths, model.scatter, model.scatter_mask, scatter_shown)
        trigger_shown = np.zeros(windows.shape[:2], dtype=np.int64)
        if rules.free_spins is not None:
            _window_counts(
                windows, lengths, rules.free_spins.symbol, rules.trigger_mask, trigger_shown
            )
        size = int(np.prod(lengths[:depth], dtype=np.int64))
        n_lines = model.line_count
        words = (n_lines + 63) // 64
        pays = np.zeros(size, dtype=np.int64)
        open_words = np.zeros((size, words), dtype=np.uint64)
        tuples = len(model.symbols) ** depth
        if tuples > MEMO_LIMIT:
            raise ModelError(
                f"{model.id}: {len(model.symbols)} symbols give {tuples:,} symbol tuples on "
                f"{depth} reels, more than the kernel's tables hold ({MEMO_LIMIT:,})"
            )
        _prefix_tables(
            windows,
            lengths,
            depth,
            model.paylines,
            line_pays,
            model.wild,
            model.substitutable,
            model.wild_multiplier,
            model.ties_to_wild,
            np.full(tuples, -2, dtype=np.int64),
            pays,
            open_words,
        )
        # the empty set is always there, and first (rows sort ascending): index EMPTY_SET
        with_empty = np.concatenate([np.zeros((1, words), dtype=np.uint64), open_words])
        sets, set_of = _unique_rows(with_empty)
        set_of = set_of[1:]
        line_numbers = np.arange(n_lines)
        bits = (sets[:, line_numbers >> 6] >> (line_numbers & 63).astype(np.uint64)) & 1
        set_index, set_lines = np.nonzero(bits)
        set_starts = np.zeros(len(sets) + 1, dtype=np.int64)
        np.cumsum(np.bincount(set_index, minlength=len(sets)), out=set_starts[1:])
        return cls(
            windows=windows,
            scatter_shown=scatter_shown,
            trigger_shown=trigger_shown,
            lengths=lengths,
            depth=depth,
            pays=pays,
            set_of=set_of,
            set_starts=set_starts,
            set_lines=set_lines.astype(np.int64),
        )


@dataclass(frozen=True, eq=False)
class StackedTables:
    """The base (index 0) and free-spin (index 1) tables in shared arrays, so that one screen
    routine serves both reel sets. Prefix ``i`` of reel set ``s`` is described by
    ``entries[s, prefix[s, i]]``: its decided pay above :data:`PAY_SHIFT` bits, its open set's
    index below them. A reel set has few distinct entries (a few thousand), so ``prefix`` holds
    16-bit indices where they fit, halving the table a spin reads at random."""

    windows: npt.NDArray[np.int8]  # [set, reel, stop, row]
    #: [set, reel, stop]: the scatters that reel's window shows, plus the trigger symbols it
    #: shows times 2^COUNT_BITS (a screen's counts are the sum over its reels).
    shown_counts: npt.NDArray[np.int32]
    lengths: npt.NDArray[np.int64]  # [set, reel]
    depth: npt.NDArray[np.int64]  # [set]
    prefix: npt.NDArray[Any]  # [set, index]: uint16 (or uint32) indices into entries
    entries: npt.NDArray[np.int64]  # [set, entry]
    set_starts: npt.NDArray[np.int64]  # [set, k]
    set_lines: npt.NDArray[np.int64]  # [set, j]

    @classmethod
    def stack(cls, base: ReelTables, free: ReelTables) -> StackedTables:
        sets = (base, free)

        def stacked(arrays: list[npt.NDArray[Any]], dtype: Any) -> npt.NDArray[Any]:
            shape = tuple(max(a.shape[d] for a in arrays) for d in range(arrays[0].ndim))
            out = np.zeros((len(arrays), *shape), dtype=dtype)
            for i, a in enumerate(arrays):
                region: tuple[int | slice, ...] = (i, *(slice(0, n) for n in a.shape))
                out[region] = a
            return out

        if any(int(t.pays.max()) >= 1 << 31 for t in sets):
            raise ModelError("a prefix of this reel set pays more than 2^31 line coins")
        distinct = [np.unique((t.pays << PAY_SHIFT) | t.set_of, return_inverse=True) for t in sets]
        narrow = all(len(entries) <= 1 << 16 for entries, _ in distinct)
        return cls(
            windows=stacked([t.windows for t in sets], np.int8),
            shown_counts=stacked(
                [t.scatter_shown + (t.trigger_shown << COUNT_BITS) for t in sets], np.int32
            ),
            lengths=stacked([t.lengths for t in sets], np.int64),
            depth=np.array([t.depth for t in sets], dtype=np.int64),
            prefix=stacked(
                [index.reshape(-1) for _, index in distinct], np.uint16 if narrow else np.uint32
            ),
            entries=stacked([entries for entries, _ in distinct], np.int64),
            set_starts=stacked([t.set_starts for t in sets], np.int64),
            set_lines=stacked([t.set_lines for t in sets], np.int64),
        )


# ---------------------------------------------------------------------------------------
# The kernel
# ---------------------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def play_rounds(
    rng: npt.NDArray[np.uint64],
    n_rounds: int,
    windows: npt.NDArray[np.int8],
    shown_counts: npt.NDArray[np.int32],
    lengths: npt.NDArray[np.int64],
    depth: npt.NDArray[np.int64],
    prefix: npt.NDArray[Any],
    entries: npt.NDArray[np.int64],
    set_starts: npt.NDArray[np.int64],
    set_lines: npt.NDArray[np.int64],
    paylines: npt.NDArray[np.int8],
    line_pays: npt.NDArray[np.int64],
    wild: int,
    substitutable: npt.NDArray[np.bool_],
    wild_multiplier: int,
    ties_to_wild: bool,
    scatter_pays: npt.NDArray[np.int64],
    total_bet: int,
    trigger: int,
    spins_table: npt.NDArray[np.int64],
    revealed: bool,
    reveal_values: npt.NDArray[np.int64],
    reveal_cumulative: npt.NDArray[np.int64],
    retrigger: int,
    retrigger_spins: npt.NDArray[np.int64],
    spins_per_symbol: int,
    max_spins: int,
    band_edges: npt.NDArray[np.int64],
    stats: npt.NDArray[np.int64],
    float_stats: npt.NDArray[np.float64],
    record: bool,
    results: npt.NDArray[np.int64],
    log: npt.NDArray[np.int64],
    log_ends: npt.NDArray[np.int64],
) -> int:
    """Play ``n_rounds`` rounds at one coin per line on every payline, adding their statistics
    to ``stats`` / ``float_stats`` (the ``S_*`` / ``F_*`` slots).

    ``line_pays[set]`` and ``scatter_pays[set]`` are the base (0) and free-spin (1) tables;
    ``trigger`` 0 means the title has no free spins. With ``record`` each round's results go
    to ``results[i]`` (the ``R_*`` fields) and its draws to ``log`` as (kind, bound, value)
    rows ending at ``log_ends[i]``. A round that would overflow ``log`` is undone (the stream
    put back to where the round began) and the call returns early. Returns the rounds played.
    """
    reels = windows.shape[1]
    base_pays = line_pays[0]  # sliced once: a view made per line would be reference-counted
    free_pays = line_pays[1]
    last_pay = scatter_pays.shape[1] - 1
    top_band = band_edges.shape[0] - 1
    total_weight = reveal_cumulative[reveal_cumulative.shape[0] - 1]
    stops = np.zeros(reels, dtype=np.int64)
    cells = np.zeros(reels, dtype=np.int8)
    saved = np.zeros(rng.shape[0], dtype=np.uint64)
    bands = np.zeros(band_edges.shape[0], dtype=np.int64)
    total = base_line_sum = base_scatter_sum = free_sum = 0
    base_hits = round_hits = triggers = free_spins_sum = retriggers = capped = 0
    max_win = max_free_spins = 0
    win_sq = base_win_sq = 0.0
    log_at = round_start = 0
    played_rounds = 0
    for i in range(n_rounds):
        if record:
            saved[:] = rng
            round_start = log_at
        reel_set = 0  # the base spin, then the free spins
        base_line = base_scatter = base_triggers = awarded = 0
        remaining = played = free_win = free_triggers = added_sum = 0
        overflow = False
        while True:
            # -- one screen of reel set `reel_set`: its stops, paylines and counted symbols --
            if record and log_at + reels > log.shape[0]:
                overflow = True
                break
            for reel in range(reels):
                bound = lengths[reel_set, reel]
                stops[reel] = bounded(rng, bound)
                if record:
                    log[log_at, 0] = DRAW_REEL_STOP
                    log[log_at, 1] = bound
                    log[log_at, 2] = stops[reel]
                    log_at += 1
            index = 0
            for reel in range(depth[reel_set]):
                index = index * lengths[reel_set, reel] + stops[reel]
            entry = entries[reel_set, prefix[reel_set, index]]
            line_pay = int(entry >> PAY_SHIFT)
            open_set = entry & SET_MASK
            if open_set != EMPTY_SET:  # most screens: every payline decided
                for j in range(set_starts[reel_set, open_set], set_starts[reel_set, open_set + 1]):
                    line = set_lines[reel_set, j]
                    for reel in range(reels):
                        cells[reel] = windows[reel_set, reel, stops[reel], paylines[line, reel]]
                    if reel_set == 0:
                        award = line_award(
                            cells, base_pays, wild, substitutable, wild_multiplier, ties_to_wild
                        )
                    else:
                        award = line_award(
                            cells, free_pays, wild, substitutable, wild_multiplier, ties_to_wild
                        )
                    line_pay += award[2]
            packed = 0
            for reel in range(reels):
                packed += shown_counts[reel_set, reel, stops[reel]]
            scattered = packed & COUNT_MASK
            shown = packed >> COUNT_BITS
            scatter_win = int(scatter_pays[reel_set, min(scattered, last_pay)]) * total_bet

            if reel_set == 0:
                base_line = line_pay
                base_scatter = scatter_win
                base_triggers = shown
                if trigger > 0 and shown >= trigger:
                    revealed_sum = -1
                    if revealed:
                        # each triggering symbol reveals a number of spins (one weighted draw)
                        if record and log_at + shown > log.shape[0]:
                            overflow = True
                            break
                        revealed_sum = 0
                        for _ in range(shown):
                            value = bounded(rng, total_weight)
                            if record:
                                log[log_at, 0] = DRAW_REVEAL
                                log[log_at, 1] = total_weight
                                log[log_at, 2] = value
                                log_at += 1
                            v = 0
                            while value >= reveal_cumulative[v]:
                                v += 1
                            revealed_sum += reveal_values[v]
                    awarded = trigger_spins(spins_table, shown, revealed_sum, max_spins)
                remaining = awarded
                reel_set = 1
            else:
                # a free spin: its win, and the trigger symbols it shows may add spins
                free_win += line_pay + scatter_win
                free_triggers += shown
                added = award_spins(
                    retrigger, retrigger_spins, spins_per_symbol, shown, awarded, max_spins
                )
                if added > 0:
                    retriggers += 1
                awarded += added
                added_sum += added
                remaining += added - 1
                played += 1
            if remaining <= 0:
                break
        if overflow:  # undo the round: its draws are made again by the next call
            rng[:] = saved
            log_at = round_start
            break

        win = base_line + base_scatter + free_win
        if record:
            out = results[i]
            out[R_WIN] = win
            out[R_BASE_LINE] = base_line
            out[R_BASE_SCATTER] = base_scatter
            out[R_BASE_TRIGGERS] = base_triggers
            out[R_AWARDED] = awarded - added_sum
            out[R_FREE_SPINS] = played
            out[R_FREE_WIN] = free_win
            out[R_FREE_TRIGGERS] = free_triggers
            out[R_ADDED] = added_sum
            log_ends[i] = log_at
        played_rounds += 1
        base_win = base_line + base_scatter
        total += win
        base_line_sum += base_line
        base_scatter_sum += base_scatter
        base_win_sq += float(base_win) * float(base_win)
        if base_win > 0 or (trigger > 0 and base_triggers >= trigger):
            base_hits += 1
        if win > 0:
            round_hits += 1
            band = 1
            while band < top_band and win > band_edges[band]:
                band += 1
            bands[band] += 1
            win_sq += float(win) * float(win)
            if win > max_win:
                max_win = win
        else:
            bands[0] += 1
        if played > 0:
            triggers += 1
            free_sum += free_win
            free_spins_sum += played
            if played > max_free_spins:
                max_free_spins = played
            if max_spins > 0 and awarded >= max_spins:
                capped += 1
    stats[S_ROUNDS] += played_rounds
    stats[S_WIN] += total
    stats[S_BASE_LINE] += base_line_sum
    stats[S_BASE_SCATTER] += base_scatter_sum
    stats[S_FREE_WIN] += free_sum
    stats[S_BASE_HITS] += base_hits
    stats[S_ROUND_HITS] += round_hits
    stats[S_TRIGGERS] += triggers
    stats[S_FREE_SPINS] += free_spins_sum
    stats[S_RETRIGGERS] += retriggers
    stats[S_CAPPED] += capped
    stats[S_MAX_WIN] = max(stats[S_MAX_WIN], max_win)
    stats[S_MAX_FREE_SPINS] = max(stats[S_MAX_FREE_SPINS], max_free_spins)
    for b in range(band_edges.shape[0]):
        stats[S_BANDS + b] += bands[b]
    float_stats[F_WIN_SQ] += win_sq
    float_stats[F_BASE_WIN_SQ] += base_win_sq
    return played_rounds


# ---------------------------------------------------------------------------------------
# A variant prepared for the kernel
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class KernelGame:
    """A catalogue variant prepared for :func:`play_rounds` (every payline, one coin each)."""

    model: GameModel
    variant_id: str
    tables: StackedTables
    line_pays: npt.NDArray[np.int64]  # [set, symbol, count]
    scatter_pays: npt.NDArray[np.int64]  # [set, count]
    total_bet: int
    trigger: int  # 0: no free spins
    spins_table: npt.NDArray[np.int64]
    revealed: bool
    reveal_purpose: str
    reveal_values: npt.NDArray[np.int64]
    reveal_cumulative: npt.NDArray[np.int64]
    retrigger: int
    retrigger_spins: npt.NDArray[np.int64]
    spins_per_symbol: int
    max_spins: int

    @classmethod
    def build(
        cls, model: GameModel, variant_id: str | None = None, *, depth: int | None = None
    ) -> KernelGame:
        """Prepare ``variant_id`` of a catalogue model; ``depth`` forces the prefix depth
        (0: no prefix tables), else it is chosen per reel set."""
        rules = mechanics(model)
        variant = model.variant(variant_id)
        free = rules.free_spins
        base = ReelTables.build(model, variant.reel_sets["base"], model.line_pays, rules, depth)
        free_tables = (
            ReelTables.build(
                model, variant.reel_sets[free.reel_set], rules.free_line_pays, rules, depth
            )
            if free is not None
            else base
        )
        scatter_pays = np.zeros((2, len(model.scatter_pays)), dtype=np.int64)
        if model.scatter >= 0:
            scatter_pays[0] = model.scatter_pays
            scatter_pays[1] = rules.free_scatter_pays
        values = np.ones(1, dtype=np.int64)
        cumulative = np.ones(1, dtype=np.int64)
        purpose = ""
        if free is not None and free.reveal is not None:
            reveal_values, weights = free.reveal_table(variant)
            values = np.array(reveal_values, dtype=np.int64)
            cumulative = np.cumsum(np.array(weights, dtype=np.int64))
            purpose = free.reveal
        empty = np.zeros(1, dtype=np.int64)
        return cls(
            model=model,
            variant_id=variant.id,
            tables=StackedTables.stack(base, free_tables),
            line_pays=np.stack([model.line_pays, rules.free_line_pays]).astype(np.int64),
            scatter_pays=scatter_pays,
            total_bet=model.line_count,
            trigger=free.trigger if free is not None else 0,
            spins_table=free.spins if free is not None else empty,
            revealed=free is not None and free.reveal is not None,
            reveal_purpose=purpose,
            reveal_values=values,
            reveal_cumulative=cumulative,
            retrigger=free.retrigger if free is not None else 2,
            retrigger_spins=free.retrigger_spins if free is not None else empty,
            spins_per_symbol=free.spins_per_symbol if free is not None else 0,
            max_spins=free.max_spins if free is not None else 0,
        )

    def play(
        self,
        rng: npt.NDArray[np.uint64],
        rounds: int,
        stats: npt.NDArray[np.int64],
        float_stats: npt.NDArray[np.float64],
        record: bool,
        results: npt.NDArray[np.int64],
        log: npt.NDArray[np.int64],
        ends: npt.NDArray[np.int64],
    ) -> int:
        """:func:`play_rounds` on this game's tables."""
        m, t = self.model, self.tables
        played: int = play_rounds(
            rng,
            rounds,
            t.windows,
            t.shown_counts,
            t.lengths,
            t.depth,
            t.prefix,
            t.entries,
            t.set_starts,
            t.set_lines,
            m.paylines,
            self.line_pays,
            m.wild,
            m.substitutable,
            m.wild_multiplier,
            m.ties_to_wild,
            self.scatter_pays,
            self.total_bet,
            self.trigger,
            self.spins_table,
            self.revealed,
            self.reveal_values,
            self.reveal_cumulative,
            self.retrigger,
            self.retrigger_spins,
            self.spins_per_symbol,
            self.max_spins,
            band_edges_in_coins(self.total_bet),
            stats,
            float_stats,
            record,
            results,
            log,
            ends,
        )
        return played

    def run(self, rng: npt.NDArray[np.uint64], rounds: int) -> tuple[list[int], list[float]]:
        """Play ``rounds`` rounds; their statistics (the ``S_*`` and ``F_*`` slots)."""
        stats = np.zeros(N_INT_STATS, dtype=np.int64)
        float_stats = np.zeros(N_FLOAT_STATS, dtype=np.float64)
        unused = np.zeros((1, ROUND_FIELDS), dtype=np.int64)
        self.play(
            rng, rounds, stats, float_stats, False, unused, np.zeros((1, 3), np.int64), unused[0]
        )
        return [int(x) for x in stats], [float(x) for x in float_stats]

    def trace(
        self, rng: npt.NDArray[np.uint64], rounds: int
    ) -> tuple[npt.NDArray[np.int64], list[npt.NDArray[np.int64]], list[int], list[float]]:
        """Play ``rounds`` rounds with the same kernel, keeping each one's results (the ``R_*``
        fields) and draws ``(kind, bound, value)``; also returns the rounds' statistics."""
        results = np.zeros((rounds, ROUND_FIELDS), dtype=np.int64)
        draws: list[npt.NDArray[np.int64]] = []
        stats = np.zeros(N_INT_STATS, dtype=np.int64)
        float_stats = np.zeros(N_FLOAT_STATS, dtype=np.float64)
        ends = np.zeros(rounds, dtype=np.int64)
        capacity = max(rounds * (self.model.reels + 2), 1024)
        done = 0
        while done < rounds:
            log = np.zeros((capacity, 3), dtype=np.int64)
            played = self.play(
                rng, rounds - done, stats, float_stats, True, results[done:], log, ends[done:]
            )
            start = 0
            for i in range(done, done + played):
                draws.append(log[start : ends[i]].copy())
                start = int(ends[i])
            if played == 0:
                capacity *= 4  # one round alone needs more rows than the log has
            done += played
        return results, draws, [int(x) for x in stats], [float(x) for x in float_stats]

    def draws_of(self, log: npt.NDArray[np.int64]) -> list[Draw]:
        """A trace's ``(kind, bound, value)`` rows as the draws live play records."""
        purposes = ("reel_stop", self.reveal_purpose)
        return [Draw(purposes[kind], int(bound), int(value)) for kind, bound, value in log]
