"""The hold-and-spin's one rule of a respin, and the exact law of the feature it gives.

:func:`respin_step` is the transition, written once and compiled: live play (through
:func:`after_respin`) calls it after each respin with the coins that respin landed, the
simulation kernel calls it in its round loop, and the exact chain calls it for every count a
respin can land. A respin that lands a coin resets the respins to the full count; one that
lands none uses one up; the feature is over when no respin is left or every cell holds a coin
(:func:`feature_over`, through :func:`is_over`).

The pay, written once and compiled: :func:`add_coin` takes each coin of the grid into the
grid's tally (the sum ``S`` of its plain values, the jackpots ``J`` of its tier coins, its
collectors ``C``, its multiplier ``M`` and the multiplier coins counted), and
:func:`grid_pay` pays the tally when the feature ends: ``(1 + C) M S + J + G``, with ``G`` the
full-grid tier on a full grid (jackpots are neither collected nor multiplied). Live play
(through :func:`pay_of`) and the kernel call both.

The exact law. Each empty cell lands a coin independently with probability ``p = coin /
(coin + blank)``, so from ``k`` coins held the coins one respin lands are Binomial(cells - k,
p), and the state (coins held, respins left) is an absorbing Markov chain: coins never leave,
so the states are visited in the order of ``k`` and the chain is solved by carrying its
probability forward (:func:`final_count_law`), in fractions. Every coin's entry of the value
table is drawn independently, independently of how many coins there are. With ``K`` the coins
held at the end, given ``K = n`` the counts of the four kinds, ``a`` plain coins, ``b``
collectors, ``c`` multiplier coins and ``d`` jackpot coins (``a + b + c + d = n``), are
multinomial with the kinds' probabilities ``pi_P, pi_C, pi_M, pi_J``, and given the counts the
plain values, the factors and the jackpots are independent draws from their kinds' tables
(moments ``mu_P, s_P``, ``mu_F, s_F`` and ``mu_J, s_J``: mean and second moment given the kind).
So given the counts

    E[S]   = a mu_P                       E[S^2] = a s_P + a (a - 1) mu_P^2
    E[J]   = d mu_J                       E[J^2] = d s_J + d (d - 1) mu_J^2
    E[M]   = mu_F^c                       E[M^2] = s_F^c                     ("product")
    E[M]   = c mu_F (1 if c = 0)          E[M^2] = c s_F + c (c - 1) mu_F^2  ("sum"; 1 if c = 0)

and with ``A = (1 + b) M S`` (``E[A] = (1 + b) E[M] E[S]``, ``E[A^2] = (1 + b)^2 E[M^2]
E[S^2]``, S and M independent) and ``f = 1{n = cells}``:

    E[H | counts]   = E[A] + E[J] + G f
    E[H^2 | counts] = E[A^2] + E[J^2] + G^2 f + 2 E[A] E[J] + 2 G f (E[A] + E[J])

    E[H^r] = sum_n P(K = n) sum_{a+b+c+d=n} n! / (a! b! c! d!) pi_P^a pi_C^b pi_M^c pi_J^d
             E[H^r | counts]

(:func:`feature_moments`), every figure in total bets and a fraction. Without collectors and
multipliers this is the compound sum's ``E[H] = E[K] E[X] + G P(K = cells)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb, factorial

from numba import njit

from reelsmith.mechanics.hold_and_spin.rules import (
    KIND_COLLECT,
    KIND_JACKPOT,
    KIND_MULTIPLIER,
    KIND_PLAIN,
    CoinValue,
    HoldAndSpin,
)


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


@njit(cache=True, nogil=True)
def add_coin(
    multiply_sum: bool,
    kind: int,
    amount: int,
    plain: int,
    fixed: int,
    collectors: int,
    multiplier: int,
    factors: int,
) -> tuple[int, int, int, int, int]:
    """The grid's tally (plain values, jackpots, collectors, multiplier, multiplier coins) with
    one more coin of ``kind`` carrying ``amount`` (a multiplier coin's: its factor). A tally
    starts at (0, 0, 0, 1, 0); the multiplier coins' factors multiply, or with
    ``multiply_sum`` add up (the first one replacing the 1 of a grid without any)."""
    if kind == KIND_PLAIN:
        plain += amount
    elif kind == KIND_JACKPOT:
        fixed += amount
    elif kind == KIND_COLLECT:
        collectors += 1
    elif kind == KIND_MULTIPLIER:
        if multiply_sum:
            multiplier = amount if factors == 0 else multiplier + amount
        else:
            multiplier *= amount
        factors += 1
    return plain, fixed, collectors, multiplier, factors


@njit(cache=True, nogil=True)
def grid_pay(plain: int, fixed: int, collectors: int, multiplier: int, full_grid: int) -> int:
    """What the grid pays when the feature ends, in total bets: the plain values times the
    multiplier, once and once more for each collector, plus the jackpots and ``full_grid``
    (the full-grid tier, 0 unless the grid is full), which are neither collected nor
    multiplied."""
    return (1 + collectors) * multiplier * plain + fixed + full_grid


@dataclass(frozen=True)
class GridPay:
    """A finished grid's pay, in total bets, and what made it."""

    total: int
    plain: int  # the plain values' sum
    collectors: int
    multiplier: int  # the grid's multiplier (1: none)

    @property
    def collected(self) -> int:
        """What each collector collected: the plain values times the multiplier."""
        return self.plain * self.multiplier


def pay_of(rules: HoldAndSpin, coins: list[CoinValue], full: bool) -> GridPay:
    """The pay of a grid holding ``coins`` (``full``: every cell holds one) by the compiled
    rule, as the kernel pays it."""
    plain, fixed, collectors, multiplier, factors = 0, 0, 0, 1, 0
    for coin in coins:
        plain, fixed, collectors, multiplier, factors = add_coin(
            rules.multiply_sum,
            coin.kind,
            coin.rule_amount,
            plain,
            fixed,
            collectors,
            multiplier,
            factors,
        )
    grid = rules.full_grid_amount if full else 0
    total = grid_pay(plain, fixed, collectors, multiplier, grid)
    return GridPay(int(total), int(plain), int(collectors), int(multiplier))


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
    #: P(the feature pays nothing): every coin a collector or a multiplier, on a grid whose
    #: fill wins no tier (0 without collectors and multipliers: every other coin pays).
    nothing: Fraction = Fraction(0)

    @property
    def mean_coins(self) -> Fraction:
        return sum((n * p for n, p in self.final.items()), Fraction(0))

    @property
    def variance(self) -> Fraction:
        return self.second - self.mean * self.mean


@dataclass(frozen=True)
class KindLaw:
    """One kind of coin: the probability a coin is of it, and the mean and second moment of
    what it carries given it is (a value, a jackpot, a factor; 0 for a collector)."""

    probability: Fraction
    mean: Fraction
    second: Fraction


def kind_laws(rules: HoldAndSpin) -> dict[int, KindLaw]:
    """Each kind's law (``KIND_*``) from the value table's weights."""
    total = sum(v.weight for v in rules.values)
    laws = {}
    for kind in (KIND_PLAIN, KIND_JACKPOT, KIND_COLLECT, KIND_MULTIPLIER):
        found = [v for v in rules.values if v.kind == kind and v.weight]
        weight = sum(v.weight for v in found)
        if not weight:
            laws[kind] = KindLaw(Fraction(0), Fraction(0), Fraction(0))
            continue
        mean = Fraction(sum(v.weight * v.rule_amount for v in found), weight)
        second = Fraction(sum(v.weight * v.rule_amount**2 for v in found), weight)
        laws[kind] = KindLaw(Fraction(weight, total), mean, second)
    return laws


def _sum_moments(count: int, mean: Fraction, second: Fraction) -> tuple[Fraction, Fraction]:
    """E and E[.^2] of a sum of ``count`` independent draws of that mean and second moment."""
    return count * mean, count * second + count * (count - 1) * mean * mean


def grid_moments(rules: HoldAndSpin, n: int) -> tuple[Fraction, Fraction]:
    """E[H | K = n] and E[H^2 | K = n]: the grid's pay given it holds ``n`` coins, by the
    multinomial counts of the coins' kinds (see the module's account)."""
    laws = kind_laws(rules)
    plain, tier = laws[KIND_PLAIN], laws[KIND_JACKPOT]
    collect, multiplier = laws[KIND_COLLECT], laws[KIND_MULTIPLIER]
    g = rules.full_grid_amount if n == rules.cells else 0

    def upto(law: KindLaw, most: int) -> range:
        return range(most + 1) if law.probability else range(1)

    first = second = Fraction(0)
    for c in upto(multiplier, n):
        if rules.multiply_sum:
            m1, m2 = _sum_moments(c, multiplier.mean, multiplier.second) if c else (1, 1)
        else:
            m1, m2 = multiplier.mean**c, multiplier.second**c
        for b in upto(collect, n - c):
            for a in upto(plain, n - c - b):
                d = n - c - b - a
                if d and not tier.probability:
                    continue
                chance = (
                    Fraction(
                        factorial(n), factorial(a) * factorial(b) * factorial(c) * factorial(d)
                    )
                    * plain.probability**a
                    * collect.probability**b
                    * multiplier.probability**c
                    * tier.probability**d
                )
                s1, s2 = _sum_moments(a, plain.mean, plain.second)
                j1, j2 = _sum_moments(d, tier.mean, tier.second)
                a1 = (1 + b) * m1 * s1
                a2 = (1 + b) ** 2 * m2 * s2
                first += chance * (a1 + j1 + g)
                second += chance * (a2 + j2 + g * g + 2 * a1 * j1 + 2 * g * (a1 + j1))
    return first, second


def feature_moments(rules: HoldAndSpin, start: int) -> FeatureMoments:
    """The feature's pay started with ``start`` coins (see the module's account)."""
    final, respins = _absorbed(rules, start)
    full = final.get(rules.cells, Fraction(0))
    laws = kind_laws(rules)
    idle = laws[KIND_COLLECT].probability + laws[KIND_MULTIPLIER].probability
    mean = second = nothing = Fraction(0)
    for n, chance in final.items():
        first, squared = grid_moments(rules, n)
        mean += chance * first
        second += chance * squared
        if n < rules.cells or not rules.full_grid_amount:
            nothing += chance * idle**n
    return FeatureMoments(start, final, full, mean, second, respins, nothing)
