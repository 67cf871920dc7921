"""The one simulation kernel of every catalogue title: base spin, trigger, reveals, free spins
with retriggers and the cap, compiled (numba), for any grid of 3-7 reels and 1-8 rows and any
number of paylines.

Same draws, same rules
----------------------
:func:`play_rounds` makes the draws live play makes (:mod:`reelsmith.engine.catalogue_round`),
in the same order: one ``reel_stop`` per reel, ``randbelow(len(strip))`` (below the reel's
total weight on a reel set with ``stop_weights``, the stop then found in the cumulative
weights by :func:`reelsmith.engine.stops.stop_for_draw`, as live play finds it); on a trigger
whose award is revealed, one draw below the reveal table's total weight per triggering symbol,
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
on the window, so a symbol counted only on some reels counts nowhere else). The line rule of
each pay table becomes an automaton (:class:`LineAutomaton`) reading a payline's cells from
reel 1: a state is a run still open (``run_decided`` false on the cells read) or a decided
pay, ``line_award`` on the cells read with any completion (the run has broken, so every
completion pays the same; after the last reel there is none). It is built by calling those
two functions on every open run and every next symbol (a few hundred states), so it pays
what live play pays. The line pays then use the prefix trick: for every stop combination of
the first ``depth`` reels (3 where the table stays under :data:`PREFIX_LIMIT` entries, else
fewer) an entry holds the total pay of the paylines those reels decide and the paylines still
open with the state each has reached; a spin walks only the open ones over the other reels (a
table lookup per cell, the last one reading the pay), and a screen whose paylines are all
decided (most of them) walks none. Entries are deduplicated: a reel set has some thousands,
so the table a spin reads at random holds 16-bit indices into them and stays in a core's
cache (300 KB for three 53-stop reels). ``depth = 0`` gives the kernel without prefix tables
(every payline walked from the start on every screen): the benchmark's baseline and a parity
check.

The whole round loop is one function with one screen routine for both reel sets (their tables
stacked in shared arrays: a helper per screen would cost more than the screen, since numba
reference-counts every array handed to a call). The same loop keeps the statistics and, with
``record``, each round's results and draws, so the parity tests cover the code that simulates;
it is compiled twice, recording and not, so the loop that only counts carries none of the
trace's branches, and it counts a round's statistics without branches (whether a round wins
is as likely as not). Draws come from :mod:`reelsmith.analysis.pcg64` (numpy's PCG64 and
``Generator.integers``).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit, types
from numba.typed import Dict

from reelsmith.analysis.chunks import merge_counts
from reelsmith.analysis.enumeration import run_decided, stop_windows
from reelsmith.analysis.pcg64 import load_stream, store_stream, stream_bounded
from reelsmith.engine.catalogue import Mechanics, award_spins, mechanics, trigger_spins
from reelsmith.engine.lines import count_symbol_on, line_award
from reelsmith.engine.model import GameModel, ReelSet
from reelsmith.engine.plugins import Plugin
from reelsmith.engine.stops import stop_for_draw
from reelsmith.rng import Draw

# Draw kinds in a trace (the purposes live play records: reel stops, the reveal table's, the
# plug-in's).
DRAW_REEL_STOP = 0
DRAW_REVEAL = 1
DRAW_PLUGIN = 2

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
#: What the plug-in adds to the base spins' wins (0 without one): the base spin's win is
#: ``S_BASE_LINE + S_BASE_SCATTER + S_BASE_PLUGIN``.
S_BASE_PLUGIN = S_BANDS + N_BANDS
N_INT_STATS = S_BASE_PLUGIN + 1
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

#: The line automaton's decided state that pays nothing, and its start state (no cell read).
PAYS_NOTHING = 0
START = 1

#: A prefix entry's columns: the pay of the paylines it decides, then where its open paylines
#: begin and end in the open lists.
E_PAY, E_OPEN, E_END = range(3)

#: Largest prefix table (entries) the kernel builds: the depth is cut until the table fits.
PREFIX_LIMIT = 1 << 20
MAX_DEPTH = 3


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
    merge_counts(into, other, MAX_SLOTS)


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
def _line_automaton(
    reels: int,
    line_pays: npt.NDArray[np.int64],
    wild: int,
    substitutable: npt.NDArray[np.bool_],
    wild_multiplier: int,
    ties_to_wild: bool,
    capacity: int,
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    """The line rule as an automaton reading a payline's cells from reel 1: ``trans[state,
    symbol]`` is the state after one more cell, ``pays[state]`` the pay of a decided state.

    A live state is a run still open (``run_decided`` false on the cells read, fewer than
    ``reels`` of them); every other reading leads to the decided state of its pay, which keeps
    it whatever follows. A decided pay is ``line_award`` on the cells read, completed with the
    last of them (any completion pays the same once the run has broken; after the last reel
    there is nothing to complete). States: :data:`PAYS_NOTHING`, :data:`START`, then in the
    order found."""
    n_symbols = line_pays.shape[0]
    trans = np.zeros((capacity, n_symbols), dtype=np.int32)
    pays = np.zeros(capacity, dtype=np.int64)
    live = np.zeros(capacity, dtype=np.bool_)
    read = np.zeros((capacity, reels), dtype=np.int8)  # the cells a live state has read
    length = np.zeros(capacity, dtype=np.int64)
    decided = Dict.empty(key_type=types.int64, value_type=types.int64)
    decided[0] = PAYS_NOTHING
    live[START] = True
    n_states = START + 1
    cells = np.empty(reels, dtype=np.int8)
    for state in range(capacity):
        if state >= n_states:
            break
        if not live[state]:
            trans[state, :] = state
            continue
        k = length[state]
        cells[:k] = read[state, :k]
        for symbol in range(n_symbols):
            cells[k] = symbol
            if k + 1 == reels or run_decided(cells, k + 1, wild, substitutable):
                cells[k + 1 :] = symbol
                pay = line_award(
                    cells, line_pays, wild, substitutable, wild_multiplier, ties_to_wild
                )[2]
                if pay not in decided:
                    decided[pay] = n_states
                    pays[n_states] = pay
                    n_states += 1
                trans[state, symbol] = decided[pay]
            else:
                live[n_states] = True
                length[n_states] = k + 1
                read[n_states, : k + 1] = cells[: k + 1]
                trans[state, symbol] = n_states
                n_states += 1
    return trans[:n_states].copy(), pays[:n_states].copy(), live[:n_states].copy()


@dataclass(frozen=True, eq=False)
class LineAutomaton:
    """One pay table's line rule (:func:`reelsmith.engine.lines.line_award` with the model's
    wild, substitutions, wild multiplier and tie rule) as an automaton over a payline's cells:
    see :func:`_line_automaton`. Walking a payline's cells from :data:`START` ends in the state
    whose ``pays`` entry is the line's pay."""

    trans: npt.NDArray[np.int32]  # [state, symbol]
    pays: npt.NDArray[np.int64]  # [state]
    live: npt.NDArray[np.bool_]  # [state]

    @classmethod
    def build(cls, model: GameModel, line_pays: npt.NDArray[np.int64]) -> LineAutomaton:
        n, reels = len(model.symbols), model.reels
        # open runs of k cells: the wild alone, or the wild and one other symbol with that
        # symbol first among them; decided states: one per pay of a symbol and count (x2
        # with the wild multiplier) and nothing
        capacity = sum(1 + n * (2**k - 1) for k in range(reels)) + 2 * n * (reels + 1) + 2
        trans, pays, live = _line_automaton(
            reels,
            line_pays.astype(np.int64),
            model.wild,
            model.substitutable,
            model.wild_multiplier,
            model.ties_to_wild,
            capacity,
        )
        return cls(trans=trans, pays=pays, live=live)


