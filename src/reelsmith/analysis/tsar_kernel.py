"""Days of the Tsar as one compiled kernel: base spin, egg reveals, free spins with retriggers.

The gamble is left out: it is fair (a colour doubles at 1/2, a suit quadruples at 1/4) and
does not change the return, so a simulated round ends when its free spins do, as a round that
collects does in live play.

The kernel makes the same draws in the same order as live play
(:mod:`reelsmith.games.days_of_the_tsar.rules`): five reel stops, then one egg reveal per
triggering egg, then five reel stops per free spin. It evaluates screens with the engine's
``line_win`` after an exact shortcut: for every combination of the first three reels' stops
a table holds the total pay of the paylines already decided by those three reels (their run
broke; ``line_win`` gave their pay with any completion) and the set of paylines still open;
only the open ones are evaluated on the full screen. A parity test replays the kernel's draws
through the live engine and requires identical rounds.

The whole round loop is one function, :func:`play_rounds`, with one screen routine serving
both reel sets (their tables stacked in shared arrays): a helper function per screen or per
round would cost more than the screen itself, since numba reference-counts every array handed
to a call. The same function keeps statistics for simulation and, with ``record``, each
round's results and draws for the parity test, so the test covers the code that simulates.

Draws come from :mod:`reelsmith.analysis.pcg64` (numpy's PCG64 and ``Generator.integers``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from reelsmith.analysis.enumeration import (
    lowest_bit,
    run_decided,
    scatter_in_windows,
    stop_windows,
)
from reelsmith.analysis.pcg64 import bounded
from reelsmith.engine.lines import line_win
from reelsmith.engine.model import GameModel, ReelSet

# Draw kinds in a trace (the purposes live play records).
DRAW_REEL_STOP = 0
DRAW_EGG_REVEAL = 1
DRAW_PURPOSES = ("reel_stop", "egg_reveal")

# Per-round results recorded by play_rounds (trace mode).
R_WIN, R_BASE_LINE, R_BASE_SCATTER, R_BASE_EGGS, R_AWARDED, R_FREE_SPINS, R_FREE_WIN = range(7)
R_FREE_EGGS = 7
ROUND_FIELDS = 8

# Chunk statistics (int64 slots).
S_ROUNDS, S_WIN, S_BASE_LINE, S_BASE_SCATTER, S_FREE_WIN = range(5)
S_BASE_HITS, S_ROUND_HITS, S_TRIGGERS, S_FREE_SPINS, S_MAX_WIN, S_FREE_EGGS = range(5, 11)
S_EGGS = 11  # base-spin egg counts 0..15 follow
S_BANDS = S_EGGS + 16  # round-win bands follow
N_BANDS = 10
N_INT_STATS = S_BANDS + N_BANDS
F_WIN_SQ = 0  # float64 slots: sum of squared round wins (coins^2)
N_FLOAT_STATS = 1

#: Upper edges of the round-win bands in multiples of the total bet; band 0 is "no win" and
#: the last band is open-ended.
BAND_EDGES = (0, 1, 2, 5, 10, 20, 50, 100, 500)


def band_edges_in_coins(total_bet: int) -> npt.NDArray[np.int64]:
    """Band upper edges in coins for the kernel (the last entry stands for "no limit")."""
    return np.array([e * total_bet for e in BAND_EDGES] + [2**62], dtype=np.int64)


#: A round needs at most this many log entries in trace mode before the buffer is checked.
TRACE_ROUND_RESERVE = 100_000


@njit(cache=True, nogil=True)
def _prefix_tables(
    windows: npt.NDArray[np.int8],
    lengths: npt.NDArray[np.int64],
    paylines: npt.NDArray[np.int8],
    n_lines: int,
    line_pays: npt.NDArray[np.int64],
    wild: int,
    substitutable: npt.NDArray[np.bool_],
    prefix: npt.NDArray[np.int64],
) -> None:
    """For every stop combination of reels 1-3: pay of the paylines decided by them (high 32
    bits) and the bit set of paylines still open (low 32 bits), in one word so that a spin
    touches one cache line of the table."""
    reels = windows.shape[0]
    cells = np.empty(reels, dtype=np.int8)
    n1, n2, n3 = lengths[0], lengths[1], lengths[2]
    for s1 in range(n1):
        for s2 in range(n2):
            for s3 in range(n3):
                index = (s1 * n2 + s2) * n3 + s3
                pay = 0
                still_open = np.int64(0)
                for line in range(n_lines):
                    cells[0] = windows[0, s1, paylines[line, 0]]
                    cells[1] = windows[1, s2, paylines[line, 1]]
                    cells[2] = windows[2, s3, paylines[line, 2]]
                    if run_decided(cells, 3, wild, substitutable):
                        for reel in range(3, reels):
                            cells[reel] = windows[reel, 0, paylines[line, reel]]
                        pay += line_win(cells, line_pays, wild, substitutable)[2]
                    else:
                        still_open |= np.int64(1) << line
                prefix[index] = (pay << 32) | still_open


@dataclass(frozen=True, eq=False)
class ReelTables:
    """A reel set prepared for the kernel: per-stop windows, eggs per window, prefix tables.

    ``prefix[(s1 * n2 + s2) * n3 + s3]`` packs, in 32 bits, the pay of the paylines decided by
    the first three reels (high 16 bits) and an index into ``masks`` (low 16 bits), the bit sets
    of paylines still open. A reel set has only a few thousand distinct open sets, so the table
    (about 600 KB for 53-stop strips) stays in a core's L2 cache.
    """

    windows: npt.NDArray[np.int8]
    eggs: npt.NDArray[np.int64]
    lengths: npt.NDArray[np.int64]
    prefix: npt.NDArray[np.uint32]
    masks: npt.NDArray[np.int64]

    @classmethod
    def build(cls, model: GameModel, reel_set: ReelSet, lines: int) -> ReelTables:
        if model.reels != 5 or lines > 32:
            raise ValueError("the Days of the Tsar kernel needs 5 reels and at most 32 lines")
        windows = stop_windows(reel_set, model.rows)
        lengths = reel_set.lengths.astype(np.int64)
        size = int(lengths[0] * lengths[1] * lengths[2])
        prefix = np.zeros(size, dtype=np.int64)
        _prefix_tables(
            windows,
            lengths,
            model.paylines,
            lines,
            model.line_pays,
            model.wild,
            model.substitutable,
            prefix,
        )
        pays = prefix >> 32
        masks, mask_index = np.unique(prefix & 0xFFFFFFFF, return_inverse=True)
        if int(pays.max()) >= 1 << 16 or len(masks) > 1 << 16:
            raise ValueError("the prefix table of this reel set does not fit 32-bit entries")
        packed = ((pays << 16) | mask_index.reshape(pays.shape)).astype(np.uint32)
        eggs = scatter_in_windows(windows, model.scatter)
        return cls(windows, eggs, lengths, packed, masks.astype(np.int64))


@dataclass(frozen=True, eq=False)
class StackedTables:
    """The base (index 0) and free-spin (index 1) tables in shared arrays, so that one screen
    routine serves both reel sets without a function call per screen."""

    windows: npt.NDArray[np.int8]  # [set, reel, stop, row]
    eggs: npt.NDArray[np.int64]  # [set, reel, stop]
    lengths: npt.NDArray[np.int64]  # [set, reel]
    prefix: npt.NDArray[np.uint32]  # [set, index]
    masks: npt.NDArray[np.int64]  # [set, mask index]

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

        return cls(
            windows=stacked([t.windows for t in sets], np.int8),
            eggs=stacked([t.eggs for t in sets], np.int64),
            lengths=stacked([t.lengths for t in sets], np.int64),
            prefix=stacked([t.prefix for t in sets], np.uint32),
            masks=stacked([t.masks for t in sets], np.int64),
        )


@njit(cache=True, nogil=True)
def play_rounds(
    rng: npt.NDArray[np.uint64],
    n_rounds: int,
    windows: npt.NDArray[np.int8],
    eggs: npt.NDArray[np.int64],
    lengths: npt.NDArray[np.int64],
    prefix: npt.NDArray[np.uint32],
    masks: npt.NDArray[np.int64],
    paylines: npt.NDArray[np.int8],
    line_pays: npt.NDArray[np.int64],
    wild: int,
    substitutable: npt.NDArray[np.bool_],
    scatter_pays: npt.NDArray[np.int64],
    total_bet: int,
    trigger: int,
    extra: int,
    reveal_values: npt.NDArray[np.int64],
    reveal_weights: npt.NDArray[np.int64],
    band_edges: npt.NDArray[np.int64],
    stats: npt.NDArray[np.int64],
    float_stats: npt.NDArray[np.float64],
    record: bool,
    results: npt.NDArray[np.int64],
    log: npt.NDArray[np.int64],
    log_ends: npt.NDArray[np.int64],
) -> int:
    """Play rounds at one coin per line on every payline.

    Without ``record`` the rounds' statistics are added to ``stats`` / ``float_stats`` (see the
    ``S_*`` slots; ``band_edges`` are the upper edges of the win bands in coins). With
    ``record`` each round's results go to ``results[i]`` (the ``R_*`` fields) and its draws to
    ``log`` as (kind, bound, value) rows ending at ``log_ends[i]``; recording stops early,
    before a round, when fewer than ``TRACE_ROUND_RESERVE`` rows are left. Either way the
    rounds are played by the same code. Returns the number of rounds played.
    """
    last_pay = scatter_pays.shape[0] - 1
    top_band = band_edges.shape[0] - 1
    total_weight = 0
    for w in reveal_weights:
        total_weight += w
    stops = np.zeros(5, dtype=np.int64)
    cells = np.zeros(5, dtype=np.int8)
    eggs_seen = np.zeros(16, dtype=np.int64)
    bands = np.zeros(band_edges.shape[0], dtype=np.int64)
    total = base_line_sum = base_scatter_sum = free_sum = 0
    base_hits = round_hits = triggers = free_spins_sum = free_eggs_sum = max_win = 0
    win_sq = 0.0
    log_at = 0
    for i in range(n_rounds):
        if record and log.shape[0] - log_at < TRACE_ROUND_RESERVE:
            return i
        reel_set = 0  # the base spin, then the free spins
        base_line = base_scatter = base_eggs = awarded = 0
        remaining = played = free_win = free_eggs = 0
        while True:
            # -- one screen of reel set `reel_set`: five stops, then the paylines and eggs --
            if record and log_at + 5 > log.shape[0]:
                raise IndexError("trace log full")
            for reel in range(5):
                bound = lengths[reel_set, reel]
                stops[reel] = bounded(rng, bound)
                if record:
                    log[log_at, 0] = DRAW_REEL_STOP
                    log[log_at, 1] = bound
                    log[log_at, 2] = stops[reel]
                    log_at += 1
            index = (stops[0] * lengths[reel_set, 1] + stops[1]) * lengths[reel_set, 2] + stops[2]
            entry = int(prefix[reel_set, index])
            line_pay = entry >> 16
            still_open = masks[reel_set, entry & 0xFFFF]
            while still_open != 0:
                line = lowest_bit(still_open)
                still_open &= still_open - 1
                for reel in range(5):
                    cells[reel] = windows[reel_set, reel, stops[reel], paylines[line, reel]]
                line_pay += line_win(cells, line_pays, wild, substitutable)[2]
            shown = 0
            for reel in range(5):
                shown += eggs[reel_set, reel, stops[reel]]
            scatter_win = scatter_pays[min(shown, last_pay)] * total_bet

            if reel_set == 0:
                base_line = line_pay
                base_scatter = scatter_win
                base_eggs = shown
                if shown >= trigger:
                    # each triggering egg reveals a number of free spins (one weighted draw)
                    if record and log_at + shown > log.shape[0]:
                        raise IndexError("trace log full")
                    for _ in range(shown):
                        value = bounded(rng, total_weight)
                        if record:
                            log[log_at, 0] = DRAW_EGG_REVEAL
                            log[log_at, 1] = total_weight
                            log[log_at, 2] = value
                            log_at += 1
                        for v in range(reveal_weights.shape[0]):
                            if value < reveal_weights[v]:
                                awarded += reveal_values[v]
                                break
                            value -= reveal_weights[v]
                remaining = awarded
                reel_set = 1
            else:
                # a free spin: its win, and every egg it shows adds spins
                free_win += line_pay + scatter_win
                free_eggs += shown
                remaining += shown * extra - 1
                played += 1
            if remaining <= 0:
                break

        win = base_line + base_scatter + free_win
        if record:
            out = results[i]
            out[R_WIN] = win
            out[R_BASE_LINE] = base_line
            out[R_BASE_SCATTER] = base_scatter
            out[R_BASE_EGGS] = base_eggs
            out[R_AWARDED] = awarded
            out[R_FREE_SPINS] = played
            out[R_FREE_WIN] = free_win
            out[R_FREE_EGGS] = free_eggs
            log_ends[i] = log_at
            continue
        total += win
        base_line_sum += base_line
        base_scatter_sum += base_scatter
        eggs_seen[base_eggs] += 1
        if base_line + base_scatter > 0:
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
        if awarded > 0:
            triggers += 1
            free_sum += free_win
            free_spins_sum += played
            free_eggs_sum += free_eggs
    if not record:
        stats[S_ROUNDS] += n_rounds
        stats[S_WIN] += total
        stats[S_BASE_LINE] += base_line_sum
        stats[S_BASE_SCATTER] += base_scatter_sum
        stats[S_FREE_WIN] += free_sum
        stats[S_BASE_HITS] += base_hits
        stats[S_ROUND_HITS] += round_hits
        stats[S_TRIGGERS] += triggers
        stats[S_FREE_SPINS] += free_spins_sum
        stats[S_FREE_EGGS] += free_eggs_sum
        stats[S_MAX_WIN] = max(stats[S_MAX_WIN], max_win)
        for e in range(16):
            stats[S_EGGS + e] += eggs_seen[e]
        for b in range(band_edges.shape[0]):
            stats[S_BANDS + b] += bands[b]
        float_stats[F_WIN_SQ] += win_sq
    return n_rounds
