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

from dataclasses import dataclass
from fractions import Fraction

from reelsmith.analysis.exact import (
    LineAnalysis,
    analyze_line,
    expected_symbols_shown,
    scatter_count_ways,
)
from reelsmith.engine.model import GameModel


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
    free = variant.reel_sets[model.features["free_spins"]["reel_set"]]
    reveal = variant.parameters["egg_reveal"]
    values, weights = reveal["values"], reveal["weights"]
    reveal_mean = Fraction(sum(v * w for v, w in zip(values, weights, strict=True)), sum(weights))
    trigger = int(model.features["free_spins"]["trigger_count"])
    extra = int(model.features["free_spins"]["extra_spins_per_egg"])
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
    figures = analyze(model, variant_id)
    values = {
        "rtp": figures.rtp,
        "line_rtp": figures.line_rtp,
        "scatter_rtp": figures.scatter_rtp,
        "free_spins_rtp": figures.free_spins_rtp,
        "free_spins_frequency": figures.trigger_probability,
        "expected_free_spins_per_trigger": figures.expected_free_spins,
        "free_spin_eggs_per_spin": figures.free_eggs_per_spin,
    }
    return {key: round(float(value), 10) for key, value in values.items()}