@njit(cache=True, nogil=True)
def _grow(array: npt.NDArray[Any], needed: int) -> npt.NDArray[Any]:
    """``array`` with room for ``needed`` items (doubled as often as that takes)."""
    if needed <= array.shape[0]:
        return array
    size = array.shape[0]
    while size < needed:
        size *= 2
    grown = np.zeros(size, dtype=array.dtype)
    grown[: array.shape[0]] = array
    return grown


@njit(cache=True, nogil=True)
def _prefix_entries(
    windows: npt.NDArray[np.int8],
    lengths: npt.NDArray[np.int64],
    depth: int,
    paylines: npt.NDArray[np.int8],
    trans: npt.NDArray[np.int32],
    pays: npt.NDArray[np.int64],
    live: npt.NDArray[np.bool_],
    entry_of: npt.NDArray[np.int64],
) -> tuple[
    npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int32], npt.NDArray[np.int32]
]:
    """For every stop combination of the first ``depth`` reels (``entry_of`` index in mixed
    radix, reel 1 most significant) its entry: the pay of the paylines those reels decide, and
    the paylines still open with the automaton state each has reached. Equal entries are kept
    once. Returns the entries' pays, and their open paylines ``lines[starts[e]:starts[e + 1]]``
    with their states."""
    n_lines = paylines.shape[0]
    size = entry_of.shape[0]
    stops = np.zeros(max(depth, 1), dtype=np.int64)
    row_lines = np.zeros(n_lines, dtype=np.int32)
    row_states = np.zeros(n_lines, dtype=np.int32)
    buckets = 1
    while buckets < 2 * size:
        buckets *= 2
    bucket_entry = np.full(buckets, -1, dtype=np.int64)
    entry_pays = np.zeros(64, dtype=np.int64)
    starts = np.zeros(65, dtype=np.int64)
    lines = np.zeros(256, dtype=np.int32)
    states = np.zeros(256, dtype=np.int32)
    n_entries = 0
    for index in range(size):
        rest = index
        for reel in range(depth - 1, -1, -1):
            stops[reel] = rest % lengths[reel]
            rest //= lengths[reel]
        pay = 0
        n_open = 0
        for line in range(n_lines):
            state = START
            for reel in range(depth):
                state = trans[state, windows[reel, stops[reel], paylines[line, reel]]]
            if live[state]:
                row_lines[n_open] = line
                row_states[n_open] = state
                n_open += 1
            else:
                pay += pays[state]
        digest = np.uint64(pay) * np.uint64(0x9E3779B97F4A7C15)
        for j in range(n_open):
            word = np.uint64(row_lines[j]) << np.uint64(32) | np.uint64(row_states[j])
            digest = (digest ^ word) * np.uint64(0x100000001B3)
        bucket = np.int64(digest >> np.uint64(1)) & (buckets - 1)
        while True:
            e = bucket_entry[bucket]
            if e < 0:  # a new entry
                e = n_entries
                entry_pays = _grow(entry_pays, e + 1)
                starts = _grow(starts, e + 2)
                lines = _grow(lines, starts[e] + n_open)
                states = _grow(states, starts[e] + n_open)
                entry_pays[e] = pay
                lines[starts[e] : starts[e] + n_open] = row_lines[:n_open]
                states[starts[e] : starts[e] + n_open] = row_states[:n_open]
                starts[e + 1] = starts[e] + n_open
                bucket_entry[bucket] = e
                n_entries += 1
                break
            first = starts[e]
            if (
                entry_pays[e] == pay
                and starts[e + 1] - first == n_open
                and (lines[first : first + n_open] == row_lines[:n_open]).all()
                and (states[first : first + n_open] == row_states[:n_open]).all()
            ):
                break
            bucket = (bucket + 1) & (buckets - 1)
        entry_of[index] = e
    end = starts[n_entries]
    return (
        entry_pays[:n_entries].copy(),
        starts[: n_entries + 1].copy(),
        lines[:end].copy(),
        states[:end].copy(),
    )


