"""The simulation driver every kernel shares: a run split into fixed-size chunks, one seeded
stream per chunk, played in this process, in local worker processes or on a Ray cluster, and
handed back by chunk index for the caller to merge in order.

Reproducibility
---------------
Chunk ``i`` draws from ``PCG64(SeedSequence(seed, spawn_key=(i,)))``, the ``i``-th child of
``SeedSequence(seed).spawn(...)``, whatever the number of chunks (:func:`chunk_stream`). What a
chunk returns depends only on what it plays, the seed, its index and its size; the driver
returns the chunks by index, so merged in index order the same seed and chunk size give the
same result for any number of workers, locally or on Ray.

What the simulation supplies
----------------------------
The simulation (:mod:`reelsmith.analysis.simulation`) gives the driver three things: how to
play a chunk in this process (``here``), the arguments a worker needs to play it elsewhere
(``job``: plain, picklable values, typically the model's folder rather than the model), and a
module-level ``worker`` that plays a chunk from those arguments and returns
``(index, *payload)``. The driver knows nothing of what a chunk computes.
"""

from __future__ import annotations

import itertools
import math
import multiprocessing
import socket
from collections.abc import Callable, Container, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from reelsmith.analysis.pcg64 import stream_state
from reelsmith.analysis.volatility import Z_95 as Z_95

#: Rounds per chunk: the unit of reproducibility and of work handed to a worker.
CHUNK_ROUNDS = 500_000
Z_99 = 2.5758293035489004

ProgressCallback = Callable[[int], None]
#: What a chunk returns to the driver (without its index).
Payload = tuple[Any, ...]


def chunk_stream(seed: int, index: int) -> npt.NDArray[np.uint64]:
    """The packed PCG64 state of chunk ``index``: ``SeedSequence(seed).spawn(n)[index]``."""
    return stream_state(np.random.SeedSequence(seed, spawn_key=(index,)))


def plan_chunks(rounds: int, chunk_size: int) -> list[tuple[int, int]]:
    """``(index, rounds)`` of each chunk: ``chunk_size`` rounds each, the last one shorter."""
    count = math.ceil(rounds / chunk_size)
    return [(i, min(chunk_size, rounds - i * chunk_size)) for i in range(count)]


def check_run(rounds: int, seed: int, workers: int, chunk_size: int, *, noun: str) -> None:
    """Refuse a run the driver cannot play, naming the argument (``noun``: what the caller
    calls its rounds, e.g. "rounds" or "spins")."""
    if rounds < 1:
        raise ValueError(f"{noun} must be at least 1, got {rounds}")
    if chunk_size < 1:
        raise ValueError(f"chunk size must be at least 1, got {chunk_size}")
    if seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed}")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")


def merge_counts(into: list[int], other: Iterable[Any], maxima: Container[int] = ()) -> None:
    """Add a chunk's integer statistics to ``into``, slot by slot; the slots in ``maxima`` keep
    the larger value instead (a largest win is not a sum)."""
    for slot, value in enumerate(other):
        into[slot] = max(into[slot], int(value)) if slot in maxima else into[slot] + int(value)


def merge_sums(into: list[float], other: Iterable[Any]) -> None:
    """Add a chunk's float statistics (sums of squares) to ``into``, slot by slot."""
    for slot, value in enumerate(other):
        into[slot] += float(value)


def band_labels(edges: Sequence[int]) -> list[str]:
    """The names of a kernel's round-win bands (``edges``: the band edges in multiples of the
    bet): no win, each band between two edges, over the last edge."""
    return [
        "no win",
        *(f"over {lo}x to {hi}x" for lo, hi in itertools.pairwise(edges)),
        f"over {edges[-1]}x",
    ]


def merge_chunks(
    results: dict[int, Payload], int_slots: int, float_slots: int, maxima: Container[int] = ()
) -> tuple[tuple[int, ...], tuple[float, ...], list[tuple[Any, ...]], float]:
    """Merge the chunks' payloads in index order. A payload is ``(integer statistics, float
    statistics, *extras, kernel seconds)``; returns the summed statistics (``maxima``: the
    slots that keep the largest value), each chunk's extras and the seconds summed over the
    chunks (the compiled kernel's own time)."""
    stats = [0] * int_slots
    float_stats = [0.0] * float_slots
    extras = []
    kernel_seconds = 0.0
    for index in range(len(results)):
        chunk_stats, chunk_floats, *chunk_extras, seconds = results[index]
        merge_counts(stats, chunk_stats, maxima)
        merge_sums(float_stats, chunk_floats)
        extras.append(tuple(chunk_extras))
        kernel_seconds += seconds
    return tuple(stats), tuple(float_stats), extras, kernel_seconds


