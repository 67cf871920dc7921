"""The free spins in the server: the feature's multiplier in a round's view, and whether a
round triggered the feature (an autoplay may stop on it)."""

from __future__ import annotations

from typing import Any

from reelsmith.engine.catalogue import mechanics
from reelsmith.engine.model import GameModel
from reelsmith.engine.round import Round
from reelsmith.mechanics.free_spins.live import FeatureSpins


class FreeSpinsMoney:
    def __init__(self, model: GameModel) -> None:
        free = mechanics(model).free_spins
        assert free is not None
        self.multiplier = free.multiplier

    def view(self, price: Any, round_: Round, data: dict[str, Any]) -> None:
        data["free_spins_multiplier"] = self.multiplier

    def feature_triggered(self, round_: Round) -> bool:
        state: FeatureSpins | None = round_.part("free_spins")
        return state is not None and state.awarded > 0
