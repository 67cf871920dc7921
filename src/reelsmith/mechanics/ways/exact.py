"""The ways' exact part: the expected pay of one screen of a reel set, from per-reel counts.

The reels stop independently, and a free spin's random wild weights are drawn independently of
the stops and of each other, so for a symbol ``s`` the ways of a run of exactly ``n`` reels have
the expectation ``E[A_1] x ... x E[A_n] x P(A_{n+1} = 0)`` (a product of per-reel sums: a
reel with ``A_r = 0`` zeroes the product, so no indicator of the earlier reels is needed), and
the ways of wilds alone ``E[B_1] x ... x E[B_n] x P(A_{n+1} = 0)`` (see
:mod:`reelsmith.mechanics.ways.rules` for ``A`` and ``B``). Every figure is an exact fraction
of the reel set's weighted cycle.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from reelsmith.engine.model import BLANK, GameModel, ReelSet
from reelsmith.mechanics.ways.rules import NO_PURE_WILD, PURE_WILD_AS_WILD, ways_rules


def _reel_laws(model: GameModel, reel_set: ReelSet, reel: int) -> tuple[npt.NDArray[np.int64], int]:
    """``counts[position, symbol]`` of the reel's windows (a position is a stop, and a height
    on a reel of variable rows) and the reel's total weight."""
    length = int(reel_set.position_counts[reel])
    windows = reel_set.windows(model.rows)[reel, :length]
    counts = np.zeros((length, len(model.symbols)), dtype=np.int64)
    for row in range(model.rows):
        shown = windows[:, row]
        kept = shown != BLANK
        np.add.at(counts, (np.nonzero(kept)[0], shown[kept].astype(np.int64)), 1)
    return counts, int(reel_set.totals[reel])


def weight_law(model: GameModel, reel: int, free: bool) -> tuple[Fraction, Fraction]:
    """(E[w], 1) of the reel's wild weight in a base (``free`` False) or free spin."""
    rules = ways_rules(model)
    if free and reel in rules.free_weights:
        values, odds = rules.free_weights[reel]
        return Fraction(sum(v * o for v, o in zip(values, odds, strict=True)), sum(odds)), Fraction(
            1
        )
    return Fraction(int(rules.weights[reel])), Fraction(1)


#: One reel's law as the ways read it: ``counts[position, symbol]`` of the windows it can
#: show, each position's whole weight, and the reel's total weight.
ReelLaw = tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], int]


def reel_set_laws(model: GameModel, reel_set: ReelSet) -> list[ReelLaw]:
    """Each reel's law on ``reel_set``: its windows (a stop, and a height on a reel of variable
    rows) with their stop weights."""
    laws = []
    for reel in range(model.reels):
        counts, total = _reel_laws(model, reel_set, reel)
        laws.append((counts, np.asarray(reel_set.position_weights(reel), dtype=np.int64), total))
    return laws


def window_counts(model: GameModel, windows: npt.NDArray[np.int8]) -> npt.NDArray[np.int64]:
    """``counts[window, symbol]`` of windows given cell by cell (``windows[window, row]``):
    the law of a reel whose windows are not its strip's (a window modifier's reveals)."""
    counts = np.zeros((windows.shape[0], len(model.symbols)), dtype=np.int64)
    for row in range(windows.shape[1]):
        shown = windows[:, row].astype(np.int64)
        kept = shown != BLANK
        np.add.at(counts, (np.nonzero(kept)[0], shown[kept]), 1)
    return counts


def mean_pay(
    model: GameModel, reel_set: ReelSet, pays: npt.NDArray[np.int64], free: bool = False
) -> Fraction:
    """The expected pay of one screen of ``reel_set`` per coin unit (before any multiplier of
    the spin), with the wild weights of a base or a free spin."""
    return laws_mean_pay(model, reel_set_laws(model, reel_set), pays, free)


