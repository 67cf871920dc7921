"""Tuning any catalogue title: new reel strips (and, where the model has one, reveal weights)
for a target RTP and optionally a volatility class, verified by the exact analyzer and written
as a variant file with its figures beside the strips.

A variant whose reel sets weigh their stops (``stop_weights``) is refused
(:func:`refuse_weighted`): the moves and the gradient below count stops, not weights.

What the search may change
--------------------------
A *move* replaces the symbol of one stop by another regular symbol, on one reel of one reel set.
Scatters and bonus symbols never move, so the trigger frequency and the retrigger rate stay as
they are, and each reel keeps at least one of every regular symbol it had (every award stays
possible). Under those moves the RTP is

    RTP = L_base(counts) + S + c * L_free(counts')

with ``S`` the scatter's return and ``c`` the expected free spins per round (both fixed), and
``L`` a payline's expected pay, which is linear in each reel's symbol counts with the other
reels fixed. So the exact effect of every move on reel ``r`` is read off one table per reel
set, ``grad[r, x]`` (the line pay summed over the other reels' combinations with reel ``r``
showing ``x``), computed with the same pruned walk the analyzer uses. The search takes, step by
step, the move that lands closest to the target, until the RTP is within tolerance or no move
brings it closer. Among the stops of the symbol taken out, the one whose neighbours differ most
from the symbol put in is changed, so symbols do not bunch.

Volatility: the standard deviation of a round lives mostly in the free spins' wilds. To raise
it a regular symbol on a free-spin reel that already carries the wild becomes the wild; to
lower it a wild becomes a regular symbol (each reel keeps one wild); the RTP search then
restores the target, and the full exact analysis decides whether the class is reached.

Fine steps: when the strips leave a gap, a model whose trigger reveals its spins from a weighted
table has its weights refined (multiplied by ten) and single weight units moved between
neighbouring values, each step exactly evaluated.

The result is checked (the RTP within tolerance, the class if one was asked, no award rarer than
GLI-11 allows), written through :func:`reelsmith.engine.model.format_variant`, loaded back
through the model loader and analysed again; the figures stored are the analyzer's.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from reelsmith.analysis.catalogue_exact import (
    CatalogueAnalysis,
    analyze_full,
    analyze_rtp,
    line_pay_sum,
)
from reelsmith.analysis.exact import symbol_counts
from reelsmith.analysis.report import write_text_atomically
from reelsmith.analysis.volatility import VOLATILITY_CLASSES
from reelsmith.engine.catalogue import Mechanics, mechanics
from reelsmith.engine.model import GameModel, ReelSet, Variant, format_variant, load_model

#: The search stops when the RTP is this close to the target (prints as the target at two
#: decimals of a percent).
TOLERANCE = Fraction(1, 40_000)
MAX_STEPS = 2_000
MAX_VOLATILITY_STEPS = 40
#: Rounds of single-unit moves between reveal weights, and how close they aim (well inside
#: the tolerance when they can).
MAX_REVEAL_STEPS = 200
REVEAL_AIM = Fraction(1, 100_000)

ProgressCallback = Callable[[int], None]


@dataclass(frozen=True)
class TuneResult:
    game: str
    variant_id: str
    base_variant: str
    path: Path
    start_rtp: float
    rtp: float
    moves: int
    seconds: float
    figures: dict[str, Any]
    volatility: str | None
    analysis: CatalogueAnalysis
    reveal_weights: tuple[int, ...] | None

    def to_json(self) -> dict[str, Any]:
        a = self.analysis
        return {
            "game": self.game,
            "variant": self.variant_id,
            "file": str(self.path),
            "from": self.base_variant,
            "start_rtp": self.start_rtp,
            "rtp": self.rtp,
            "rtp_fraction": f"{a.rtp.numerator}/{a.rtp.denominator}",
            "std_dev": round(a.std_dev, 6),
            "volatility_class": a.volatility,
            "volatility_requested": self.volatility,
            "hit_frequency": round(float(a.hit_frequency), 10),
            "free_spins_frequency": round(float(a.figures.trigger_probability), 10),
            "moves": self.moves,
            "reveal_weights": list(self.reveal_weights) if self.reveal_weights else None,
            "seconds": round(self.seconds, 3),
            "figures": self.figures,
            "method": "greedy exact moves (line-pay gradient), verified by the exact analyzer",
        }

    def render(self, console: Any) -> None:
        a = self.analysis
        console.print(
            f"{self.game} {self.variant_id}: RTP {self.start_rtp:.6%} -> {self.rtp:.6%} "
            f"in {self.moves} moves ({self.seconds:.1f} s); standard deviation "
            f"{a.std_dev:.4f} ({a.volatility}); written to {self.path}",
            soft_wrap=True,
        )
        for key, value in self.figures.items():
            console.print(f"  {key} = {value}")


def _gradient(model: GameModel, counts: npt.NDArray[np.int64], pays: Any) -> Any:
    """``grad[r, x]`` = pay_sum(counts + e_rx) - pay_sum(counts): exact, by linearity."""
    base = line_pay_sum(model, counts, pays)
    grad = np.zeros(counts.shape, dtype=object)
    for reel in range(counts.shape[0]):
        for symbol in range(counts.shape[1]):
            bumped = counts.copy()
            bumped[reel, symbol] += 1
            grad[reel, symbol] = line_pay_sum(model, bumped, pays) - base
    return base, grad


def _pick_stop(strip: list[int], old: int, new: int) -> int:
    """The stop showing ``old`` whose neighbours are least like ``new``."""
    n = len(strip)
    best, best_score = -1, -1
    for i, s in enumerate(strip):
        if s != old:
            continue
        score = sum(strip[(i + d) % n] != new for d in (-2, -1, 1, 2))
        if score > best_score:
            best, best_score = i, score
    return best


@dataclass
class _State:
    """The search's mutable state: strips as symbol indices by reel set, reveal weights."""

    model: GameModel
    source: Variant
    variant_id: str
    strips: dict[str, list[list[int]]]
    weights: list[int] | None
    moves: int = 0

    def variant(self) -> Variant:
        reel_sets = dict(self.source.reel_sets)
        for name, strips in self.strips.items():
            arrays = [np.array(s, dtype=np.int8) for s in strips]
            reel_sets[name] = ReelSet.build(name, arrays, self.model.rows)
        return Variant(
            id=self.variant_id,
            description="",
            reel_sets=reel_sets,
            parameters=self.parameters(),
            figures={},
        )

    def parameters(self) -> dict[str, Any]:
        parameters = {k: dict(v) for k, v in self.source.parameters.items() if isinstance(v, dict)}
        free = mechanics(self.model).free_spins
        if free is not None and free.reveal is not None and self.weights is not None:
            parameters[free.reveal]["weights"] = list(self.weights)
        return parameters

    def tuned(self) -> GameModel:
        """The model with this state as its only variant (in memory)."""
        return dataclasses.replace(
            self.model, variants={self.variant_id: self.variant()}, default_variant=self.variant_id
        )

    def rtp(self) -> Fraction:
        return analyze_rtp(self.tuned(), self.variant_id).rtp


