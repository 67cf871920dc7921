"""Each mode's exact figures, per unit of what the mode costs (its price x the bet).

An ante is the base game on its own reel set: its figures are the full analysis of the model
whose base reel set is the ante's (:func:`mode_model`), by whichever law the model's mechanics
choose (:func:`reelsmith.analysis.analyzer.analyze`: lines, ways, counts, cascades,
hold-and-spin), divided by the price (the RTP, the standard deviation and the largest win; the
hit frequency is the base game's on the ante's reels). A bought feature is the free spins
started by ``triggers`` trigger symbols: its RTP is the feature's exact expected win given that
start (:func:`reelsmith.analysis.catalogue_exact.feature_given`: the free reel set's screens,
on paylines or ways, or on a cascade title its full cycle of chains) over the price, its
standard deviation the feature's over the price, its hit frequency the probability that some
free spin pays, its largest win the largest single free spin's. Each row also gives how often a
round of it starts the feature (the free spins or the hold-and-spin): the base game's and an
ante's trigger probability from the same analysis as their other figures, a bought round the
feature every time. The same derived model is what ``reelsmith simulate --mode`` plays for an
ante, so the kernel's rounds are the ante's rounds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache
from typing import Any

from reelsmith.engine.model import GameModel, ModelError
from reelsmith.mechanics.modes.rules import Mode, modes_of


@cache
def mode_model(model: GameModel, name: str) -> GameModel:
    """The model an ante plays: every variant's base reel set replaced by the ante's reel set,
    no ``[modes]`` and no stored figures (one object per model and mode, so every cache keyed
    by the model keeps one entry). ModelError for a mode that is not an ante."""
    mode = modes_of(model).get(name)
    if mode.kind != "ante":
        raise ModelError(f"{model.id}: mode {name!r} is a {mode.kind}, not an ante")
    assert mode.reel_set is not None
    variants = {
        key: replace(
            variant,
            reel_sets={
                **variant.reel_sets,
                "base": replace(variant.reel_sets[mode.reel_set], name="base"),
            },
            figures={},
        )
        for key, variant in model.variants.items()
    }
    raw = {k: v for k, v in model.raw.items() if k != "modes"}
    features = {k: v for k, v in model.features.items() if k != "modes"}
    return replace(model, variants=variants, raw=raw, features=features)


@dataclass(frozen=True)
class ModeFigures:
    """One way of playing the title (``base``, or a mode) with its exact figures per unit of
    its price x the bet: RTP, hit frequency, standard deviation and volatility, the largest
    single spin's win in multiples of what the round costs; and the exact probability that a
    round of it starts the title's feature (``feature``: "free spins", "hold-and-spin"), 1 for
    a bought round."""

    name: str
    kind: str  # "base", "ante" or "buy"
    price: Fraction
    rtp: Fraction
    hit_frequency: float
    std_dev: float
    volatility: str
    max_spin_win: Fraction  # in multiples of the round's cost
    feature_frequency: Fraction  # P(a round of this mode starts the feature)
    feature: str = "free spins"
    triggers: int = 0

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "mode": self.name,
            "kind": self.kind,
            "price": float(self.price),
            "rtp": float(self.rtp),
            "hit_frequency": self.hit_frequency,
            "std_dev": self.std_dev,
            "volatility": self.volatility,
            "max_spin_win_x_cost": float(self.max_spin_win),
            "feature_frequency": float(self.feature_frequency),
        }
        if self.kind == "buy":
            out["triggers"] = self.triggers
        return out


def base_figures(model: GameModel, variant_id: str | None, analysis: Any = None) -> ModeFigures:
    """The base game's row of the modes' table (its full analysis, or ``analysis`` given)."""
    from reelsmith.analysis.analyzer import analyze

    # every round law modes compose with gives these figures (the ladder's is excluded)
    found: Any = analysis if analysis is not None else analyze(model, variant_id)
    return ModeFigures(
        name="base",
        kind="base",
        price=Fraction(1),
        rtp=found.rtp,
        hit_frequency=float(found.hit_frequency),
        std_dev=found.std_dev,
        volatility=found.volatility,
        max_spin_win=found.max_spin_win,
        feature_frequency=found.trigger_probability,
        feature=feature_name(found),
    )


def feature_name(analysis: Any) -> str:
    """The feature a round law's analysis starts, as its report names it (the free spins
    unless the law names its own: the hold-and-spin)."""
    return str(getattr(analysis, "feature_name", "free spins"))


def figures(model: GameModel, variant_id: str | None, name: str) -> ModeFigures:
    """The exact figures of mode ``name`` (see the module's account)."""
    from reelsmith.analysis.analyzer import analyze
    from reelsmith.analysis.catalogue_exact import feature_given
    from reelsmith.analysis.volatility import volatility_class

    mode: Mode = modes_of(model).get(name)
    price = mode.price
    if mode.kind == "ante":
        analysis: Any = analyze(mode_model(model, name), variant_id)
        std = analysis.std_dev / float(price)
        return ModeFigures(
            name=name,
            kind="ante",
            price=price,
            rtp=analysis.rtp / price,
            hit_frequency=float(analysis.hit_frequency),
            std_dev=std,
            volatility=volatility_class(std),
            max_spin_win=analysis.max_spin_win / price,
            feature_frequency=analysis.trigger_probability,
            feature=feature_name(analysis),
        )
    given = feature_given(model, variant_id, mode.triggers)
    std = math.sqrt(given.win.variance) / float(price)
    return ModeFigures(
        name=name,
        kind="buy",
        price=price,
        rtp=given.win.mean / price,
        hit_frequency=1.0 - given.no_win,
        std_dev=std,
        volatility=volatility_class(std),
        max_spin_win=given.max_spin_win / price,
        feature_frequency=Fraction(1),  # the round is the bought feature
        triggers=mode.triggers,
    )


def all_figures(
    model: GameModel, variant_id: str | None, analysis: Any = None
) -> list[ModeFigures]:
    """The base game's figures, then each mode's, in the model's order (empty for a model
    without modes)."""
    declared = modes_of(model).modes
    if not declared:
        return []
    return [base_figures(model, variant_id, analysis)] + [
        figures(model, variant_id, name) for name in declared
    ]


def rtp_spread_warning(model: GameModel, variant_id: str, found: list[ModeFigures]) -> str | None:
    """A warning when the RTPs of the base game and its modes differ by more than the model's
    ``[modes] rtp_tolerance`` (percentage points); None when they agree."""
    tolerance = modes_of(model).rtp_tolerance
    if len(found) < 2:
        return None
    low = min(found, key=lambda f: f.rtp)
    high = max(found, key=lambda f: f.rtp)
    spread = (high.rtp - low.rtp) * 100
    if spread <= Fraction(tolerance):
        return None
    return (
        f"warning: {model.source or model.id}: variant {variant_id}: the modes' RTPs differ by "
        f"{float(spread):.4f} percentage points ({high.name} {float(high.rtp) * 100:.4f}%, "
        f"{low.name} {float(low.rtp) * 100:.4f}%), more than modes.rtp_tolerance = {tolerance}"
    )


def stored_mode_figures(model: GameModel, variant_id: str | None) -> dict[str, float]:
    """Each mode's exact RTP as a variant file keeps it beside its strips (``mode_<name>_rtp``,
    a fraction to 10 places; nothing for a model without modes)."""
    return {
        f"mode_{mode.name}_rtp": round(float(figures(model, variant_id, mode.name).rtp), 10)
        for mode in modes_of(model).modes.values()
    }
