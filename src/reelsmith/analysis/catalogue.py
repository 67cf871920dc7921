"""The simulation entry point of the catalogue kind (:data:`reelsmith.engine.title.
CATALOGUE_KIND`), the same for a shipped title and for a model file of one's own: ``simulate``
reaches it through the kind of the model, never by a title's id. ``analyze`` and ``tune`` need
no part of the kind: the one analyzer (:mod:`reelsmith.analysis.analyzer`) and the one tuner
(:func:`reelsmith.analysis.tuning.tune`) choose by the model's mechanics. Nothing in this
module names a title.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any


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
