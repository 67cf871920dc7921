"""The catalogue's family of the one tuner (:func:`reelsmith.analysis.tuning.tune`): the moves
that give any catalogue title new reel strips (and, where the model has one, reveal weights)
for a target RTP and optionally a volatility class. :func:`plan` sets the family up; the search,
the checks, the variant file and the result are the tuner's.

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

The tuner checks the result (the RTP within tolerance, the class if one was asked, no award
rarer than GLI-11 allows), writes it through :func:`reelsmith.engine.model.format_variant`,
loads it back through the model loader and analyses it again; the figures stored are the
analyzer's.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from reelsmith.analysis.catalogue_exact import (
    analyze_full,
    analyze_rtp,
    line_pay_sum,
)
from reelsmith.analysis.exact import symbol_counts
from reelsmith.analysis.tuning import (
    Candidate,
    Plan,
    UntunableError,
    neighbour_pairs,
    refine_weights,
    wild_move,
)
from reelsmith.engine.catalogue import Mechanics, mechanics
from reelsmith.engine.model import GameModel, ReelSet, Variant

#: The search stops when the RTP is this close to the target (prints as the target at two
#: decimals of a percent).
TOLERANCE = Fraction(1, 40_000)
MAX_VOLATILITY_STEPS = 40
#: How close the single-unit moves between reveal weights aim (well inside the tolerance when
#: they can).
REVEAL_AIM = Fraction(1, 100_000)


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


def pick_stop(strip: list[int], old: int, new: int) -> int:
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
class StripState:
    """The search's mutable state: strips as symbol indices by reel set (those it moves; the
    variant's others as they are), reveal weights, and the stops changed so far."""

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
            heights = self.source.reel_sets[name].heights
            reel_sets[name] = ReelSet.build(name, arrays, self.model.rows, heights=heights)
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


class _Catalogue:
    """The catalogue's part of the tuner (:class:`reelsmith.analysis.tuning.Family`): exact
    fractions; a move's effect read off the line-pay gradient of its reel set."""

    def __init__(self, state: StripState, rules: Mechanics) -> None:
        model = state.model
        self.model = model
        self.rules = rules
        self.free = rules.free_spins
        self.regular = [s.index for s in model.symbols if s.role == "regular"]
        current = state.tuned()
        start = analyze_rtp(current, state.variant_id)
        # Fixed by the moves (scatters and bonus symbols do not move): the scatter's return
        # and the free spins per round.
        free = self.free
        self.per_round = (
            start.free_spins_rtp / start.free_spin_win
            if free and start.free_spin_win
            else Fraction(0)
        )
        self.fixed = start.scatter_rtp
        if free is not None:
            free_scatter = start.free_spin_win - _line_rtp(model, current, free, rules)
            self.fixed += self.per_round * free_scatter

    def rtp(self, state: StripState) -> Fraction:
        return _rtp_of(self.model, state.strips, self.fixed, self.per_round, self.rules)

    def candidates(self, state: StripState, rtp: Fraction, target: Fraction) -> list[Candidate]:
        model = self.model
        free = self.free
        out: list[Candidate] = []
        for name in state.strips:
            counts = _counts(model, state.strips[name])
            cycle = int(np.prod(counts.sum(axis=1)))
            tables = []
            if name == "base":
                tables.append((model.line_pays, Fraction(1)))
            if free and free.reel_set == name:
                tables.append((self.rules.free_line_pays, self.per_round))
            grads = [(_gradient(model, counts, pays)[1], weight) for pays, weight in tables]
            for reel in range(model.reels):
                for old in self.regular:
                    if counts[reel, old] <= 1:
                        continue
                    for new in self.regular:
                        if new == old:
                            continue
                        delta = sum(
                            (
                                weight * Fraction(int(g[reel, new] - g[reel, old]), cycle)
                                for g, weight in grads
                            ),
                            Fraction(0),
                        )
                        miss = abs(rtp + delta - target)
                        out.append(Candidate(name, reel, old, new, delta, miss, len(out)))
        return out

    def apply(self, state: StripState, move: Candidate) -> None:
        strip = state.strips[move.reel_set][move.reel]
        strip[pick_stop(strip, move.old, move.new)] = move.new
        state.moves += 1

    def std_dev(self, state: StripState) -> float:
        return analyze_full(state.tuned(), state.variant_id).std_dev

    def volatility_move(self, state: StripState, up: bool) -> bool:
        free = self.free
        if self.model.wild < 0 or free is None or free.reel_set not in state.strips:
            return False
        strips = state.strips[free.reel_set]
        move = wild_move(self.model, strips, up, wild_reels_only=True)
        if move is None:
            return False
        reel, old, new = move
        strip = strips[reel]
        strip[pick_stop(strip, old, new)] = new
        state.moves += 1
        return True

    def refine(self, state: StripState, target: Fraction) -> Fraction:
        """The reveal table's weights, units moved between neighbouring values."""
        assert state.weights is not None
        return refine_weights(state.weights, state.rtp, target, REVEAL_AIM, neighbour_pairs)

    def can_refine(self, state: StripState) -> bool:
        return state.weights is not None

    def tuned(self, state: StripState) -> GameModel:
        return state.tuned()

    def tables(self, state: StripState) -> tuple[dict[str, list[list[str]]], dict[str, Any]]:
        """Every reel set of the base variant, those the search moved as it left them."""
        ids = self.model.symbol_ids
        source = state.source.reel_sets
        reel_sets = {
            name: [[ids[s] for s in strip] for strip in reel_set.strips]
            for name, reel_set in source.items()
        }
        for name, strips in state.strips.items():
            reel_sets[name] = [[ids[s] for s in strip] for strip in strips]
        return reel_sets, state.parameters()

    def notes(self, state: StripState, target: Decimal, volatility: str | None) -> tuple[str, str]:
        name = self.model.name
        asked = f" --volatility {volatility}" if volatility else ""
        return (
            f"{name} at {target:.2f}% return to player.",
            f"{name}, RTP variant {state.variant_id}: made by `reelsmith tune --target-rtp "
            f"{target:.2f}{asked}` from variant {state.source.id} ({state.moves} stops changed); "
            "the figures below are the exact analyzer's.",
        )

    def reveal_weights(self, state: StripState) -> tuple[int, ...] | None:
        return tuple(state.weights) if state.weights is not None else None


