"""Simulating any catalogue title with the generic kernel (:mod:`reelsmith.analysis.kernel`):
fixed-size chunks, one seeded stream each, on this process, local processes or a Ray
cluster, merged in chunk order; a report with the exact figures beside the simulated ones.

Reproducibility
---------------
The chunks, their seeded streams, the workers and the Ray cluster are the shared driver's
(:mod:`reelsmith.analysis.chunks`): chunk ``i`` draws from
``PCG64(SeedSequence(seed, spawn_key=(i,)))``, what it returns depends only on the model, the
seed, its index and its size, and the chunks are merged in index order, so the same seed and
chunk size give the same result for any number of workers, locally or on Ray. Worker
processes load the model from its folder (``model.source``); a model built in memory is
simulated in this process only.

Confidence
----------
The interval for the RTP is the normal one on the round win per unit bet, ``rtp +- z s /
sqrt(n)`` with the sample standard deviation ``s`` of the rounds: the rounds are independent
and identically distributed (each chunk's stream is independent), so by the central limit
theorem it covers the true RTP with the stated probability once ``n`` is large against the
tail of the win distribution. Nothing is assumed of that distribution beyond a finite
variance (the exact analysis checks that the free spins end on average).

The gamble is fair (a colour doubles at 1/2, a suit quadruples at 1/4) and leaves the return
unchanged, so a simulated round does not gamble.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from reelsmith.analysis import kernel as k
from reelsmith.analysis.catalogue_exact import CatalogueFigures, analyze_rtp
from reelsmith.analysis.chunks import CHUNK_ROUNDS as CHUNK_ROUNDS
from reelsmith.analysis.chunks import Z_95 as Z_95
from reelsmith.analysis.chunks import Z_99 as Z_99
from reelsmith.analysis.chunks import ClusterError as ClusterError
from reelsmith.analysis.chunks import KernelRun, check_run, merge_chunks, plan_chunks, run_chunks
from reelsmith.analysis.chunks import ProgressCallback as ProgressCallback
from reelsmith.analysis.chunks import check_cluster_address as check_cluster_address
from reelsmith.analysis.chunks import chunk_stream as chunk_stream
from reelsmith.analysis.report import LabReport, TextBlock, rows, speed_line
from reelsmith.engine.model import GameModel, load_model

#: A chunk's job for a worker: (model folder, variant, seed, chunk index, rounds).
Job = tuple[str, str, int, int, int]
ChunkResult = tuple[list[int], list[float], float]


@cache
def _folder_game(folder: str, variant_id: str) -> k.KernelGame:
    return k.KernelGame.build(load_model(Path(folder)), variant_id)


@cache
def kernel_game(model: GameModel, variant_id: str) -> k.KernelGame:
    """The kernel tables of a variant, built once per loaded model and variant."""
    return k.KernelGame.build(model, variant_id)


def play_chunk(game: k.KernelGame, seed: int, index: int, rounds: int) -> ChunkResult:
    """Chunk ``index`` of ``game``: its statistics and the seconds its kernel ran."""
    started = time.perf_counter()
    stats, float_stats = game.run(chunk_stream(seed, index), rounds)
    return stats, float_stats, time.perf_counter() - started


def run_chunk(
    folder: str, variant_id: str, seed: int, index: int, rounds: int
) -> tuple[int, list[int], list[float], float]:
    """One chunk in a pool worker or a Ray task (the model loaded from its folder once per
    process); returns its index, statistics and the seconds its kernel ran."""
    stats, float_stats, seconds = play_chunk(_folder_game(folder, variant_id), seed, index, rounds)
    return index, stats, float_stats, seconds


@dataclass(frozen=True)
class CatalogueSimulation(KernelRun):
    """Merged statistics of a catalogue simulation (the generic kernel's slots); returns are
    per unit of total bet."""

    total_bet: int

    def _per_bet(self, slot: int) -> float:
        return self.stats[slot] / (self.rounds * self.total_bet)

    @property
    def rtp(self) -> float:
        return self._per_bet(k.S_WIN)

    def _std(self, total: int, square_slot: int) -> float:
        bet = self.total_bet
        return self.sample_std(
            total / bet / self.rounds, self.float_stats[square_slot] / (bet * bet)
        )

    @property
    def std_dev(self) -> float:
        """Sample standard deviation of the round win per unit bet."""
        return self._std(self.stats[k.S_WIN], k.F_WIN_SQ)

    @property
    def base_spin_std_dev(self) -> float:
        """Sample standard deviation of the base spin's own win per unit bet."""
        base = (
            self.stats[k.S_BASE_LINE] + self.stats[k.S_BASE_SCATTER] + self.stats[k.S_BASE_PLUGIN]
        )
        return self._std(base, k.F_BASE_WIN_SQ)

    def interval(self, z: float = Z_99) -> tuple[float, float]:
        """The RTP's confidence interval at ``z`` standard errors (99% by default)."""
        half = z * self.std_dev / math.sqrt(self.rounds)
        return self.rtp - half, self.rtp + half

    def _frequency(self, slot: int) -> float:
        return self.stats[slot] / self.rounds

    @property
    def hit_frequency(self) -> float:
        """Base spins that pay or trigger the feature, per round."""
        return self._frequency(k.S_BASE_HITS)

    @property
    def free_spins_frequency(self) -> float:
        return self._frequency(k.S_TRIGGERS)

    @property
    def free_spins_per_trigger(self) -> float | None:
        triggers = self.stats[k.S_TRIGGERS]
        return self.stats[k.S_FREE_SPINS] / triggers if triggers else None

    def to_json(self) -> dict[str, Any]:
        s = self.stats
        return {
            "game": self.game,
            "variant": self.variant,
            "rounds": self.rounds,
            "spins": self.rounds,  # the lab's name for rounds, shared with every title
            "seed": self.seed,
            "chunk_size": self.chunk_size,
            "chunks": self.chunks,
            "workers": self.workers,
            "backend": self.backend,
            "bet": {"lines": self.lines, "coins_per_line": 1, "total_coins": self.total_bet},
            "rtp": self.rtp,
            "rtp_ci95": list(self.interval(Z_95)),
            "rtp_ci99": list(self.interval(Z_99)),
            "rtp_breakdown": {
                "line_wins": self._per_bet(k.S_BASE_LINE),
                "scatter": self._per_bet(k.S_BASE_SCATTER),
                "free_spins": self._per_bet(k.S_FREE_WIN),
            },
            "hit_frequency": self.hit_frequency,
            "round_hit_frequency": self._frequency(k.S_ROUND_HITS),
            "free_spins_frequency": self.free_spins_frequency,
            "free_spins_per_trigger": self.free_spins_per_trigger,
            "retriggers_per_free_spin": s[k.S_RETRIGGERS] / s[k.S_FREE_SPINS]
            if s[k.S_FREE_SPINS]
            else None,
            "capped_features": s[k.S_CAPPED],
            "most_free_spins_in_a_round": s[k.S_MAX_FREE_SPINS],
            "std_dev": self.std_dev,
            "base_spin_std_dev": self.base_spin_std_dev,
            "max_win_x_bet": s[k.S_MAX_WIN] / self.total_bet,
            "win_distribution": [
                {"win_x_bet": label, "probability": s[k.S_BANDS + i] / self.rounds}
                for i, label in enumerate(k.band_labels())
            ],
            "seconds": self.seconds,
            "rounds_per_second": self.rounds_per_second,
            "rounds_per_second_per_core": self.rounds_per_second_per_core,
            "spins_per_second": self.rounds_per_second,
            "method": "simulation: the generic catalogue kernel (parity-tested against live "
            "play), PCG64 streams per chunk from SeedSequence(seed); gamble excluded (fair)",
        }


def _folder_of(model: GameModel) -> str | None:
    return None if model.source is None else str(Path(model.source).parent)


def simulate(
    model: GameModel,
    rounds: int,
    seed: int,
    *,
    variant_id: str | None = None,
    workers: int = 1,
    chunk_size: int = CHUNK_ROUNDS,
    cluster: str | None = None,
    progress: ProgressCallback | None = None,
) -> CatalogueSimulation:
    """Simulate ``rounds`` rounds of a catalogue variant (one coin per line on every payline).

    The variant is checked by the exact analysis first, which refuses free spins that never
    end on average (no cap and a free spin that adds one spin or more): such rounds could run
    for ever.

    With one worker and no cluster the chunks run in this process on ``model`` itself; worker
    processes and Ray tasks load the model from its folder (``model.source``). ``cluster`` is
    a Ray address (``"local"`` starts a local Ray instance). ``progress`` is called with each
    finished chunk's rounds.
    """
    return _simulate(
        model,
        rounds,
        seed,
        variant_id=variant_id,
        workers=workers,
        chunk_size=chunk_size,
        cluster=cluster,
        progress=progress,
    )[0]


def _simulate(
    model: GameModel,
    rounds: int,
    seed: int,
    *,
    variant_id: str | None = None,
    workers: int = 1,
    chunk_size: int = CHUNK_ROUNDS,
    cluster: str | None = None,
    progress: ProgressCallback | None = None,
) -> tuple[CatalogueSimulation, CatalogueFigures]:
    """:func:`simulate`, also returning the exact figures it checked the variant with."""
    check_run(rounds, seed, workers, chunk_size, noun="rounds")
    variant = model.variant(variant_id)
    # refuses a model that is not the catalogue's free spins, and free spins that never end
    figures = analyze_rtp(model, variant.id)
    game = kernel_game(model, variant.id)  # builds (and checks) the tables here first
    chunks = plan_chunks(rounds, chunk_size)
    folder = _folder_of(model)
    if (workers > 1 or cluster is not None) and folder is None:
        raise ValueError(
            f"{model.id}: a model without a folder (model.source) is simulated in this process "
            "only: use one worker and no cluster"
        )
    started = time.perf_counter()
    results, backend = run_chunks(
        chunks,
        here=lambda index, size: play_chunk(game, seed, index, size),
        job=lambda index, size: (folder, variant.id, seed, index, size),
        worker=run_chunk,
        workers=workers,
        cluster=cluster,
        progress=progress,
    )
    seconds = time.perf_counter() - started
    stats, float_stats, _, kernel_seconds = merge_chunks(
        results, k.N_INT_STATS, k.N_FLOAT_STATS, k.MAX_SLOTS
    )
    result = CatalogueSimulation(
        game=model.id,
        variant=variant.id,
        seed=seed,
        rounds=rounds,
        chunk_size=chunk_size,
        chunks=len(chunks),
        workers=workers,
        backend=backend,
        seconds=seconds,
        kernel_seconds=kernel_seconds,
        total_bet=game.total_bet,
        lines=model.line_count,
        stats=stats,
        float_stats=float_stats,
    )
    return result, figures


# ---------------------------------------------------------------------------------------
# The report the lab shows
# ---------------------------------------------------------------------------------------


def exact_figures(figures: CatalogueFigures) -> dict[str, float]:
    """The exact analysis' figures the report sets beside the simulated ones."""
    return {
        "rtp": float(figures.rtp),
        "line_wins": float(figures.line_rtp),
        "scatter": float(figures.scatter_rtp),
        "free_spins": float(figures.free_spins_rtp),
        "free_spins_frequency": float(figures.trigger_probability),
        "expected_free_spins_per_trigger": float(figures.expected_free_spins),
    }


def inside(interval: tuple[float, float], value: float) -> bool:
    """Whether ``value`` lies inside the closed ``interval``."""
    low, high = interval
    return low <= value <= high


def simulation_report(name: str, result: CatalogueSimulation, exact: dict[str, float]) -> LabReport:
    """``simulate``'s result for a catalogue title, with the exact figures beside it and
    whether the exact RTP lies inside the simulated 99% interval."""
    r = result
    d = r.to_json()
    d["exact"] = exact
    d["exact_inside_ci99"] = inside(r.interval(Z_99), exact["rtp"])
    low, high = d["rtp_ci99"]
    breakdown = d["rtp_breakdown"]
    per_trigger = r.free_spins_per_trigger
    figures = [
        ("RTP", f"{r.rtp:.4%} (99% CI {low:.4%} - {high:.4%})", f"{exact['rtp']:.4%}"),
        *(
            (f"  {key.replace('_', ' ')}", f"{breakdown[key]:.4%}", f"{exact[key]:.4%}")
            for key in ("line_wins", "scatter", "free_spins")
        ),
        ("hit frequency", f"{r.hit_frequency:.4%}", ""),
        (
            "free spins frequency",
            f"{r.free_spins_frequency:.4%}",
            f"{exact['free_spins_frequency']:.4%}",
        ),
        (
            "free spins per trigger",
            f"{per_trigger:.2f}" if per_trigger is not None else "-",
            f"{exact['expected_free_spins_per_trigger']:.2f}",
        ),
    ]
    if r.stats[k.S_CAPPED]:
        figures.append(("features reaching the cap", f"{r.stats[k.S_CAPPED]:,}", ""))
    figures += [
        ("standard deviation", f"{r.std_dev:.4f}", ""),
        ("max round win", f"{d['max_win_x_bet']:,.1f}x bet", ""),
    ]
    where = "inside" if d["exact_inside_ci99"] else "[red]outside[/]"
    text: tuple[TextBlock, ...] = (
        f"[bold]{name}[/] variant {r.variant} - {r.rounds:,} simulated rounds, "
        f"seed {r.seed}, {r.chunks} chunk(s) of {r.chunk_size:,}, {r.backend} "
        f"({r.lines} lines x 1 coin = {r.total_bet} coins per round)",
        rows(("figure", "simulated", "exact"), figures),
        rows(
            ("round win", "probability"),
            ((band["win_x_bet"], f"{band['probability']:.6f}") for band in d["win_distribution"]),
        ),
        f"the exact RTP is {where} the simulated 99% interval",
        speed_line(r, "rounds"),
    )
    return LabReport(d, text, None, result)


def simulate_catalogue(
    model: GameModel,
    rounds: int,
    seed: int,
    *,
    variant_id: str | None = None,
    workers: int = 1,
    cluster: str | None = None,
    progress: ProgressCallback | None = None,
    chunk_size: int = CHUNK_ROUNDS,
) -> LabReport:
    """The lab's entry point: simulate a catalogue title and set the exact figures
    (:func:`reelsmith.analysis.catalogue_exact.analyze_rtp`) beside the simulated ones
    (:func:`simulate` for the arguments)."""
    result, figures = _simulate(
        model,
        rounds,
        seed,
        variant_id=variant_id,
        workers=workers,
        chunk_size=chunk_size,
        cluster=cluster,
        progress=progress,
    )
    return simulation_report(model.name, result, exact_figures(figures))
