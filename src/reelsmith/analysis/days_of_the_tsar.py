"""Exact return to player of Days of the Tsar, from its reel strips and reveal weights.

Per unit of total bet:

* line wins: every payline has the same award distribution, and both the stake and the pay
  scale with the coins per line, so the line RTP is the expected pay of one line per line coin;
* egg scatter: the distribution of eggs on the screen is the convolution of the per-reel
  distributions, each count paying ``pays[k]`` x the total bet;
* free spins: a trigger with ``k`` eggs awards the sum of ``k`` independent reveals, and every
  egg shown during a free spin adds a spin. The number of spins ``N`` is a stopping time of the
  i.i.d. free spins, so by Wald's identity ``E[N] = E[initial] / (1 - m)`` with ``m`` the
  expected eggs per free spin, and the expected free-spin win is ``E[N]`` x the expected win of
  one free spin;
* the gamble is fair (double at 1/2, quadruple at 1/4) and leaves the RTP unchanged.
"""

from __future__ import annotations

import math
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from reelsmith.analysis.compound import (
    Moments,
    SpinMoments,
    random_sum,
    reveal_miss_probability,
    spins_distribution,
    tree_moments,
    tree_show_probability,
    weighted_moments,
)
from reelsmith.analysis.enumeration import ScreenDistribution, enumerate_screens
from reelsmith.analysis.exact import (
    LineAnalysis,
    analyze_line,
    expected_symbols_shown,
    scatter_count_ways,
    symbol_counts,
)
from reelsmith.analysis.volatility import volatility_class
from reelsmith.engine.model import GameModel
from reelsmith.games.days_of_the_tsar.rules import tsar_rules


@dataclass(frozen=True)
class TsarFigures:
    base_lines: LineAnalysis
    free_lines: LineAnalysis
    base_scatter_ways: list[int]
    free_scatter_ways: list[int]
    base_cycle: int
    free_cycle: int
    reveal_mean: Fraction
    free_eggs_per_spin: Fraction
    line_rtp: Fraction
    scatter_rtp: Fraction
    free_spins_rtp: Fraction
    trigger_probability: Fraction
    expected_free_spins: Fraction

    @property
    def rtp(self) -> Fraction:
        return self.line_rtp + self.scatter_rtp + self.free_spins_rtp


def _scatter_value(ways: list[int], cycle: int, pays: list[int]) -> Fraction:
    return sum(
        (Fraction(w * pays[k], cycle) for k, w in enumerate(ways) if k < len(pays)), Fraction(0)
    )


def analyze(model: GameModel, variant_id: str | None = None) -> TsarFigures:
    variant = model.variant(variant_id)
    base = variant.reel_sets["base"]
    free = variant.reel_sets[tsar_rules(model).free_reel_set]
    reveal = variant.parameters["egg_reveal"]
    values, weights = reveal["values"], reveal["weights"]
    reveal_mean = Fraction(sum(v * w for v, w in zip(values, weights, strict=True)), sum(weights))
    trigger = tsar_rules(model).trigger_count
    extra = tsar_rules(model).extra_spins_per_egg
    pays = [int(p) for p in model.scatter_pays]

    base_lines = analyze_line(model, base)
    free_lines = analyze_line(model, free)
    base_ways = scatter_count_ways(model, base, model.scatter)
    free_ways = scatter_count_ways(model, free, model.scatter)

    scatter_rtp = _scatter_value(base_ways, base.cycle, pays)
    free_spin_value = free_lines.rtp + _scatter_value(free_ways, free.cycle, pays)
    eggs_per_free_spin = expected_symbols_shown(model, free, model.scatter) * extra
    if eggs_per_free_spin >= 1:
        raise ValueError("free spins would never end: expected eggs per free spin is >= 1")
    initial = sum(
        (
            Fraction(w * k, base.cycle) * reveal_mean
            for k, w in enumerate(base_ways)
            if k >= trigger
        ),
        Fraction(0),
    )
    trigger_probability = sum(
        (Fraction(w, base.cycle) for k, w in enumerate(base_ways) if k >= trigger), Fraction(0)
    )
    spins_per_game = initial / (1 - eggs_per_free_spin)
    return TsarFigures(
        base_lines=base_lines,
        free_lines=free_lines,
        base_scatter_ways=base_ways,
        free_scatter_ways=free_ways,
        base_cycle=base.cycle,
        free_cycle=free.cycle,
        reveal_mean=reveal_mean,
        free_eggs_per_spin=eggs_per_free_spin,
        line_rtp=base_lines.rtp,
        scatter_rtp=scatter_rtp,
        free_spins_rtp=spins_per_game * free_spin_value,
        trigger_probability=trigger_probability,
        expected_free_spins=spins_per_game / trigger_probability
        if trigger_probability
        else Fraction(0),
    )


