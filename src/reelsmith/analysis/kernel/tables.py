"""The tables the kernel reads: a reel set's windows and the symbols each window shows, the
line rule as an automaton, and the prefix entries of the first reels, built from the engine's
own rules.

A reel set is prepared once (:class:`ReelTables`): each reel's window per stop, per stop the
count of the scatter and of the feature symbol in that reel's window (``count_symbol_on`` on
the window, so a symbol counted only on some reels counts nowhere else; the feature symbol is
the catalogue's trigger symbol, or the ladder's bonus symbol), and on a ladder model the row
showing the gem. The line rule of each pay table becomes an automaton (:class:`LineAutomaton`)
reading a payline's cells from reel 1: a state is a run still open (``run_decided`` false on
the cells read) or a decided pay, ``line_award`` on the cells read with any completion (the run
has broken, so every completion pays the same; after the last reel there is none). It is built
by calling those two functions on every open run and every next symbol (a few hundred states),
so it pays what live play pays. The line pays then use the prefix trick: for every stop
combination of the first ``depth`` reels (3 where the table stays under :data:`PREFIX_LIMIT`
entries, else fewer) an entry holds the total pay of the paylines those reels decide and the
paylines still open with the state each has reached; a spin walks only the open ones over the
other reels (a table lookup per cell, the last one reading the pay), and a screen whose paylines
are all decided (most of them) walks none. Entries are deduplicated: a reel set has some
thousands, so the table a spin reads at random holds 16-bit indices into them and stays in a
core's cache (300 KB for three 53-stop reels). ``depth = 0`` gives the kernel without prefix
tables (every payline walked from the start on every screen): the benchmark's baseline and a
parity check.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit, types
from numba.typed import Dict

from reelsmith.analysis.enumeration import run_decided, stop_windows
from reelsmith.engine.lines import count_symbol_on, line_award
from reelsmith.engine.model import GameModel, ReelSet

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
    #: [reel, stop]: the feature symbols shown (the catalogue's trigger, the ladder's bonus)
    trigger_shown: npt.NDArray[np.int64]
    gem_row: npt.NDArray[np.int64]  # [reel, stop]: the row showing the ladder's gem, or -1
    lengths: npt.NDArray[np.int64]
    #: Per reel the bound of its stop draw (the strip's length, or its total stop weight) and
    #: ``[reel, stop]`` the cumulative weights a weighted draw is looked up in.
    totals: npt.NDArray[np.int64]
    cumulative: npt.NDArray[np.int64]
    weighted: bool
    #: Draws per reel: 1 (its stop), or on a reel set of drawn cells one per row, each
    #: below ``totals`` (the cell table's total) looked up in ``cumulative`` (the table's
    #: cumulative weights), the position the digits of the draws written in base ``radix``
    #: (0 on a strip's reel).
    cell_draws: int
    radix: npt.NDArray[np.int64]
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
        counted: tuple[int, npt.NDArray[np.bool_]] | None,
        depth: int | None = None,
        gem: int = -1,
    ) -> ReelTables:
        """The tables of ``reel_set`` paying ``line_pays``: ``counted`` is the feature symbol
        the round counts and the reels it counts on (the free spins' trigger, the ladder's
        bonus symbol; None: none), ``gem`` a symbol whose row each window records (the
        ladder's gem; -1: none)."""
        windows = stop_windows(reel_set, model.rows)
        lengths = reel_set.position_counts.astype(np.int64)
        depth = prefix_depth(lengths, model.reels) if depth is None else depth
        if not 0 <= depth <= model.reels:
            raise ValueError(f"prefix depth must be 0..{model.reels}, got {depth}")
        scatter_shown = np.zeros(windows.shape[:2], dtype=np.int64)
        if model.scatter >= 0:
            _window_counts(windows, lengths, model.scatter, model.scatter_mask, scatter_shown)
        trigger_shown = np.zeros(windows.shape[:2], dtype=np.int64)
        gem_row = np.full(windows.shape[:2], -1, dtype=np.int64)
        if counted is not None:
            _window_counts(windows, lengths, counted[0], counted[1], trigger_shown)
        if gem >= 0:
            gems = windows == gem
            if (gems.sum(axis=2) > 1).any():
                raise ValueError(f"{model.id}: {reel_set.name} would show two gems on a reel")
            reel_idx, stop_idx, row_idx = np.nonzero(gems)
            gem_row[reel_idx, stop_idx] = row_idx
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
        totals = reel_set.totals.astype(np.int64)
        cumulative = reel_set.cumulative
        cell_draws = 1
        radix = np.zeros(model.reels, dtype=np.int64)  # 0: a strip's reel, one stop draw
        if reel_set.cells is not None:
            cell_draws = model.rows
            radix = reel_set.lengths.astype(np.int64)
            totals, cumulative = reel_set.cell_draw_tables(reel_set.cumulative.shape[1])
        return cls(
            windows=windows,
            scatter_shown=scatter_shown,
            trigger_shown=trigger_shown,
            gem_row=gem_row,
            lengths=lengths,
            totals=totals,
            cumulative=cumulative,
            weighted=reel_set.weighted,
            cell_draws=cell_draws,
            radix=radix,
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
    #: [set, reel, stop]: the scatters that reel's window shows, plus the feature symbols it
    #: shows times 2^COUNT_BITS (a screen's counts are the sum over its reels).
    shown_counts: npt.NDArray[np.int32]
    gem_row: npt.NDArray[np.int64]  # [set, reel, stop]: the gem's row, or -1
    lengths: npt.NDArray[np.int64]  # [set, reel]
    totals: npt.NDArray[np.int64]  # [set, reel]: the stop draw's bound
    cumulative: npt.NDArray[np.int64]  # [set, reel, stop]: cumulative stop weights
    #: Whether either reel set weighs its stops (else every stop is drawn below the length).
    weighted: bool
    cell_draws: npt.NDArray[np.int64]  # [set]: draws per reel (1, or the rows of drawn cells)
    radix: npt.NDArray[np.int64]  # [set, reel]: the base a drawn-cells reel's digits are in
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

        def stacked(arrays: list[npt.NDArray[Any]], dtype: Any, fill: int = 0) -> npt.NDArray[Any]:
            shape = tuple(max(a.shape[d] for a in arrays) for d in range(arrays[0].ndim))
            out = np.full((len(arrays), *shape), fill, dtype=dtype)
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
            gem_row=stacked([t.gem_row for t in sets], np.int64, -1),
            lengths=stacked([t.lengths for t in sets], np.int64),
            totals=stacked([t.totals for t in sets], np.int64),
            cumulative=stacked([t.cumulative for t in sets], np.int64),
            weighted=any(t.weighted for t in sets),
            cell_draws=np.array([t.cell_draws for t in sets], dtype=np.int64),
            radix=stacked([t.radix for t in sets], np.int64),
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
