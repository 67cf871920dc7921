"""The ladder-and-pots mechanic as one compiled kernel: a player's sequence of rounds at one
bet size, carrying the pots, their hidden trigger points and the collection meter from round
to round.

The kernel makes the same draws in the same order as live play
(:mod:`reelsmith.engine.ladder`): per spin one stop per reel, then reel by reel each
gem's draw (a new trigger point when it hits its pot, else its reveal); free spins follow the
main-game spin while the ladder lasts. A parity test replays the kernel's draws through the
live engine and requires identical rounds and states. The ladder's and the pots' transitions
are the engine's own (:mod:`reelsmith.engine.features.ladder_steps`).

Lines: the catalogue kernel's line machinery (:mod:`reelsmith.analysis.kernel`), built once
for both kernels: the model's line rule (``line_award`` with its wild multiplier and tie rule,
as live play pays) as a line automaton, and per stop combination of the first reels a prefix
entry holding the pay of the paylines those reels decide and the open ones with the state
each has reached. A spin walks its entry's open paylines over the other reels, reading the
screen after the gems' reveals, so a reveal there is paid as shown. A reveal on the prefix's
reels changes a cell the entry has read: that screen walks every payline from the start (a
gem won as a pot stays a gem, as its entry read it). The round loop is one function,
:func:`play_rounds`, compiled twice: for statistics, and with ``record`` for the parity trace.

Draws come from :mod:`reelsmith.analysis.pcg64` (numpy's PCG64 and ``Generator.integers``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from reelsmith.analysis import kernel
from reelsmith.analysis.kernel import E_END, E_OPEN, E_PAY, START
from reelsmith.analysis.pcg64 import bounded, load_stream, next_uint64, store_stream, stream_bounded
from reelsmith.engine.features.ladder_steps import (
    advance,
    collect,
    fill_spot,
    raise_pot,
    start_ladder,
    trigger_point,
)
from reelsmith.engine.model import GameModel, ReelSet

# Draw kinds in a trace (the purposes live play records); a pot's trigger is 2 + its reel.
DRAW_REEL_STOP = 0
DRAW_GEM_REVEAL = 1
DRAW_TRIGGER = 2

WILD_REEL_OUTCOME = -2

# Per-round results recorded by play_rounds (trace mode): these fields, then each reel's pot
# after the round, then each reel's trigger point (``round_fields(reels)`` in all).
R_WIN, R_BASE_LINE, R_FREE_LINE, R_JACKPOT, R_BONUS, R_FREE_SPINS, R_METER = range(7)
R_POTS = 7

# Chunk statistics (int64 slots). Wins in line bets (the bet / lines) unless said otherwise.
# These scalar slots come first; the per-reel, per-level, band and meter blocks follow, placed
# by the model's sizes (:class:`StatSlots`).
S_ROUNDS, S_WIN, S_BASE_LINE, S_FREE_LINE, S_JACKPOT_BETS = range(5)
S_BASE_HITS, S_ROUND_HITS, S_TRIGGERS, S_FREE_SPINS, S_MAX_WIN = range(5, 10)
N_SCALAR_STATS = 10
N_BANDS = 10
F_WIN_SQ = 0  # float64 slots: sum of squared round wins (in bets^2)
N_FLOAT_STATS = 1

#: Upper edges of the round-win bands in multiples of the bet; band 0 is "no win" and the last
#: band is open-ended.
BAND_EDGES = (0, 1, 2, 5, 10, 20, 50, 100, 500)

#: A round needs at most this many log rows in trace mode before the buffer is checked.
TRACE_ROUND_RESERVE = 1_000


def round_fields(reels: int) -> int:
    """How many results trace mode records per round: the ``R_*`` fields, then each reel's pot
    (from ``R_POTS``), then each reel's trigger point (from ``R_POTS + reels``)."""
    return R_POTS + 2 * reels