def variant_figures(model: GameModel, variant_id: str | None = None) -> dict[str, float]:
    """The figures stored beside a variant's strips (rounded to 10 decimal places)."""
    return figures_from_analysis(analyze_full(model, variant_id))


# ---------------------------------------------------------------------------------------
# The complete exact analysis: distributions, hit frequency, volatility, awards (PAR sheet)
# ---------------------------------------------------------------------------------------

#: GLI-11: every advertised award must be hit more often than once in 100 million games.
GLI_MIN_PROBABILITY = 1e-8
#: Two-sided normal quantiles for the volatility index and the RTP confidence band.
Z_90 = 1.6448536269514722
Z_95 = 1.959963984540054


@dataclass(frozen=True)
class ScreenMoments:
    """Exact sums over a reel set's full cycle, per unit of total bet.

    ``by_scatter[k]`` = (ways, sum of wins, sum of squared wins) of the screens showing ``k``
    eggs, wins in coins at one coin per line on every payline.
    """

    cycle: int
    total_bet: int
    by_scatter: tuple[tuple[int, int, int], ...]
    max_win: int
    max_win_ways: int

    def probability(self, k: int) -> Fraction:
        return Fraction(self.by_scatter[k][0], self.cycle)

    def win_given(self, k: int) -> Fraction:
        """E[W 1{K = k}] per unit bet."""
        return Fraction(self.by_scatter[k][1], self.cycle * self.total_bet)

    @property
    def mean(self) -> Fraction:
        return Fraction(sum(s for _, s, _ in self.by_scatter), self.cycle * self.total_bet)

    @property
    def second(self) -> Fraction:
        return Fraction(
            sum(q for _, _, q in self.by_scatter), self.cycle * self.total_bet * self.total_bet
        )


def screen_moments(
    distribution: ScreenDistribution, scatter_pays: list[int], total_bet: int
) -> ScreenMoments:
    rows = []
    best, best_ways = 0, 0
    last = len(scatter_pays) - 1
    for k in range(distribution.ways.shape[0]):
        row = distribution.ways[k]
        scatter_win = scatter_pays[min(k, last)] * total_bet
        pays = np.flatnonzero(row)
        ways = [int(row[p]) for p in pays]
        wins = [int(p) + scatter_win for p in pays]
        rows.append(
            (
                sum(ways),
                sum(w * x for w, x in zip(ways, wins, strict=True)),
                sum(w * x * x for w, x in zip(ways, wins, strict=True)),
            )
        )
        if wins and wins[-1] >= best:
            best_ways = ways[-1] + (best_ways if wins[-1] == best else 0)
            best = wins[-1]
    return ScreenMoments(distribution.cycle, total_bet, tuple(rows), best, best_ways)


