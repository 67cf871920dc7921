"""The lab's one tuner, :func:`tune`, and its search, written once for every mechanic family:
greedy exact symbol moves toward a target RTP, a volatility class reached by moving wilds on the
free-spin reels, a last gap closed with the reveal weights, the checks on the result, the
variant file written with its header and read back, and the result ``tune`` prints.

The family is the one the model's round law names (:attr:`reelsmith.analysis.analyzer.RoundLaw.
tuner`: the paylines' with the catalogue's free spins, the exact family of every other title
with an exact route - ways, counts, cascades, the hold-and-spin - or the ladder with its pots),
so a model is tuned by the mechanics it declares, never by its title; a bet mode is aimed by
the exact family, on the mode's own tables (:func:`reelsmith.analysis.exact_tuning.
mode_plan`). A family gives only what is its own, through
:class:`Family` and the :class:`Plan` it sets up: the RTP of a candidate state, every allowed
move with its exact effect, how a move is applied, its full exact analysis, its reveal weights,
the strips and tables it writes and how close it must get. What a move may change (regular
symbols only; scatters, bonus symbols and gems stay, so the trigger frequency and the jackpots
stay) and why each move's effect is exact are stated by the family. The figures written beside
the strips, and read back from the written file, are the one analyzer's
(:func:`reelsmith.analysis.analyzer.analyze`).

The search takes, step by step, the move that lands closest to the target (ties to the first
in the family's order), until the RTP is within the tolerance or no move brings it closer.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any, Protocol, TypeVar

import numpy as np

from reelsmith.analysis.analyzer import analyze, round_law, stored_figures
from reelsmith.analysis.report import write_text_atomically
from reelsmith.analysis.volatility import VOLATILITY_CLASSES
from reelsmith.engine.model import GameModel, Variant, format_variant, load_model

#: The most moves one search takes.
MAX_MOVES = 2_000
#: Rounds of single-unit moves between reveal weights.
MAX_REVEAL_STEPS = 200

ProgressCallback = Callable[[int], None]
#: An RTP as the family computes it (an exact fraction, or a float).
R = TypeVar("R", bound=Any)


class UntunableError(ValueError):
    """The model, its variant or the volatility class asked for is one the family's moves
    cannot tune at all (a plug-in, weighted stops, no wilds to move): refused before any search,
    as bad input is. A target the search cannot reach is a plain ``ValueError``: the search's
    result, not the model's fault."""


@dataclass(frozen=True)
class Candidate:
    """One allowed move with its exact effect: on reel ``reel`` of reel set ``reel_set`` a stop
    showing ``old`` shows ``new`` (``stop``: which one, or None for the family to choose when
    applying); ``delta``: the exact RTP change; ``miss``: how far the RTP would be from the
    target after it; ``order``: the tie break (the family's order of its moves); ``also``: further
    stops changed with it, each ``(reel set, reel, old, new)`` (a compound move, whose ``delta``
    is the whole move's)."""

    reel_set: str
    reel: int
    old: int
    new: int
    delta: Any
    miss: Any
    order: Any
    stop: int | None = None
    also: tuple[tuple[str, int, int, int], ...] = ()

    @property
    def stops(self) -> tuple[tuple[str, int, int, int], ...]:
        """Every stop the move changes: ``(reel set, reel, old, new)``."""
        return ((self.reel_set, self.reel, self.old, self.new), *self.also)


class Family(Protocol):
    """What a mechanic family gives the tuner (``state``: its mutable search state)."""

    def rtp(self, state: Any) -> Any:
        """The exact RTP of the state (the figure the tolerance is measured on)."""

    def candidates(self, state: Any, rtp: Any, target: Any) -> Iterable[Candidate]:
        """Every allowed move from the state (whose RTP is ``rtp``) with its exact effect."""

    def apply(self, state: Any, move: Candidate) -> None:
        """Make the move (and count it)."""

    def std_dev(self, state: Any) -> float:
        """The standard deviation of a round per unit bet, by the full exact analysis."""

    def volatility_move(self, state: Any, up: bool) -> bool:
        """One wild more (``up``) or fewer on the free-spin reels; False when none is possible."""

    def refine(self, state: Any, target: Any) -> Any:
        """Close a last gap with the reveal weights; returns the RTP reached."""

    def can_refine(self, state: Any) -> bool:
        """Whether the state has reveal weights :meth:`refine` may move."""

    def tuned(self, state: Any) -> GameModel:
        """The model with the state as its only variant (in memory), for the exact analysis."""

    def tables(self, state: Any) -> tuple[dict[str, list[list[str]]], dict[str, Any]]:
        """What the variant file stores: every reel set's strips as symbol ids, and the
        variant's tables besides its strips (reveal weights, rules version)."""

    def notes(self, state: Any, target: Decimal, volatility: str | None) -> tuple[str, str]:
        """The variant file's description and its header comment (how it was made)."""

    def reveal_weights(self, state: Any) -> tuple[int, ...] | None:
        """The reveal weights reached (None for a model without a reveal table)."""


