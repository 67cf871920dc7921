"""Simulating any title with the one kernel (:mod:`reelsmith.analysis.kernel`): fixed-size
chunks, one seeded stream each, on this process, local processes or a Ray cluster, merged in
chunk order, into one result type (:class:`Simulation`) whatever the model's kind.

Reproducibility
---------------
The chunks, their seeded streams, the workers and the Ray cluster are the shared driver's
(:mod:`reelsmith.analysis.chunks`): chunk ``i`` draws from
``PCG64(SeedSequence(seed, spawn_key=(i,)))``, what it returns depends only on the model, the
seed, its index and its size, and the chunks are merged in index order, so the same seed and
chunk size give the same result for any number of workers, locally or on Ray. Worker
processes load the model from its folder (``model.source``); a model built in memory is
simulated in this process only.

A catalogue title: independent rounds
-------------------------------------
The variant is checked by the exact analysis first, which refuses free spins that never end
on average (no cap and a free spin that adds one spin or more). The interval for the RTP is
the normal one on the round win per unit bet, ``rtp +- z s / sqrt(n)`` with the sample
standard deviation ``s`` of the rounds: the rounds are independent and identically
distributed (each chunk's stream is independent), so by the central limit theorem it covers
the true RTP with the stated probability once ``n`` is large against the tail of the win
distribution. The gamble is fair (a colour doubles at 1/2, a suit quadruples at 1/4) and leaves
the return unchanged, so a simulated round does not gamble.

A ladder title: one player's sequence of rounds per chunk
---------------------------------------------------------
A chunk plays its rounds in order, carrying the pots, their hidden trigger points and the
meter from each round to the next. It *starts from a state drawn from the long-run
(stationary) law* with its own stream: each pot and trigger point uniform on
``seed <= pot < trigger <= last`` (the largest trigger point, one bet below the cap) and the
meter from its stationary law (computed by the exact analyzer, drawn with a 53-bit uniform).
A fresh player (pots at their seeds, meter empty) would bias the estimate: the pots a player
leaves behind hold on average ``(last - seed - 1) / 3`` bets each (about 1,770 bets over the
five pots), so fresh chunks of 500,000 rounds would read the RTP about 0.35 percentage points
low. ``start="fresh"`` gives that player for tests.

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

from reelsmith.analysis import kernel as k
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

#: Batches (or chunks) the batch-means interval needs at least.
MIN_BATCHES = 30
STARTS = k.STARTS
BATCH_ROUNDS = k.BATCH_ROUNDS

#: A chunk's job for a worker: (model folder, variant, seed, chunk index, rounds, start,
#: rounds per batch).
Job = tuple[str | None, str, int, int, int, str, int]
ChunkResult = tuple[list[int], list[float], list[int], float]


def _warm(game: k.KernelGame) -> k.KernelGame:
    """``game`` with its compiled loop loaded, before anything is timed."""
    game.run(chunk_stream(0, 0), 10)
    return game


@cache
def _folder_game(folder: str, variant_id: str) -> k.KernelGame:
    return _warm(k.KernelGame.build(load_model(Path(folder)), variant_id))


@cache
def kernel_game(model: GameModel, variant_id: str) -> k.KernelGame:
    """The kernel tables of a variant, built once per loaded model and variant."""
    return _warm(k.KernelGame.build(model, variant_id))


def play_chunk(
    game: k.KernelGame,
    seed: int,
    index: int,
    rounds: int,
    start: str = "stationary",
    batch_size: int = BATCH_ROUNDS,
) -> ChunkResult:
    """Chunk ``index`` of ``game``: its statistics, its batch wins (a ladder model's) and the
    seconds its kernel ran."""
    started = time.perf_counter()
    stats, float_stats, batches = game.run(chunk_stream(seed, index), rounds, start, batch_size)
    return stats, float_stats, [int(b) for b in batches], time.perf_counter() - started


def run_chunk(
    folder: str,
    variant_id: str,
    seed: int,
    index: int,
    rounds: int,
    start: str = "stationary",
    batch_size: int = BATCH_ROUNDS,
) -> tuple[int, list[int], list[float], list[int], float]:
    """One chunk in a pool worker or a Ray task (the model loaded from its folder once per
    process); returns its index, statistics, batch wins and the seconds its kernel ran."""
    game = _folder_game(folder, variant_id)
    return (index, *play_chunk(game, seed, index, rounds, start, batch_size))


def batch_size_for(rounds: int) -> int:
    """Rounds per batch for a run of ``rounds`` rounds (a function of the run, not of the
    workers, so results stay reproducible)."""
    return max(1, min(BATCH_ROUNDS, rounds // MIN_BATCHES))


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
class Simulation(KernelRun):
    """Merged statistics of a simulation (the kernel's slots); returns are per unit of total
    bet. A ladder model's run (``pot_names`` not empty) also holds its carried state's figures
    and each chunk's batch wins, for the batch-means interval; ``exact``: the exact figures
    the run was checked against (a catalogue model's)."""

    total_bet: int
    start: str = "stationary"
    levels: int = 0
    spots: int = 0
    pot_names: tuple[str, ...] = ()
    batches: tuple[tuple[int, ...], ...] = ()
    batch_size: int = BATCH_ROUNDS
    exact: dict[str, Any] = field(default_factory=dict)
    #: A ways or count game's: ``total_bet`` is its cost, and ``lines`` 0.
    ways: bool = False
    #: What such a game's cost buys, as the report says it.
    cost_buys: str = "every way"
    #: The parts of the RTP the title's round has, which the report's breakdown rows show (of
    #: ``line_wins``, ``scatter``, ``free_spins``): a title without a scatter symbol has no
    #: scatter row, one without a spin feature no feature rows. The JSON keeps every key.
    rtp_parts: tuple[str, ...] = ("line_wins", "scatter", "free_spins")

    @property
    def carried(self) -> bool:
        """Whether rounds carry state (a ladder model's pots and meter): then they are
        dependent and the interval is from batch means."""
        return bool(self.pot_names)

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
        if self.carried:  # the kernel counts a ladder model's squares in line bets^2
            return self.sample_std(self.rtp, self.float_stats[k.F_WIN_SQ])
        return self._std(self.stats[k.S_WIN], k.F_WIN_SQ)

    @property
    def base_spin_std_dev(self) -> float:
        """Sample standard deviation of the base spin's own win per unit bet."""
        base = (
            self.stats[k.S_BASE_LINE] + self.stats[k.S_BASE_SCATTER] + self.stats[k.S_BASE_PLUGIN]
        )
        return self._std(base, k.F_BASE_WIN_SQ)

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
    def std_error(self) -> float:
        """The RTP's standard error: batch means for carried state, else ``s / sqrt(n)``."""
        if self.carried:
            return batch_means(self.batches, self._batch_sizes(), self.lines)[1]
        return self.std_dev / math.sqrt(self.rounds)

    @property
    def ci_method(self) -> str:
        if not self.carried:
            return "normal, independent rounds"
        _, _, count, how = batch_means(self.batches, self._batch_sizes(), self.lines)
        return f"batch means over {count:,} {how}"

    def interval(self, z: float = Z_99) -> tuple[float, float] | None:
        """The RTP's confidence interval at ``z`` standard errors (99% by default); None when
        a run of carried state is too short for one."""
        if not self.carried:
            half = z * self.std_dev / math.sqrt(self.rounds)
            return self.rtp - half, self.rtp + half
        half = z * self.std_error
        if not math.isfinite(half):
            return None
        return self.rtp - half, self.rtp + half

    def _frequency(self, slot: int) -> float:
        return self.stats[slot] / self.rounds

    @property
    def hit_frequency(self) -> float:
        """Base spins that pay (or, in the catalogue, trigger the feature), per round."""
        return self._frequency(k.S_BASE_HITS)

    @property
    def free_spins_frequency(self) -> float:
        return self._frequency(k.S_TRIGGERS)

    @property
    def free_spins_per_trigger(self) -> float | None:
        triggers = self.stats[k.S_TRIGGERS]
        return self.stats[k.S_FREE_SPINS] / triggers if triggers else None

    @property
    def slots(self) -> k.StatSlots:
        """Where a ladder run's per-pot, per-level and meter statistics sit in :attr:`stats`."""
        return k.StatSlots.of(len(self.pot_names), self.levels, self.spots)

    def _win_distribution(self) -> list[dict[str, Any]]:
        return [
            {"win_x_bet": label, "probability": self.stats[k.S_BANDS + i] / self.rounds}
            for i, label in enumerate(k.band_labels())
        ]

    def to_json(self) -> dict[str, Any]:
        return self._carried_json() if self.carried else self._catalogue_json()

    def _catalogue_json(self) -> dict[str, Any]:
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
            "bet": (
                {"ways_cost": self.total_bet, "coins_per_unit": 1, "total_coins": self.total_bet}
                if self.ways
                else {"lines": self.lines, "coins_per_line": 1, "total_coins": self.total_bet}
            ),
            "rtp": self.rtp,
            "rtp_ci95": _listed(self.interval(Z_95)),
            "rtp_ci99": _listed(self.interval(Z_99)),
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
            "win_distribution": self._win_distribution(),
            "seconds": self.seconds,
            "rounds_per_second": self.rounds_per_second,
            "rounds_per_second_per_core": self.rounds_per_second_per_core,
            "spins_per_second": self.rounds_per_second,
            "method": "simulation: the generic catalogue kernel (parity-tested against live "
            "play), PCG64 streams per chunk from SeedSequence(seed); gamble excluded (fair)",
        }

    def _carried_json(self) -> dict[str, Any]:
        s = self.stats
        at = self.slots
        n = self.rounds
        bet = n * self.lines
        triggers = s[k.S_TRIGGERS]
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
                "free_spins_lines": s[k.S_FREE_WIN] / bet,
                "free_spins_lines_by_level": {
                    str(lv + 1): s[at.level_line + lv] / bet for lv in range(self.levels)
                },
                "jackpots": s[at.jackpot_bets] / n,
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
            "win_distribution": self._win_distribution(),
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


def _folder_of(model: GameModel) -> str | None:
    return None if model.source is None else str(Path(model.source).parent)


def rtp_route(model: GameModel) -> Any:
    """The function ``(model, variant_id) -> figures`` of the RTP alone where the model's
    round law has one (``analyze_rtp``: a round without carried state), the exact figure its
    simulation is checked against; None where only the full analysis gives it."""
    from reelsmith.mechanics import round_face
    from reelsmith.mechanics.base import face

    return getattr(face(round_face(model, "exact")), "analyze_rtp", None)


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
    start: str = "stationary",
) -> Simulation:
    """Simulate ``rounds`` rounds of a variant (one coin per line on every payline).

    A catalogue variant is checked by the exact analysis first, which refuses free spins that
    never end on average (such rounds could run for ever); its figures are the result's
    ``exact``. A ladder model's chunks each play one player's rounds from ``start`` (see the
    module notes).

    With one worker and no cluster the chunks run in this process on ``model`` itself; worker
    processes and Ray tasks load the model from its folder (``model.source``). ``cluster`` is
    a Ray address (``"local"`` starts a local Ray instance). ``progress`` is called with each
    finished chunk's rounds.
    """
    check_run(rounds, seed, workers, chunk_size, noun="rounds")
    if start not in STARTS:
        raise ValueError(f"start must be one of {', '.join(STARTS)}, got {start!r}")
    variant = model.variant(variant_id)
    exact: dict[str, Any] = {}
    from reelsmith.mechanics import each_face

    analyze_rtp = rtp_route(model)
    if analyze_rtp is not None:
        from reelsmith.analysis.enumeration import BeyondEnumerationError

        try:
            # refuses free spins that never end
            exact = exact_figures(analyze_rtp(model, variant.id))
        except BeyondEnumerationError as exc:
            # no exact RTP (a cascade of lines refilled cell by cell): the simulated figures
            # stand alone, and the report says why
            exact = {"rtp": None, "why_not_exact": str(exc)}
        else:
            # a mechanic that changes the figures (a cap: the kernel caps its rounds) gives
            # those the simulation is checked against where the lab carries the round's law,
            # else none (never the uncapped RTP as the RTP)
            for _mechanic, changed in each_face(model, "simulation_exact"):
                exact |= changed(model, variant.id, exact["rtp"])
    game = kernel_game(model, variant.id)  # builds (and checks) the tables here first
    batch_size = batch_size_for(rounds)
    chunks = plan_chunks(rounds, chunk_size)
    folder = _folder_of(model)
    if (workers > 1 or cluster is not None) and folder is None:
        raise ValueError(
            f"{model.id}: a model without a folder (model.source) is simulated in this process "
            "only: use one worker and no cluster"
        )

    def job(index: int, size: int) -> Job:
        return (folder, variant.id, seed, index, size, start, batch_size)

    started = time.perf_counter()
    results, backend = run_chunks(
        chunks,
        here=lambda index, size: play_chunk(game, seed, index, size, start, batch_size),
        job=job,
        worker=run_chunk,
        workers=workers,
        cluster=cluster,
        progress=progress,
    )
    seconds = time.perf_counter() - started
    stats, float_stats, extras, kernel_seconds = merge_chunks(
        results, game.n_stats, k.N_FLOAT_STATS, k.MAX_SLOTS
    )
    ladder = game.ladder
    from reelsmith.mechanics import cost_buys, has_spin_feature

    buys = cost_buys(model)
    parts = (
        "line_wins",
        *(("scatter",) if model.scatter >= 0 else ()),
        *(("free_spins",) if has_spin_feature(model) else ()),
    )
    return Simulation(
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
        # a ladder round's wins are in line bets: its bet spread over the paylines or the cost
        lines=model.line_count if ladder is None else game.total_bet,
        ways=buys is not None,
        cost_buys=buys or "",
        stats=stats,
        float_stats=float_stats,
        start=start,
        levels=0 if ladder is None else len(ladder.multipliers),
        spots=0 if ladder is None else ladder.spots,
        pot_names=() if ladder is None else ladder.pot_names,
        batches=tuple(tuple(chunk_batches) for (chunk_batches,) in extras)
        if ladder is not None
        else (),
        batch_size=batch_size,
        exact=exact,
        rtp_parts=parts,
    )


# ---------------------------------------------------------------------------------------
# The report the lab shows
# ---------------------------------------------------------------------------------------


def exact_figures(figures: Any) -> dict[str, Any]:
    """The exact analysis' figures the report sets beside the simulated ones, and the names
    of the round's feature and of its spins where they are not free spins (a hold-and-spin's
    respins), which the report's rows take."""
    found: dict[str, Any] = {
        "rtp": float(figures.rtp),
        "line_wins": float(figures.line_rtp),
        "scatter": float(figures.scatter_rtp),
        "free_spins": float(figures.free_spins_rtp),
        "free_spins_frequency": float(figures.trigger_probability),
        "expected_free_spins_per_trigger": float(figures.expected_free_spins),
    }
    for key in ("feature_name", "feature_spins"):
        name = getattr(figures, key, None)
        if name is not None:
            found[key] = str(name)
    return found


def inside(interval: tuple[float, float] | None, value: float) -> bool:
    """Whether ``value`` lies inside the closed ``interval`` (never inside no interval)."""
    if interval is None:
        return False
    low, high = interval
    return low <= value <= high


def simulation_report(name: str, result: Simulation, exact: dict[str, Any]) -> LabReport:
    """``simulate``'s result for a catalogue title, with the exact figures beside it and
    whether the exact RTP lies inside the simulated 99% interval."""
    r = result
    d = r.to_json()
    d["exact"] = exact
    capped = "max_win_multiplier" in exact
    known = exact["rtp"] is not None
    d["exact_inside_ci99"] = inside(r.interval(Z_99), exact["rtp"]) if known else None
    low, high = d["rtp_ci99"]
    breakdown = d["rtp_breakdown"]
    per_trigger = r.free_spins_per_trigger
    not_exact = "not exact (capped)" if capped else "not exact"

    def shown(key: str, spec: str) -> str:
        value = exact.get(key)
        return not_exact if value is None else format(value, spec)

    feature = exact.get("feature_name", "free spins")
    spins = exact.get("feature_spins", "free spins")
    wins = "way wins" if r.ways else "line wins"
    labels = {"line_wins": wins, "scatter": "scatter", "free_spins": feature}
    figures = [
        (
            "RTP, capped" if capped else "RTP",
            f"{r.rtp:.4%} (99% CI {low:.4%} - {high:.4%})",
            shown("rtp", ".4%"),
        ),
        *(
            (f"  {labels[key]}", f"{breakdown[key]:.4%}", shown(key, ".4%"))
            for key in ("line_wins", "scatter", "free_spins")
            if key in r.rtp_parts
        ),
        ("hit frequency", f"{r.hit_frequency:.4%}", ""),
    ]
    if "free_spins" in r.rtp_parts:
        figures += [
            (
                f"{feature} frequency",
                f"{r.free_spins_frequency:.4%}",
                shown("free_spins_frequency", ".4%"),
            ),
            (
                f"{spins} per trigger",
                f"{per_trigger:.2f}" if per_trigger is not None else "-",
                shown("expected_free_spins_per_trigger", ".2f"),
            ),
        ]
    if r.stats[k.S_CAPPED]:
        figures.append(("features reaching the cap", f"{r.stats[k.S_CAPPED]:,}", ""))
    if capped:
        hits = r.stats[k.S_CAP_HITS]
        d["cap_hits"] = hits
        d["cap_probability"] = hits / r.rounds
        p = exact["cap_probability"]
        figures += [
            (
                f"rounds reaching the {exact['max_win_multiplier']:,}x cap",
                f"{hits:,} ({hits / r.rounds:.6g})",
                f"{p:.6g}" if p is not None else "not exact",
            ),
            ("uncapped RTP", "-", f"{exact['uncapped_rtp']:.4%}"),
        ]
    figures += [
        ("standard deviation", f"{r.std_dev:.4f}", ""),
        ("max round win", f"{d['max_win_x_bet']:,.1f}x bet", ""),
    ]
    if not known:
        verdict = (
            f"the {'capped ' if capped else ''}RTP is not exact for this title "
            f"({exact['why_not_exact']}): the simulated {'capped ' if capped else ''}figures "
            "stand alone"
        )
    else:
        where = "inside" if d["exact_inside_ci99"] else "[red]outside[/]"
        verdict = (
            f"the exact {'capped ' if capped else ''}RTP is {where} the simulated 99% interval"
        )
    text: tuple[TextBlock, ...] = (
        f"[bold]{name}[/] variant {r.variant} - {r.rounds:,} simulated rounds, "
        f"seed {r.seed}, {r.chunks} chunk(s) of {r.chunk_size:,}, {r.backend} "
        + (
            f"({r.total_bet} coins a round, {r.cost_buys})"
            if r.ways
            else f"({r.lines} lines x 1 coin = {r.total_bet} coins per round)"
        ),
        rows(("figure", "simulated", "exact"), figures),
        rows(
            ("round win", "probability"),
            ((band["win_x_bet"], f"{band['probability']:.6f}") for band in d["win_distribution"]),
        ),
        verdict,
        speed_line(r, "rounds"),
    )
    return LabReport(d, text, None, result)
