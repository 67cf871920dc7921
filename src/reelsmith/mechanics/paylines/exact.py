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


def award_figures(model: GameModel, reel_set: ReelSet, pays: Any, distribution: Any) -> Any:
    """Each line award's odds and return on one payline (the per-reel walk)."""
    from reelsmith.analysis.catalogue_exact import line_figures

    return line_figures(model, reel_set, pays)