@dataclass(frozen=True)
class AwardFigures:
    """One paytable award: how often it shows and what it returns."""

    kind: str  # "line" or "scatter"
    symbol: str
    count: int
    pays: int  # line: coins per line coin; scatter: multiplier of the total bet
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
class TsarAnalysis:
    """The exact analysis of one variant: everything the PAR sheet and ``analyze`` show."""

    model: GameModel
    variant_id: str
    figures: TsarFigures
    base: ScreenDistribution
    free: ScreenDistribution
    base_moments: ScreenMoments
    free_moments: ScreenMoments
    spin: SpinMoments
    tree_win: Moments
    tree_spins: Moments
    reveal: Moments
    free_win_given: dict[int, Moments]  # per triggering egg count
    free_spins_given: dict[int, Moments]
    awards: tuple[AwardFigures, ...]
    spins_per_trigger: npt.NDArray[np.float64]  # P(N = n) per trigger
    reveal_values: tuple[int, ...]
    reveal_weights: tuple[int, ...]
    seconds: float

    @property
    def total_bet(self) -> int:
        return self.base_moments.total_bet

    @property
    def rtp(self) -> Fraction:
        return self.figures.rtp

    @property
    def second_moment(self) -> Fraction:
        """E[X^2] of the whole round X (base spin plus free spins) per unit bet."""
        second = self.base_moments.second
        for k, free in self.free_win_given.items():
            second += 2 * self.base_moments.win_given(k) * free.mean
            second += self.base_moments.probability(k) * free.second
        return second

    @property
    def variance(self) -> Fraction:
        return self.second_moment - self.rtp * self.rtp

    @property
    def std_dev(self) -> float:
        return math.sqrt(self.variance)

    @property
    def hit_frequency(self) -> Fraction:
        return 1 - self.base.probability_no_win(self.model.scatter_pays)

    @property
    def free_spins_frequency(self) -> Fraction:
        return self.figures.trigger_probability

    def volatility_index(self, z: float) -> float:
        return z * self.std_dev

    @property
    def volatility(self) -> str:
        return volatility_class(self.std_dev)

    def confidence_band(self, spins: int, z: float = Z_95) -> tuple[float, float]:
        half = z * self.std_dev / math.sqrt(spins)
        return float(self.rtp) - half, float(self.rtp) + half

    def to_json(self) -> dict[str, Any]:
        return analysis_document(self)


def _spin_moments(moments: ScreenMoments, extra: int) -> SpinMoments:
    win_added = sum(
        (Fraction(k * extra * s, moments.cycle * moments.total_bet))
        for k, (_, s, _) in enumerate(moments.by_scatter)
    )
    return SpinMoments(
        win=moments.mean,
        win_sq=moments.second,
        added=sum(
            (
                Fraction(k * extra * w, moments.cycle)
                for k, (w, _, _) in enumerate(moments.by_scatter)
            ),
            Fraction(0),
        ),
        added_sq=sum(
            (
                Fraction((k * extra) ** 2 * w, moments.cycle)
                for k, (w, _, _) in enumerate(moments.by_scatter)
            ),
            Fraction(0),
        ),
        win_added=Fraction(win_added),
    )


def _awards(
    model: GameModel,
    figures: TsarFigures,
    base: ScreenDistribution,
    free: ScreenDistribution,
    reveal_values: list[int],
    reveal_weights: list[int],
    trigger: int,
    extra: int,
    spins_per_game: Fraction,
) -> tuple[AwardFigures, ...]:
    base_k = base.scatter_ways()
    free_k = free.scatter_ways()
    last = len(model.scatter_pays) - 1

    def per_game(base_present: list[int], free_present: list[int]) -> tuple[float, float, float]:
        """Probabilities per base spin, per free spin and per game, from the combinations
        showing the award by egg count in each reel set."""
        p_base = sum(base_present) / base.cycle
        p_free = sum(free_present) / free.cycle
        no_award: dict[int, float] = {}
        for k, (ways, present) in enumerate(zip(free_k, free_present, strict=True)):
            if ways - present:
                no_award[k * extra] = no_award.get(k * extra, 0.0) + (ways - present) / free.cycle
        u = tree_show_probability(p_free, no_award)
        game = p_base
        for k in range(trigger, len(base_k)):
            absent = (base_k[k] - base_present[k]) / base.cycle
            if absent > 0:
                game += absent * reveal_miss_probability(u, reveal_values, reveal_weights, k)
        return p_base, p_free, game

    out = []
    for index, (symbol, count) in enumerate(base.awards):
        pay = int(model.line_pays[symbol, count])
        p_base, p_free, game = per_game(
            [int(x) for x in base.award_ways[index]], [int(x) for x in free.award_ways[index]]
        )
        base_line = figures.base_lines.probability(symbol, count)
        free_line = figures.free_lines.probability(symbol, count)
        out.append(
            AwardFigures(
                kind="line",
                symbol=model.symbol_id(symbol),
                count=count,
                pays=pay,
                per_line=float(base_line),
                per_base_spin=p_base,
                per_free_spin=p_free,
                per_game=game,
                base_rtp=pay * base_line,
                free_spins_rtp=spins_per_game * pay * free_line,
            )
        )
    # The scatter's paytable entries; the last one also pays any higher count.
    for count in range(1, last + 1):
        pay = int(model.scatter_pays[count])
        if pay == 0:
            continue

        def shows(k: int, count: int = count) -> bool:
            return k == count or (count == last and k > last)

        base_present = [w if shows(k) else 0 for k, w in enumerate(base_k)]
        free_present = [w if shows(k) else 0 for k, w in enumerate(free_k)]
        p_base, p_free, game = per_game(base_present, free_present)
        out.append(
            AwardFigures(
                kind="scatter",
                symbol=model.symbol_id(model.scatter),
                count=count,
                pays=pay,
                per_line=None,
                per_base_spin=p_base,
                per_free_spin=p_free,
                per_game=game,
                base_rtp=pay * Fraction(sum(base_present), base.cycle),
                free_spins_rtp=spins_per_game * pay * Fraction(sum(free_present), free.cycle),
            )
        )
    return tuple(out)


