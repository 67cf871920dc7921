"""The math lab's entry points for every catalogue title: ``analyze`` (with its PAR sheet),
``tune`` and ``simulate``, the same for a shipped title and for a model file of one's own.

:mod:`reelsmith.analysis.titles` dispatches here for any model with
``mechanics = "catalogue"`` and for any model that declares the free-spins ladder with local
pots (:func:`reelsmith.engine.ladder.declares_ladder`). The ladder's carried state (pots,
hidden trigger points, meter) has its own exact analysis, kernel and tuner, so such a model is
handed to :mod:`reelsmith.analysis.ladder`. Nothing in this module names a title.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

from reelsmith.analysis.catalogue_exact import analyze_full
from reelsmith.analysis.catalogue_report import CatalogueReport
from reelsmith.analysis.catalogue_tuning import tune_variant
from reelsmith.engine.ladder import declares_ladder
from reelsmith.engine.model import GameModel


def analyze_title(model: GameModel, variant_id: str | None = None) -> Any:
    """``reelsmith analyze``: the exact analysis as a report (text, JSON, PAR sheet)."""
    if declares_ladder(model):
        from reelsmith.analysis import ladder

        return ladder.analyze_title(model, variant_id)
    return CatalogueReport(analyze_full(model, variant_id))


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
    if declares_ladder(model):
        from reelsmith.analysis import ladder

        return ladder.tune_title(
            model,
            folder,
            target_rtp,
            volatility=volatility,
            base_variant=base_variant,
            progress=progress,
        )
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
    """A seeded simulation on the generic kernel (:mod:`reelsmith.analysis.simulation`), the
    exact figures beside the simulated ones."""
    from reelsmith.analysis.simulation import simulate_catalogue
    from reelsmith.engine.model import load_model
    from reelsmith.games import load_game

    model = load_game(game_id) if folder is None else load_model(Path(folder))
    if declares_ladder(model):
        from reelsmith.analysis import ladder

        return ladder.simulate_title(
            game_id,
            rounds,
            seed,
            variant_id=variant_id,
            folder=folder,
            workers=workers,
            cluster=cluster,
            progress=progress,
        )
    return simulate_catalogue(
        model,
        rounds,
        seed,
        variant_id=variant_id,
        workers=workers,
        cluster=cluster,
        progress=progress,
    )
