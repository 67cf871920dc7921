"""Simulating the ladder-and-pots mechanic: a player's long sequence of rounds at one bet
size, in fixed-size chunks with one seeded stream each, on local processes or a Ray cluster,
merged in order (the chunk driver shared with every title: :mod:`reelsmith.analysis.chunks`).

Reproducibility
---------------
The rounds are split into chunks of ``chunk_size`` (the last one shorter) by the shared driver
(:mod:`reelsmith.analysis.chunks`). Chunk ``i`` draws from
``PCG64(SeedSequence(seed, spawn_key=(i,)))`` whatever the number of chunks; what it returns
depends only on the seed, its index and its size, and chunks are merged in index order, so a
seed gives the same result for any number of workers, locally or on Ray.

Each chunk is one player's sequence of rounds
------------------------------------------------
A chunk plays its rounds in order, carrying the pots, their hidden trigger points and the
meter from each round to the next. It *starts from a state drawn from the long-run
(stationary) law* with its own stream: each pot and trigger point uniform on
``seed <= pot < trigger <= last`` (the largest trigger point, one bet below the cap) and the
meter from its stationary law (computed by the exact
analyzer, drawn with a 53-bit uniform). A fresh player (pots at their seeds, meter empty)
would bias the estimate: the pots a player leaves behind hold on average ``(last - seed - 1)
/ 3`` bets each (about 1,770 bets over the five pots), so fresh chunks of 500,000 rounds would
read the RTP about 0.35 percentage points low. ``start="fresh"`` gives that player for tests.

Confidence interval
-------------------
Rounds are dependent (the pots pay back what gems add to them; the meter carries bonus
symbols), so the interval is from *batch means*: with at least 30 chunks the batches are the
chunks themselves, which are independent stationary sequences, and the interval is exact up to
the normal approximation of the ratio estimator; with fewer chunks the batches are runs of at
least 1,000 consecutive rounds within a chunk (fewer in runs under 30,000 rounds; at least 30
of them), whose correlation through the pots is negative, which makes the interval
conservative (wider than needed).
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from reelsmith.analysis import ladder_kernel as k
from reelsmith.analysis.chunks import (
    CHUNK_ROUNDS,
    Z_95,
    Z_99,
    KernelRun,
    ProgressCallback,
    band_labels,
    check_run,
    chunk_stream,
    merge_chunks,
    plan_chunks,
    run_chunks,
)
from reelsmith.engine.features.ladder_steps import trigger_point
from reelsmith.engine.ladder import WILD_REEL, ladder_rules
from reelsmith.engine.model import GameModel, load_model
from reelsmith.games import game_folder, load_game

#: Rounds per batch kept by the kernel for the batch-means interval (fewer in short runs, so
#: that there are at least ``MIN_BATCHES`` of them).
BATCH_ROUNDS = 1_000
#: Batches (or chunks) the interval needs at least.
MIN_BATCHES = 30
STARTS = ("stationary", "fresh")


def meter_law(model: GameModel, variant_id: str) -> npt.NDArray[np.float64]:
    """The carried meter's stationary law at the start of a round (exact analyzer)."""
    from reelsmith.analysis import ladder as exact

    rules = ladder_rules(model)
    variant = model.variant(variant_id)
    base = variant.reel_sets["base"]
    free = variant.reel_sets[rules.free_reel_set]
    chain = exact.free_spins_chain(
        rules, exact.count_distribution(exact.symbol_shown(model, free, rules.bonus))
    )
    base_law = exact.count_distribution(exact.symbol_shown(model, base, rules.bonus))
    law = np.clip(exact.meter_stationary(rules, base_law, chain), 0.0, None)
    return np.asarray(law / law.sum(), dtype=np.float64)


