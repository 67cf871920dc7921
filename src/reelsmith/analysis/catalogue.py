"""The math lab's entry points for the catalogue's free spins: ``analyze`` (with its PAR
sheet), ``tune`` and ``simulate``, the same for a shipped title and for a model file of one's
own.

This module is the lab part of the catalogue kind (:data:`reelsmith.engine.title.CATALOGUE_KIND`):
the lab's commands reach it through the kind of the model, never by a title's id. The ladder
kind's carried state (pots, hidden trigger points, meter) has its own exact analysis, kernel
and tuner, whose entry points of the same names are in :mod:`reelsmith.analysis.ladder`.
Nothing in this module names a title.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

from reelsmith.analysis.catalogue_exact import analyze_full
from reelsmith.analysis.catalogue_report import catalogue_report
from reelsmith.analysis.catalogue_tuning import tune_variant
from reelsmith.engine.model import GameModel


def analyze_title(model: GameModel, variant_id: str | None = None) -> Any:
    """``reelsmith analyze``: the exact analysis as a report (text, JSON, PAR sheet)."""
    return catalogue_report(analyze_full(model, variant_id))


def tune_title(
    model: GameModel,
    folder: Path,
    target_rtp: Decimal,
    *,
    volatility: str | None = None,
    base_variant: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> Any:
    """``reelsmith tune``: a new variant file for a target RTP (and volatility class)."""
    return tune_variant(
        model,
        folder,
        Fraction(target_rtp) / 100,
        f"{target_rtp}",
        base_variant=base_variant,
        volatility=volatility,
        progress=progress,
    )


def simulate_title(
    game_id: str,
    rounds: int,
    seed: int,
    *,
    variant_id: str | None = None,
    folder: Path | None = None,
    workers: int = 1,
    cluster: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> Any:
    """A seeded simulation on the one kernel (:func:`reelsmith.analysis.simulation.simulate`),
    the exact figures it was checked against beside the simulated ones."""
    from reelsmith.analysis.simulation import simulate, simulation_report
    from reelsmith.engine.model import load_model
    from reelsmith.games import load_game

    model = load_game(game_id) if folder is None else load_model(Path(folder))
    result = simulate(
        model,
        rounds,
        seed,
        variant_id=variant_id,
        workers=workers,
        cluster=cluster,
        progress=progress,
    )
    return simulation_report(model.name, result, result.exact)
