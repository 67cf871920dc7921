"""What a ladder title's player carries between rounds, per bet level: pots, trigger points, meter.

The engine never stores this: it is passed into a round and the round returns the new value.
Pots and trigger points are in multiples of the bet; the meter counts collection spots.
Each trigger point keeps the rules version it was drawn under (see
:mod:`reelsmith.engine.ladder`): a state stored before rules versions existed has
none, and all its trigger points are version 1.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class BetState:
    """The pots (in bets, one per reel), their hidden trigger points, the collection meter, and the
    rules version each trigger point was drawn under (``()``: all version 1)."""

    pots: tuple[int, ...]
    triggers: tuple[int, ...]
    meter: int = 0
    trigger_rules: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if not self.trigger_rules:
            object.__setattr__(self, "trigger_rules", (1,) * len(self.triggers))

    def to_json(self) -> dict[str, Any]:
        """The stored form; ``trigger_rules`` only when a trigger point is of a later version
        than 1, so a state from before rules versions is written as it was read."""
        out: dict[str, Any] = {
            "pots": list(self.pots),
            "triggers": list(self.triggers),
            "meter": self.meter,
        }
        if any(v != 1 for v in self.trigger_rules):
            out["trigger_rules"] = list(self.trigger_rules)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> BetState:
        try:
            pots = tuple(int(p) for p in data["pots"])
            triggers = tuple(int(t) for t in data["triggers"])
            meter = int(data.get("meter", 0))
            drawn = tuple(int(v) for v in data.get("trigger_rules", ()))
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"not a ladder bet state: {exc!r}") from None
        if drawn and len(drawn) != len(triggers):
            raise ValueError(
                f"not a ladder bet state: {len(drawn)} trigger_rules for "
                f"{len(triggers)} trigger points"
            )
        return cls(pots, triggers, meter, drawn)


#: How a bet level's state key is written: ``level-5`` for bet level 5. Keys written before bet
#: levels were the bet's amount ("1.00"); migration 0005 moved them to this form.
LEVEL_KEY = "level-{level}"


def bet_key(bet_level: int) -> str:
    """The key a bet level's state is stored under (the same in every market: the pots are
    multiples of the bet, whatever a stake unit costs)."""
    return LEVEL_KEY.format(level=bet_level)


@dataclass(frozen=True)
class PlayerState:
    """A player's ladder state for every bet level played so far."""

    bets: Mapping[str, BetState] = field(default_factory=dict)

    def for_bet(self, bet_level: int) -> BetState | None:
        return self.bets.get(bet_key(bet_level))

    def with_bet(self, bet_level: int, state: BetState) -> PlayerState:
        return PlayerState({**self.bets, bet_key(bet_level): state})

    def to_json(self) -> dict[str, Any]:
        return {key: state.to_json() for key, state in sorted(self.bets.items())}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PlayerState:
        return cls({str(key): BetState.from_json(value) for key, value in data.items()})