def _spins_per_trigger(
    base_moments: ScreenMoments,
    free_moments: ScreenMoments,
    figures: TsarFigures,
    reveal_values: list[int],
    reveal_weights: list[int],
    trigger: int,
    extra: int,
) -> npt.NDArray[np.float64]:
    """``P(N = n)`` for the free spins one trigger plays, mixed over the triggering egg count
    (empty when the base game cannot trigger)."""
    if figures.trigger_probability == 0:
        return np.zeros(1)
    reveal_total = sum(reveal_weights)
    reveal_dist = np.zeros(max(reveal_values) + 1)
    for v, w in zip(reveal_values, reveal_weights, strict=True):
        reveal_dist[v] += w / reveal_total
    initial = np.zeros(1)
    power = np.array([1.0])  # distribution of the sum of k reveals
    for k in range(1, len(base_moments.by_scatter)):
        power = np.convolve(power, reveal_dist)
        if k >= trigger:
            weight = float(base_moments.probability(k) / figures.trigger_probability)
            initial = np.pad(initial, (0, max(0, len(power) - len(initial))))
            initial[: len(power)] += weight * power
    added = np.zeros((len(free_moments.by_scatter) - 1) * extra + 1)
    for k, (w, _, _) in enumerate(free_moments.by_scatter):
        added[k * extra] += w / free_moments.cycle
    return spins_distribution(initial, added)


def analyze_full(model: GameModel, variant_id: str | None = None) -> TsarAnalysis:
    """Everything exact about a variant, from its strips and reveal weights alone."""
    started = time.perf_counter()
    variant = model.variant(variant_id)
    figures = analyze(model, variant.id)
    free_name = tsar_rules(model).free_reel_set
    trigger = tsar_rules(model).trigger_count
    extra = tsar_rules(model).extra_spins_per_egg
    reveal_values = [int(v) for v in variant.parameters["egg_reveal"]["values"]]
    reveal_weights = [int(w) for w in variant.parameters["egg_reveal"]["weights"]]
    lines = model.line_count
    pays = [int(p) for p in model.scatter_pays]

    # The two full cycles are independent and the kernel releases the GIL: run them together.
    with ThreadPoolExecutor(max_workers=2) as pool:
        base_job = pool.submit(enumerate_screens, model, variant.reel_sets["base"], lines)
        free_job = pool.submit(enumerate_screens, model, variant.reel_sets[free_name], lines)
        base, free = base_job.result(), free_job.result()
    base_moments = screen_moments(base, pays, lines)
    free_moments = screen_moments(free, pays, lines)
    spin = _spin_moments(free_moments, extra)
    tree_win, tree_spins = tree_moments(spin)
    reveal = weighted_moments(reveal_values, reveal_weights)

    free_win_given: dict[int, Moments] = {}
    free_spins_given: dict[int, Moments] = {}
    for k in range(trigger, len(base_moments.by_scatter)):
        initial = random_sum(Moments.constant(k), reveal)
        free_win_given[k] = random_sum(initial, tree_win)
        free_spins_given[k] = random_sum(initial, tree_spins)

    # Exactness checks between the two independent routes to the same figures.
    if Fraction(base.line_pay_sum(), lines * base.cycle) != figures.line_rtp:
        raise AssertionError("enumerated line pay disagrees with the per-line analysis")
    free_rtp = sum(
        (base_moments.probability(k) * m.mean for k, m in free_win_given.items()), Fraction(0)
    )
    if free_rtp != figures.free_spins_rtp:
        raise AssertionError("compound free-spin mean disagrees with Wald's identity")

    spins_per_game = sum(
        (base_moments.probability(k) * m.mean for k, m in free_spins_given.items()), Fraction(0)
    )
    awards = _awards(
        model, figures, base, free, reveal_values, reveal_weights, trigger, extra, spins_per_game
    )

    spins_per_trigger = _spins_per_trigger(
        base_moments, free_moments, figures, reveal_values, reveal_weights, trigger, extra
    )

    return TsarAnalysis(
        model=model,
        variant_id=variant.id,
        figures=figures,
        base=base,
        free=free,
        base_moments=base_moments,
        free_moments=free_moments,
        spin=spin,
        tree_win=tree_win,
        tree_spins=tree_spins,
        reveal=reveal,
        free_win_given=free_win_given,
        free_spins_given=free_spins_given,
        awards=awards,
        spins_per_trigger=spins_per_trigger,
        reveal_values=tuple(reveal_values),
        reveal_weights=tuple(reveal_weights),
        seconds=time.perf_counter() - started,
    )