def prefix_depth(lengths: npt.NDArray[np.int64], reels: int) -> int:
    """The deepest prefix (at most :data:`MAX_DEPTH` reels) whose table fits the limit."""
    depth = min(MAX_DEPTH, reels)
    while depth > 0 and int(np.prod(lengths[:depth], dtype=np.int64)) > PREFIX_LIMIT:
        depth -= 1
    return depth


@dataclass(frozen=True, eq=False)
class ReelTables:
    """One reel set and pay table prepared for the kernel.

    Prefix ``i`` (a stop combination of the first ``depth`` reels) has entry ``entry_of[i]``;
    entry ``e`` pays ``entry_pays[e]`` for the paylines its reels decide and lists the open ones
    as ``open_lines[open_starts[e]:open_starts[e + 1]]``, each with the state ``open_states``
    the line automaton has reached on them.
    """

    windows: npt.NDArray[np.int8]  # [reel, stop, row]
    scatter_shown: npt.NDArray[np.int64]  # [reel, stop]
    trigger_shown: npt.NDArray[np.int64]  # [reel, stop]
    lengths: npt.NDArray[np.int64]
    #: Per reel the bound of its stop draw (the strip's length, or its total stop weight) and
    #: ``[reel, stop]`` the cumulative weights a weighted draw is looked up in.
    totals: npt.NDArray[np.int64]
    cumulative: npt.NDArray[np.int64]
    weighted: bool
    depth: int
    automaton: LineAutomaton
    entry_of: npt.NDArray[np.int64]
    entry_pays: npt.NDArray[np.int64]
    open_starts: npt.NDArray[np.int64]
    open_lines: npt.NDArray[np.int32]
    open_states: npt.NDArray[np.int32]

    @classmethod
    def build(
        cls,
        model: GameModel,
        reel_set: ReelSet,
        line_pays: npt.NDArray[np.int64],
        rules: Mechanics | None,
        depth: int | None = None,
    ) -> ReelTables:
        """The tables of ``reel_set`` paying ``line_pays``. ``rules`` None counts no trigger
        symbol: the tables of a model played by other rules, whose kernel reads the line tables
        (the ladder kernel, :mod:`reelsmith.analysis.ladder_kernel`)."""
        windows = stop_windows(reel_set, model.rows)
        lengths = reel_set.lengths.astype(np.int64)
        depth = prefix_depth(lengths, model.reels) if depth is None else depth
        if not 0 <= depth <= model.reels:
            raise ValueError(f"prefix depth must be 0..{model.reels}, got {depth}")
        scatter_shown = np.zeros(windows.shape[:2], dtype=np.int64)
        if model.scatter >= 0:
            _window_counts(windows, lengths, model.scatter, model.scatter_mask, scatter_shown)
        trigger_shown = np.zeros(windows.shape[:2], dtype=np.int64)
        if rules is not None and rules.free_spins is not None:
            _window_counts(
                windows, lengths, rules.free_spins.symbol, rules.trigger_mask, trigger_shown
            )
        automaton = LineAutomaton.build(model, line_pays)
        entry_of = np.zeros(int(np.prod(lengths[:depth], dtype=np.int64)), dtype=np.int64)
        entry_pays, open_starts, open_lines, open_states = _prefix_entries(
            windows,
            lengths,
            depth,
            model.paylines,
            automaton.trans,
            automaton.pays,
            automaton.live,
            entry_of,
        )
        return cls(
            windows=windows,
            scatter_shown=scatter_shown,
            trigger_shown=trigger_shown,
            lengths=lengths,
            totals=reel_set.totals.astype(np.int64),
            cumulative=reel_set.cumulative,
            weighted=reel_set.weighted,
            depth=depth,
            automaton=automaton,
            entry_of=entry_of,
            entry_pays=entry_pays,
            open_starts=open_starts,
            open_lines=open_lines,
            open_states=open_states,
        )


