"""The exact family of the one tuner (:func:`reelsmith.analysis.tuning.tune`): every title with
an exact RTP route that the paylines' family (:mod:`reelsmith.analysis.catalogue_tuning`) does
not cover - ways (variable rows included), pays anywhere, cascade chains, an expanding symbol,
mystery symbols, the hold-and-spin - and every bet mode's own tables (``tune --mode``).

What the search may change
--------------------------
The same moves as the paylines' family: one stop of one reel shows another regular symbol, on
the reel sets the target concerns (the base game: its base reel set and the free spins'; an
ante: its own reel set only). Scatters, bonus symbols (a hold-and-spin coin, a mystery, a
trigger) and wilds never move, so the trigger frequency stays, and each reel keeps one of every
regular symbol it had. A hold-and-spin's coin values, land weights and jackpots are the model's
(``model.toml``), not a variant's: its base strips are what a variant tunes.

How a move's effect is known
----------------------------
These RTPs are not linear in a reel's symbol counts (a ways window counts adjacent stops, a
cascade refills from the strip above, a coin count triggers a chain), so every state the search
keeps is measured by the exact analyzer's own RTP route (:meth:`reelsmith.analysis.analyzer.
RoundLaw.rtp`, the figure ``analyze`` prints; for an ante the mode's figure), and the moves are
chosen by estimates that the measure then checks:

* a *probe* per reel: from the reel's most plentiful regular symbol to each other one, each
  exactly evaluated, gives the reel's symbol values (a move ``old -> new`` is estimated at
  ``value[new] - value[old]``); a reel is probed again after a move changed it;
* the estimated moves are single stops and pairs of stops on two reels (a pair lands between
  two single steps where the strips are short), the few closest to the target are evaluated
  exactly, and the tuner's search takes the one that lands closest (never a move that does
  not bring the exact RTP closer);
* when none of them helps, every reel is probed afresh and more candidates are evaluated once
  before the search stops.

Every state measured is remembered, and the number of exact evaluations is bounded
(:data:`MAX_EVALUATIONS`) and reported. The tuner then verifies the result with the full exact
analysis and writes it as for any family; a title the analyzer does not give exactly (its full
analysis not written, or its cycle beyond exact sums) is refused by name before any search.

Bet modes: an ante is the base game on its own reel set, so its moves are that reel set's and
its measure the mode's RTP (the analysis of the model whose base reel set is the ante's, over
the price); the base game's strips do not move and its exact RTP is checked unchanged. A bought
feature's RTP depends on its free spins' reel set alone: that reel set moves until the buy
reaches the target, then the base game (whose free spins it also is) is brought back to its
exact RTP within the tolerance by moving its base reel set alone. A buy whose free spins spin
the base game's reels has no table of its own: it is refused, naming the price that gives the
target.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np

from reelsmith.analysis.analyzer import analyze, round_law
from reelsmith.analysis.catalogue_tuning import TOLERANCE, StripState, pick_stop, refuse_weighted
from reelsmith.analysis.tuning import Candidate, Plan, UntunableError
from reelsmith.engine.catalogue import mechanics
from reelsmith.engine.model import GameModel, ModelError, Variant

#: The most exact evaluations one tuning makes.
MAX_EVALUATIONS = 3_000
#: Estimated single moves and pairs evaluated exactly at each step (more once when none helps).
VERIFIED = 3
WIDENED = 40

#: A stop change: (reel set, reel, old symbol, new symbol).
Stop = tuple[str, int, int, int]
Measure = Callable[[GameModel, str], Fraction]


@dataclasses.dataclass
class State(StripState):
    """The strips the search moves (by the measured model's reel-set names) and what it
    counted: stops changed (``moves``) and exact evaluations made (``evaluations``)."""

    evaluations: int = 0


@dataclasses.dataclass
class _Written:
    """The model the tuned variant belongs to (for an ante, the measured model is another:
    the title whose base reel set is the ante's), its source variant, and the names the moved
    reel sets are written under."""

    model: GameModel
    source: Variant
    names: dict[str, str]
    mode: str | None = None
    #: The mode's reel set tuned before the base game's was brought back (a bought feature)
    restored: str | None = None


class ExactMoves:
    """The exact family (:class:`reelsmith.analysis.tuning.Family`): every state measured by
    the analyzer's exact RTP route, the moves chosen by probed estimates (see the module)."""

    def __init__(self, state: State, measure: Measure, written: _Written) -> None:
        self.measure = measure
        self.written = written
        self.regular = [s.index for s in state.model.symbols if s.role == "regular"]
        self.known: dict[Any, Fraction] = {}
        self.values: dict[tuple[str, int], dict[int, float]] = {}
        self.fresh: set[tuple[str, int]] = set()

    # -- the measure ----------------------------------------------------------------------

    def rtp(self, state: State) -> Fraction:
        key = tuple((name, tuple(map(tuple, strips))) for name, strips in state.strips.items())
        found = self.known.get(key)
        if found is None:
            state.evaluations += 1
            found = self.measure(state.tuned(), state.variant_id)
            self.known[key] = found
        return found

    def _trial(self, state: State, stops: tuple[Stop, ...]) -> Fraction:
        """The exact RTP with ``stops`` changed (the state left as it was)."""
        undo = []
        for name, reel, old, new in stops:
            strip = state.strips[name][reel]
            index = pick_stop(strip, old, new)
            undo.append((strip, index, strip[index]))
            strip[index] = new
        try:
            return self.rtp(state)
        finally:
            for strip, index, symbol in reversed(undo):
                strip[index] = symbol

    def _probe(self, state: State, name: str, reel: int, rtp: Fraction) -> None:
        """The reel's symbol values: the exact effect of its most plentiful regular symbol
        becoming each other one."""
        counts = Counter(state.strips[name][reel])
        ref = max(self.regular, key=lambda s: (counts[s], -s))
        values = dict.fromkeys(self.regular, 0.0)
        if counts[ref] > 1:
            for symbol in self.regular:
                if symbol != ref:
                    trial = self._trial(state, ((name, reel, ref, symbol),))
                    values[symbol] = float(trial - rtp)
        self.values[name, reel] = values
        self.fresh.add((name, reel))

    # -- the family -----------------------------------------------------------------------

    def candidates(self, state: State, rtp: Fraction, target: Fraction) -> list[Candidate]:
        gap = abs(target - rtp)
        found = self._evaluated(state, rtp, target, VERIFIED)
        if all(c.miss >= gap for c in found):
            # the estimates did not hold: every reel probed afresh, more moves evaluated
            self.fresh.clear()
            found = self._evaluated(state, rtp, target, WIDENED)
        if all(c.miss >= gap for c in found):
            # still none: two of the moves evaluated, made together (their exact effects
            # nearly add up where they change different reels)
            found += self._combined(state, rtp, target, found)
        return found

    def _combined(
        self, state: State, rtp: Fraction, target: Fraction, found: list[Candidate]
    ) -> list[Candidate]:
        """The ``WIDENED`` pairs of evaluated moves whose summed effects land closest,
        exactly evaluated."""
        if len(found) < 2:
            return []
        deltas = np.array([float(c.delta) for c in found])
        miss = np.abs(float(target - rtp) - (deltas[:, None] + deltas[None, :]))
        miss[np.tril_indices(len(found))] = np.inf  # two different moves, each pair once
        chosen = [found[int(i)].stops + found[int(j)].stops for i, j in _closest(miss, WIDENED)]
        return self._measured(state, rtp, target, chosen, len(found))

    def _measured(
        self,
        state: State,
        rtp: Fraction,
        target: Fraction,
        chosen: list[tuple[Stop, ...]],
        first: int = 0,
    ) -> list[Candidate]:
        """The moves ``chosen`` exactly evaluated, as candidates ordered from ``first`` (as
        many as the evaluations left allow)."""
        out = []
        for order, stops in enumerate(chosen, start=first):
            if state.evaluations >= MAX_EVALUATIONS:
                break
            if not _keeps_one(state, stops):
                continue
            trial = self._trial(state, stops)
            name, reel, old, new = stops[0]
            delta, miss = trial - rtp, abs(trial - target)
            out.append(Candidate(name, reel, old, new, delta, miss, order, also=stops[1:]))
        return out

    def _evaluated(
        self, state: State, rtp: Fraction, target: Fraction, count: int
    ) -> list[Candidate]:
        """The ``count`` best estimated single moves and pairs, exactly evaluated."""
        for name, strips in state.strips.items():
            for reel in range(len(strips)):
                if state.evaluations >= MAX_EVALUATIONS:
                    return []
                if (name, reel) not in self.fresh:
                    self._probe(state, name, reel, rtp)
        singles: list[Stop] = []
        estimates: list[float] = []
        for name, strips in state.strips.items():
            for reel, strip in enumerate(strips):
                counts = Counter(strip)
                values = self.values[name, reel]
                for old in self.regular:
                    if counts[old] <= 1:
                        continue
                    for new in self.regular:
                        if new != old:
                            singles.append((name, reel, old, new))
                            estimates.append(values[new] - values[old])
        if not singles:
            return []
        gap = float(target - rtp)
        est = np.array(estimates)
        chosen: list[tuple[Stop, ...]] = [
            (singles[i],) for i in np.argsort(np.abs(gap - est), kind="stable")[:count]
        ]
        pair_miss = np.abs(gap - (est[:, None] + est[None, :]))
        pair_miss[np.tril_indices(len(est), -1)] = np.inf  # each pair once
        chosen += [(singles[i], singles[j]) for i, j in _closest(pair_miss, count)]
        return self._measured(state, rtp, target, chosen)

    def apply(self, state: State, move: Candidate) -> None:
        for name, reel, old, new in move.stops:
            strip = state.strips[name][reel]
            strip[pick_stop(strip, old, new)] = new
            state.moves += 1
            self.fresh.discard((name, reel))

    def std_dev(self, state: State) -> float:
        return float(analyze(self.tuned(state), state.variant_id).std_dev)

    def volatility_move(self, state: State, up: bool) -> bool:
        return False  # refused by the plan: the class is not this family's to reach

    def refine(self, state: State, target: Fraction) -> Fraction:
        return self.rtp(state)

    def can_refine(self, state: State) -> bool:
        return False

    def tuned(self, state: State) -> GameModel:
        """The written model with the moved reel sets (renamed where measured under another
        name) as its only variant."""
        written = self.written
        measured = state.variant()
        reel_sets = dict(written.source.reel_sets)
        for name in state.strips:
            target = written.names.get(name, name)
            reel_sets[target] = dataclasses.replace(measured.reel_sets[name], name=target)
        variant = dataclasses.replace(
            written.source,
            id=state.variant_id,
            reel_sets=reel_sets,
            parameters=state.parameters(),
            figures={},
        )
        return dataclasses.replace(
            written.model, variants={state.variant_id: variant}, default_variant=state.variant_id
        )

    def tables(self, state: State) -> tuple[dict[str, list[list[str]]], dict[str, Any]]:
        ids = self.written.model.symbol_ids
        reel_sets = {
            name: [[ids[s] for s in strip] for strip in reel_set.strips]
            for name, reel_set in self.written.source.reel_sets.items()
        }
        for name, strips in state.strips.items():
            reel_sets[self.written.names.get(name, name)] = [
                [ids[s] for s in strip] for strip in strips
            ]
        return reel_sets, state.parameters()

    def notes(self, state: State, target: Decimal, volatility: str | None) -> tuple[str, str]:
        name = self.written.model.name
        counted = f"{state.moves} stops changed, {state.evaluations} exact evaluations"
        mode = self.written.mode
        if mode is None:
            return (
                f"{name} at {target:.2f}% return to player.",
                f"{name}, RTP variant {state.variant_id}: made by `reelsmith tune --target-rtp "
                f"{target:.2f}` from variant {state.source.id} ({counted}); the figures below "
                "are the exact analyzer's.",
            )
        moved = ", ".join(self.written.names.get(n, n) for n in state.strips)
        if self.written.restored is not None:
            return (
                self.written.source.description,
                f"{name}, variant {state.variant_id}: mode {mode} aimed at {target:.2f}% by "
                f"`reelsmith tune --mode {mode} --target-rtp {target:.2f}` (reel set "
                f"{self.written.restored}), then the base game brought back to its RTP (reel "
                f"set {moved}: {counted}); the figures below are the exact analyzer's of the "
                "base game.",
            )
        return (
            self.written.source.description,
            f"{name}, variant {state.variant_id}: mode {mode} aimed at {target:.2f}% by "
            f"`reelsmith tune --mode {mode} --target-rtp {target:.2f}` (reel set {moved}: "
            f"{counted}); the base game's strips are as they were, and the figures below are "
            "the exact analyzer's of the base game.",
        )

    def reveal_weights(self, state: State) -> tuple[int, ...] | None:
        return None


def _keeps_one(state: State, stops: tuple[Stop, ...]) -> bool:
    """Whether ``stops``, made in order, each find the symbol they take out and leave every
    reel one of each symbol they took out (two moves of one reel may take out the same)."""
    counts: dict[tuple[str, int], Counter[int]] = {}
    for name, reel, old, new in stops:
        held = counts.setdefault((name, reel), Counter(state.strips[name][reel]))
        if held[old] < 1:
            return False
        held[old] -= 1
        held[new] += 1
    return all(counts[name, reel][old] >= 1 for name, reel, old, _ in stops)


def _closest(miss: Any, count: int) -> list[tuple[int, int]]:
    """The ``count`` index pairs of the finite misses of ``miss``, closest first."""
    out = []
    for flat in np.argsort(miss, axis=None, kind="stable")[:count]:
        i, j = np.unravel_index(flat, miss.shape)
        if np.isfinite(miss[i, j]):
            out.append((int(i), int(j)))
    return out


METHOD = (
    "greedy moves chosen by probed estimates, every state measured by the exact analyzer's "
    "RTP route, verified by the full exact analysis"
)
REACH = "strip moves of the regular symbols"


def _exact(analysis: Callable[[], Any], model: GameModel, what: str) -> Any:
    """``analysis()``, or the analyzer's refusal as the tuner's (one line naming why)."""
    try:
        return analysis()
    except ModelError as exc:
        reason = str(exc).splitlines()[0]
        raise UntunableError(
            f"{model.id}: tune measures and verifies {what} with the exact analyzer, which "
            f"does not give it exactly: {reason}"
        ) from None


def _refuse_volatility(model: GameModel, volatility: str | None) -> None:
    if volatility is not None:
        raise UntunableError(
            f"{model.id}: --volatility moves wilds on the free-spin reels of a paylines title; "
            "this title is tuned for its RTP alone (tune without --volatility)"
        )


def _free_reel_set(model: GameModel) -> str | None:
    """The reel set the model's free spins spin (None: no free spins)."""
    free = mechanics(model).free_spins
    return None if free is None else free.reel_set


def _state(model: GameModel, source: Variant, variant_id: str, names: list[str]) -> State:
    strips = {n: [list(map(int, s)) for s in source.reel_sets[n].strips] for n in names}
    return State(model=model, source=source, variant_id=variant_id, strips=strips, weights=None)


def plan(
    model: GameModel,
    source: Variant,
    variant_id: str,
    target: Decimal,
    volatility: str | None,
) -> Plan:
    """The exact family set up to tune the base game of ``source`` into ``variant_id``: its
    base reel set and the free spins' (see the module). Refuses a volatility class, weighted
    stops or drawn cells, and a title the exact analyzer does not give exactly."""
    _refuse_volatility(model, volatility)
    refuse_weighted(source)
    law = round_law(model)
    _exact(lambda: analyze(model, source.id), model, "every variant")
    free_set = _free_reel_set(model)
    names = ["base"] + ([free_set] if free_set not in (None, "base") else [])
    state = _state(model, source, variant_id, names)
    family = ExactMoves(state, law.rtp, _Written(model, source, {}))
    return _plan(family, state, target)


def _plan(
    family: ExactMoves, state: State, target: Decimal, *, exact: Fraction | None = None, **mode: Any
) -> Plan:
    """The plan aiming at ``target`` percent (``exact``: at that exact fraction instead)."""
    return Plan(
        family=family,
        state=state,
        target=Fraction(target) / 100 if exact is None else exact,
        coarse=TOLERANCE,
        aim=TOLERANCE,
        tolerance=TOLERANCE,
        volatility_steps=0,
        method=METHOD,
        reach=REACH,
        **mode,
    )


def mode_plan(
    model: GameModel,
    source: Variant,
    target: Decimal,
    volatility: str | None,
    name: str,
) -> Plan:
    """The exact family set up to aim the bet mode ``name`` of ``source`` at ``target``
    percent, moving only the mode's own reel set and rewriting ``source`` (see the module).
    Refuses a mode with no table of its own (a bought feature; an ante on the base game's
    reel sets), a volatility class, and a mode the analyzer does not give exactly."""
    from reelsmith.mechanics.modes.exact import figures, mode_model
    from reelsmith.mechanics.modes.rules import modes_of

    try:
        mode = modes_of(model).get(name)
    except ModelError as exc:
        raise UntunableError(f"{model.id}: --mode {name}: {exc}") from None
    _refuse_volatility(model, volatility)
    free_set = _free_reel_set(model)
    if mode.kind == "buy":
        return _buy_plan(model, source, target, name, free_set)
    assert mode.reel_set is not None
    if mode.reel_set in ("base", free_set):
        raise UntunableError(
            f"{model.id}: mode {name} has no table of its own to move: its reel set "
            f"{mode.reel_set!r} is the base game's too"
        )
    refuse_weighted(source)
    base = _exact(lambda: analyze(model, source.id), model, "the base game")
    _exact(lambda: figures(model, source.id, name), model, f"mode {name}")
    measured = mode_model(model, name)
    state = _state(measured, measured.variant(source.id), source.id, ["base"])
    price = mode.price

    def measure(tuned: GameModel, variant_id: str) -> Fraction:
        rtp: Fraction = round_law(tuned).rtp(tuned, variant_id)
        return rtp / price

    written = _Written(model, source, {"base": mode.reel_set}, mode=name)
    family = ExactMoves(state, measure, written)
    return _plan(
        family,
        state,
        target,
        mode=name,
        measure=lambda tuned, variant_id: figures(tuned, variant_id, name).rtp,
        unchanged=base.rtp,
    )


def _buy_plan(
    model: GameModel, source: Variant, target: Decimal, name: str, free_set: str | None
) -> Plan:
    """A bought feature aimed at ``target`` by moving the free spins' own reel set (its RTP
    depends on nothing else of a variant), then the base game brought back to its exact RTP
    within the tolerance by moving its base reel set alone (the free reels it now spins as
    tuned). Refused, naming the price that gives the target, where the free spins spin the
    base game's reels."""
    from reelsmith.mechanics.modes.exact import figures

    if free_set in (None, "base"):
        raise UntunableError(_buy_refusal(model, source, target, name, free_set))
    assert free_set is not None
    refuse_weighted(source)
    base = _exact(lambda: analyze(model, source.id), model, "the base game")
    _exact(lambda: figures(model, source.id, name), model, f"mode {name}")
    law = round_law(model)

    def measure(tuned: GameModel, variant_id: str) -> Fraction:
        return figures(tuned, variant_id, name).rtp

    state = _state(model, source, source.id, [free_set])
    family = ExactMoves(state, measure, _Written(model, source, {}, mode=name))

    def restore(tuned: GameModel) -> Plan:
        moved = tuned.variant(source.id)
        again = _state(tuned, moved, source.id, ["base"])
        written = _Written(model, moved, {}, mode=name, restored=free_set)
        return _plan(ExactMoves(again, law.rtp, written), again, Decimal(0), exact=base.rtp)

    return _plan(
        family,
        state,
        target,
        mode=name,
        measure=measure,
        unchanged=base.rtp,
        restore=restore,
    )


def _buy_refusal(
    model: GameModel, source: Variant, target: Decimal, name: str, free_set: str | None
) -> str:
    """Why a bought feature is not tuned, and the price that gives the target."""
    from reelsmith.analysis.catalogue_exact import feature_given
    from reelsmith.mechanics.modes.rules import modes_of

    mode = modes_of(model).get(name)
    reason = (
        f"{model.id}: mode {name} (a bought feature) has no table of its own to move: its free "
        f"spins spin reel set {free_set!r}, the base game's, so moving it would move the base "
        "game's RTP"
    )
    try:
        mean = feature_given(model, source.id, mode.triggers).win.mean
    except ModelError:
        return reason
    price = (Decimal(mean.numerator) / Decimal(mean.denominator) / target * 100).quantize(
        Decimal("0.01")
    )
    rtp = mean / Fraction(price) * 100
    return f"{reason}; its price sets its RTP: modes.{name}.price = {price} gives {float(rtp):.4f}%"