def _strip_search(
    state: _State, rules: Mechanics, target: Fraction, progress: ProgressCallback | None
) -> Fraction:
    """Greedy exact moves among the regular symbols until the RTP is within tolerance or no
    move brings it closer; returns the RTP reached."""
    model = state.model
    current = state.tuned()
    start = analyze_rtp(current, state.variant_id)
    free = rules.free_spins
    names = list(state.strips)
    regular = [s.index for s in model.symbols if s.role == "regular"]
    # Fixed parts: the scatter's return and the free spins per round.
    per_round = (
        start.free_spins_rtp / start.free_spin_win if free and start.free_spin_win else Fraction(0)
    )
    fixed = start.scatter_rtp
    if free is not None:
        free_scatter = start.free_spin_win - _line_rtp(model, current, free, rules)
        fixed += per_round * free_scatter
    rtp = start.rtp
    for _step in range(MAX_STEPS):
        if abs(rtp - target) <= TOLERANCE:
            break
        best: tuple[Fraction, str, int, int, int] | None = None
        for name in names:
            counts = _counts(model, state.strips[name])
            cycle = int(np.prod(counts.sum(axis=1)))
            tables = []
            if name == "base":
                tables.append((model.line_pays, Fraction(1)))
            if free and free.reel_set == name:
                tables.append((rules.free_line_pays, per_round))
            grads = [(_gradient(model, counts, pays)[1], weight) for pays, weight in tables]
            for reel in range(model.reels):
                for old in regular:
                    if counts[reel, old] <= 1:
                        continue
                    for new in regular:
                        if new == old:
                            continue
                        delta = sum(
                            (
                                weight * Fraction(int(g[reel, new] - g[reel, old]), cycle)
                                for g, weight in grads
                            ),
                            Fraction(0),
                        )
                        after = rtp + delta
                        if best is None or abs(after - target) < abs(best[0] - target):
                            best = (after, name, reel, old, new)
        if best is None or abs(best[0] - target) >= abs(rtp - target):
            break
        _after, name, reel, old, new = best
        stop = _pick_stop(state.strips[name][reel], old, new)
        state.strips[name][reel][stop] = new
        state.moves += 1
        rtp = _rtp_of(model, state.strips, fixed, per_round, rules)
        if progress is not None:
            progress(1)
    return rtp