#: Win bands (in multiples of the total bet) for the win distribution tables and plots.
WIN_BANDS: tuple[tuple[float, float], ...] = (
    (0, 0),
    (0, 1),
    (1, 2),
    (2, 5),
    (5, 10),
    (10, 20),
    (20, 50),
    (50, 100),
    (100, 500),
    (500, math.inf),
)


def band_label(low: float, high: float) -> str:
    if low == high == 0:
        return "no win"
    if math.isinf(high):
        return f"over {low:g}x"
    return f"over {low:g}x to {high:g}x"


def base_win_bands(analysis: TsarAnalysis) -> list[tuple[str, float]]:
    """Probability of the base spin's win in each band of :data:`WIN_BANDS` (exact)."""
    wins = analysis.base.screen_wins(analysis.model.scatter_pays, analysis.total_bet)
    bet = analysis.total_bet
    out = []
    for low, high in WIN_BANDS:
        ways = sum(
            w
            for win, w in wins.items()
            if (win == 0 if high == 0 else low * bet < win <= high * bet)
        )
        out.append((band_label(low, high), ways / analysis.base.cycle))
    return out


def _f(value: Fraction | float, digits: int = 10) -> float:
    return round(float(value), digits)


def analysis_document(a: TsarAnalysis) -> dict[str, Any]:
    """The exact analysis as data (``analyze --json``)."""
    model = a.model
    figures = a.figures
    symbol_ids = model.symbol_ids
    line_breakdown: dict[str, dict[str, float]] = {}
    free_line_breakdown: dict[str, dict[str, float]] = {}
    scatter_breakdown: dict[str, float] = {}
    free_scatter_breakdown: dict[str, float] = {}
    spins_per_game = sum(
        (a.base_moments.probability(k) * m.mean for k, m in a.free_spins_given.items()), Fraction(0)
    )
    for award in a.awards:
        if award.kind == "line":
            line_breakdown.setdefault(award.symbol, {})[str(award.count)] = _f(award.base_rtp)
            free_line_breakdown.setdefault(award.symbol, {})[str(award.count)] = _f(
                award.free_spins_rtp
            )
        else:
            scatter_breakdown[str(award.count)] = _f(award.base_rtp)
            free_scatter_breakdown[str(award.count)] = _f(award.free_spins_rtp)
    trigger_total = a.free_spins_frequency
    return {
        "game": model.id,
        "variant": a.variant_id,
        "bet": {"lines": model.line_count, "coins_per_line": 1, "total_coins": a.total_bet},
        "rtp": _f(a.rtp),
        "rtp_fraction": f"{a.rtp.numerator}/{a.rtp.denominator}",
        "rtp_breakdown": {
            "line_wins": _f(figures.line_rtp),
            "scatter": _f(figures.scatter_rtp),
            "free_spins": _f(figures.free_spins_rtp),
            "line_wins_by_award": line_breakdown,
            "scatter_by_count": scatter_breakdown,
            "free_spins_by_award": {
                "line_wins": free_line_breakdown,
                "scatter_by_count": free_scatter_breakdown,
            },
        },
        "hit_frequency": _f(a.hit_frequency),
        "free_spins_frequency": _f(a.free_spins_frequency),
        "free_spins_every": _f(1 / a.free_spins_frequency, 4) if a.free_spins_frequency else None,
        "std_dev": round(a.std_dev, 6),
        "variance": _f(a.variance, 6),
        "volatility_index": {
            "90": round(a.volatility_index(Z_90), 6),
            "95": round(a.volatility_index(Z_95), 6),
        },
        "volatility_class": a.volatility,
        "rtp_confidence_95": {
            str(n): [round(x, 6) for x in a.confidence_band(n)]
            for n in (10**3, 10**4, 10**5, 10**6, 10**7, 10**8)
        },
        "free_spins": {
            "expected_spins_per_trigger": _f(figures.expected_free_spins),
            "expected_spins_per_game": _f(spins_per_game),
            "eggs_per_free_spin": _f(figures.free_eggs_per_spin),
            "mean_win_per_free_spin": _f(a.spin.win),
            "mean_win_per_trigger": _f(figures.free_spins_rtp / trigger_total)
            if trigger_total
            else None,
            "egg_reveal": [
                {"spins": v, "weight": w, "probability": _f(Fraction(w, sum(a.reveal_weights)))}
                for v, w in zip(a.reveal_values, a.reveal_weights, strict=True)
            ],
            "by_trigger_eggs": {
                str(k): {
                    "probability_per_spin": _f(a.base_moments.probability(k), 12),
                    "expected_initial_spins": _f(k * a.reveal.mean),
                    "expected_spins": _f(a.free_spins_given[k].mean),
                    "expected_win": _f(a.free_win_given[k].mean),
                    "std_dev_win": round(math.sqrt(a.free_win_given[k].variance), 6),
                }
                for k in a.free_win_given
            },
            "spins_per_trigger_bands": [
                {"spins": label, "probability": round(p, 10)} for label, p in spins_bands(a)
            ],
        },
        "awards": [
            {
                "kind": w.kind,
                "symbol": w.symbol,
                "count": w.count,
                "pays": w.pays,
                "probability_per_line": w.per_line,
                "probability_per_base_spin": w.per_base_spin,
                "probability_per_free_spin": w.per_free_spin,
                "probability_per_game": w.per_game,
                "one_in_games": (1 / w.per_game) if w.per_game else None,
                "rtp": _f(w.rtp),
                "rtp_share": _f(w.rtp / a.rtp) if a.rtp else None,
                "rarer_than_1_in_100_million": w.below_gli_limit,
            }
            for w in a.awards
        ],
        "gli_11": {
            "limit": "every award at least once in 100,000,000 games",
            "awards_rarer": [f"{w.count} x {w.symbol}" for w in a.awards if w.below_gli_limit],
        },
        "max_win": {
            "base_spin_coins": a.base_moments.max_win,
            "base_spin_x_bet": a.base_moments.max_win / a.total_bet,
            "base_spin_probability": a.base_moments.max_win_ways / a.base.cycle,
            "free_spin_coins": a.free_moments.max_win,
            "free_spin_x_bet": a.free_moments.max_win / a.total_bet,
            "round": "unbounded: free spins retrigger without a cap",
        },
        "win_distribution_base_spin": [
            {"win_x_bet": label, "probability": round(p, 12)} for label, p in base_win_bands(a)
        ],
        "reels": {
            name: {
                "stops": [int(n) for n in rs.lengths],
                "cycle": rs.cycle,
                "symbol_counts": {
                    symbol_ids[s]: [int(c) for c in symbol_counts(model, rs)[:, s]]
                    for s in range(len(symbol_ids))
                },
            }
            for name, rs in model.variant(a.variant_id).reel_sets.items()
        },
        "method": {
            "rtp": "exact: line pays by enumerating every symbol tuple on a payline weighted by "
            "its stop combinations; scatter by convolving per-reel window tables; free spins "
            "by Wald's identity (exact fractions)",
            "hit_frequency": f"exact: full-cycle enumeration of all {a.base.cycle:,} base "
            "stop combinations",
            "std_dev": "exact: full-cycle enumeration of both reel sets, then the closed-form "
            "second moment of the retriggering free spins (compound sums, exact fractions)",
            "volatility_index": "exact: z x std_dev, z = 1.645 (90%) and 1.960 (95%)",
            "free_spins_frequency": "exact: egg count distribution from per-reel window tables",
            "award_probabilities": "exact enumeration for the base spin and each free spin; "
            "per game by the closed-form retrigger fixed point (double precision)",
            "spins_per_trigger": "closed form: hitting-time theorem (double precision)",
            "max_win": "exact: full-cycle enumeration (per screen); a round is unbounded",
            "round_win_distribution": "not given: free spins make it infinite; "
            "`reelsmith simulate` samples it",
            "simulated": [],
            "seconds": round(a.seconds, 3),
        },
    }


