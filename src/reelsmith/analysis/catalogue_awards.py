"""Per-award figures of a catalogue variant and the law of the free spins a trigger plays: what
a PAR sheet prints beyond the RTP and the standard deviation.

An award (a line award ``count x symbol`` or a scatter count) is shown on a base spin, on a
free spin, and in a *game* (a base spin or any free spin it leads to). The first two come from
the full-cycle enumerations (:class:`reelsmith.analysis.enumeration.ScreenDistribution`, which
counts the combinations showing each award on at least one payline, by the count of the
trigger symbol). The third needs the feature: a base spin that does not show the award but
triggers with ``k`` symbols starts a feature whose spins may show it.

* Without a cap, the feature is ``N0`` independent Galton-Watson trees (each spin's children
  are the spins it adds, :mod:`reelsmith.analysis.compound`): a tree shows the award with
  probability ``u`` (:func:`~reelsmith.analysis.compound.tree_show_probability`), so a feature
  started with ``N0`` spins shows it with probability ``1 - E[(1 - u)^N0]``.
* With a cap the trees are no longer independent; the feature is the Markov chain on (spins
  left, spins awarded) of :func:`reelsmith.analysis.catalogue_exact.capped_feature`, and the
  probability of showing the award from each state follows by the same single pass.

The spins one trigger plays, ``P(N = n)``, come from the hitting-time theorem without a cap
(:func:`~reelsmith.analysis.compound.spins_distribution`) and from a forward pass over the
same chain with one. These figures are in double precision; the RTP parts of each award are
exact fractions and add up to the variant's RTP.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from reelsmith.analysis.compound import spins_distribution, tree_show_probability
from reelsmith.analysis.enumeration import ScreenDistribution

#: GLI-11: every advertised award must be hit more often than once in 100 million games.
GLI_MIN_PROBABILITY = 1e-8

#: ``added(k, t)``: the spins a free spin showing ``k`` trigger symbols adds after ``t`` spins
#: were awarded (cut at the cap), by the live rule.
AddedSpins = Callable[[int, int], int]


@dataclass(frozen=True)
class AwardFigures:
    """One paytable award: how often it shows and what it returns (per unit of total bet)."""

    kind: str  # "line" or "scatter"
    symbol: str
    count: int
    pays: int  # line: coins per line coin; scatter: multiple of the total bet
    per_line: float | None  # base game, one payline
    per_base_spin: float  # on at least one payline (or on the screen), base spin
    per_free_spin: float
    per_game: float  # a whole game: the base spin or any of its free spins
    base_rtp: Fraction
    free_spins_rtp: Fraction

    @property
    def rtp(self) -> Fraction:
        return self.base_rtp + self.free_spins_rtp

    @property
    def below_gli_limit(self) -> bool:
        return self.per_game < GLI_MIN_PROBABILITY


@dataclass(frozen=True)
class FeatureLaw:
    """What the award and spin laws need of a variant's free spins.

    ``initial[k]``: the law of the spins a trigger with ``k`` symbols awards (cut at the cap);
    ``free_counts[k]``: P(a free spin shows ``k`` trigger symbols); ``max_spins`` 0: no cap.
    """

    initial: Mapping[int, Mapping[int, float]]
    trigger_weights: Mapping[int, float]  # P(K = k | the base spin triggers)
    free_counts: Sequence[float]
    added: AddedSpins
    max_spins: int


def _show_from_start(law: FeatureLaw, present: float, absent: Sequence[float]) -> dict[int, float]:
    """P(the feature shows the award) by its initial spins ``n0``; ``present`` is P(a free spin
    shows it), ``absent[k]`` P(a free spin shows ``k`` trigger symbols and not the award)."""
    starts = {n for by_k in law.initial.values() for n in by_k}
    if not law.max_spins:
        no_award: dict[int, float] = {}
        for k, q in enumerate(absent):
            if q > 0:
                e = law.added(k, 0)
                no_award[e] = no_award.get(e, 0.0) + q
        u = tree_show_probability(present, no_award)
        if u >= 1:
            return {n: 1.0 if n else 0.0 for n in starts}
        return {n: -math.expm1(n * math.log1p(-u)) for n in starts}
    cap = law.max_spins
    show: dict[tuple[int, int], float] = {}
    for t in range(cap, 0, -1):
        show[(0, t)] = 0.0
        for r in range(1, t + 1):
            value = present
            for k, q in enumerate(absent):
                if q > 0:
                    a = law.added(k, t)
                    value += q * show[(r - 1 + a, t + a)]
            show[(r, t)] = min(value, 1.0)
    return {n: show[(n, n)] if n else 0.0 for n in starts}


def per_game_probability(
    law: FeatureLaw | None,
    base_present: Sequence[int],
    base_ways: Sequence[int],
    base_cycle: int,
    free_present: Sequence[int],
    free_ways: Sequence[int],
    free_cycle: int,
    trigger: int,
) -> tuple[float, float, float]:
    """(per base spin, per free spin, per game) of an award shown on ``base_present[k]`` of the
    ``base_ways[k]`` base combinations with ``k`` trigger symbols (and likewise in the free
    spins)."""
    p_base = sum(base_present) / base_cycle
    if law is None:
        return p_base, 0.0, p_base
    p_free = sum(free_present) / free_cycle
    absent = [(w - p) / free_cycle for w, p in zip(free_ways, free_present, strict=True)]
    show = _show_from_start(law, p_free, absent)
    game = p_base
    for k in range(trigger, len(base_ways)):
        missing = (base_ways[k] - base_present[k]) / base_cycle
        if missing > 0 and k in law.initial:
            game += missing * math.fsum(p * show[n] for n, p in law.initial[k].items())
    return p_base, p_free, game


def _presence(distribution: ScreenDistribution) -> dict[tuple[int, int], list[int]]:
    """``{(symbol, count): ways by trigger count}`` of the line awards shown."""
    return {
        award: [int(x) for x in distribution.award_ways[index]]
        for index, award in enumerate(distribution.awards)
    }


def award_figures(
    *,
    symbol_ids: Sequence[str],
    line_pays: npt.NDArray[np.int64],
    scatter: int,
    scatter_pays: Sequence[int],
    free_scatter_pays: Sequence[int],
    base: ScreenDistribution,
    free: ScreenDistribution | None,
    base_line_probability: Callable[[int, int], Fraction],
    base_line_rtp: Callable[[int, int], Fraction],
    free_line_rtp: Callable[[int, int], Fraction],
    law: FeatureLaw | None,
    trigger: int,
    spins_per_round: Fraction,
) -> tuple[AwardFigures, ...]:
    """Every award of the paytable, line awards first (symbol then count), then the scatter's
    counts (the last printed count also pays any higher one)."""
    base_k = base.scatter_ways()
    free_k = free.scatter_ways() if free is not None else [0] * len(base_k)
    free_cycle = free.cycle if free is not None else 1
    base_awards = _presence(base)
    free_awards = _presence(free) if free is not None else {}
    zeros = [0] * len(free_k)
    out = []
    for symbol, count in sorted(set(base_awards) | set(free_awards)):
        base_present = base_awards.get((symbol, count), [0] * len(base_k))
        free_present = free_awards.get((symbol, count), zeros)
        p_base, p_free, game = per_game_probability(
            law, base_present, base_k, base.cycle, free_present, free_k, free_cycle, trigger
        )
        out.append(
            AwardFigures(
                kind="line",
                symbol=symbol_ids[symbol],
                count=count,
                pays=int(line_pays[symbol, count]),
                per_line=float(base_line_probability(symbol, count)),
                per_base_spin=p_base,
                per_free_spin=p_free,
                per_game=game,
                base_rtp=base_line_rtp(symbol, count),
                free_spins_rtp=spins_per_round * free_line_rtp(symbol, count)
                if free is not None
                else Fraction(0),
            )
        )
    if scatter < 0:
        return tuple(out)
    last = len(scatter_pays) - 1
    for count in range(1, last + 1):
        pay = int(scatter_pays[count])
        free_pay = int(free_scatter_pays[count]) if count < len(free_scatter_pays) else 0
        if pay == 0 and free_pay == 0:
            continue

        def shows(k: int, count: int = count) -> bool:
            return k == count or (count == last and k > last)

        base_present = [w if shows(k) and pay else 0 for k, w in enumerate(base_k)]
        free_present = [w if shows(k) and free_pay else 0 for k, w in enumerate(free_k)]
        p_base, p_free, game = per_game_probability(
            law, base_present, base_k, base.cycle, free_present, free_k, free_cycle, trigger
        )
        out.append(
            AwardFigures(
                kind="scatter",
                symbol=symbol_ids[scatter],
                count=count,
                pays=pay,
                per_line=None,
                per_base_spin=p_base,
                per_free_spin=p_free,
                per_game=game,
                base_rtp=pay * Fraction(sum(base_present), base.cycle),
                free_spins_rtp=spins_per_round * free_pay * Fraction(sum(free_present), free_cycle),
            )
        )
    return tuple(out)


def spins_per_trigger(law: FeatureLaw | None) -> npt.NDArray[np.float64]:
    """``P(N = n)``: the free spins one trigger plays, mixed over the triggering count
    (``[1.0]`` at ``n = 0`` when the base game cannot trigger)."""
    if law is None or not law.trigger_weights:
        return np.ones(1)
    if not law.max_spins:
        size = max(n for by_k in law.initial.values() for n in by_k) + 1
        initial = np.zeros(size)
        for k, weight in law.trigger_weights.items():
            for n, p in law.initial[k].items():
                initial[n] += weight * p
        added = np.zeros(1)
        for k, q in enumerate(law.free_counts):
            if q > 0:
                e = law.added(k, 0)
                if e >= len(added):
                    added = np.pad(added, (0, e + 1 - len(added)))
                added[e] += q
        return spins_distribution(initial, added)
    cap = law.max_spins
    mass = np.zeros((cap + 1, cap + 1))  # [spins left, spins awarded]
    for k, weight in law.trigger_weights.items():
        for n, p in law.initial[k].items():
            mass[n, n] += weight * p
    out = np.zeros(cap + 1)
    for t in range(cap + 1):
        for r in range(t, 0, -1):
            m = mass[r, t]
            if m == 0:
                continue
            for k, q in enumerate(law.free_counts):
                if q > 0:
                    a = law.added(k, t)
                    mass[r - 1 + a, t + a] += m * q
        out[t] = mass[0, t]
    return out


SPIN_BANDS = ((1, 10), (11, 20), (21, 30), (31, 50), (51, 100))


def spins_bands(distribution: npt.NDArray[np.float64]) -> list[tuple[str, float]]:
    """Probability that one trigger plays a number of free spins in each band."""
    out = [(f"{low}-{high}", float(distribution[low : high + 1].sum())) for low, high in SPIN_BANDS]
    # the rest, including any tail beyond the computed distribution
    out.append(("over 100", max(0.0, 1.0 - float(distribution[:101].sum()))))
    return out