@dataclass(frozen=True, eq=False)
class KernelGame:
    """A variant prepared for the kernel (one line bet on each payline)."""

    model: GameModel
    variant_id: str
    tables: k.StackedTables
    lines: int
    reveal_symbols: npt.NDArray[np.int64]
    reveal_weights: npt.NDArray[np.int64]
    seeds: npt.NDArray[np.int64]
    lasts: npt.NDArray[np.int64]  # each jackpot's largest trigger point (below its cap)
    multipliers: npt.NDArray[np.int64]
    trigger_count: int
    spins_per_level: int
    spots: int
    per_spot: int
    meter_cdf: npt.NDArray[np.float64]
    slots: k.StatSlots  # where the per-reel, per-level and meter statistics sit

    @classmethod
    def build(cls, model: GameModel, variant_id: str | None = None) -> KernelGame:

        rules = ladder_rules(model)  # checks the variants (spacing, reveal table)
        variant = model.variant(variant_id)
        reveal = rules.gem_reveal(variant)
        symbols = [
            k.WILD_REEL_OUTCOME if o == WILD_REEL else model.symbol_index(o)
            for o in reveal.outcomes
        ]
        law = meter_law(model, variant.id)
        return cls(
            model=model,
            variant_id=variant.id,
            tables=k.StackedTables.stack(
                k.ReelTables.build(model, variant.reel_sets["base"], rules.gem, rules.bonus),
                k.ReelTables.build(
                    model, variant.reel_sets[rules.free_reel_set], rules.gem, rules.bonus
                ),
            ),
            lines=model.line_count,
            reveal_symbols=np.array(symbols, dtype=np.int64),
            reveal_weights=np.array(reveal.weights, dtype=np.int64),
            seeds=np.array([j.seed for j in rules.jackpots], dtype=np.int64),
            lasts=np.array([j.last_trigger for j in rules.jackpots], dtype=np.int64),
            multipliers=np.array(rules.multipliers, dtype=np.int64),
            trigger_count=rules.trigger_count,
            spins_per_level=rules.spins_per_level,
            spots=rules.spots,
            per_spot=rules.main_game_bonus_per_spot,
            meter_cdf=np.cumsum(law),
            slots=k.StatSlots.of(model.reels, rules.levels, rules.spots),
        )

    def start_state(
        self, rng: npt.NDArray[np.uint64], start: str
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """(pots, triggers, [meter]) a chunk starts from, drawn from its own stream."""
        pots = np.zeros(self.seeds.shape[0], dtype=np.int64)
        triggers = np.zeros(self.seeds.shape[0], dtype=np.int64)
        meter = np.zeros(1, dtype=np.int64)
        if start == "stationary":
            k.stationary_state(rng, self.seeds, self.lasts, self.meter_cdf, pots, triggers, meter)
        elif start == "fresh":
            from reelsmith.analysis.pcg64 import bounded_block

            pots[:] = self.seeds
            drawn = bounded_block(rng, self.lasts - self.seeds)
            for reel, (seed, value) in enumerate(zip(self.seeds, drawn, strict=True)):
                triggers[reel] = trigger_point(int(seed), int(value))
        else:
            raise ValueError(f"start must be one of {', '.join(STARTS)}, got {start!r}")
        return pots, triggers, meter

    def kernel_args(self) -> tuple[Any, ...]:
        """The game as :func:`reelsmith.analysis.ladder_kernel.play_rounds` reads it (in the
        order it unpacks it)."""
        t = self.tables.lines
        return (
            t.windows,
            t.lengths,
            self.tables.gem_row,
            self.tables.bonus,
            t.depth,
            t.prefix,
            t.entries,
            t.open_lines,
            t.open_states,
            t.trans,
            t.last_pays,
            self.model.paylines,
            self.model.wild,
            self.reveal_symbols,
            self.reveal_weights,
            self.seeds,
            self.lasts,
            self.multipliers,
            self.trigger_count,
            self.spins_per_level,
            self.spots,
            self.per_spot,
            k.band_edges_in_line_bets(self.lines),
        )

    def _play(
        self,
        rng: npt.NDArray[np.uint64],
        rounds: int,
        state: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]],
        batch_size: int,
        batch_sums: npt.NDArray[np.int64],
        stats: npt.NDArray[np.int64],
        float_stats: npt.NDArray[np.float64],
        record: bool,
        results: npt.NDArray[np.int64],
        log: npt.NDArray[np.int64],
        ends: npt.NDArray[np.int64],
    ) -> int:
        pots, triggers, meter = state
        played: int = k.play_rounds(
            rng,
            rounds,
            self.kernel_args(),
            pots,
            triggers,
            meter,
            batch_size,
            batch_sums,
            stats,
            float_stats,
            record,
            results,
            log,
            ends,
        )
        return played

    def run(
        self,
        rng: npt.NDArray[np.uint64],
        rounds: int,
        start: str = "stationary",
        batch_size: int = BATCH_ROUNDS,
    ) -> tuple[list[int], list[float], npt.NDArray[np.int64]]:
        """Play ``rounds`` rounds from a start state drawn from ``rng``: the statistics (the
        kernel's ``S_*`` slots) and the win per batch of ``batch_size`` rounds."""
        state = self.start_state(rng, start)
        stats = np.zeros(self.slots.size, dtype=np.int64)
        float_stats = np.zeros(k.N_FLOAT_STATS, dtype=np.float64)
        batches = np.zeros(math.ceil(rounds / batch_size), dtype=np.int64)
        unused = np.zeros((1, k.round_fields(self.model.reels)), dtype=np.int64)
        self._play(
            rng,
            rounds,
            state,
            batch_size,
            batches,
            stats,
            float_stats,
            False,
            unused,
            np.zeros((1, 3), np.int64),
            unused[0],
        )
        return [int(x) for x in stats], [float(x) for x in float_stats], batches

    def trace(
        self, rng: npt.NDArray[np.uint64], rounds: int, start: str = "stationary"
    ) -> tuple[
        tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], int],
        npt.NDArray[np.int64],
        list[npt.NDArray[np.int64]],
    ]:
        """Play ``rounds`` rounds with the same kernel, keeping the start state, each round's
        results and its draws ``(kind, bound, value)`` (for the parity test)."""
        pots, triggers, meter = self.start_state(rng, start)
        start_state = (pots.copy(), triggers.copy(), int(meter[0]))
        results = np.zeros((rounds, k.round_fields(self.model.reels)), dtype=np.int64)
        draws: list[npt.NDArray[np.int64]] = []
        capacity = max(rounds * 12, 4 * k.TRACE_ROUND_RESERVE)
        log = np.zeros((capacity, 3), dtype=np.int64)
        ends = np.zeros(rounds, dtype=np.int64)
        stats = np.zeros(self.slots.size, dtype=np.int64)
        float_stats = np.zeros(k.N_FLOAT_STATS, dtype=np.float64)
        batches = np.zeros(1, dtype=np.int64)
        done = 0
        while done < rounds:
            played = self._play(
                rng,
                rounds - done,
                (pots, triggers, meter),
                1,
                batches,
                stats,
                float_stats,
                True,
                results[done:],
                log,
                ends[done:],
            )
            begin = 0
            for i in range(done, done + played):
                draws.append(log[begin : ends[i]].copy())
                begin = int(ends[i])
            done += played
        return start_state, results, draws