@dataclass(frozen=True, eq=False)
class StackedTables:
    """The base (index 0) and free-spin (index 1) tables in shared arrays, so that one screen
    routine serves both reel sets. Prefix ``i`` of reel set ``s`` has entry ``prefix[s, i]``
    (:class:`ReelTables`). A reel set has few distinct entries (some thousands), so ``prefix``
    holds 16-bit indices where they fit, halving the table a spin reads at random."""

    windows: npt.NDArray[np.int8]  # [set, reel, stop, row]
    #: [set, reel, stop]: the scatters that reel's window shows, plus the trigger symbols it
    #: shows times 2^COUNT_BITS (a screen's counts are the sum over its reels).
    shown_counts: npt.NDArray[np.int32]
    lengths: npt.NDArray[np.int64]  # [set, reel]
    totals: npt.NDArray[np.int64]  # [set, reel]: the stop draw's bound
    cumulative: npt.NDArray[np.int64]  # [set, reel, stop]: cumulative stop weights
    #: Whether either reel set weighs its stops (else every stop is drawn below the length).
    weighted: bool
    depth: npt.NDArray[np.int64]  # [set]
    prefix: npt.NDArray[Any]  # [set, index]: uint16 (or uint32) entry numbers
    entries: npt.NDArray[np.int64]  # [set, entry, E_*]: one entry's figures side by side
    open_lines: npt.NDArray[np.int32]  # [set, j]
    open_states: npt.NDArray[np.int32]  # [set, j]
    trans: npt.NDArray[np.int32]  # [set, state, symbol]
    #: [set, state, symbol]: the pay of the state ``trans`` leads to (the last reel's step)
    last_pays: npt.NDArray[np.int64]

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

        narrow = all(len(t.entry_pays) <= 1 << 16 for t in sets)
        return cls(
            windows=stacked([t.windows for t in sets], np.int8),
            shown_counts=stacked(
                [t.scatter_shown + (t.trigger_shown << COUNT_BITS) for t in sets], np.int32
            ),
            lengths=stacked([t.lengths for t in sets], np.int64),
            totals=stacked([t.totals for t in sets], np.int64),
            cumulative=stacked([t.cumulative for t in sets], np.int64),
            weighted=any(t.weighted for t in sets),
            depth=np.array([t.depth for t in sets], dtype=np.int64),
            prefix=stacked([t.entry_of for t in sets], np.uint16 if narrow else np.uint32),
            entries=stacked(
                [
                    np.stack([t.entry_pays, t.open_starts[:-1], t.open_starts[1:]], axis=1)
                    for t in sets
                ],
                np.int64,
            ),
            open_lines=stacked([t.open_lines for t in sets], np.int32),
            open_states=stacked([t.open_states for t in sets], np.int32),
            trans=stacked([t.automaton.trans for t in sets], np.int32),
            last_pays=stacked([t.automaton.pays[t.automaton.trans] for t in sets], np.int64),
        )


