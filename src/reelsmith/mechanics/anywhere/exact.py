"""The pay-anywhere exact part: the expected pay of one screen of a reel set, from per-reel laws.

The reels stop independently, so the joint law of (cells of ``s``, wilds) on the whole window
is the convolution of each reel's law of the pair over its stops; a symbol's pay depends on the
window through that pair alone (:mod:`.rules`), so its expectation is exact from it, and the
screen's expected pay is the sum over the paying symbols and the wild's own row. Integers
throughout (weights of any size), one fraction at the end. A cascade's chain needs the whole
window and is the cascade's enumeration (:mod:`reelsmith.mechanics.cascade.exact`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from reelsmith.engine.model import GameModel, ReelSet
from reelsmith.mechanics.anywhere.rules import anywhere_rules, counted, screen_pays

Law = dict[tuple[int, int], int]


def pair_law(model: GameModel, reel_set: ReelSet, symbol: int) -> Law:
    """``law[(a, w)]``: the weight of the stop combinations whose window shows ``a`` cells of
    ``symbol`` and ``w`` wilds (``symbol`` the wild itself: ``a`` counts it, ``w`` is 0); each
    reel's law sums its positions (its stops, or the windows of its drawn cells)."""
    law: Law = {(0, 0): 1}
    wild = model.wild if symbol != model.wild else -1
    windows = reel_set.window_table(model.rows)
    for reel in range(model.reels):
        weights = reel_set.position_weights(reel)
        shown = windows[reel, : int(reel_set.position_counts[reel])]
        own = (shown == symbol).sum(axis=1)
        wilds = (shown == wild).sum(axis=1) if wild >= 0 else np.zeros_like(own)
        per_reel: Law = {}
        for a, w, weight in zip(own.tolist(), wilds.tolist(), weights.tolist(), strict=True):
            per_reel[(a, w)] = per_reel.get((a, w), 0) + weight
        combined: Law = {}
        for (a, w), x in law.items():
            for (b, v), y in per_reel.items():
                combined[(a + b, w + v)] = combined.get((a + b, w + v), 0) + x * y
        law = combined
    return law


def mean_pay(model: GameModel, reel_set: ReelSet, free: bool = False) -> Fraction:
    """The expected pay of one screen of ``reel_set`` per coin unit (before any multiplier of
    the spin), a base spin's or (``free``) a free spin's pays."""
    rules = anywhere_rules(model)
    pays = screen_pays(model, free)
    top = pays.shape[1] - 1
    total = 0
    for s in (int(x) for x in rules.paying):
        stands_in = model.wild >= 0 and bool(model.substitutable[s])
        for (a, w), weight in pair_law(model, reel_set, s).items():
            n = counted(a, w, stands_in, rules.pure_wild)
            total += int(pays[s, min(n, top)]) * weight
    if rules.wild_pays:
        for (a, _w), weight in pair_law(model, reel_set, model.wild).items():
            total += int(pays[model.wild, min(a, top)]) * weight
    return Fraction(total, reel_set.cycle)


def cost(model: GameModel) -> int:
    """The coins a spin costs at one coin per unit: the count's cost."""
    return anywhere_rules(model).cost


def screen_rtp(
    model: GameModel, reel_set: ReelSet, pays: Any = None, free: bool = False
) -> Fraction:
    """What one screen of ``reel_set`` returns per unit bet (the pays are the model's count
    table of a base or a free spin; ``pays`` is the evaluator-neutral argument, unused)."""
    return mean_pay(model, reel_set, free) / cost(model)