def laws_mean_pay(
    model: GameModel, laws: list[ReelLaw], pays: npt.NDArray[np.int64], free: bool = False
) -> Fraction:
    """The expected pay of one screen per coin unit when reel ``r`` shows window ``v`` of
    ``laws[r]`` with probability ``weight[v] / total``, the reels independent: the ways rule's
    law on any per-reel law of windows (a reel set's; the ladder's, its gems revealed)."""
    rules = ways_rules(model)
    reels = model.reels
    wild = model.wild
    mean_w = [weight_law(model, reel, free)[0] for reel in range(reels)]

    def expect(reel: int, values: npt.NDArray[np.int64]) -> Fraction:
        return Fraction(int((values * laws[reel][1]).sum()), laws[reel][2])

    def prob_zero(reel: int, zero: npt.NDArray[np.bool_]) -> Fraction:
        return Fraction(int((zero * laws[reel][1]).sum()), laws[reel][2])

    wilds = [
        laws[r][0][:, wild] if wild >= 0 else np.zeros(len(laws[r][0]), np.int64)
        for r in range(reels)
    ]
    e_b = [mean_w[r] * expect(r, wilds[r]) for r in range(reels)]
    total = Fraction(0)
    for s in (int(x) for x in rules.paying):
        sub = wild >= 0 and bool(model.substitutable[s])
        e_a = []
        zero_a = []
        for r in range(reels):
            own = laws[r][0][:, s]
            e_a.append(expect(r, own) + (e_b[r] if sub else 0))
            shown = own + (wilds[r] if sub else 0)
            zero_a.append(prob_zero(r, shown == 0))
        product_a = Fraction(1)
        product_b = Fraction(1)
        for n in range(1, reels + 1):
            product_a *= e_a[n - 1]
            product_b *= e_b[n - 1] if sub else 0
            pay = int(pays[s, n])
            if n < rules.min_run or pay == 0:
                continue
            ways = product_a - (
                product_b if rules.pure_wild in (NO_PURE_WILD, PURE_WILD_AS_WILD) else 0
            )
            ending = zero_a[n] if n < reels else Fraction(1)
            total += pay * ways * ending
    if rules.pure_wild == PURE_WILD_AS_WILD:
        product_b = Fraction(1)
        for m in range(1, reels + 1):
            product_b *= e_b[m - 1]
            pay = int(pays[wild, m])
            if m < rules.min_run or pay == 0:
                continue
            ending = prob_zero(m, wilds[m] == 0) if m < reels else Fraction(1)
            total += pay * product_b * ending
    return total


def cost(model: GameModel) -> int:
    """The coins a spin costs at one coin per unit: the ways' cost."""
    return ways_rules(model).cost


def screen_rtp(
    model: GameModel, reel_set: ReelSet, pays: npt.NDArray[np.int64], free: bool = False
) -> Fraction:
    """What one screen of ``reel_set`` returns per unit bet."""
    return mean_pay(model, reel_set, pays, free) / cost(model)


def kernel_tables(model: GameModel, windows: Any, pays: Any) -> Any:
    """The round loop's tables of the ways (:class:`reelsmith.analysis.kernel.game.WaysTables`)
    for the stacked reel sets' ``windows``."""
    from reelsmith.analysis.kernel.game import WaysTables

    return WaysTables.build(model, windows, pays)


def screen_distributions(model: GameModel, rules: Any, variant_id: str) -> tuple[Any, Any]:
    """The full cycles of the base and free reel sets (:mod:`reelsmith.mechanics.ways.full`)."""
    from reelsmith.mechanics.ways.full import screen_distributions as walk

    return walk(model, rules, variant_id)


def free_distribution(model: GameModel, rules: Any, variant_id: str) -> Any:
    """The full cycle of the free spins' reel set alone (:mod:`reelsmith.mechanics.ways.full`):
    its ways win, with the wild weights a free spin draws, jointly with its count of the
    trigger symbol (a bought feature's per-spin law)."""
    from reelsmith.mechanics.ways.full import free_distribution as walk

    return walk(model, rules, variant_id)


def award_figures(model: GameModel, reel_set: ReelSet, pays: Any, distribution: Any) -> Any:
    """Each ways award's odds and return on one screen, from its full cycle."""
    from reelsmith.mechanics.ways.full import award_figures as figures

    return figures(model, reel_set, pays, distribution)
