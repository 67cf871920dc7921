"""The exact law of a round of a lines game with a hold-and-spin feature.

A round is its base spin and the feature the base window may trigger. The base reel set's full
cycle is enumerated once (:func:`reelsmith.analysis.enumeration.enumerate_screens`, counting
the coin symbol on every reel), which gives, for every count ``k`` of coins the window shows,
the ways, the sum of line pays and the sum of their squares. The feature started by ``k`` coins
is independent of the base window given ``k`` (its values and respins are drawn afresh), so
with ``B`` the base spin's line pay and ``H_k`` the feature's pay (in total bets,
:func:`reelsmith.mechanics.hold_and_spin.chain.feature_moments`):

    E[W]   = E[B] + sum_{k >= trigger} P(K = k) E[H_k]
    E[W^2] = E[B^2] + sum_{k >= trigger} (2 E[B 1{K = k}] E[H_k] + P(K = k) E[H_k^2])

every term a fraction; figures per unit of total bet (one coin on every payline).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from typing import Any

import numpy as np

from reelsmith.analysis.enumeration import enumerate_screens
from reelsmith.analysis.report import (
    LabReport,
    Section,
    Sheet,
    TextBlock,
    one_in,
    pct,
    rows,
    strips_section,
)
from reelsmith.analysis.volatility import volatility_class
from reelsmith.engine.model import GameModel
from reelsmith.mechanics.hold_and_spin.chain import FeatureMoments, feature_moments, value_law
from reelsmith.mechanics.hold_and_spin.rules import HoldAndSpin, hold_and_spin_rules

METHOD = (
    "exact: every stop combination of the base reel set, by the coins it shows; the feature "
    "as an absorbing Markov chain over (coins held, respins left), each coin's value composed in"
)


@dataclass(frozen=True)
class BaseByCoins:
    """Sums over the base reel set's cycle for the windows showing ``k`` coins: their ways,
    line pays and squared line pays (coins at one coin on each payline)."""

    ways: int
    pays: int
    squares: int


@dataclass(frozen=True)
class HoldAndSpinAnalysis:
    """Every exact figure of a variant's round (per unit of total bet)."""

    model: GameModel
    variant_id: str
    rules: HoldAndSpin
    lines: int
    cycle: int
    by_coins: tuple[BaseByCoins, ...]
    features: dict[int, FeatureMoments]  # by the coins that started the feature
    no_win_ways: int  # windows paying nothing on lines and not triggering
    seconds: float
    max_line_pay: int = 0  # the largest line pay of a base window, in coins
    #: Windows triggering with no line pay, weighted by the chance their feature pays nothing
    #: (a grid of collectors and multipliers only; 0 without them).
    quiet_ways: Fraction = Fraction(0)

    @property
    def max_spin_win(self) -> Fraction:
        """The largest win of one base spin on its lines, per unit of total bet (the
        feature's win is the feature's, not a spin's)."""
        return Fraction(self.max_line_pay, self.lines)

    @property
    def total_bet(self) -> int:
        return self.lines

    def probability(self, k: int) -> Fraction:
        return Fraction(self.by_coins[k].ways, self.cycle)

    @property
    def line_rtp(self) -> Fraction:
        return Fraction(sum(b.pays for b in self.by_coins), self.cycle * self.lines)

    @property
    def trigger_probability(self) -> Fraction:
        return sum((self.probability(k) for k in self.features), Fraction(0))

    @property
    def feature_rtp(self) -> Fraction:
        return sum((self.probability(k) * f.mean for k, f in self.features.items()), Fraction(0))

    @property
    def rtp(self) -> Fraction:
        return self.line_rtp + self.feature_rtp

    # the figures a simulation is checked against, named as the simulation's report reads
    # them (its feature: the hold-and-spin, played in respins)
    feature_name = "hold-and-spin"
    feature_spins = "respins"
    scatter_rtp = Fraction(0)

    @property
    def free_spins_rtp(self) -> Fraction:
        return self.feature_rtp

    @property
    def expected_free_spins(self) -> Fraction:
        """The respins a triggered feature plays on average."""
        return self._given(
            sum((self.probability(k) * f.respins for k, f in self.features.items()), Fraction(0))
        )

    @property
    def second_moment(self) -> Fraction:
        unit = self.cycle * self.lines
        second = Fraction(sum(b.squares for b in self.by_coins), unit * self.lines)
        for k, f in self.features.items():
            second += 2 * Fraction(self.by_coins[k].pays, unit) * f.mean
            second += self.probability(k) * f.second
        return second

    @property
    def variance(self) -> Fraction:
        return self.second_moment - self.rtp * self.rtp

    @property
    def std_dev(self) -> float:
        return math.sqrt(self.variance)

    @property
    def hit_frequency(self) -> Fraction:
        """P(the round pays: a line win, or a feature that pays; every feature pays unless
        its coins are all collectors and multipliers)."""
        return 1 - (self.no_win_ways + self.quiet_ways) / self.cycle

    @property
    def volatility(self) -> str:
        return volatility_class(self.std_dev)

    def _given(self, value: Any) -> Fraction:
        trigger = self.trigger_probability
        return Fraction(0) if trigger == 0 else value / trigger

    @property
    def feature_mean(self) -> Fraction:
        """The feature's mean pay given it is triggered, in total bets."""
        return self._given(self.feature_rtp)

    @property
    def feature_std_dev(self) -> float:
        second = self._given(
            sum((self.probability(k) * f.second for k, f in self.features.items()), Fraction(0))
        )
        return math.sqrt(second - self.feature_mean**2)

    @property
    def mean_coins(self) -> Fraction:
        """The coins held at the feature's end, on average given it is triggered."""
        return self._given(
            sum((self.probability(k) * f.mean_coins for k, f in self.features.items()), Fraction(0))
        )

    @property
    def full_grid_probability(self) -> Fraction:
        """P(a round ends its feature with every cell holding a coin)."""
        return sum((self.probability(k) * f.full for k, f in self.features.items()), Fraction(0))

    def jackpot_rates(self) -> dict[str, Fraction]:
        """Each tier's expected wins per round (coins carrying it, and the full grid's)."""
        law = value_law(self.rules)
        coins = sum(
            (self.probability(k) * f.mean_coins for k, f in self.features.items()), Fraction(0)
        )
        rates = dict.fromkeys(self.rules.jackpots, Fraction(0))
        for value, p in zip(self.rules.values, law.probabilities, strict=True):
            if value.tier is not None:
                rates[value.tier] += coins * p
        if self.rules.full_grid is not None:
            rates[self.rules.full_grid] += self.full_grid_probability
        return rates

    def document(self) -> dict[str, Any]:
        return {
            "game": self.model.id,
            "variant": self.variant_id,
            "method": METHOD,
            "exact": True,
            "rtp": float(self.rtp),
            "line_rtp": float(self.line_rtp),
            "hold_and_spin_rtp": float(self.feature_rtp),
            "hold_and_spin_frequency": float(self.trigger_probability),
            "hold_and_spin_mean_x_bet": float(self.feature_mean),
            "hold_and_spin_std_dev_x_bet": self.feature_std_dev,
            "coins_held_at_end": float(self.mean_coins),
            "full_grid_frequency": float(self.full_grid_probability),
            "jackpots_per_round": {t: float(r) for t, r in self.jackpot_rates().items()},
            "hit_frequency": float(self.hit_frequency),
            "std_dev": self.std_dev,
            "volatility": self.volatility,
            "seconds": round(self.seconds, 3),
        }

    def _summary(self) -> list[tuple[str, str]]:
        found = [
            ("RTP", pct(self.rtp)),
            ("lines", pct(self.line_rtp)),
            ("hold-and-spin", pct(self.feature_rtp)),
            ("hold-and-spin frequency", one_in(float(self.trigger_probability))),
            ("hold-and-spin mean pay", f"{float(self.feature_mean):.4f} x bet"),
            ("hold-and-spin std dev", f"{self.feature_std_dev:.4f} x bet"),
            ("coins held at the end", f"{float(self.mean_coins):.4f}"),
            ("full grid", one_in(float(self.full_grid_probability))),
        ]
        found += [
            (f"jackpot {tier}", one_in(float(rate))) for tier, rate in self.jackpot_rates().items()
        ]
        found += [
            ("hit frequency", pct(self.hit_frequency)),
            ("standard deviation", f"{self.std_dev:.4f}"),
            ("volatility", self.volatility),
        ]
        return found

    def lab_report(self) -> LabReport:
        summary = rows(("figure", "value"), self._summary(), classes="text")
        text: tuple[TextBlock, ...] = (
            f"{self.model.name} variant {self.variant_id} - lines with hold-and-spin, exact",
            summary,
            f"Computed in {self.seconds:.2f} s ({METHOD}).",
        )
        return LabReport(self.document(), text, partial(self._sheet), self)

    def _sheet(self) -> Sheet:
        summary = rows(("figure", "value"), self._summary(), classes="text")
        return Sheet(
            title=f"{self.model.name} PAR sheet {self.variant_id}",
            heading=f"{self.model.name} - PAR sheet, variant {self.variant_id}",
            note=METHOD,
            sections=(
                Section("Summary", (summary,)),
                strips_section(self.model, self.variant_id),
            ),
            closing=f"Computed in {self.seconds:.2f} s.",
        )


