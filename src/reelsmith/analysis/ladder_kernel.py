"""The ladder-and-pots mechanic as one compiled kernel: a player's sequence of rounds at one
bet size, carrying the pots, their hidden trigger points and the collection meter from round
to round.

The kernel makes the same draws in the same order as live play
(:mod:`reelsmith.engine.ladder`): per spin one stop per reel, then reel by reel each
gem's draw (a new trigger point when it hits its pot, else its reveal); free spins follow the
main-game spin while the ladder lasts. Lines are evaluated with the engine's ``line_win``.
A parity test replays the kernel's draws through the live engine and requires identical
rounds and states.

Speed: for every stop pair of reels 1 and 2 a table holds the bit set of paylines whose run
is still open after two reels (and the pay of those already decided, which ``line_win`` gives
with any completion); when neither reel shows a gem (whose reveal could change a cell) only
the open lines are evaluated on the full screen. The round loop is one function,
:func:`play_rounds`, for statistics and, with ``record``, for the parity trace.

Draws come from :mod:`reelsmith.analysis.pcg64` (numpy's PCG64 and ``Generator.integers``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from reelsmith.analysis.enumeration import lowest_bit, run_decided, stop_windows
from reelsmith.analysis.pcg64 import bounded, next_uint64
from reelsmith.engine.features.ladder_steps import (
    advance,
    collect,
    fill_spot,
    raise_pot,
    start_ladder,
    trigger_point,
)
from reelsmith.engine.lines import line_win
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


@njit(cache=True, nogil=True)
def _pair_tables(
    windows: npt.NDArray[np.int8],
    lengths: npt.NDArray[np.int64],
    paylines: npt.NDArray[np.int8],
    line_pays: npt.NDArray[np.int64],
    wild: int,
    substitutable: npt.NDArray[np.bool_],
    decided_pay: npt.NDArray[np.int64],
    open_lines: npt.NDArray[np.int64],
) -> None:
    """For every stop pair of reels 1-2: the pay of the paylines decided by them and the bit
    set of paylines still open."""
    reels = windows.shape[0]
    n_lines = paylines.shape[0]
    cells = np.empty(reels, dtype=np.int8)
    for s1 in range(lengths[0]):
        for s2 in range(lengths[1]):
            pay = 0
            still = np.int64(0)
            for line in range(n_lines):
                cells[0] = windows[0, s1, paylines[line, 0]]
                cells[1] = windows[1, s2, paylines[line, 1]]
                if run_decided(cells, 2, wild, substitutable):
                    for reel in range(2, reels):
                        cells[reel] = windows[reel, 0, paylines[line, reel]]
                    pay += line_win(cells, line_pays, wild, substitutable)[2]
                else:
                    still |= np.int64(1) << line
            decided_pay[s1 * lengths[1] + s2] = pay
            open_lines[s1 * lengths[1] + s2] = still


@dataclass(frozen=True, eq=False)
class ReelTables:
    """A reel set prepared for the kernel."""

    windows: npt.NDArray[np.int8]  # [reel, stop, row]
    lengths: npt.NDArray[np.int64]
    gem_row: npt.NDArray[np.int64]  # [reel, stop]: the row showing the gem, or -1
    bonus: npt.NDArray[np.int64]  # [reel, stop]: bonus symbols shown (0 or 1)
    decided_pay: npt.NDArray[np.int64]  # [s1 * n2 + s2]
    open_lines: npt.NDArray[np.int64]  # [s1 * n2 + s2]

    @classmethod
    def build(cls, model: GameModel, reel_set: ReelSet, gem: int, bonus: int) -> ReelTables:
        if model.line_count > 62:
            raise ValueError(
                f"{model.id}: the ladder kernel tracks at most 62 paylines, the model has "
                f"{model.line_count}"
            )
        windows = stop_windows(reel_set, model.rows)
        lengths = reel_set.lengths.astype(np.int64)
        gem_row = np.full(windows.shape[:2], -1, dtype=np.int64)
        shown = (windows == gem).sum(axis=2)
        if (shown > 1).any():
            raise ValueError("a reel would show two gems")
        reel_idx, stop_idx, row_idx = np.nonzero(windows == gem)
        gem_row[reel_idx, stop_idx] = row_idx
        bonus_shown = (windows == bonus).sum(axis=2).astype(np.int64)
        size = int(lengths[0] * lengths[1])
        decided = np.zeros(size, dtype=np.int64)
        open_lines = np.zeros(size, dtype=np.int64)
        _pair_tables(
            windows,
            lengths,
            model.paylines,
            model.line_pays,
            model.wild,
            model.substitutable,
            decided,
            open_lines,
        )
        return cls(windows, lengths, gem_row, bonus_shown, decided, open_lines)


@dataclass(frozen=True, eq=False)
class StackedTables:
    """Base (index 0) and free-spin (index 1) tables in shared arrays."""

    windows: npt.NDArray[np.int8]  # [set, reel, stop, row]
    lengths: npt.NDArray[np.int64]  # [set, reel]
    gem_row: npt.NDArray[np.int64]  # [set, reel, stop]
    bonus: npt.NDArray[np.int64]  # [set, reel, stop]
    decided_pay: npt.NDArray[np.int64]  # [set, index]
    open_lines: npt.NDArray[np.int64]  # [set, index]

    @classmethod
    def stack(cls, base: ReelTables, free: ReelTables) -> StackedTables:
        sets = (base, free)

        def stacked(arrays: list[npt.NDArray[Any]], dtype: Any, fill: int = 0) -> Any:
            shape = tuple(max(a.shape[d] for a in arrays) for d in range(arrays[0].ndim))
            out = np.full((len(arrays), *shape), fill, dtype=dtype)
            for i, a in enumerate(arrays):
                region: tuple[int | slice, ...] = (i, *(slice(0, n) for n in a.shape))
                out[region] = a
            return out

        return cls(
            windows=stacked([t.windows for t in sets], np.int8),
            lengths=stacked([t.lengths for t in sets], np.int64),
            gem_row=stacked([t.gem_row for t in sets], np.int64, -1),
            bonus=stacked([t.bonus for t in sets], np.int64),
            decided_pay=stacked([t.decided_pay for t in sets], np.int64),
            open_lines=stacked([t.open_lines for t in sets], np.int64),
        )


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
    windows: npt.NDArray[np.int8],
    lengths: npt.NDArray[np.int64],
    gem_row: npt.NDArray[np.int64],
    bonus_shown: npt.NDArray[np.int64],
    decided_pay: npt.NDArray[np.int64],
    open_lines: npt.NDArray[np.int64],
    paylines: npt.NDArray[np.int8],
    line_pays: npt.NDArray[np.int64],
    wild: int,
    substitutable: npt.NDArray[np.bool_],
    reveal_symbols: npt.NDArray[np.int64],
    reveal_weights: npt.NDArray[np.int64],
    seeds: npt.NDArray[np.int64],
    lasts: npt.NDArray[np.int64],
    multipliers: npt.NDArray[np.int64],
    trigger_count: int,
    spins_per_level: int,
    spots: int,
    per_spot: int,
    pots: npt.NDArray[np.int64],
    triggers: npt.NDArray[np.int64],
    meter_state: npt.NDArray[np.int64],
    band_edges: npt.NDArray[np.int64],
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

    Without ``record`` the statistics are added to ``stats`` / ``float_stats`` (the ``S_*``
    slots) and each round's win to ``batch_sums[i // batch_size]``. With ``record`` each
    round's results go to ``results[i]`` (the ``R_*`` fields) and its draws to ``log`` as
    (kind, bound, value) rows ending at ``log_ends[i]``; recording stops early, before a
    round, when fewer than ``TRACE_ROUND_RESERVE`` rows are left. Returns the rounds played.
    """
    reels = lengths.shape[1]
    rows = windows.shape[3]
    n_lines = paylines.shape[0]
    levels = multipliers.shape[0]
    top_band = band_edges.shape[0] - 1
    total_weight = 0
    for w in reveal_weights:
        total_weight += w
    stops = np.zeros(reels, dtype=np.int64)
    grid = np.zeros((rows, reels), dtype=np.int8)
    cells = np.zeros(reels, dtype=np.int8)
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
    for i in range(n_rounds):
        if record and log.shape[0] - log_at < TRACE_ROUND_RESERVE:
            meter_state[0] = meter
            return i
        reel_set = 0
        level = unlocked = left = 0
        round_line = base_line = free_line = round_jackpot = base_bonus = played = 0
        base_win = 0
        while True:
            # -- one spin: stops, gems (reel by reel), lines, bonus symbols --
            for reel in range(reels):
                bound = lengths[reel_set, reel]
                stop = bounded(rng, bound)
                stops[reel] = stop
                if record:
                    log[log_at, 0] = DRAW_REEL_STOP
                    log[log_at, 1] = bound
                    log[log_at, 2] = stop
                    log_at += 1
            spin_jackpot = 0
            bonus = 0
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
                    value = bounded(rng, span)
                    triggers[reel] = trigger_point(seeds[reel], value)
                    if record:
                        log[log_at, 0] = DRAW_TRIGGER + reel
                        log[log_at, 1] = span
                        log[log_at, 2] = value
                        log_at += 1
                    continue  # the gem stays a gem on the screen
                value = bounded(rng, total_weight)
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
            # line pay: the open lines after reels 1-2 unless a gem there changed a cell
            line_pay = 0
            if gem_row[reel_set, 0, stops[0]] < 0 and gem_row[reel_set, 1, stops[1]] < 0:
                index = stops[0] * lengths[reel_set, 1] + stops[1]
                line_pay = decided_pay[reel_set, index]
                still = open_lines[reel_set, index]
                while still != 0:
                    line = lowest_bit(still)
                    still &= still - 1
                    for reel in range(reels):
                        cells[reel] = grid[paylines[line, reel], reel]
                    line_pay += line_win(cells, line_pays, wild, substitutable)[2]
            else:
                for line in range(n_lines):
                    for reel in range(reels):
                        cells[reel] = grid[paylines[line, reel], reel]
                    line_pay += line_win(cells, line_pays, wild, substitutable)[2]
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
    return n_rounds