@njit(cache=True, nogil=True)
def stat_offsets(
    reels: int, levels: int, spots: int
) -> tuple[int, int, int, int, int, int, int, int, int]:
    """Where the blocks of the chunk statistics start for a model's sizes: per reel the jackpot
    hits, the jackpot bets won and the gems landed; per level the free spins played, their
    (multiplied) line wins and the triggers reaching it; the round-win bands; the rounds ending
    with the meter at 0 .. ``spots``; and the number of slots."""
    pot_hits = N_SCALAR_STATS
    pot_bets = pot_hits + reels
    gems = pot_bets + reels
    level_spins = gems + reels
    level_line = level_spins + levels
    level_reached = level_line + levels
    bands = level_reached + levels
    meter_ends = bands + N_BANDS
    return (
        pot_hits,
        pot_bets,
        gems,
        level_spins,
        level_line,
        level_reached,
        bands,
        meter_ends,
        meter_ends + spots + 1,
    )


@dataclass(frozen=True)
class StatSlots:
    """The chunk statistics' block offsets for one model's sizes (see :func:`stat_offsets`)."""

    reels: int
    levels: int
    spots: int
    pot_hits: int
    pot_bets: int
    gems: int
    level_spins: int
    level_line: int
    level_reached: int
    bands: int
    meter_ends: int
    size: int

    @classmethod
    def of(cls, reels: int, levels: int, spots: int) -> StatSlots:
        offsets = (int(x) for x in stat_offsets(reels, levels, spots))
        return cls(reels, levels, spots, *offsets)


def band_edges_in_line_bets(lines: int) -> npt.NDArray[np.int64]:
    return np.array([e * lines for e in BAND_EDGES] + [2**62], dtype=np.int64)


@dataclass(frozen=True, eq=False)
class ReelTables:
    """A reel set prepared for the kernel: the catalogue kernel's tables of its windows and
    lines (:class:`reelsmith.analysis.kernel.ReelTables`: the line automaton on the model's
    line rule and the prefix entries of its first reels), so one line evaluation serves both
    kernels, and per stop the row showing the gem and the bonus symbols shown."""

    lines: kernel.ReelTables
    gem_row: npt.NDArray[np.int64]  # [reel, stop]: the row showing the gem, or -1
    bonus: npt.NDArray[np.int64]  # [reel, stop]: bonus symbols shown (0 or 1)

    @classmethod
    def build(cls, model: GameModel, reel_set: ReelSet, gem: int, bonus: int) -> ReelTables:
        if reel_set.weighted:
            raise ValueError(
                f"{model.id}: the ladder kernel draws every stop of a reel set alike; "
                f"{reel_set.name} weighs its stops (stop_weights)"
            )
        lines = kernel.ReelTables.build(model, reel_set, model.line_pays, None)
        windows = lines.windows
        gem_row = np.full(windows.shape[:2], -1, dtype=np.int64)
        shown = (windows == gem).sum(axis=2)
        if (shown > 1).any():
            raise ValueError("a reel would show two gems")
        reel_idx, stop_idx, row_idx = np.nonzero(windows == gem)
        gem_row[reel_idx, stop_idx] = row_idx
        bonus_shown = (windows == bonus).sum(axis=2).astype(np.int64)
        return cls(lines, gem_row, bonus_shown)


@dataclass(frozen=True, eq=False)
class StackedTables:
    """Base (index 0) and free-spin (index 1) tables in shared arrays: the catalogue kernel's
    stacked tables (:class:`reelsmith.analysis.kernel.StackedTables`) and the gems' rows and
    bonus symbols beside them."""

    lines: kernel.StackedTables
    gem_row: npt.NDArray[np.int64]  # [set, reel, stop]
    bonus: npt.NDArray[np.int64]  # [set, reel, stop]

    @classmethod
    def stack(cls, base: ReelTables, free: ReelTables) -> StackedTables:
        lines = kernel.StackedTables.stack(base.lines, free.lines)
        gem_row = np.full(lines.windows.shape[:3], -1, dtype=np.int64)
        bonus = np.zeros(lines.windows.shape[:3], dtype=np.int64)
        for i, tables in enumerate((base, free)):
            reels, stops = tables.gem_row.shape
            gem_row[i, :reels, :stops] = tables.gem_row
            bonus[i, :reels, :stops] = tables.bonus
        return cls(lines, gem_row, bonus)


