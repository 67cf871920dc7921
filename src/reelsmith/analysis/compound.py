"""Exact moments and distributions of a free-spin feature whose spins add spins (retriggers).

The model
---------
A feature starts with ``N0`` spins. Each spin ``i`` is an independent draw of the same reel set
and yields a win ``W_i`` and a number of added spins ``A_i`` (by the retrigger rule, from the
trigger symbols it shows); ``W_i`` and ``A_i`` come from the same screen and are dependent, but
the pairs ``(W_i, A_i)`` are i.i.d.
The feature ends when no spin remains, after ``N`` spins: ``N = N0 + A_1 + ... + A_N``. Its
total win is ``F = W_1 + ... + W_N``.

Derivation (branching form of Wald's identities)
------------------------------------------------
Think of every spin as a node whose children are the spins it adds. The spins played form
``N0`` independent Galton-Watson trees, one per initial spin, with offspring ``A``; the order
in which the queue plays them does not change which spins are played, so ``N`` is the total
progeny and ``F`` the sum of ``W`` over all nodes. Let ``T`` be the total win of one tree. Its
root contributes ``W`` and each of its ``A`` children starts an independent copy of ``T``::

    T = W + T_1 + ... + T_A        (T_j i.i.d. copies of T, independent of (W, A))

With ``m = E[A] < 1`` (otherwise the feature need not end), taking expectations (Wald's first
identity for the random sum over ``A`` children)::

    E[T] = E[W] + m E[T]                    =>  E[T] = E[W] / (1 - m)

Squaring, with ``S = T_1 + ... + T_A``: ``E[S | A] = A E[T]``,
``E[S^2 | A] = A Var(T) + A^2 E[T]^2`` (Wald's second identity for a sum of a random number of
i.i.d. terms) and
``E[W S] = E[W A] E[T]``, so::

    E[T^2] = E[W^2] + 2 E[T] E[W A] + m Var(T) + E[A^2] E[T]^2
    E[T^2] (1 - m) = E[W^2] + 2 E[T] E[W A] + E[T]^2 (E[A^2] - m)

which is closed and exact in rationals. The number of spins of one tree is the case ``W = 1``.
A feature started with ``N0`` spins is the sum of ``N0`` i.i.d. trees, and ``N0`` given ``k``
triggering symbols is the sum of ``k`` i.i.d. reveals ``V``; both are again random sums::

    E[sum of M i.i.d. Y] = E[M] E[Y]
    E[(sum of M i.i.d. Y)^2] = E[M] Var(Y) + E[M^2] E[Y]^2

The distribution of ``N`` itself follows from the hitting-time theorem for skip-free walks
(Otter-Dwass / Kemperman): the walk ``N0 + sum (A_i - 1)`` steps down by at most one, so
``P(N = n | N0 = n0) = (n0 / n) P(A_1 + ... + A_n = n - n0)``.

The probability that a given award never shows during the feature uses the same tree: with
``q_e = P(award not on a spin, A = e)``, the probability ``h`` that a tree never shows it solves
``h = sum_e q_e h^e`` (smallest root in [0, 1]), and a feature of ``N0`` initial spins misses
it with probability ``E[h^N0]``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt

#: Longest feature whose probability :func:`spins_distribution` computes.
MAX_SPINS = 5_000


@dataclass(frozen=True)
class Moments:
    """First and second moment of a random quantity (exact fractions)."""

    mean: Fraction
    second: Fraction

    @property
    def variance(self) -> Fraction:
        return self.second - self.mean * self.mean

    @classmethod
    def constant(cls, value: int | Fraction) -> Moments:
        v = Fraction(value)
        return cls(v, v * v)


@dataclass(frozen=True)
class SpinMoments:
    """Moments of one feature spin: its win ``W`` and the spins it adds ``A``."""

    win: Fraction  # E[W]
    win_sq: Fraction  # E[W^2]
    added: Fraction  # E[A]
    added_sq: Fraction  # E[A^2]
    win_added: Fraction  # E[W A]


def random_sum(count: Moments, term: Moments) -> Moments:
    """Moments of ``Y_1 + ... + Y_M`` with ``M`` independent of the i.i.d. terms ``Y``."""
    return Moments(
        count.mean * term.mean,
        count.mean * term.variance + count.second * term.mean * term.mean,
    )


def tree_moments(spin: SpinMoments) -> tuple[Moments, Moments]:
    """``(win, spins)`` moments of the spins descending from one spin (itself included)."""
    m = spin.added
    if m >= 1:
        raise ValueError(f"spins add {float(m):.4f} spins each on average: the feature never ends")

    def solve(w: Fraction, w_sq: Fraction, w_a: Fraction) -> Moments:
        mean = w / (1 - m)
        second = (w_sq + 2 * mean * w_a + mean * mean * (spin.added_sq - m)) / (1 - m)
        return Moments(mean, second)

    win = solve(spin.win, spin.win_sq, spin.win_added)
    spins = solve(Fraction(1), Fraction(1), spin.added)
    return win, spins


def weighted_moments(values: Sequence[int], weights: Sequence[int]) -> Moments:
    """Moments of a value drawn with integer weights (a reveal table)."""
    total = sum(weights)
    return Moments(
        Fraction(sum(v * w for v, w in zip(values, weights, strict=True)), total),
        Fraction(sum(v * v * w for v, w in zip(values, weights, strict=True)), total),
    )


def tree_show_probability(present: float, no_award: Mapping[int, float]) -> float:
    """``u = 1 - h``: the probability that one spin or any spin it adds shows an award.

    ``present`` is the probability that a spin shows it, ``no_award[e]`` that a spin does not
    show it and adds ``e`` spins. ``h = sum_e q_e h^e`` is solved on ``u`` so that rare awards
    keep their relative precision: ``u = present + sum_e q_e (1 - (1 - u)^e)``. Starting from
    ``u = 1`` the iteration falls monotonically to the fixed point that belongs to ``h``'s
    smallest root; it stops when ``u`` no longer moves.
    """
    u = 1.0
    for _ in range(1_000_000):
        following = present + math.fsum(
            q * -math.expm1(e * math.log1p(-u)) if u < 1 else q * (e > 0)
            for e, q in no_award.items()
        )
        if following >= u:
            break
        u = following
    return u


def reveal_miss_probability(
    u: float, values: Sequence[int], weights: Sequence[int], k: int
) -> float:
    """``1 - E[h^N0]`` for ``N0`` the sum of ``k`` reveals and ``h = 1 - u``: the probability that
    a feature started by ``k`` triggering symbols shows the award at least once."""
    total = sum(weights)
    # g = 1 - E[h^V] = sum_v p_v (1 - (1 - u)^v)
    g = (
        math.fsum(
            w / total * -math.expm1(v * math.log1p(-u))
            for v, w in zip(values, weights, strict=True)
        )
        if u < 1
        else 1.0
    )
    if g >= 1:
        return 1.0
    return -math.expm1(k * math.log1p(-g))


def spins_distribution(
    initial: npt.NDArray[np.float64], added: npt.NDArray[np.float64], tail: float = 1e-13
) -> npt.NDArray[np.float64]:
    """``P(N = n)`` for the total spins ``N`` of a feature whose initial spins have the
    distribution ``initial[n0]`` and each spin adds ``e`` spins with probability ``added[e]``
    (hitting-time theorem). Computed up to the ``n`` where less than ``tail`` remains, and
    at most to ``MAX_SPINS`` (a feature that long is beyond any table we print)."""
    if added.sum() <= 0 or float((np.arange(len(added)) * added).sum()) >= 1:
        raise ValueError("spins must add fewer than one spin each on average")
    out = [0.0]
    power = np.array([1.0])  # distribution of A_1 + ... + A_n
    n = 0
    covered = float(initial[0]) if len(initial) else 0.0
    while covered < 1 - tail and n < MAX_SPINS:
        n += 1
        power = np.convolve(power, added)
        p = 0.0
        for n0 in range(1, min(n, len(initial) - 1) + 1):
            if initial[n0] > 0 and n - n0 < len(power):
                p += initial[n0] * n0 / n * power[n - n0]
        out.append(p)
        covered += p
    return np.array(out)
