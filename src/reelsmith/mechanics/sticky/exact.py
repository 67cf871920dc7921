"""The exact RTP of free spins with sticky wilds: a Markov chain over the stuck cells.

The state of a feature is the set ``S`` of stuck cells (a subset of the window positions where
the free spins' wild can land on a sticking reel, :func:`.rules.landing_positions`), the spins
left and the spins awarded so far (the cap's count). A free spin's stops decide, reel by reel
and independently, the cells where the wild lands (``S`` grows by them) and the trigger symbols
it counts (a stuck wild never covers them, so their law is the model's whatever ``S``): their
joint law (:func:`landed_law`) is a product over the reels, the same from every state.

Given ``S`` the reels stay independent, so a payline's expected pay is the paylines' walk
(:func:`reelsmith.analysis.catalogue_exact.line_pay_sum`) over each reel's symbol weights on
the line's row, a stuck cell's weights moved to the wild but for the scatter's and the trigger
symbol's (:func:`line_mean`). The line pays of a feature started with ``n`` spins are then
``V(S0, n, n)`` of the chain (:func:`feature_values`)::

    V(S, 0, a) = 0
    V(S, r, a) = line_mean(S) + sum over (L, k) of P(L, k) V(S | L, r - 1 + n, a + n)

with ``n = add(k, a)``, ``add`` the free spins' retrigger rule
(:func:`reelsmith.engine.catalogue.award_spins`, cut at the cap). The chain is finite where
the feature's length is bounded (no retrigger, or a cap): :mod:`.rules` refuses the rest, and
more than :data:`.rules.EXACT_LIMIT` landing positions. The base game, the scatter and the
free spins' count law are the model's own route without ``[sticky_wilds]``; the stuck wilds
change the free spins' line pays alone, so the figures are that route's with
``free_spins_rtp`` and ``free_spin_win`` re-derived from the chain.
"""

from __future__ import annotations

import math
import sys
from dataclasses import replace
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING

import numpy as np

from reelsmith.engine.model import GameModel, ReelSet
from reelsmith.mechanics.sticky.rules import StickyWilds, landing_positions, sticky_rules

if TYPE_CHECKING:
    from reelsmith.analysis.catalogue_exact import CatalogueFigures

#: A set of stuck cells, as the chain keys it: bit ``i`` for landing position ``i``.
Mask = int


@cache
def without_sticky(model: GameModel) -> GameModel:
    """``model`` without its ``[sticky_wilds]`` table: the law of everything the stuck wilds
    do not change."""
    raw = {k: v for k, v in model.raw.items() if k != "sticky_wilds"}
    return replace(model, raw=raw)


def landed_law(
    model: GameModel, rules: StickyWilds, reel_set: ReelSet, positions: list[tuple[int, int]]
) -> dict[tuple[Mask, int], Fraction]:
    """``P(L, k)``: a free spin lands the wild on the positions of mask ``L`` (sticking reels
    only) and counts ``k`` trigger symbols as the free spins count them (0 where a required
    reel shows none)."""
    from reelsmith.engine.catalogue import mechanics

    found = mechanics(model)
    free = found.free_spins
    assert free is not None
    bit = {cell: 1 << i for i, cell in enumerate(positions)}
    windows = reel_set.window_table(model.rows)
    law: dict[tuple[Mask, int, bool], int] = {(0, 0, False): 1}
    whole = 1
    for reel in range(model.reels):
        weights = reel_set.position_weights(reel)
        outcomes: dict[tuple[Mask, int, bool], int] = {}
        for position in range(int(reel_set.position_counts[reel])):
            weight = int(weights[position])
            if not weight:
                continue
            window = windows[reel, position]
            landed = 0
            if rules.reels[reel]:
                for row in np.flatnonzero(window == rules.wild):
                    landed |= bit[(int(row), reel)]
            shows = window == free.symbol
            count = int(shows.sum()) if found.trigger_mask[reel] else 0
            missing = bool(free.required is not None and free.required[reel] and not shows.any())
            key = (landed, count, missing)
            outcomes[key] = outcomes.get(key, 0) + weight
        whole *= sum(outcomes.values())
        step: dict[tuple[Mask, int, bool], int] = {}
        for (mask, count, missing), w in law.items():
            for (landed, more, gone), v in outcomes.items():
                key = (mask | landed, count + more, missing or gone)
                step[key] = step.get(key, 0) + w * v
        law = step
    out: dict[tuple[Mask, int], Fraction] = {}
    for (mask, count, missing), w in law.items():
        shown = (mask, 0 if missing else count)
        out[shown] = out.get(shown, Fraction(0)) + Fraction(w, whole)
    return out