@njit(cache=True, nogil=True)
def stationary_state(
    rng: npt.NDArray[np.uint64],
    seeds: npt.NDArray[np.int64],
    lasts: npt.NDArray[np.int64],
    meter_cdf: npt.NDArray[np.float64],
    pots: npt.NDArray[np.int64],
    triggers: npt.NDArray[np.int64],
    meter: npt.NDArray[np.int64],
) -> None:
    """Draw a state from the long-run law: each (pot, trigger) pair uniform on
    ``seed <= pot < trigger <= last`` (one bounded draw per pot; ``last``, the largest trigger
    point, from ``Jackpot.last_trigger``), the meter from its
    stationary law (a 53-bit uniform against ``meter_cdf``)."""
    for reel in range(seeds.shape[0]):
        k = lasts[reel] - seeds[reel]
        index = bounded(rng, k * (k + 1) // 2)
        gap = 1  # trigger - seed; pairs with gap g are indices g(g-1)/2 .. g(g+1)/2 - 1
        while index >= gap * (gap + 1) // 2:
            gap += 1
        age = index - (gap - 1) * gap // 2
        pots[reel] = seeds[reel] + age
        triggers[reel] = seeds[reel] + gap
    u = float(next_uint64(rng) >> np.uint64(11)) / 9007199254740992.0
    m = 0
    while m < meter_cdf.shape[0] - 1 and u >= meter_cdf[m]:
        m += 1
    meter[0] = m


@njit(cache=True, nogil=True)
def play_rounds(
    rng: npt.NDArray[np.uint64],
    n_rounds: int,
    game: tuple[Any, ...],
    pots: npt.NDArray[np.int64],
    triggers: npt.NDArray[np.int64],
    meter_state: npt.NDArray[np.int64],
    batch_size: int,
    batch_sums: npt.NDArray[np.int64],
    stats: npt.NDArray[np.int64],
    float_stats: npt.NDArray[np.float64],
    record: bool,
    results: npt.NDArray[np.int64],
    log: npt.NDArray[np.int64],
    log_ends: npt.NDArray[np.int64],
) -> int:
    """Play ``n_rounds`` rounds at one line bet per payline, carrying ``pots``, ``triggers``
    and ``meter_state[0]`` (updated in place). A new trigger point is drawn from
    ``seeds + 1`` to ``lasts`` (each jackpot's ``last_trigger``: below its cap).

    ``game`` is ``KernelGame.kernel_args`` (:mod:`reelsmith.analysis.ladder_simulation`): the
    stacked tables (:class:`StackedTables`, base reel set 0 and free-spin reel set 1), the
    paylines, the gem's reveal table, the pots' seeds and last trigger points, the levels'
    multipliers, the ladder's sizes and the band edges in line bets.

    Without ``record`` the statistics are added to ``stats`` / ``float_stats`` (the ``S_*``
    slots) and each round's win to ``batch_sums[i // batch_size]``. With ``record`` each
    round's results go to ``results[i]`` (the ``R_*`` fields) and its draws to ``log`` as
    (kind, bound, value) rows ending at ``log_ends[i]``; recording stops early, before a
    round, when fewer than ``TRACE_ROUND_RESERVE`` rows are left. Returns the rounds played.
    """
    run = (
        rng,
        n_rounds,
        game,
        pots,
        triggers,
        meter_state,
        batch_size,
        batch_sums,
        stats,
        float_stats,
        results,
        log,
        log_ends,
    )
    # compiled twice: the loop that only counts carries none of the trace's branches
    if record:
        return _round_loop(True, run)
    return _round_loop(False, run)


@njit(cache=True, nogil=True, inline="always")
def _round_loop(record: bool, run: tuple[Any, ...]) -> int:
    """:func:`play_rounds` on its arguments ``run`` (all but ``record``), with ``record`` a
    constant where it is inlined."""
    (
        rng,
        n_rounds,
        game,
        pots,
        triggers,
        meter_state,
        batch_size,
        batch_sums,
        stats,
        float_stats,
        results,
        log,
        log_ends,
    ) = run
    (
        windows,
        lengths,
        gem_row,
        bonus_shown,
        depth,
        prefix,
        entries,
        open_lines,
        open_states,
        trans,
        last_pays,
        paylines,
        wild,
        reveal_symbols,
        reveal_weights,
        seeds,
        lasts,
        multipliers,
        trigger_count,
        spins_per_level,
        spots,
        per_spot,
        band_edges,
    ) = game
    reels = lengths.shape[1]
    last = reels - 1
    rows = windows.shape[3]
    n_lines = paylines.shape[0]
    levels = multipliers.shape[0]
    top_band = band_edges.shape[0] - 1
    total_weight = 0
    for w in reveal_weights:
        total_weight += w
    stops = np.zeros(reels, dtype=np.int64)
    grid = np.zeros((rows, reels), dtype=np.int8)
    level_spins = np.zeros(levels, dtype=np.int64)
    level_line = np.zeros(levels, dtype=np.int64)
    level_reached = np.zeros(levels, dtype=np.int64)
    pot_hits = np.zeros(reels, dtype=np.int64)
    pot_bets = np.zeros(reels, dtype=np.int64)
    gems_seen = np.zeros(reels, dtype=np.int64)
    bands = np.zeros(band_edges.shape[0], dtype=np.int64)
    meter_ends = np.zeros(spots + 1, dtype=np.int64)
    total = base_line_sum = free_line_sum = jackpot_sum = 0
    base_hits = round_hits = triggered_rounds = free_spins_sum = max_win = 0
    win_sq = 0.0
    log_at = 0
    meter = meter_state[0]
    stream = load_stream(rng)  # held as values while the rounds draw, written back at the end
    for i in range(n_rounds):
        if record and log.shape[0] - log_at < TRACE_ROUND_RESERVE:
            meter_state[0] = meter
            store_stream(stream, rng)
            return i
        reel_set = 0
        level = unlocked = left = 0
        round_line = base_line = free_line = round_jackpot = base_bonus = played = 0
        base_win = 0
        while True:
            # -- one spin: stops, gems (reel by reel), lines, bonus symbols --
            decided = depth[reel_set]
            index = 0  # the prefix's, in mixed radix
            for reel in range(reels):
                bound = lengths[reel_set, reel]
                stream, stop = stream_bounded(stream, bound)
                stops[reel] = stop
                if reel < decided:
                    index = index * bound + stop
                if record:
                    log[log_at, 0] = DRAW_REEL_STOP
                    log[log_at, 1] = bound
                    log[log_at, 2] = stop
                    log_at += 1
            spin_jackpot = 0
            bonus = 0
            walk_all = False  # a reveal changed a cell the prefix entry has read
            for reel in range(reels):
                stop = stops[reel]
                for row in range(rows):
                    grid[row, reel] = windows[reel_set, reel, stop, row]
                bonus += bonus_shown[reel_set, reel, stop]
                gem_at = gem_row[reel_set, reel, stop]
                if gem_at < 0:
                    continue
                gems_seen[reel] += 1
                won, hit = raise_pot(pots[reel], triggers[reel])
                pots[reel] = won
                if hit:
                    spin_jackpot += won
                    pot_hits[reel] += 1
                    pot_bets[reel] += won
                    pots[reel] = seeds[reel]
                    span = lasts[reel] - seeds[reel]  # the live rule: Jackpot.trigger_span
                    stream, value = stream_bounded(stream, span)
                    triggers[reel] = trigger_point(seeds[reel], value)
                    if record:
                        log[log_at, 0] = DRAW_TRIGGER + reel
                        log[log_at, 1] = span
                        log[log_at, 2] = value
                        log_at += 1
                    continue  # the gem stays a gem on the screen
                stream, value = stream_bounded(stream, total_weight)
                if record:
                    log[log_at, 0] = DRAW_GEM_REVEAL
                    log[log_at, 1] = total_weight
                    log[log_at, 2] = value
                    log_at += 1
                outcome = 0
                while value >= reveal_weights[outcome]:
                    value -= reveal_weights[outcome]
                    outcome += 1
                symbol = reveal_symbols[outcome]
                if symbol == WILD_REEL_OUTCOME:
                    for row in range(rows):
                        grid[row, reel] = wild
                else:
                    grid[gem_at, reel] = symbol
                walk_all |= reel < decided
            # line pay: the prefix entry's decided pay and its open lines walked over the
            # other reels, unless a reveal on the prefix's reels changed a cell it read
            if walk_all:
                line_pay = 0
                for line in range(n_lines):
                    state = START
                    for reel in range(last):
                        state = trans[reel_set, state, grid[paylines[line, reel], reel]]
                    line_pay += last_pays[reel_set, state, grid[paylines[line, last], last]]
            else:
                entry = entries[reel_set, prefix[reel_set, index]]
                line_pay = entry[E_PAY]
                for j in range(entry[E_OPEN], entry[E_END]):
                    line = open_lines[reel_set, j]
                    state = open_states[reel_set, j]
                    for reel in range(decided, last):
                        state = trans[reel_set, state, grid[paylines[line, reel], reel]]
                    line_pay += last_pays[reel_set, state, grid[paylines[line, last], last]]
            round_jackpot += spin_jackpot
            if reel_set == 0:
                base_line = line_pay
                base_bonus = bonus
                base_win = line_pay + spin_jackpot
                if bonus >= trigger_count:
                    level, left = 1, spins_per_level
                    unlocked, meter = start_ladder(meter, spots)
                    level_reached[0] += 1
                    reel_set = 1
                else:
                    if bonus == per_spot:
                        meter = fill_spot(meter, spots)
                    break
            else:
                won_line = line_pay * multipliers[level - 1]
                free_line += won_line
                level_spins[level - 1] += 1
                level_line[level - 1] += won_line
                played += 1
                meter, unlocked = collect(meter, unlocked, bonus, spots, levels)
                played_level = level
                level, left, over = advance(level, left, unlocked, spins_per_level)
                if over:
                    break
                if level > played_level:
                    level_reached[level - 1] += 1
        round_line = base_line + free_line
        win = round_line + round_jackpot * n_lines
        if record:
            out = results[i]
            out[R_WIN] = win
            out[R_BASE_LINE] = base_line
            out[R_FREE_LINE] = free_line
            out[R_JACKPOT] = round_jackpot
            out[R_BONUS] = base_bonus
            out[R_FREE_SPINS] = played
            out[R_METER] = meter
            for reel in range(reels):
                out[R_POTS + reel] = pots[reel]
                out[R_POTS + reels + reel] = triggers[reel]
            log_ends[i] = log_at
            continue
        total += win
        base_line_sum += base_line
        free_line_sum += free_line
        jackpot_sum += round_jackpot
        batch_sums[i // batch_size] += win
        meter_ends[meter] += 1
        if base_win > 0:
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
            triggered_rounds += 1
            free_spins_sum += played
    meter_state[0] = meter
    store_stream(stream, rng)
    if not record:
        lines_sq = float(n_lines) * float(n_lines)
        stats[S_ROUNDS] += n_rounds
        stats[S_WIN] += total
        stats[S_BASE_LINE] += base_line_sum
        stats[S_FREE_LINE] += free_line_sum
        stats[S_JACKPOT_BETS] += jackpot_sum
        stats[S_BASE_HITS] += base_hits
        stats[S_ROUND_HITS] += round_hits
        stats[S_TRIGGERS] += triggered_rounds
        stats[S_FREE_SPINS] += free_spins_sum
        stats[S_MAX_WIN] = max(stats[S_MAX_WIN], max_win)
        at_hits, at_bets, at_gems, at_spins, at_line, at_reached, at_bands, at_meter, _size = (
            stat_offsets(reels, levels, spots)
        )
        for reel in range(reels):
            stats[at_hits + reel] += pot_hits[reel]
            stats[at_bets + reel] += pot_bets[reel]
            stats[at_gems + reel] += gems_seen[reel]
        for lv in range(levels):
            stats[at_spins + lv] += level_spins[lv]
            stats[at_line + lv] += level_line[lv]
            stats[at_reached + lv] += level_reached[lv]
        for b in range(band_edges.shape[0]):
            stats[at_bands + b] += bands[b]
        for m in range(spots + 1):
            stats[at_meter + m] += meter_ends[m]
        float_stats[F_WIN_SQ] += win_sq / lines_sq
    rounds: int = n_rounds
    return rounds