def refuse_weighted(variant: Variant) -> None:
    """Refuse to tune from a variant whose reel sets weigh their stops: the search's exact
    step (one stop's symbol replaced, the gradient of the unweighted symbol counts) and the
    variant file it writes know nothing of weights, so a weighted variant is tuned by hand
    (its weights or its strips) and checked with ``analyze``."""
    drawn = sorted(name for name, reel_set in variant.reel_sets.items() if reel_set.cells)
    if drawn:
        raise UntunableError(
            f"variant {variant.id} draws every cell (cells on reel_sets."
            f"{', reel_sets.'.join(drawn)}); tune moves symbols on reel strips only: edit the "
            "cells' weights and run analyze, which gives their exact RTP"
        )
    weighted = sorted(
        name for name, reel_set in variant.reel_sets.items() if reel_set.weights is not None
    )
    if weighted:
        raise UntunableError(
            f"variant {variant.id} weighs its stops (stop_weights on reel_sets."
            f"{', reel_sets.'.join(weighted)}); tune moves symbols on unweighted strips only: "
            "start from an unweighted variant (--from) or edit the weights and run analyze"
        )


def plan(
    model: GameModel,
    source: Variant,
    variant_id: str,
    target: Decimal,
    volatility: str | None,
) -> Plan:
    """The catalogue family set up to tune ``source`` into ``variant_id`` (see the module):
    exact fractions, one tolerance for every pass. Refuses a model with a plug-in, a weighted
    variant, and a volatility class where there are no wilds or no free spins to move."""
    rules = mechanics(model)
    from reelsmith.mechanics import evaluator, own_rtp

    if evaluator(model).name != "paylines" or own_rtp(model) is not None:
        # the search reads a move's effect off the paylines' per-reel walk (_rtp_of), which is
        # not the RTP of screens paid by ways or counts, nor of a mechanic's own law (a
        # cascade's chains, an expansion, a mystery's reveal): those are tuned by the family
        # that measures every state with the exact analyzer
        from reelsmith.analysis.exact_tuning import plan as exact_plan

        return exact_plan(model, source, variant_id, target, volatility)
    if rules.plugin is not None:
        # the search reads the line pays' per-reel gradients, which know nothing of the
        # plug-in's step on a spin's win (a step that need not be linear in the win)
        raise UntunableError(
            f"{model.id}: tune does not tune a model with a plug-in ({rules.plugin.source}); "
            "edit its strips and check them with analyze"
        )
    refuse_weighted(source)
    free = rules.free_spins
    names = ["base"] + ([free.reel_set] if free and free.reel_set != "base" else [])
    weights = free.reveal_table(source)[1] if free is not None and free.reveal is not None else None
    state = StripState(
        model=model,
        source=source,
        variant_id=variant_id,
        strips={n: [list(map(int, s)) for s in source.reel_sets[n].strips] for n in names},
        weights=weights,
    )
    if volatility is not None and (model.wild < 0 or free is None):
        raise UntunableError(
            f"{model.id}: --volatility moves wilds on the free-spin reels; this title has "
            "no wild or no free spins"
        )
    return Plan(
        family=_Catalogue(state, rules),
        state=state,
        target=Fraction(target) / 100,
        coarse=TOLERANCE,
        aim=TOLERANCE,
        tolerance=TOLERANCE,
        volatility_steps=MAX_VOLATILITY_STEPS,
        method="greedy exact moves (line-pay gradient), verified by the exact analyzer",
        reach="strip moves of the regular symbols",
    )


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