def refine_reveal(state: _State, target: Fraction) -> Fraction:
    """Close a last gap with the reveal weights: refine them (x10, once, while their total is
    below 10,000) and move single units between neighbouring reveal values, each trial exactly
    evaluated; returns the RTP reached."""
    assert state.weights is not None
    rtp = state.rtp()
    if sum(state.weights) < 10_000:
        state.weights = [w * 10 for w in state.weights]
    weights = state.weights
    for _ in range(MAX_REVEAL_STEPS):
        gap = target - rtp
        if abs(gap) <= REVEAL_AIM:
            break
        best: tuple[Fraction, int, int, Fraction] | None = None
        for i in range(len(weights) - 1):
            for source, sink in ((i, i + 1), (i + 1, i)):
                if weights[source] <= 1:
                    continue
                weights[source] -= 1
                weights[sink] += 1
                trial = state.rtp()
                weights[source] += 1
                weights[sink] -= 1
                if best is None or abs(target - trial) < best[0]:
                    best = (abs(target - trial), source, sink, trial)
        if best is None or best[0] >= abs(gap):
            break
        _, source, sink, rtp = best
        weights[source] -= 1
        weights[sink] += 1
    return rtp


def _volatility_move(state: _State, rules: Mechanics, up: bool) -> bool:
    """One wild more (``up``) or fewer on a free-spin reel that carries one; False when none
    is possible."""
    model = state.model
    wild = model.wild
    free = rules.free_spins
    if wild < 0 or free is None or free.reel_set not in state.strips:
        return False
    regular = [s.index for s in model.symbols if s.role == "regular"]
    strips = state.strips[free.reel_set]
    best: tuple[int, int, int] | None = None  # (key, reel, symbol)
    for reel, strip in enumerate(strips):
        counts = np.bincount(np.array(strip), minlength=len(model.symbols))
        if counts[wild] == 0:
            continue  # the wild does not stand on this reel
        if up:
            # the most plentiful regular symbol on the reel with the fewest wilds
            symbol = max(regular, key=lambda s: (counts[s], -s))
            if counts[symbol] <= 1:
                continue
            key = -int(counts[wild])
        else:
            if counts[wild] <= 1:
                continue
            symbol = min(regular, key=lambda s: (counts[s], s))
            key = int(counts[wild])
        if best is None or key > best[0]:
            best = (key, reel, symbol)
    if best is None:
        return False
    _, reel, symbol = best
    old, new = (symbol, wild) if up else (wild, symbol)
    strip = strips[reel]
    strip[_pick_stop(strip, old, new)] = new
    state.moves += 1
    return True


