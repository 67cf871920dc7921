"""Simulating Days of the Tsar: fixed-size chunks, one seeded stream each, on local processes
or a Ray cluster, merged in chunk order.

Reproducibility
---------------
The spins are split into chunks of ``chunk_size`` rounds (the last one shorter). Chunk ``i``
draws from ``PCG64(SeedSequence(seed, spawn_key=(i,)))`` - the ``i``-th child of
``SeedSequence(seed).spawn(...)``, whatever the number of chunks. What a chunk returns depends
only on the seed, its index and its size, and the chunks are merged in index order, so the
same seed and chunk size give the same result for any number of workers, locally or on Ray.
"""

from __future__ import annotations

import itertools
import math
import multiprocessing
import socket
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from reelsmith.analysis import tsar_kernel as k
from reelsmith.analysis.pcg64 import stream_state
from reelsmith.engine.model import GameModel, load_model
from reelsmith.games import game_folder, load_game

#: Rounds per chunk: the unit of reproducibility and of work handed to a worker.
CHUNK_ROUNDS = 500_000
Z_95 = 1.959963984540054
Z_99 = 2.5758293035489004

ProgressCallback = Callable[[int], None]


@dataclass(frozen=True, eq=False)
class KernelGame:
    """A variant prepared for the kernel (all paylines, one coin per line)."""

    model: GameModel
    variant_id: str
    tables: k.StackedTables
    total_bet: int
    trigger: int
    extra: int
    reveal_values: npt.NDArray[np.int64]
    reveal_weights: npt.NDArray[np.int64]

    @classmethod
    def build(cls, model: GameModel, variant_id: str | None = None) -> KernelGame:
        from reelsmith.games.days_of_the_tsar.rules import tsar_rules

        rules = tsar_rules(model)  # checks the variants (egg spacing, reveal table)
        variant = model.variant(variant_id)
        lines = model.line_count
        reveal = variant.parameters["egg_reveal"]
        return cls(
            model=model,
            variant_id=variant.id,
            tables=k.StackedTables.stack(
                k.ReelTables.build(model, variant.reel_sets["base"], lines),
                k.ReelTables.build(model, variant.reel_sets[rules.free_reel_set], lines),
            ),
            total_bet=lines,
            trigger=rules.trigger_count,
            extra=rules.extra_spins_per_egg,
            reveal_values=np.array(reveal["values"], dtype=np.int64),
            reveal_weights=np.array(reveal["weights"], dtype=np.int64),
        )

    def _play(
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
        m, t = self.model, self.tables
        played: int = k.play_rounds(
            rng,
            rounds,
            t.windows,
            t.eggs,
            t.lengths,
            t.prefix,
            t.masks,
            m.paylines,
            m.line_pays,
            m.wild,
            m.substitutable,
            m.scatter_pays,
            self.total_bet,
            self.trigger,
            self.extra,
            self.reveal_values,
            self.reveal_weights,
            k.band_edges_in_coins(self.total_bet),
            stats,
            float_stats,
            record,
            results,
            log,
            ends,
        )
        return played

    def run(self, rng: npt.NDArray[np.uint64], rounds: int) -> tuple[list[int], list[float]]:
        """Play ``rounds`` rounds; their statistics (the kernel's ``S_*`` slots)."""
        stats = np.zeros(k.N_INT_STATS, dtype=np.int64)
        float_stats = np.zeros(k.N_FLOAT_STATS, dtype=np.float64)
        unused = np.zeros((1, k.ROUND_FIELDS), dtype=np.int64)
        self._play(
            rng, rounds, stats, float_stats, False, unused, np.zeros((1, 3), np.int64), unused[0]
        )
        return [int(x) for x in stats], [float(x) for x in float_stats]

    def trace(
        self, rng: npt.NDArray[np.uint64], rounds: int
    ) -> tuple[npt.NDArray[np.int64], list[npt.NDArray[np.int64]]]:
        """Play ``rounds`` rounds with the same kernel, keeping each one's results and draws
        ``(kind, bound, value)`` (for the parity test against live play)."""
        results = np.zeros((rounds, k.ROUND_FIELDS), dtype=np.int64)
        draws: list[npt.NDArray[np.int64]] = []
        done = 0
        capacity = max(rounds * 12, 2 * k.TRACE_ROUND_RESERVE)
        log = np.zeros((capacity, 3), dtype=np.int64)
        ends = np.zeros(rounds, dtype=np.int64)
        stats = np.zeros(k.N_INT_STATS, dtype=np.int64)
        float_stats = np.zeros(k.N_FLOAT_STATS, dtype=np.float64)
        while done < rounds:
            played = self._play(
                rng, rounds - done, stats, float_stats, True, results[done:], log, ends[done:]
            )
            start = 0
            for i in range(done, done + played):
                draws.append(log[start : ends[i]].copy())
                start = int(ends[i])
            done += played
        return results, draws


@cache
def _kernel_game(game_id: str, folder: str | None, variant_id: str) -> KernelGame:
    model = load_game(game_id) if folder is None else load_model(Path(folder))
    return KernelGame.build(model, variant_id)


def chunk_stream(seed: int, index: int) -> npt.NDArray[np.uint64]:
    """The packed PCG64 state of chunk ``index``: ``SeedSequence(seed).spawn(n)[index]``."""
    return stream_state(np.random.SeedSequence(seed, spawn_key=(index,)))


def run_chunk(
    game_id: str, folder: str | None, variant_id: str, seed: int, index: int, rounds: int
) -> tuple[int, list[int], list[float], float]:
    """One chunk, in whichever process runs it (a pool worker, a Ray task or this one);
    returns its index, statistics and the seconds its kernel ran."""
    game = _kernel_game(game_id, folder, variant_id)
    started = time.perf_counter()
    stats, float_stats = game.run(chunk_stream(seed, index), rounds)
    return index, stats, float_stats, time.perf_counter() - started


@dataclass(frozen=True)
class SimulationResult:
    """Merged statistics of a simulation, per unit of total bet where it is a return."""

    game: str
    variant: str
    seed: int
    rounds: int
    chunk_size: int
    chunks: int
    workers: int
    backend: str
    seconds: float
    kernel_seconds: float  # summed over chunks: the compiled kernel's own time
    total_bet: int
    stats: tuple[int, ...]
    float_stats: tuple[float, ...]
    exact: dict[str, float] = field(default_factory=dict)

    def _ratio(self, slot: int, per: int | None = None) -> float:
        return self.stats[slot] / (per if per is not None else self.rounds)

    @property
    def rtp(self) -> float:
        return self.stats[k.S_WIN] / (self.rounds * self.total_bet)

    @property
    def std_dev(self) -> float:
        """Sample standard deviation of the round win per unit bet."""
        n = self.rounds
        mean = self.stats[k.S_WIN] / self.total_bet / n
        second = self.float_stats[k.F_WIN_SQ] / (self.total_bet * self.total_bet) / n
        if n < 2:
            return 0.0
        return math.sqrt(max(second - mean * mean, 0.0) * n / (n - 1))

    def interval(self, z: float) -> tuple[float, float]:
        half = z * self.std_dev / math.sqrt(self.rounds)
        return self.rtp - half, self.rtp + half

    @property
    def spins_per_second(self) -> float:
        """Rounds per wall-clock second of the whole run (worker start-up included)."""
        return self.rounds / self.seconds if self.seconds > 0 else math.inf

    @property
    def spins_per_second_per_core(self) -> float:
        """Rounds per second of one core running the kernel (start-up and merging excluded)."""
        return self.rounds / self.kernel_seconds if self.kernel_seconds > 0 else math.inf

    def to_json(self) -> dict[str, Any]:
        s = self.stats
        triggers = s[k.S_TRIGGERS]
        bet = self.rounds * self.total_bet
        edges = k.BAND_EDGES
        labels = [
            "no win",
            *(f"over {lo}x to {hi}x" for lo, hi in itertools.pairwise(edges)),
            f"over {edges[-1]}x",
        ]
        return {
            "game": self.game,
            "variant": self.variant,
            "spins": self.rounds,
            "seed": self.seed,
            "chunk_size": self.chunk_size,
            "chunks": self.chunks,
            "workers": self.workers,
            "backend": self.backend,
            "bet": {"lines": self.total_bet, "coins_per_line": 1, "total_coins": self.total_bet},
            "rtp": self.rtp,
            "rtp_ci95": list(self.interval(Z_95)),
            "rtp_ci99": list(self.interval(Z_99)),
            "rtp_breakdown": {
                "line_wins": s[k.S_BASE_LINE] / bet,
                "scatter": s[k.S_BASE_SCATTER] / bet,
                "free_spins": s[k.S_FREE_WIN] / bet,
            },
            "hit_frequency": self._ratio(k.S_BASE_HITS),
            "round_hit_frequency": self._ratio(k.S_ROUND_HITS),
            "free_spins_frequency": self._ratio(k.S_TRIGGERS),
            "free_spins_per_trigger": s[k.S_FREE_SPINS] / triggers if triggers else None,
            "eggs_per_free_spin": s[k.S_FREE_EGGS] / s[k.S_FREE_SPINS]
            if s[k.S_FREE_SPINS]
            else None,
            "base_eggs": {
                str(e): s[k.S_EGGS + e] / self.rounds for e in range(16) if s[k.S_EGGS + e]
            },
            "std_dev": self.std_dev,
            "max_win_x_bet": s[k.S_MAX_WIN] / self.total_bet,
            "win_distribution": [
                {"win_x_bet": label, "probability": s[k.S_BANDS + i] / self.rounds}
                for i, label in enumerate(labels)
            ],
            "seconds": self.seconds,
            "spins_per_second": self.spins_per_second,
            "spins_per_second_per_core": self.spins_per_second_per_core,
            "exact": self.exact,
            "method": "simulation: numba kernel of the whole game (parity-tested against live "
            "play), PCG64 streams per chunk from SeedSequence(seed); gamble excluded (fair)",
        }


def _chunks(spins: int, chunk_size: int) -> list[tuple[int, int]]:
    count = math.ceil(spins / chunk_size)
    return [(i, min(chunk_size, spins - i * chunk_size)) for i in range(count)]


def _run_local(
    jobs: Sequence[tuple[str, str | None, str, int, int, int]],
    workers: int,
    progress: ProgressCallback | None,
) -> dict[int, tuple[list[int], list[float], float]]:
    results: dict[int, tuple[list[int], list[float], float]] = {}
    if workers <= 1 or len(jobs) <= 1:
        for job in jobs:
            index, stats, float_stats, seconds = run_chunk(*job)
            results[index] = (stats, float_stats, seconds)
            if progress:
                progress(job[-1])
        return results
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        futures = {pool.submit(run_chunk, *job): job for job in jobs}
        for future in as_completed(futures):
            index, stats, float_stats, seconds = future.result()
            results[index] = (stats, float_stats, seconds)
            if progress:
                progress(futures[future][-1])
    return results


class ClusterError(ConnectionError):
    """A Ray cluster address that cannot be reached."""


def check_cluster_address(address: str, timeout: float = 5.0) -> None:
    """Fail fast on an unreachable ``host:port`` or ``ray://host:port`` address (Ray itself
    retries for minutes). ``local`` and ``auto`` are left to Ray."""
    if address in ("local", "auto"):
        return
    target = address.removeprefix("ray://")
    host, _, port_text = target.rpartition(":")
    if not host or not port_text.isdigit():
        raise ClusterError(f"--cluster {address!r}: expected host:port, ray://host:port or local")
    try:
        socket.create_connection((host, int(port_text)), timeout=timeout).close()
    except OSError as exc:
        raise ClusterError(
            f"--cluster {address}: cannot reach a Ray cluster there ({exc.strerror or exc})"
        ) from None


def _run_ray(
    jobs: Sequence[tuple[str, str | None, str, int, int, int]],
    address: str,
    progress: ProgressCallback | None,
) -> dict[int, tuple[list[int], list[float], float]]:
    import ray

    started_here = not ray.is_initialized()
    if started_here:
        check_cluster_address(address)
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    try:
        remote = ray.remote(run_chunk)
        pending = {remote.remote(*job): job for job in jobs}
        results: dict[int, tuple[list[int], list[float], float]] = {}
        waiting = list(pending)
        while waiting:
            done, waiting = ray.wait(waiting, num_returns=1)
            for ref in done:
                index, stats, float_stats, seconds = ray.get(ref)
                results[index] = (stats, float_stats, seconds)
                if progress:
                    progress(pending[ref][-1])
        return results
    finally:
        if started_here:
            ray.shutdown()


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
) -> SimulationResult:
    """Simulate ``spins`` rounds of a variant (one coin per line on every payline).

    ``folder`` loads the title from a copy of its folder instead of the package (tuning and
    tests); ``cluster`` is a Ray address (``"local"`` starts a local Ray instance).
    """
    if spins < 1:
        raise ValueError(f"spins must be at least 1, got {spins}")
    if chunk_size < 1:
        raise ValueError(f"chunk size must be at least 1, got {chunk_size}")
    if seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed}")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    folder_text = None if folder is None or folder == game_folder(game_id) else str(folder)
    model = load_game(game_id) if folder_text is None else load_model(Path(folder_text))
    variant = model.variant(variant_id)
    game = _kernel_game(game_id, folder_text, variant.id)  # builds (and checks) here first
    jobs = [
        (game_id, folder_text, variant.id, seed, index, rounds)
        for index, rounds in _chunks(spins, chunk_size)
    ]
    started = time.perf_counter()
    if cluster is not None:
        results = _run_ray(jobs, cluster, progress)
        backend = f"ray ({cluster})"
    else:
        results = _run_local(jobs, workers, progress)
        backend = "local" if workers <= 1 or len(jobs) <= 1 else f"{workers} processes"
    seconds = time.perf_counter() - started
    stats = [0] * k.N_INT_STATS
    float_stats = [0.0] * k.N_FLOAT_STATS
    kernel_seconds = 0.0
    for index in range(len(jobs)):
        chunk_stats, chunk_floats, chunk_seconds = results[index]
        kernel_seconds += chunk_seconds
        for slot, value in enumerate(chunk_stats):
            stats[slot] = max(stats[slot], value) if slot == k.S_MAX_WIN else stats[slot] + value
        for slot, fvalue in enumerate(chunk_floats):
            float_stats[slot] += fvalue
    return SimulationResult(
        game=game_id,
        variant=variant.id,
        seed=seed,
        rounds=spins,
        chunk_size=chunk_size,
        chunks=len(jobs),
        workers=workers,
        backend=backend,
        seconds=seconds,
        kernel_seconds=kernel_seconds,
        total_bet=game.total_bet,
        stats=tuple(stats),
        float_stats=tuple(float_stats),
    )