# ---------------------------------------------------------------------------------------
# The kernel
# ---------------------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def play_rounds(
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
    """Play ``n_rounds`` rounds at one coin per line on every payline, adding their statistics
    to ``stats`` / ``float_stats`` (the ``S_*`` / ``F_*`` slots).

    ``game`` is :meth:`KernelGame.kernel_args`: the stacked tables (:class:`StackedTables`,
    base reel set 0 and free-spin reel set 1), the paylines, the scatter pays per reel set, the
    total bet, the free-spin rules and the band edges in coins; ``trigger`` 0 means the title
    has no free spins. With ``record`` each round's results go to ``results[i]`` (the ``R_*``
    fields) and its draws to ``log`` as (kind, bound, value) rows ending at ``log_ends[i]``. A
    round that would overflow ``log`` is undone (the stream put back to where the round began)
    and the call returns early. Returns the rounds played.
    """
    run = (rng, n_rounds, game, stats, float_stats, results, log, log_ends)
    # four loops compiled: the one that only counts has none of the trace's branches, and the
    # one of unweighted reels none of the weighted stop draw's; none carries a plug-in's step
    bound, apply, table = _no_plugin_bound, _no_plugin_apply, _NO_PLUGIN_TABLE
    if game[5]:  # the stacked tables' ``weighted``
        if record:
            return _round_loop(True, True, run, False, bound, apply, table, False, False)
        return _round_loop(False, True, run, False, bound, apply, table, False, False)
    if record:
        return _round_loop(True, False, run, False, bound, apply, table, False, False)
    return _round_loop(False, False, run, False, bound, apply, table, False, False)


@njit(cache=True, nogil=True)
def _no_plugin_bound(table: npt.NDArray[np.int64], free: bool, win: int, total_bet: int) -> int:
    """The draw bound of a model without a plug-in (never called: the loop's flag is off)."""
    return 0


@njit(cache=True, nogil=True)
def _no_plugin_apply(
    table: npt.NDArray[np.int64], free: bool, win: int, total_bet: int, value: int
) -> tuple[int, int]:
    """The step of a model without a plug-in (never called: the loop's flag is off)."""
    return win, 0


_NO_PLUGIN_TABLE = np.zeros(1, dtype=np.int64)


def play_plugin_rounds(run: tuple[Any, ...], record: bool, plugin: Plugin) -> int:
    """:func:`play_rounds` for a model with a plug-in, on the same arguments (``run``: all but
    ``record``, in their order): the same round loop with the plug-in's step compiled in (its
    module's own ``draw_bound`` and ``apply``). Each plug-in gets its own compilation (numba
    types a function argument by the function), so the loop of a model without one is
    untouched; the loop that records and the one that only counts are compiled apart, each
    when first called. They are not cached on disk: a function argument's type is new in every
    process, so the cache would only grow; the compilation costs some seconds per process."""
    loop = _plugin_trace if record else _plugin_count
    module = plugin.module
    played: int = loop(
        run, module.draw_bound, module.apply, plugin.table, plugin.in_base, plugin.in_free
    )
    return played