@dataclass(frozen=True)
class KernelRun:
    """What every title's simulation holds: how it was run (seed, chunks, workers, backend,
    times) and the merged statistics of its kernel (``stats``: integer slots, ``float_stats``:
    sums of squares), with the figures read the same way for every mechanic family; the
    simulation's result (:class:`reelsmith.analysis.simulation.Simulation`) adds the slots'
    meanings and the JSON."""

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
    lines: int
    stats: tuple[int, ...]
    float_stats: tuple[float, ...]

    @property
    def rounds_per_second(self) -> float:
        """Rounds per wall-clock second of the whole run (worker start-up included)."""
        return self.rounds / self.seconds if self.seconds > 0 else math.inf

    @property
    def rounds_per_second_per_core(self) -> float:
        """Rounds per second of one core running the kernel (start-up and merging excluded)."""
        return self.rounds / self.kernel_seconds if self.kernel_seconds > 0 else math.inf

    def sample_std(self, mean: float, square_sum: float) -> float:
        """The sample standard deviation of a per-round quantity from its mean over the rounds
        and the sum of its squares (0 with fewer than two rounds)."""
        n = self.rounds
        if n < 2:
            return 0.0
        return math.sqrt(max(square_sum / n - mean * mean, 0.0) * n / (n - 1))


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


def run_chunks(
    chunks: Sequence[tuple[int, int]],
    *,
    here: Callable[[int, int], Payload],
    job: Callable[[int, int], tuple[Any, ...]],
    worker: Callable[..., tuple[Any, ...]],
    workers: int = 1,
    cluster: str | None = None,
    progress: ProgressCallback | None = None,
) -> tuple[dict[int, Payload], str]:
    """Play every chunk and return its payload by index, with the backend that played them:
    ``"ray (<address>)"`` on a cluster, ``"<n> processes"`` with more than one worker and
    chunk, else ``"local"`` (in this process, through ``here``). ``progress`` is called with
    each finished chunk's rounds."""
    if cluster is not None:
        return _run_ray(chunks, job, worker, cluster, progress), f"ray ({cluster})"
    if workers > 1 and len(chunks) > 1:
        return _run_pool(chunks, job, worker, workers, progress), f"{workers} processes"
    results: dict[int, Payload] = {}
    for index, rounds in chunks:
        results[index] = here(index, rounds)
        if progress:
            progress(rounds)
    return results, "local"


def _run_pool(
    chunks: Sequence[tuple[int, int]],
    job: Callable[[int, int], tuple[Any, ...]],
    worker: Callable[..., tuple[Any, ...]],
    workers: int,
    progress: ProgressCallback | None,
) -> dict[int, Payload]:
    results: dict[int, Payload] = {}
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        futures = {pool.submit(worker, *job(index, rounds)): rounds for index, rounds in chunks}
        for future in as_completed(futures):
            index, *payload = future.result()
            results[index] = tuple(payload)
            if progress:
                progress(futures[future])
    return results


def _run_ray(
    chunks: Sequence[tuple[int, int]],
    job: Callable[[int, int], tuple[Any, ...]],
    worker: Callable[..., tuple[Any, ...]],
    address: str,
    progress: ProgressCallback | None,
) -> dict[int, Payload]:
    import ray

    started_here = not ray.is_initialized()
    if started_here:
        check_cluster_address(address)
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    try:
        remote = ray.remote(worker)
        pending = {remote.remote(*job(index, rounds)): rounds for index, rounds in chunks}
        results: dict[int, Payload] = {}
        waiting = list(pending)
        while waiting:
            done, waiting = ray.wait(waiting, num_returns=1)
            for ref in done:
                index, *payload = ray.get(ref)
                results[index] = tuple(payload)
                if progress:
                    progress(pending[ref])
        return results
    finally:
        if started_here:
            ray.shutdown()
