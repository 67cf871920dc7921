"""The hold-and-spin's one rule of a respin, and the exact law of the feature it gives.

:func:`respin_step` is the transition, written once and compiled: live play (through
:func:`after_respin`) calls it after each respin with the coins that respin landed, the
simulation kernel calls it in its round loop, and the exact chain calls it for every count a
respin can land. A respin that lands a coin resets the respins to the full count; one that
lands none uses one up; the feature is over when no respin is left or every cell holds a coin
(:func:`feature_over`, through :func:`is_over`).

The exact law. Each empty cell lands a coin independently with probability ``p = coin /
(coin + blank)``, so from ``k`` coins held the coins one respin lands are Binomial(cells - k,
p), and the state (coins held, respins left) is an absorbing Markov chain: coins never leave,
so the states are visited in the order of ``k`` and the chain is solved by carrying its
probability forward (:func:`final_count_law`), in fractions. Every coin's value is drawn
independently from the value table, independently of how many coins there are: with ``K`` the
coins held at the end, ``X`` one coin's value and ``G`` the full-grid tier, the feature pays
``H = X_1 + ... + X_K + G 1{K = cells}``, so

    E[H]   = E[K] E[X] + G P(K = cells)
    E[H^2] = E[K] Var X + E[K^2] E[X]^2 + 2 G E[X] cells P(K = cells) + G^2 P(K = cells)

(:func:`feature_moments`), every figure in total bets.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb

from numba import njit

from reelsmith.mechanics.hold_and_spin.rules import HoldAndSpin


@njit(cache=True, nogil=True)
def respin_step(full: int, held: int, left: int, landed: int) -> tuple[int, int]:
    """The state after a respin that landed ``landed`` coins, from ``held`` coins and ``left``
    respins before it (``full``: the respins' full count): a new coin resets the respins to
    the full count, none uses one up."""
    if landed > 0:
        return held + landed, full
    return held, left - 1


@njit(cache=True, nogil=True)
def feature_over(cells: int, held: int, left: int) -> bool:
    """Whether the feature ends: no respin left, or every one of the ``cells`` holds a coin."""
    return left <= 0 or held >= cells


def after_respin(rules: HoldAndSpin, held: int, left: int, landed: int) -> tuple[int, int]:
    """:func:`respin_step` under ``rules``."""
    new_held, new_left = respin_step(rules.respins, held, left, landed)
    return int(new_held), int(new_left)


def is_over(rules: HoldAndSpin, held: int, left: int) -> bool:
    """:func:`feature_over` under ``rules``."""
    return bool(feature_over(rules.cells, held, left))


def land_probability(rules: HoldAndSpin) -> Fraction:
    return Fraction(rules.coin_weight, rules.coin_weight + rules.blank_weight)


def final_count_law(rules: HoldAndSpin, start: int) -> dict[int, Fraction]:
    """``P(K = n)``: the law of the coins held when the feature ends, started with ``start``
    coins and the full count of respins (the absorbing chain over (coins held, respins
    left), solved forward in the order of the coins held)."""
    return _absorbed(rules, start)[0]


def expected_respins(rules: HoldAndSpin, start: int) -> Fraction:
    """The respins the feature plays on average, started with ``start`` coins: the chance of
    reaching each state from which a respin is played, summed over those states."""
    return _absorbed(rules, start)[1]


def _absorbed(rules: HoldAndSpin, start: int) -> tuple[dict[int, Fraction], Fraction]:
    """The final count's law and the expected respins, in one forward pass of the chain."""
    cells, full = rules.cells, rules.respins
    p = land_probability(rules)
    q = 1 - p
    mass: dict[tuple[int, int], Fraction] = {(start, full): Fraction(1)}
    final: dict[int, Fraction] = {}
    respins = Fraction(0)
    for held in range(start, cells + 1):
        for left in range(full, -1, -1):
            weight = mass.pop((held, left), None)
            if weight is None or weight == 0:
                continue
            if is_over(rules, held, left):
                final[held] = final.get(held, Fraction(0)) + weight
                continue
            respins += weight
            empty = cells - held
            for landed in range(empty + 1):
                chance = comb(empty, landed) * p**landed * q ** (empty - landed)
                if chance == 0:
                    continue
                state = after_respin(rules, held, left, landed)
                mass[state] = mass.get(state, Fraction(0)) + weight * chance
    if mass:  # pragma: no cover - a state the forward order did not reach
        raise AssertionError(f"the hold-and-spin chain left states unsolved: {sorted(mass)}")
    return final, respins


@dataclass(frozen=True)
class ValueLaw:
    """One coin's value in total bets: its mean and second moment, and each entry's
    probability (the jackpot tiers' among them)."""

    mean: Fraction
    second: Fraction
    probabilities: tuple[Fraction, ...]

    @property
    def variance(self) -> Fraction:
        return self.second - self.mean * self.mean


def value_law(rules: HoldAndSpin) -> ValueLaw:
    total = sum(v.weight for v in rules.values)
    probabilities = tuple(Fraction(v.weight, total) for v in rules.values)
    pairs = list(zip(probabilities, rules.values, strict=True))
    mean = sum((p * v.amount for p, v in pairs), Fraction(0))
    second = sum((p * v.amount**2 for p, v in pairs), Fraction(0))
    return ValueLaw(mean, second, probabilities)


@dataclass(frozen=True)
class FeatureMoments:
    """The feature started with ``start`` coins: the law of its final count, the mean and
    second moment of its pay, in total bets, and the respins it plays on average."""

    start: int
    final: dict[int, Fraction]
    full: Fraction  # P(every cell holds a coin at the end)
    mean: Fraction
    second: Fraction
    respins: Fraction  # the respins played, on average

    @property
    def mean_coins(self) -> Fraction:
        return sum((n * p for n, p in self.final.items()), Fraction(0))

    @property
    def variance(self) -> Fraction:
        return self.second - self.mean * self.mean


def feature_moments(rules: HoldAndSpin, start: int) -> FeatureMoments:
    """The feature's pay started with ``start`` coins (see the module's account)."""
    final, respins = _absorbed(rules, start)
    x = value_law(rules)
    g = rules.full_grid_amount
    full = final.get(rules.cells, Fraction(0))
    count = sum((n * p for n, p in final.items()), Fraction(0))
    count_sq = sum((n * n * p for n, p in final.items()), Fraction(0))
    mean = count * x.mean + g * full
    second = (
        count * x.variance
        + count_sq * x.mean * x.mean
        + 2 * g * x.mean * rules.cells * full
        + g * g * full
    )
    return FeatureMoments(start, final, full, mean, second, respins)