def _plugin_loop(record: bool) -> Any:
    """The round loop of a model with a plug-in, ``record`` a constant of it (the plug-in's
    functions and table are its arguments)."""

    @njit(nogil=True)
    def loop(
        run: tuple[Any, ...],
        bound: Any,
        apply: Any,
        table: npt.NDArray[np.int64],
        in_base: bool,
        in_free: bool,
    ) -> int:
        return _round_loop(record, run[2][5], run, True, bound, apply, table, in_base, in_free)

    return loop


_plugin_count = _plugin_loop(False)
_plugin_trace = _plugin_loop(True)


@njit(cache=True, nogil=True, inline="always")
def _round_loop(
    record: bool,
    weighted: bool,
    run: tuple[Any, ...],
    has_plugin: bool,
    plugin_bound: Any,
    plugin_apply: Any,
    plugin_table: npt.NDArray[np.int64],
    plugin_in_base: bool,
    plugin_in_free: bool,
) -> int:
    """:func:`play_rounds` on its arguments ``run`` (all but ``record``), with ``record`` and
    ``weighted`` (whether a reel set weighs its stops) constants where it is inlined; with
    ``has_plugin`` (a constant too) each screen's win goes through the plug-in's step
    (``plugin_bound``, ``plugin_apply`` on ``plugin_table``, where ``plugin_in_base`` /
    ``plugin_in_free`` say it acts) after its lines and scatter
    are paid, its draw made and recorded as live play makes it (before any reveal)."""
    rng, n_rounds, game, stats, float_stats, results, log, log_ends = run
    (
        windows,
        shown_counts,
        lengths,
        totals,
        cumulative,
        _weighted,  # dispatched on by play_rounds, a constant here
        depth,
        prefix,
        entries,
        open_lines,
        open_states,
        trans,
        last_pays,
        paylines,
        scatter_pays,
        total_bet,
        trigger,
        spins_table,
        revealed,
        reveal_values,
        reveal_cumulative,
        retrigger,
        retrigger_spins,
        spins_per_symbol,
        max_spins,
        band_edges,
    ) = game
    reels = windows.shape[1]
    last = reels - 1
    last_pay = scatter_pays.shape[1] - 1
    top_band = band_edges.shape[0] - 1
    hit_triggers = trigger if trigger > 0 else 1 << 62  # a base spin's trigger counts as a hit
    total_weight = reveal_cumulative[reveal_cumulative.shape[0] - 1]
    stops = np.zeros(reels, dtype=np.int64)
    stream = load_stream(rng)  # held as values while the rounds draw, written back at the end
    saved = stream
    bands = np.zeros(band_edges.shape[0], dtype=np.int64)
    total = base_line_sum = base_scatter_sum = free_sum = 0
    base_hits = round_hits = triggers = free_spins_sum = retriggers = capped = 0
    max_win = max_free_spins = 0
    base_plugin_sum = 0
    win_sq = base_win_sq = 0.0
    log_at = round_start = 0
    played_rounds = 0
    for i in range(n_rounds):
        if record:
            saved = stream
            round_start = log_at
        reel_set = 0  # the base spin, then the free spins
        base_line = base_scatter = base_triggers = awarded = base_plugin = 0
        remaining = played = free_win = free_triggers = added_sum = 0
        overflow = False
        while True:
            # -- one screen of reel set `reel_set`: its stops, paylines and counted symbols --
            if record and log_at + reels > log.shape[0]:
                overflow = True
                break
            index = 0  # the prefix's, in mixed radix
            packed = 0  # the counted symbols' (scatter, trigger) word, summed over the reels
            for reel in range(reels):
                length = lengths[reel_set, reel]
                if weighted:  # one draw below the total weight, looked up as live play does
                    bound = totals[reel_set, reel]
                    stream, value = stream_bounded(stream, bound)
                    stop = stop_for_draw(cumulative[reel_set, reel], length, value)
                else:
                    bound = length
                    stream, value = stream_bounded(stream, bound)
                    stop = value
                stops[reel] = stop
                if reel < depth[reel_set]:
                    index = index * length + stop
                packed += shown_counts[reel_set, reel, stop]
                if record:
                    log[log_at, 0] = DRAW_REEL_STOP
                    log[log_at, 1] = bound
                    log[log_at, 2] = value
                    log_at += 1
            entry = entries[reel_set, prefix[reel_set, index]]
            line_pay = entry[E_PAY]
            # the paylines the prefix leaves open: the line automaton reads their other cells
            for j in range(entry[E_OPEN], entry[E_END]):
                line = open_lines[reel_set, j]
                state = open_states[reel_set, j]
                for reel in range(depth[reel_set], last):
                    state = trans[
                        reel_set, state, windows[reel_set, reel, stops[reel], paylines[line, reel]]
                    ]
                line_pay += last_pays[
                    reel_set, state, windows[reel_set, last, stops[last], paylines[line, last]]
                ]
            scattered = packed & COUNT_MASK
            shown = packed >> COUNT_BITS
            scatter_win = int(scatter_pays[reel_set, min(scattered, last_pay)]) * total_bet
            spin_win = line_pay + scatter_win
            if has_plugin:
                free_spin = reel_set == 1
                if plugin_in_free if free_spin else plugin_in_base:
                    bound = plugin_bound(plugin_table, free_spin, spin_win, total_bet)
                    value = 0
                    if bound > 0:
                        if record and log_at + 1 > log.shape[0]:
                            overflow = True
                            break
                        stream, value = stream_bounded(stream, bound)
                        if record:
                            log[log_at, 0] = DRAW_PLUGIN
                            log[log_at, 1] = bound
                            log[log_at, 2] = value
                            log_at += 1
                    spin_win = plugin_apply(plugin_table, free_spin, spin_win, total_bet, value)[0]

            if reel_set == 0:
                base_line = line_pay
                base_scatter = scatter_win
                if has_plugin:
                    base_plugin = spin_win - line_pay - scatter_win
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
                            stream, value = stream_bounded(stream, total_weight)
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
                free_win += spin_win
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
            stream = saved
            log_at = round_start
            break

        win = base_line + base_scatter + free_win
        if has_plugin:
            win += base_plugin
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
        if has_plugin:
            base_win += base_plugin
            base_plugin_sum += base_plugin
        total += win
        base_line_sum += base_line
        base_scatter_sum += base_scatter
        # counted without branches: whether a round wins is as likely as not, and a branch the
        # processor mispredicts waits for the screen's tables (adding 0.0 changes no sum)
        base_win_sq += float(base_win) * float(base_win)
        base_hits += (base_win > 0) | (base_triggers >= hit_triggers)
        round_hits += win > 0
        band = 0  # the number of band edges the win passes (edge 0 is 0: no win, band 0)
        for b in range(top_band):
            band += win > band_edges[b]
        bands[band] += 1
        win_sq += float(win) * float(win)
        max_win = max(max_win, win)
        if played > 0:
            triggers += 1
            free_sum += free_win
            free_spins_sum += played
            if played > max_free_spins:
                max_free_spins = played
            if max_spins > 0 and awarded >= max_spins:
                capped += 1
    store_stream(stream, rng)
    stats[S_ROUNDS] += played_rounds
    stats[S_WIN] += total
    stats[S_BASE_LINE] += base_line_sum
    stats[S_BASE_SCATTER] += base_scatter_sum
    stats[S_BASE_PLUGIN] += base_plugin_sum
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
    plugin: Plugin | None = None  # the model's plug-in, compiled into its own loop

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
            plugin=rules.plugin,
        )

    def kernel_args(self) -> tuple[Any, ...]:
        """The game as :func:`play_rounds` reads it (in the order it unpacks it)."""
        t = self.tables
        return (
            t.windows,
            t.shown_counts,
            t.lengths,
            t.totals,
            t.cumulative,
            t.weighted,
            t.depth,
            t.prefix,
            t.entries,
            t.open_lines,
            t.open_states,
            t.trans,
            t.last_pays,
            self.model.paylines,
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
        """:func:`play_rounds` on this game's tables (:func:`play_plugin_rounds` with the
        model's plug-in, if it has one)."""
        run = (rng, rounds, self.kernel_args(), stats, float_stats, results, log, ends)
        if self.plugin is None:
            played: int = play_rounds(*run[:5], record, *run[5:])
            return played
        played = play_plugin_rounds(run, record, self.plugin)
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
        capacity = max(rounds * (self.model.reels + 3), 1024)
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
        purposes = ("reel_stop", self.reveal_purpose, self.plugin.purpose if self.plugin else "")
        return [Draw(purposes[kind], int(bound), int(value)) for kind, bound, value in log]