@dataclass
class Plan:
    """A family set up for one tuning: the family and its mutable ``state`` (started from the
    base variant), the ``target`` RTP in the family's numbers (an exact fraction, or a float),
    and how close each pass gets: ``coarse`` for the first search and between volatility
    moves, ``aim`` for the last search (the reveal weights refine a gap wider than it), and
    ``tolerance`` for the result; ``volatility_steps``: the most wild moves; ``method``: how
    the moves' effects are computed, as the result states it; ``reach``: what the moves are,
    for the message when the target is out of their reach."""

    family: Family
    state: Any
    target: Any
    coarse: Any
    aim: Any
    tolerance: Any
    volatility_steps: int
    method: str
    reach: str
    #: The bet mode the plan aims (None: the base game). Its RTP is ``measure``'s of the tuned
    #: model (the mode's exact figures, by the analyzer); ``unchanged`` is the base game's
    #: exact RTP, which the mode's moves must leave exactly as it is.
    mode: str | None = None
    measure: Callable[[GameModel, str], Any] | None = None
    unchanged: Any = None
    #: Where the mode's moves move the base game too (a bought feature's free reels): the plan
    #: that brings the base game back to ``unchanged`` within the tolerance, moving the base
    #: game's own reels, set up from the model the mode's search tuned.
    restore: Callable[[GameModel], Plan] | None = None


@dataclass(frozen=True)
class TuneResult:
    """What ``tune`` wrote (``path``) and the exact analysis of the written variant."""

    game: str
    variant_id: str
    base_variant: str
    path: Path
    target: Decimal
    start_rtp: float
    moves: int
    seconds: float
    figures: dict[str, float]
    volatility: str | None
    reveal_weights: tuple[int, ...] | None
    method: str
    analysis: Any
    #: The mode tuned (None: the base game) and its exact RTP reached.
    mode: str | None = None
    mode_rtp: float | None = None
    #: How many exact evaluations of a state's RTP the search made (None: a family whose
    #: moves' effects are exact from its gradient, without evaluating states).
    evaluations: int | None = None
    #: Whether the base game's own reels moved to bring its RTP back (a bought feature's).
    base_moved: bool = False

    @property
    def rtp(self) -> float:
        """The RTP tuned: the mode's where a mode was tuned, else the round's."""
        return self.mode_rtp if self.mode_rtp is not None else float(self.analysis.rtp)

    def to_json(self) -> dict[str, Any]:
        a = self.analysis
        return {
            "game": self.game,
            "variant": self.variant_id,
            "file": str(self.path),
            "from": self.base_variant,
            "target_rtp": float(self.target) / 100,
            "start_rtp": round(self.start_rtp, 10),
            "rtp": round(self.rtp, 10),
            "std_dev": round(a.std_dev, 6),
            "volatility_class": a.volatility,
            "volatility_requested": self.volatility,
            "hit_frequency": round(float(a.hit_frequency), 10),
            "free_spins_frequency": self.figures.get("free_spins_frequency"),
            "moves": self.moves,
            "reveal_weights": list(self.reveal_weights) if self.reveal_weights else None,
            "seconds": round(self.seconds, 3),
            "figures": self.figures,
            "method": self.method,
            "mode": self.mode,
            "base_rtp": round(float(a.rtp), 10),
            "exact_evaluations": self.evaluations,
        }

    def render(self, console: Any) -> None:
        a = self.analysis
        evaluated = "" if self.evaluations is None else f", {self.evaluations} exact evaluations"
        if self.mode is None:
            what = f"{self.game} {self.variant_id}: RTP"
            spread = f"standard deviation {a.std_dev:.4f} ({a.volatility})"
        else:
            what = f"{self.game} {self.variant_id}, mode {self.mode}: RTP"
            kept = "brought back" if self.base_moved else "unchanged"
            spread = f"the base game's RTP {float(a.rtp):.6%} {kept}"
        console.print(
            f"{what} {self.start_rtp:.6%} -> {self.rtp:.6%} (target {self.target}%) in "
            f"{self.moves} moves{evaluated} from variant {self.base_variant} "
            f"({self.seconds:.1f} s); {spread}; written to {self.path}",
            soft_wrap=True,
            markup=False,
        )
        if self.mode is not None:
            console.print(f"  mode {self.mode}: rtp = {self.rtp:.10f}", markup=False)
            console.print("  the base game's figures, as the variant stores them:", markup=False)
        for key, value in self.figures.items():
            console.print(f"  {key} = {value}")


