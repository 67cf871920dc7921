"""The hold-and-spin in the server: whether a round triggered the feature (an autoplay may stop
on it). Its pay is part of the base screen's win, which the round's view and events already
carry in coins and in minor units."""

from __future__ import annotations

from reelsmith.engine.model import GameModel
from reelsmith.engine.round import Round


class HoldAndSpinMoney:
    def __init__(self, model: GameModel) -> None:
        self.model = model

    def feature_triggered(self, round_: Round) -> bool:
        return any("hold_and_spin" in spin.parts for spin in round_.spins)
