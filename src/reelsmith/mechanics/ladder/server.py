"""The free-spins ladder in the server: the level's multiplier in a round's view, the symbols
and meter the web client's ladder script draws, and whether a round climbed the ladder."""

from __future__ import annotations

from typing import Any

from reelsmith.engine.ladder import ladder_rules
from reelsmith.engine.model import GameModel
from reelsmith.engine.round import Round
from reelsmith.mechanics.ladder.live import FREE_SPINS, Climb


class LadderMoney:
    def __init__(self, model: GameModel) -> None:
        self.model = model
        self.rules = ladder_rules(model)

    def view(self, price: Any, round_: Round, data: dict[str, Any]) -> None:
        climb: Climb = round_.part("ladder")
        data["multiplier"] = self.rules.multipliers[climb.level - 1] if climb.level else 1

    def client_info(self) -> dict[str, Any]:
        """The ladder's symbols and meter, which the ladder script draws (the pots and levels
        are on the rules page)."""
        rules = self.rules
        return {
            "ladder": {
                "bonus_symbol": self.model.symbol_id(rules.bonus),
                "gem_symbol": self.model.symbol_id(rules.gem),
                "spots": rules.spots,
                "meter_feed": rules.main_game_bonus_per_spot,
            }
        }

    def feature_triggered(self, round_: Round) -> bool:
        return len(round_.spins) > 1 or round_.phase == FREE_SPINS