def tune(
    model: GameModel,
    folder: Path,
    target: Decimal,
    *,
    volatility: str | None = None,
    base_variant: str | None = None,
    progress: ProgressCallback | None = None,
    tolerance: Decimal | None = None,
    plan: Plan | None = None,
    mode: str | None = None,
) -> TuneResult:
    """``reelsmith tune``: search strips (and reveal weights) of the family the model's
    mechanics choose for the RTP ``target`` (in percent, two decimals) and the ``volatility``
    class if given, starting from ``base_variant`` (the model's default when None); verify the
    result with the exact analyzer and write ``folder/variants/<target>.toml`` with its
    figures. ``tolerance`` (percentage points) replaces the family's own for the result: how
    far from the target the tuned RTP may end. ``plan``: the family already set up by
    :func:`tuning_plan` for these arguments (set up here when None). Raises ``ValueError``
    naming the reason when the target, the class or the base variant cannot be tuned
    (:class:`UntunableError` when the model or the class asked for is one the moves cannot tune);
    nothing is written then. ``mode``: aim that bet mode at the target instead of the base
    game, moving only the mode's own tables, and rewrite the base variant with them (its base
    game exactly as it was)."""
    started = time.perf_counter()
    if plan is None:
        plan = tuning_plan(
            model, target, volatility=volatility, base_variant=base_variant, mode=mode
        )
    source = model.variant(base_variant)
    variant_id = written_variant(source, target, plan.mode)
    family, state = plan.family, plan.state
    start_rtp = float(family.rtp(state))
    search(family, state, plan.target, plan.coarse, progress)
    if volatility is not None:
        reach_volatility(
            family, state, volatility, plan.target, plan.coarse, plan.volatility_steps, progress
        )
    rtp = search(family, state, plan.target, plan.aim, progress)
    if abs(rtp - plan.target) > plan.aim and family.can_refine(state):
        rtp = family.refine(state, plan.target)
    allowed = plan.tolerance
    if tolerance is not None:  # in the family's numbers: an exact fraction or a float
        points = Fraction(tolerance) / 100
        allowed = points if isinstance(plan.tolerance, Fraction) else float(points)
    if abs(rtp - plan.target) > allowed:
        raise ValueError(
            f"tuning stopped at RTP {float(rtp):.6%}: {target}% is out of reach with {plan.reach}"
        )
    moves, evaluations = state.moves, getattr(state, "evaluations", None)
    if plan.restore is not None:
        # the mode's reels are the base game's too: bring the base game back on its own reels
        back = plan.restore(family.tuned(state))
        family, state = back.family, back.state
        reached = search(family, state, back.target, back.aim, progress)
        if abs(reached - back.target) > (back.tolerance if tolerance is None else allowed):
            raise ValueError(
                f"mode {plan.mode} reached {float(rtp):.6%}, but the base game's RTP could only "
                f"be brought back to {float(reached):.6%} (it was {float(back.target):.6%}) "
                f"with {back.reach}"
            )
        moves += state.moves
        if evaluations is not None:
            evaluations += getattr(state, "evaluations", 0)
    tuned = family.tuned(state)
    analysis = analyze(tuned, variant_id)
    check_tuned(analysis, volatility, f"{target}%", getattr(analysis, "rare_awards", []))
    mode_rtp = None
    if plan.measure is not None:
        # the mode's RTP by the analyzer's own figures of the mode, and the base game's as
        # it was: both exact, so equal means equal
        mode_rtp = plan.measure(tuned, variant_id)
        kept = analysis.rtp == plan.unchanged or (
            plan.restore is not None and abs(analysis.rtp - plan.unchanged) <= allowed
        )
        if mode_rtp != rtp or not kept:  # pragma: no cover
            raise AssertionError(f"{model.id}: mode {plan.mode}: the analyzer disagrees")
    figures = stored_figures(analysis)
    reel_sets, parameters = family.tables(state)
    description, header = family.notes(state, target, volatility)
    path = write_variant(
        folder,
        variant_id,
        description,
        reel_sets,
        parameters,
        figures,
        header,
        lambda loaded: stored_figures(analyze(loaded, variant_id)),
    )
    if plan.measure is not None and plan.measure(load_model(folder), variant_id) != mode_rtp:
        raise AssertionError(f"{path}: the mode's RTP does not re-derive")  # pragma: no cover
    return TuneResult(
        game=model.id,
        variant_id=variant_id,
        base_variant=source.id,
        path=path,
        target=target,
        start_rtp=start_rtp,
        moves=moves,
        seconds=time.perf_counter() - started,
        figures=figures,
        volatility=volatility,
        reveal_weights=family.reveal_weights(state),
        method=plan.method,
        analysis=analysis,
        mode=plan.mode,
        mode_rtp=None if mode_rtp is None else float(mode_rtp),
        evaluations=evaluations,
        base_moved=plan.restore is not None,
    )


