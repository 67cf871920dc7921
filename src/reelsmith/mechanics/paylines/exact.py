"""The paylines' exact figures of one screen: every payline's run is the same per-reel walk
(:func:`reelsmith.analysis.catalogue_exact.line_figures`), and a spin costs one coin per
payline."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from reelsmith.engine.model import GameModel, ReelSet


def cost(model: GameModel) -> int:
    """The coins a spin costs at one coin per payline."""
    return model.line_count


def screen_rtp(model: GameModel, reel_set: ReelSet, pays: Any, free: bool = False) -> Fraction:
    """What one screen of ``reel_set`` returns per unit bet on its paylines (a free spin pays
    by the same rule with its own ``pays``)."""
    from reelsmith.analysis.catalogue_exact import line_figures

    return line_figures(model, reel_set, pays).rtp


def screen_distributions(model: GameModel, rules: Any, variant_id: str) -> tuple[Any, Any]:
    """The full-cycle enumerations of the base reel set and the free spins' (None without)."""
    from reelsmith.analysis.catalogue_exact import _screen_distributions

    return _screen_distributions(model, rules, variant_id)


def free_distribution(model: GameModel, rules: Any, variant_id: str) -> Any:
    """The full-cycle enumeration of the free spins' reel set alone, paid by the free spins'
    table and counting the trigger symbol (a bought feature's per-spin law)."""
    from reelsmith.analysis.catalogue_exact import counted_symbol
    from reelsmith.analysis.enumeration import enumerate_screens

    free = rules.free_spins
    counted, mask = counted_symbol(model, rules)
    return enumerate_screens(
        model,
        model.variant(variant_id).reel_sets[free.reel_set],
        model.line_count,
        line_pays=rules.free_line_pays,
        counted=counted,
        counted_reels=mask,
    )


def award_figures(model: GameModel, reel_set: ReelSet, pays: Any, distribution: Any) -> Any:
    """Each line award's odds and return on one payline (the per-reel walk)."""
    from reelsmith.analysis.catalogue_exact import line_figures

    return line_figures(model, reel_set, pays)