def line_mean(
    model: GameModel,
    rules: StickyWilds,
    reel_set: ReelSet,
    pays: np.ndarray,
    stuck: frozenset[tuple[int, int]],
) -> Fraction:
    """A free spin's expected line pay, summed over every payline at one coin each, with the
    cells ``stuck`` showing the wild (but where the scatter or the trigger symbol lands)."""
    from reelsmith.analysis.catalogue_exact import line_pay_sum
    from reelsmith.analysis.exact import row_symbol_weights

    shown = [s for s in dict.fromkeys((rules.scatter, rules.trigger)) if s >= 0]
    total = Fraction(0)
    for line in model.paylines:
        rows = [int(row) for row in line]
        counts = row_symbol_weights(model, reel_set, rows).copy()
        for reel, row in enumerate(rows):
            if (row, reel) in stuck:
                kept = counts[reel, shown].copy()
                whole = int(counts[reel].sum())
                counts[reel] = 0
                counts[reel, shown] = kept
                counts[reel, rules.wild] += whole - int(kept.sum())
        cycle = math.prod(int(n) for n in counts.sum(axis=1))
        total += Fraction(line_pay_sum(model, counts, pays), cycle)
    return total


def feature_values(model: GameModel, variant_id: str, starts: set[int]) -> dict[int, Fraction]:
    """``V(no cell stuck, n, n)`` for each start ``n`` of ``starts``: a feature's expected line
    pay in coins at one coin per payline (see the module)."""
    from reelsmith.engine.catalogue import award_spins, mechanics

    rules = sticky_rules(model)
    found = mechanics(model)
    free = found.free_spins
    assert free is not None
    reel_set = model.variant(variant_id).reel_sets[free.reel_set]
    positions = landing_positions(model, rules)
    law = list(landed_law(model, rules, reel_set, positions).items())
    means: dict[Mask, Fraction] = {}
    values: dict[tuple[Mask, int, int], Fraction] = {}

    def mean(mask: Mask) -> Fraction:
        if mask not in means:
            stuck = frozenset(c for i, c in enumerate(positions) if mask >> i & 1)
            means[mask] = line_mean(model, rules, reel_set, found.free_line_pays, stuck)
        return means[mask]

    def value(mask: Mask, left: int, awarded: int) -> Fraction:
        if left == 0:
            return Fraction(0)
        key = (mask, left, awarded)
        if key not in values:
            total = mean(mask)
            for (landed, count), p in law:
                added = int(
                    award_spins(
                        free.retrigger,
                        free.retrigger_spins,
                        free.spins_per_symbol,
                        count,
                        awarded,
                        free.max_spins,
                    )
                )
                total += p * value(mask | landed, left - 1 + added, awarded + added)
            values[key] = total
        return values[key]

    limit = sys.getrecursionlimit()
    most = max(starts | {free.max_spins})
    sys.setrecursionlimit(max(limit, 4 * most + 1000))
    try:
        return {n: value(0, n, n) for n in sorted(starts)}
    finally:
        sys.setrecursionlimit(limit)


def sticky_rtp(model: GameModel, variant_id: str) -> CatalogueFigures:
    """The exact RTP route's figures of ``variant_id`` (see the module)."""
    from reelsmith.analysis.catalogue_exact import (
        analyze_rtp,
        initial_law,
        pay_rtp,
        total_coins,
        trigger_ways,
    )
    from reelsmith.engine.catalogue import mechanics

    found = mechanics(model)
    free = found.free_spins
    assert free is not None
    variant = model.variant(variant_id)
    figures = analyze_rtp(without_sticky(model), variant.id)
    base = variant.reel_sets["base"]
    free_lines = pay_rtp(model, variant.reel_sets[free.reel_set], found.free_line_pays, True)
    free_scatter = figures.free_spin_win - free_lines
    triggered = trigger_ways(model, base, found)
    starts = {
        k: initial_law(found, variant.id, k)
        for k, w in enumerate(triggered)
        if k >= free.trigger and w
    }
    values = feature_values(model, variant.id, {n for law in starts.values() for n in law})
    lines = sum(
        (
            Fraction(triggered[k], base.cycle) * p * values[n]
            for k, law in starts.items()
            for n, p in law.items()
        ),
        Fraction(0),
    ) / total_coins(model)
    spins = figures.trigger_probability * figures.expected_free_spins
    free_spins_rtp = spins * free_scatter + lines
    return replace(
        figures,
        free_spins_rtp=free_spins_rtp,
        free_spin_win=free_spins_rtp / spins if spins else figures.free_spin_win,
    )