def written_variant(source: Variant, target: Decimal, mode: str | None) -> str:
    """The id of the variant ``tune`` writes: the target's (``96.00``), or with a mode the
    variant it starts from, rewritten with the mode's tables (its id states the base game's
    RTP, which a mode's tuning leaves as it is)."""
    return source.id if mode is not None else f"{target:.2f}"


def tuning_plan(
    model: GameModel,
    target: Decimal,
    *,
    volatility: str | None = None,
    base_variant: str | None = None,
    mode: str | None = None,
) -> Plan:
    """The family the model's mechanics choose, set up to tune ``base_variant`` (the model's
    default when None) to ``target`` percent: the step of :func:`tune` that refuses a model,
    a variant or a class the moves cannot tune (:class:`UntunableError`), apart so a caller can
    refuse before it compiles or searches anything. ``mode``: the bet mode to aim instead of
    the base game (:func:`reelsmith.analysis.exact_tuning.mode_plan`: its own tables only)."""
    if volatility is not None:
        volatility_bounds(volatility)
    source = model.variant(base_variant)
    if mode is not None:
        from reelsmith.analysis.exact_tuning import mode_plan

        return mode_plan(model, source, target, volatility, mode)
    setup: PlanSetup = round_law(model).tuning_plan()
    return setup(model, source, f"{target:.2f}", target, volatility)


#: What a family module's ``plan`` function is: the model, its base variant, the new variant's
#: id, the target in percent and the volatility class asked for (or None); it raises
#: :class:`UntunableError` for a model, variant or class its moves cannot tune, ``ValueError`` for
#: a class out of the moves' reach.
PlanSetup = Callable[[GameModel, Variant, str, Decimal, "str | None"], Plan]


def volatility_bounds(volatility: str) -> tuple[float, float]:
    """The standard deviations (lowest, first above) of a volatility class; ``ValueError``
    naming the classes for any other name."""
    classes = {name: (low, high) for name, low, high in VOLATILITY_CLASSES}
    if volatility not in classes:
        raise ValueError(f"volatility must be one of {', '.join(classes)}, got {volatility!r}")
    return classes[volatility]


def search(
    family: Family,
    state: Any,
    target: R,
    tolerance: Any,
    progress: ProgressCallback | None = None,
) -> R:
    """Greedy exact moves until the RTP is within ``tolerance`` of ``target`` or no move brings
    it closer (or :data:`MAX_MOVES` were made); returns the RTP reached."""
    rtp = family.rtp(state)
    for _ in range(MAX_MOVES):
        if abs(rtp - target) <= tolerance:
            break
        best = min(
            family.candidates(state, rtp, target),
            key=lambda m: (m.miss, m.order),
            default=None,
        )
        if best is None or best.miss >= abs(target - rtp):
            break
        family.apply(state, best)
        rtp = family.rtp(state)
        if progress is not None:
            progress(1)
    return rtp  # type: ignore[no-any-return]


def reach_volatility(
    family: Family,
    state: Any,
    volatility: str,
    target: Any,
    tolerance: Any,
    steps: int,
    progress: ProgressCallback | None = None,
) -> None:
    """Move wilds on the free-spin reels (one at a time, at most ``steps``) until the full
    analysis puts the round in the ``volatility`` class, the RTP search restoring the target
    (to ``tolerance``) after each; whether the class was reached is checked on the result."""
    low, high = volatility_bounds(volatility)
    for _ in range(steps):
        std_dev = family.std_dev(state)
        if low <= std_dev < high:
            return
        if not family.volatility_move(state, std_dev < low):
            return
        search(family, state, target, tolerance, progress)