def refuse_weighted(variant: Variant) -> None:
    """Refuse to tune from a variant whose reel sets weigh their stops: the search's exact
    step (one stop's symbol replaced, the gradient of the unweighted symbol counts) and the
    variant file it writes know nothing of weights, so a weighted variant is tuned by hand
    (its weights or its strips) and checked with ``analyze``."""
    weighted = sorted(name for name, reel_set in variant.reel_sets.items() if reel_set.weighted)
    if weighted:
        raise ValueError(
            f"variant {variant.id} weighs its stops (stop_weights on reel_sets."
            f"{', reel_sets.'.join(weighted)}); tune moves symbols on unweighted strips only: "
            "start from an unweighted variant (--from) or edit the weights and run analyze"
        )


def tune_variant(
    model: GameModel,
    folder: Path,
    target_rtp: Fraction,
    variant_id: str,
    *,
    base_variant: str | None = None,
    volatility: str | None = None,
    progress: ProgressCallback | None = None,
) -> TuneResult:
    """Search strips (and reveal weights) for ``target_rtp``, and the ``volatility`` class if
    given, starting from ``base_variant``; write ``folder/variants/<variant_id>.toml``. Raises
    ``ValueError`` when the target cannot be reached."""
    started = time.perf_counter()
    rules = mechanics(model)
    classes = {name: (low, high) for name, low, high in VOLATILITY_CLASSES}
    if volatility is not None and volatility not in classes:
        raise ValueError(f"volatility must be one of {', '.join(classes)}, got {volatility!r}")
    if rules.plugin is not None:
        # the search reads the line pays' per-reel gradients, which know nothing of the
        # plug-in's step on a spin's win (a step that need not be linear in the win)
        raise ValueError(
            f"{model.id}: tune does not tune a model with a plug-in ({rules.plugin.source}); "
            "edit its strips and check them with analyze"
        )
    source = model.variant(base_variant)
    refuse_weighted(source)
    start_rtp = analyze_rtp(model, source.id).rtp
    free = rules.free_spins
    names = ["base"] + ([free.reel_set] if free and free.reel_set != "base" else [])
    weights = free.reveal_table(source)[1] if free is not None and free.reveal is not None else None
    state = _State(
        model=model,
        source=source,
        variant_id=variant_id,
        strips={n: [list(map(int, s)) for s in source.reel_sets[n].strips] for n in names},
        weights=weights,
    )
    rtp = _strip_search(state, rules, target_rtp, progress)
    if volatility is not None:
        if model.wild < 0 or free is None:
            raise ValueError(
                f"{model.id}: --volatility moves wilds on the free-spin reels; this title has "
                "no wild or no free spins"
            )
        low, high = classes[volatility]
        for _ in range(MAX_VOLATILITY_STEPS):
            std_dev = analyze_full(state.tuned(), variant_id).std_dev
            if low <= std_dev < high:
                break
            if not _volatility_move(state, rules, std_dev < low):
                break
            rtp = _strip_search(state, rules, target_rtp, progress)
    if abs(rtp - target_rtp) > TOLERANCE and state.weights is not None:
        rtp = refine_reveal(state, target_rtp)
    if abs(rtp - target_rtp) > TOLERANCE:
        raise ValueError(
            f"tuning stopped at RTP {float(rtp):.6%}, {float(target_rtp):.4%} is out of reach "
            "with strip moves of the regular symbols"
        )
    analysis = analyze_full(state.tuned(), variant_id)
    if volatility is not None and analysis.volatility != volatility:
        raise ValueError(
            f"could not reach {volatility} volatility at RTP {float(target_rtp):.2%}: the "
            f"closest found has standard deviation {analysis.std_dev:.3f} ({analysis.volatility})"
        )
    rare = [f"{w.count} x {w.symbol}" for w in analysis.awards if w.below_gli_limit]
    if rare:
        raise ValueError(f"the tuned strips make awards rarer than GLI-11 allows: {rare}")
    symbol_ids = model.symbol_ids
    reel_sets_out = {
        name: [[symbol_ids[s] for s in strip] for strip in source.reel_sets[name].strips]
        for name in source.reel_sets
    }
    for name in names:
        reel_sets_out[name] = [[symbol_ids[s] for s in strip] for strip in state.strips[name]]
    path = folder / "variants" / f"{variant_id}.toml"
    description = f"{model.name} at {float(target_rtp) * 100:.2f}% return to player."
    asked = f" --volatility {volatility}" if volatility else ""
    header = (
        f"{model.name}, RTP variant {variant_id}: made by `reelsmith tune --target-rtp "
        f"{float(target_rtp) * 100:.2f}{asked}` from variant {source.id} ({state.moves} stops "
        "changed); the figures below are the exact analyzer's."
    )
    figures = variant_figures(analysis)
    text = format_variant(
        variant_id, description, reel_sets_out, state.parameters(), figures, header
    )
    write_text_atomically(path, text)
    # Read it back the way the game will: the loader's checks, then the figures again.
    loaded = load_model(folder)
    if variant_figures(analyze_full(loaded, variant_id)) != figures:
        raise AssertionError(f"{path}: the stored figures do not re-derive")  # pragma: no cover
    return TuneResult(
        game=model.id,
        variant_id=variant_id,
        base_variant=source.id,
        path=path,
        start_rtp=float(start_rtp),
        rtp=float(analysis.rtp),
        moves=state.moves,
        seconds=time.perf_counter() - started,
        figures=figures,
        volatility=volatility,
        analysis=analysis,
        reveal_weights=tuple(state.weights) if state.weights is not None else None,
    )