def analyze_full(model: GameModel, variant_id: str | None = None) -> HoldAndSpinAnalysis:
    """Every exact figure of ``model``'s variant ``variant_id`` (see the module's account)."""
    started = time.perf_counter()
    rules = hold_and_spin_rules(model)
    variant = model.variant(variant_id)
    lines = model.line_count
    distribution = enumerate_screens(
        model,
        variant.reel_sets["base"],
        lines,
        counted=rules.symbol,
        counted_reels=np.ones(model.reels, dtype=np.bool_),
    )
    pays = np.arange(distribution.ways.shape[1])
    by_coins = []
    for k in range(distribution.ways.shape[0]):
        row = [int(w) for w in distribution.ways[k]]
        by_coins.append(
            BaseByCoins(
                sum(row),
                sum(int(p) * w for p, w in zip(pays, row, strict=True)),
                sum(int(p) ** 2 * w for p, w in zip(pays, row, strict=True)),
            )
        )
    features = {
        k: feature_moments(rules, k)
        for k in range(rules.trigger, len(by_coins))
        if by_coins[k].ways
    }
    no_win = sum(int(distribution.ways[k, 0]) for k in range(min(rules.trigger, len(by_coins))))
    quiet = sum(
        (int(distribution.ways[k, 0]) * f.nothing for k, f in features.items()), Fraction(0)
    )
    paid = np.flatnonzero(distribution.ways.sum(axis=0))
    return HoldAndSpinAnalysis(
        model=model,
        variant_id=variant.id,
        rules=rules,
        lines=lines,
        cycle=distribution.cycle,
        by_coins=tuple(by_coins),
        features=features,
        no_win_ways=no_win,
        seconds=time.perf_counter() - started,
        max_line_pay=int(paid[-1]) if len(paid) else 0,
        quiet_ways=quiet,
    )


def analyze_rtp(model: GameModel, variant_id: str | None = None) -> HoldAndSpinAnalysis:
    """The exact figures a simulation of the round is checked against: the whole round's
    (lines and hold-and-spin), from :func:`analyze_full`."""
    return analyze_full(model, variant_id)


def stored_figures(analysis: HoldAndSpinAnalysis) -> dict[str, float]:
    """The figures a variant file keeps beside its strips (10 decimal places)."""
    keys = ("rtp", "line_rtp", "hold_and_spin_rtp", "hold_and_spin_frequency", "hit_frequency")
    document = analysis.document()
    figures = {key: round(float(document[key]), 10) for key in keys}
    figures["std_dev"] = round(analysis.std_dev, 10)
    return figures