def spins_bands(a: TsarAnalysis) -> list[tuple[str, float]]:
    """Probability that one trigger plays a number of free spins in each band."""
    dist = a.spins_per_trigger
    edges = [(1, 10), (11, 20), (21, 30), (31, 50), (51, 100)]
    out = [(f"{low}-{high}", float(dist[low : high + 1].sum())) for low, high in edges]
    # the rest, including any tail beyond the computed distribution
    out.append(("over 100", max(0.0, 1.0 - float(dist[:101].sum()))))
    return out


# ---------------------------------------------------------------------------------------
# Math-lab entry points (see reelsmith.analysis.titles)
# ---------------------------------------------------------------------------------------


def analyze_title(model: GameModel, variant_id: str | None = None) -> Any:
    """``reelsmith analyze``: the exact analysis as a report (text, JSON, PAR sheet)."""
    from reelsmith.analysis.tsar_report import TsarAnalysisReport

    return TsarAnalysisReport(analyze_full(model, variant_id))


def simulate_title(
    game_id: str,
    spins: int,
    seed: int,
    *,
    variant_id: str | None = None,
    folder: Any = None,
    workers: int = 1,
    cluster: str | None = None,
    progress: Any = None,
) -> Any:
    """``reelsmith simulate``: a seeded simulation, with the exact figures beside it."""
    from reelsmith.analysis.tsar_report import TsarSimulationReport
    from reelsmith.analysis.tsar_simulation import _kernel_game, simulate

    result = simulate(
        game_id,
        spins,
        seed,
        variant_id=variant_id,
        folder=folder,
        workers=workers,
        cluster=cluster,
        progress=progress,
    )
    model = _kernel_game(game_id, None if folder is None else str(folder), result.variant).model
    full = analyze_full(model, result.variant)
    figures = full.figures
    exact = {
        "rtp": _f(figures.rtp),
        "hit_frequency": _f(full.hit_frequency),
        "std_dev": round(full.std_dev, 6),
        "line_wins": _f(figures.line_rtp),
        "scatter": _f(figures.scatter_rtp),
        "free_spins": _f(figures.free_spins_rtp),
        "free_spins_frequency": _f(figures.trigger_probability),
        "expected_free_spins_per_trigger": _f(figures.expected_free_spins),
    }
    return TsarSimulationReport(result, exact)


def figures_from_analysis(a: TsarAnalysis) -> dict[str, float]:
    """The figures stored beside a variant's strips (rounded to 10 decimal places)."""
    f = a.figures
    values: dict[str, Fraction | float] = {
        "rtp": f.rtp,
        "line_rtp": f.line_rtp,
        "scatter_rtp": f.scatter_rtp,
        "free_spins_rtp": f.free_spins_rtp,
        "free_spins_frequency": f.trigger_probability,
        "expected_free_spins_per_trigger": f.expected_free_spins,
        "free_spin_eggs_per_spin": f.free_eggs_per_spin,
        "hit_frequency": a.hit_frequency,
        "std_dev": a.std_dev,
    }
    return {key: round(float(value), 10) for key, value in values.items()}


def tune_title(
    model: GameModel,
    folder: Any,
    target_percent: Any,
    *,
    volatility: str | None = None,
    base_variant: str | None = None,
    progress: Any = None,
) -> Any:
    """``reelsmith tune``: a new variant file for a target RTP (and volatility class)."""
    from reelsmith.analysis.tsar_tuning import tune

    return tune(
        model,
        folder,
        target_percent,
        volatility=volatility,
        base_variant=base_variant,
        progress=progress,
    )
