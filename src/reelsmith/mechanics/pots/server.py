"""The local pots in the server: the pots and their caps in money in a round's view, what a
player may see of the pots at a bet before playing it (trigger points stay hidden), the state
the player keeps, and whether a round won a pot."""

from __future__ import annotations

from typing import Any

from reelsmith.engine.ladder import ladder_rules
from reelsmith.engine.ladder_state import BetState
from reelsmith.engine.model import GameModel
from reelsmith.engine.round import Round
from reelsmith.mechanics.pots.live import CARRIED, kept_state


class PotsMoney:
    def __init__(self, model: GameModel) -> None:
        self.rules = ladder_rules(model)

    def view(self, price: Any, round_: Round, data: dict[str, Any]) -> None:
        bet_minor = data["bet_minor"]
        state: BetState = round_.part(CARRIED)
        data["pots_minor"] = [p * bet_minor for p in state.pots]
        data["caps_minor"] = [j.cap * bet_minor for j in self.rules.jackpots]

    def carried_view(self, bet_minor: int, state: BetState | None) -> dict[str, Any]:
        pots = list(state.pots) if state is not None else [j.seed for j in self.rules.jackpots]
        return {
            "pots_minor": [p * bet_minor for p in pots],
            "caps_minor": [j.cap * bet_minor for j in self.rules.jackpots],
            "meter": 0 if state is None else state.meter,
            "spots": self.rules.spots,
        }

    @staticmethod
    def jackpot_contribution(view: dict[str, Any], bet_minor: int) -> int:
        """What a round's stake paid into the pots, in minor units, read from its stored
        view: one bet for each gem its spins showed (each raises its pot by one bet)."""
        gems = sum(len(spin.get("gems") or ()) for spin in view.get("spins") or ())
        return gems * bet_minor

    def kept_state(self, round_: Round) -> BetState | None:
        return kept_state(round_)

    def feature_triggered(self, round_: Round) -> bool:
        return any(s.parts["pots"].jackpot_bets for s in round_.spins if "pots" in s.parts)