def variant_figures(analysis: CatalogueAnalysis) -> dict[str, float]:
    """The figures stored beside a catalogue variant's strips (10 decimal places); the spins a
    free spin adds on average only for a title with free spins."""
    f = analysis.figures
    figures = {
        "rtp": round(float(analysis.rtp), 10),
        "line_rtp": round(float(f.line_rtp), 10),
        "scatter_rtp": round(float(f.scatter_rtp), 10),
        "free_spins_rtp": round(float(f.free_spins_rtp), 10),
        "free_spins_frequency": round(float(f.trigger_probability), 10),
        "expected_free_spins_per_trigger": round(float(f.expected_free_spins), 10),
    }
    if mechanics(analysis.model).free_spins is not None:
        figures["spins_added_per_free_spin"] = round(float(f.added_per_free_spin), 10)
    figures["hit_frequency"] = round(float(analysis.hit_frequency), 10)
    figures["std_dev"] = round(analysis.std_dev, 10)
    return figures


def _counts(model: GameModel, strips: list[list[int]]) -> npt.NDArray[np.int64]:
    counts = np.zeros((model.reels, len(model.symbols)), dtype=np.int64)
    for reel, strip in enumerate(strips):
        counts[reel] = np.bincount(np.asarray(strip), minlength=len(model.symbols))
    return counts


def _line_rtp(model: GameModel, current: GameModel, free: Any, rules: Mechanics) -> Fraction:
    counts = symbol_counts(model, current.variant().reel_sets[free.reel_set])
    total = line_pay_sum(model, counts, rules.free_line_pays)
    return Fraction(total, int(np.prod(counts.sum(axis=1))))


def _rtp_of(
    model: GameModel,
    strips: dict[str, list[list[int]]],
    fixed: Fraction,
    per_round: Fraction,
    rules: Mechanics,
) -> Fraction:
    counts = _counts(model, strips["base"])
    cycle = int(np.prod(counts.sum(axis=1)))
    rtp = Fraction(line_pay_sum(model, counts, model.line_pays), cycle) + fixed
    free = rules.free_spins
    if free is not None:
        fs = _counts(model, strips[free.reel_set])
        fs_cycle = int(np.prod(fs.sum(axis=1)))
        rtp += per_round * Fraction(line_pay_sum(model, fs, rules.free_line_pays), fs_cycle)
    return rtp