def refine_weights(
    weights: list[int],
    rtp: Callable[[], R],
    target: R,
    aim: Any,
    pairs: Callable[[int], Iterable[tuple[int, int]]],
) -> R:
    """Close a last gap with reveal weights: refine them (x10, once, while their total is below
    10,000), then move single units from one weight to another (``pairs(n)``: the (source,
    sink) pairs tried, in order, among ``n`` weights), each trial exactly evaluated by ``rtp``,
    until within ``aim`` or no unit brings it closer. ``weights`` is changed in place."""
    reached = rtp()
    if sum(weights) < 10_000:
        weights[:] = [w * 10 for w in weights]
    for _ in range(MAX_REVEAL_STEPS):
        gap = target - reached
        if abs(gap) <= aim:
            break
        best: tuple[Any, int, int, Any] | None = None
        for source, sink in pairs(len(weights)):
            if weights[source] <= 1:
                continue
            weights[source] -= 1
            weights[sink] += 1
            trial = rtp()
            weights[source] += 1
            weights[sink] -= 1
            if best is None or abs(target - trial) < best[0]:
                best = (abs(target - trial), source, sink, trial)
        if best is None or best[0] >= abs(gap):
            break
        _, source, sink, reached = best
        weights[source] -= 1
        weights[sink] += 1
    return reached


def neighbour_pairs(n: int) -> Iterable[tuple[int, int]]:
    """Units moved between neighbouring weights (a reveal table ordered by its values)."""
    for i in range(n - 1):
        yield i, i + 1
        yield i + 1, i


def all_pairs(n: int) -> Iterable[tuple[int, int]]:
    """Units moved between any two weights (reveal outcomes with no order)."""
    return ((source, sink) for source in range(n) for sink in range(n) if source != sink)


def wild_move(
    model: GameModel, strips: Sequence[Sequence[int]], up: bool, wild_reels_only: bool
) -> tuple[int, int, int] | None:
    """Which reel of the free-spin ``strips`` takes one wild more (``up``: its most plentiful
    regular symbol becomes a wild, on the reel with the fewest wilds) or one fewer (a wild
    becomes its rarest regular symbol, on the reel with the most; each reel keeps one of
    each): ``(reel, old symbol, new symbol)``, or None when no reel can.
    ``wild_reels_only``: only reels that carry a wild already (where the wild may stand)."""
    wild = model.wild
    regular = [s.index for s in model.symbols if s.role == "regular"]
    best: tuple[int, int, int] | None = None  # (key, reel, symbol)
    for reel, strip in enumerate(strips):
        counts = np.bincount(np.array(strip), minlength=len(model.symbols))
        if wild_reels_only and counts[wild] == 0:
            continue
        if up:
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
        return None
    _, reel, symbol = best
    return (reel, symbol, wild) if up else (reel, wild, symbol)


def check_tuned(analysis: Any, volatility: str | None, target: str, rare: list[str]) -> None:
    """Refuse a result outside the asked ``volatility`` class (``target``: the RTP as printed)
    or with awards rarer than GLI-11 allows (``rare``: their names)."""
    if volatility is not None and analysis.volatility != volatility:
        raise ValueError(
            f"could not reach {volatility} volatility at RTP {target}: the closest found has "
            f"standard deviation {analysis.std_dev:.3f} ({analysis.volatility})"
        )
    if rare:
        raise ValueError(f"the tuned strips make awards rarer than GLI-11 allows: {rare}")


def write_variant(
    folder: Path,
    variant_id: str,
    description: str,
    reel_sets: dict[str, list[list[str]]],
    parameters: dict[str, Any],
    figures: dict[str, float],
    header: str,
    rederive: Callable[[GameModel], dict[str, float]],
) -> Path:
    """Write ``folder/variants/<variant_id>.toml`` (atomically), then read the title back the
    way the game will (the loader's checks) and re-derive the figures stored in it
    (``rederive``: the family's exact figures of the reloaded model's variant)."""
    path = folder / "variants" / f"{variant_id}.toml"
    text = format_variant(variant_id, description, reel_sets, parameters, figures, header)
    write_text_atomically(path, text)
    if rederive(load_model(folder)) != figures:
        raise AssertionError(f"{path}: the stored figures do not re-derive")  # pragma: no cover
    return path