@cache
def _kernel_game(game_id: str, folder: str | None, variant_id: str) -> KernelGame:
    model = load_game(game_id) if folder is None else load_model(Path(folder))
    game = KernelGame.build(model, variant_id)
    game.run(chunk_stream(0, 0), 10)  # load the compiled kernel before anything is timed
    return game


ChunkResult = tuple[int, list[int], list[float], list[int], float]
Job = tuple[str, str | None, str, int, int, int, str, int]


def batch_size_for(spins: int) -> int:
    """Rounds per batch for a run of ``spins`` rounds (a function of the run, not of the
    workers, so results stay reproducible)."""
    return max(1, min(BATCH_ROUNDS, spins // MIN_BATCHES))


def run_chunk(
    game_id: str,
    folder: str | None,
    variant_id: str,
    seed: int,
    index: int,
    rounds: int,
    start: str = "stationary",
    batch_size: int = BATCH_ROUNDS,
) -> ChunkResult:
    """One chunk in whichever process runs it: its index, statistics, batch wins and the
    seconds its kernel ran."""
    game = _kernel_game(game_id, folder, variant_id)
    started = time.perf_counter()
    stats, float_stats, batches = game.run(chunk_stream(seed, index), rounds, start, batch_size)
    return index, stats, float_stats, [int(b) for b in batches], time.perf_counter() - started


def batch_means(
    batches: Sequence[Sequence[int]], sizes: Sequence[Sequence[int]], lines: int
) -> tuple[float, float, int, str]:
    """The RTP, the standard error of the ratio estimator and the number of batches, from
    per-chunk batch wins: the chunks themselves when there are enough, else runs of
    consecutive batches within each chunk."""
    chunk_wins = [sum(b) for b in batches]
    chunk_sizes = [sum(s) for s in sizes]
    if len(chunk_wins) >= MIN_BATCHES:
        wins, counts, how = chunk_wins, chunk_sizes, "chunks (independent)"
    else:
        total = sum(len(b) for b in batches)
        group = max(1, total // MIN_BATCHES)
        wins, counts = [], []
        for chunk, chunk_sizes_ in zip(batches, sizes, strict=True):
            for begin in range(0, len(chunk), group):
                wins.append(sum(chunk[begin : begin + group]))
                counts.append(sum(chunk_sizes_[begin : begin + group]))
        size = max(max(s) for s in sizes) * group
        how = f"runs of {size:,} rounds within chunks (conservative)"
    w = np.array(wins, dtype=np.float64) / lines
    n = np.array(counts, dtype=np.float64)
    rtp = float(w.sum() / n.sum())
    count = len(w)
    if count < 2:
        return rtp, math.inf, count, how
    residual = w - rtp * n
    variance = count / (count - 1) * float((residual**2).sum()) / float(n.sum()) ** 2
    return rtp, math.sqrt(variance), count, how


@dataclass(frozen=True)
class SimulationResult(KernelRun):
    """Merged statistics of a ladder simulation (the ladder kernel's slots), per unit bet where
    it is a return; ``batches``: each chunk's batch wins, for the batch-means interval."""

    start: str
    levels: int
    spots: int
    pot_names: tuple[str, ...]
    batches: tuple[tuple[int, ...], ...]
    batch_size: int
    exact: dict[str, Any] = field(default_factory=dict)

    def _batch_sizes(self) -> list[list[int]]:
        out = []
        for index, chunk in enumerate(self.batches):
            size = min(self.chunk_size, self.rounds - index * self.chunk_size)
            full, rest = divmod(size, self.batch_size)
            out.append([self.batch_size] * full + ([rest] if rest else []))
            if len(out[-1]) != len(chunk):  # pragma: no cover - a broken merge must not pass
                raise AssertionError("batch count does not match the chunk size")
        return out

    @property
    def rtp(self) -> float:
        return self.stats[k.S_WIN] / (self.rounds * self.lines)

    @property
    def std_error(self) -> float:
        return batch_means(self.batches, self._batch_sizes(), self.lines)[1]

    @property
    def ci_method(self) -> str:
        _, _, count, how = batch_means(self.batches, self._batch_sizes(), self.lines)
        return f"batch means over {count:,} {how}"

    def interval(self, z: float) -> tuple[float, float] | None:
        """RTP +- z standard errors; None when the run is too short for an interval."""
        half = z * self.std_error
        if not math.isfinite(half):
            return None
        return self.rtp - half, self.rtp + half

    @property
    def std_dev(self) -> float:
        """Sample standard deviation of the round win per unit bet."""
        return self.sample_std(self.rtp, self.float_stats[k.F_WIN_SQ])

    @property
    def slots(self) -> k.StatSlots:
        """Where this run's per-pot, per-level and meter statistics sit in :attr:`stats`."""
        return k.StatSlots.of(len(self.pot_names), self.levels, self.spots)

    def to_json(self) -> dict[str, Any]:
        s = self.stats
        at = self.slots
        n = self.rounds
        bet = n * self.lines
        triggers = s[k.S_TRIGGERS]
        labels = band_labels(k.BAND_EDGES)
        pots = {
            name: {
                "rtp": s[at.pot_bets + i] / n,
                "hits_per_round": s[at.pot_hits + i] / n,
                "gems_per_round": s[at.gems + i] / n,
                "mean_award_x_bet": s[at.pot_bets + i] / s[at.pot_hits + i]
                if s[at.pot_hits + i]
                else None,
            }
            for i, name in enumerate(self.pot_names)
        }
        return {
            "game": self.game,
            "variant": self.variant,
            "spins": n,
            "seed": self.seed,
            "chunk_size": self.chunk_size,
            "chunks": self.chunks,
            "workers": self.workers,
            "backend": self.backend,
            "start": self.start,
            "bet": {"lines": self.lines, "line_bets": self.lines},
            "rtp": self.rtp,
            "rtp_ci95": _listed(self.interval(Z_95)),
            "rtp_ci99": _listed(self.interval(Z_99)),
            "rtp_standard_error": self.std_error if math.isfinite(self.std_error) else None,
            "ci_method": self.ci_method,
            "rtp_breakdown": {
                "main_game_lines": s[k.S_BASE_LINE] / bet,
                "free_spins_lines": s[k.S_FREE_LINE] / bet,
                "free_spins_lines_by_level": {
                    str(lv + 1): s[at.level_line + lv] / bet for lv in range(self.levels)
                },
                "jackpots": s[k.S_JACKPOT_BETS] / n,
                "jackpots_by_pot": {name: v["rtp"] for name, v in pots.items()},
            },
            "hit_frequency": s[k.S_BASE_HITS] / n,
            "round_hit_frequency": s[k.S_ROUND_HITS] / n,
            "free_spins_frequency": triggers / n,
            "free_spins_per_trigger": s[k.S_FREE_SPINS] / triggers if triggers else None,
            "level_reached": {
                str(lv + 1): s[at.level_reached + lv] / triggers if triggers else None
                for lv in range(self.levels)
            },
            "pots": pots,
            "std_dev": self.std_dev,
            "max_win_x_bet": s[k.S_MAX_WIN] / self.lines,
            "win_distribution": [
                {"win_x_bet": label, "probability": s[at.bands + i] / n}
                for i, label in enumerate(labels)
            ],
            "meter_after_round": [s[at.meter_ends + m] / n for m in range(self.spots + 1)],
            "seconds": self.seconds,
            "spins_per_second": self.rounds_per_second,
            "spins_per_second_per_core": self.rounds_per_second_per_core,
            "exact": self.exact,
            "method": "simulation: numba kernel of whole rounds carrying pots, trigger points "
            "and meter (parity-tested against live play); chunks of one player's rounds from "
            f"a {self.start} start, PCG64 streams per chunk from SeedSequence(seed)",
        }


def _listed(interval: tuple[float, float] | None) -> list[float] | None:
    return None if interval is None else list(interval)


def simulate(
    game_id: str,
    spins: int,
    seed: int,
    *,
    variant_id: str | None = None,
    folder: Path | None = None,
    workers: int = 1,
    chunk_size: int = CHUNK_ROUNDS,
    cluster: str | None = None,
    progress: ProgressCallback | None = None,
    start: str = "stationary",
) -> SimulationResult:
    """Simulate ``spins`` rounds of a variant at one line bet per payline.

    ``folder`` loads the title from a copy of its folder (tuning and tests); ``cluster`` is a
    Ray address (``"local"`` starts a local Ray instance); ``start`` is the state each chunk's
    player starts from (see the module notes).
    """
    check_run(spins, seed, workers, chunk_size, noun="spins")
    if start not in STARTS:
        raise ValueError(f"start must be one of {', '.join(STARTS)}, got {start!r}")
    folder_text = None if folder is None or folder == game_folder(game_id) else str(folder)
    model = load_game(game_id) if folder_text is None else load_model(Path(folder_text))
    variant = model.variant(variant_id)
    game = _kernel_game(game_id, folder_text, variant.id)  # builds (and checks) here first
    batch_size = batch_size_for(spins)
    chunks = plan_chunks(spins, chunk_size)

    def job(index: int, rounds: int) -> Job:
        return (game_id, folder_text, variant.id, seed, index, rounds, start, batch_size)

    started = time.perf_counter()
    results, backend = run_chunks(
        chunks,
        here=lambda index, rounds: run_chunk(*job(index, rounds))[1:],
        job=job,
        worker=run_chunk,
        workers=workers,
        cluster=cluster,
        progress=progress,
    )
    seconds = time.perf_counter() - started
    stats, float_stats, extras, kernel_seconds = merge_chunks(
        results, game.slots.size, k.N_FLOAT_STATS, (k.S_MAX_WIN,)
    )
    batches = [tuple(chunk_batches) for (chunk_batches,) in extras]

    rules = ladder_rules(game.model)
    return SimulationResult(
        game=game_id,
        variant=variant.id,
        seed=seed,
        rounds=spins,
        chunk_size=chunk_size,
        chunks=len(chunks),
        workers=workers,
        backend=backend,
        start=start,
        seconds=seconds,
        kernel_seconds=kernel_seconds,
        lines=game.lines,
        levels=rules.levels,
        spots=rules.spots,
        pot_names=tuple(j.name for j in rules.jackpots),
        stats=stats,
        float_stats=float_stats,
        batches=tuple(batches),
        batch_size=batch_size,
    )
