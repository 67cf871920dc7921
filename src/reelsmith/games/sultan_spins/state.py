"""What a Sultan Spins player carries between rounds, per bet size: pots, trigger points, meter.

The engine never stores this: it is passed into a round and the round returns the new value.
Pots and trigger points are in multiples of the bet; the meter counts collection spots (0-5).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any


@dataclass(frozen=True, slots=True)
class BetState:
    """The five pots (in bets), their hidden trigger points, and the collection meter."""

    pots: tuple[int, ...]
    triggers: tuple[int, ...]
    meter: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"pots": list(self.pots), "triggers": list(self.triggers), "meter": self.meter}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> BetState:
        try:
            pots = tuple(int(p) for p in data["pots"])
            triggers = tuple(int(t) for t in data["triggers"])
            meter = int(data.get("meter", 0))
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"not a Sultan Spins bet state: {exc!r}") from None
        return cls(pots, triggers, meter)


def bet_key(bet: Decimal) -> str:
    """The key a bet size's state is stored under: the amount with two decimals."""
    return f"{bet:.2f}"


@dataclass(frozen=True)
class PlayerState:
    """A player's Sultan Spins state for every bet size played so far."""

    bets: Mapping[str, BetState] = field(default_factory=dict)

    def for_bet(self, bet: Decimal) -> BetState | None:
        return self.bets.get(bet_key(bet))

    def with_bet(self, bet: Decimal, state: BetState) -> PlayerState:
        return PlayerState({**self.bets, bet_key(bet): state})

    def to_json(self) -> dict[str, Any]:
        return {key: state.to_json() for key, state in sorted(self.bets.items())}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PlayerState:
        return cls({str(key): BetState.from_json(value) for key, value in data.items()})
