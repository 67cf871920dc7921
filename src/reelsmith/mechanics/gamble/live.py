"""The gamble's live step: once the spins are over, a win may be gambled on the colour (x2) or
the suit (x4) of a card from a fair deck (one ``gamble_card`` draw each), up to the gamble's
count and amount limits, or collected.

The round's options (``Round.parts["options"]``, given at its start) say whether the market
and the player allow the gamble, and may set its limits in place of the model's. Where the
model caps a round's win (``[max_win]``), no choice is offered whose win would pass the cap."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from reelsmith.engine.catalogue import Gamble, mechanics
from reelsmith.engine.errors import RuleError
from reelsmith.engine.gamble import CHOICES, Card, draw_card, guessed, is_colour
from reelsmith.engine.model import GameModel
from reelsmith.engine.round import COMPLETE, Context, Part, Round, guarded
from reelsmith.engine.rounds import replaced
from reelsmith.rng import RandomSource, RecordingSource

GAMBLE = "gamble"
#: The round's cap, where the model declares one (its part's state: ``cap_coins``), set
#: before the gamble's own state.
ROUND_CAP = "max_win"
COLLECT = "collect"
OPTIONS = "options"


@dataclass(frozen=True)
class RoundOptions:
    """Settings fixed when a round starts (the market's and the player's say over the
    gamble, and the market's cap on the round's win where it is lower than the model's)."""

    gamble_allowed: bool = True
    gamble_limit_credits: Decimal | None = None  # None: the model's default
    max_gambles: int | None = None  # None: the model's default
    #: The market's cap on a round's win in total bets (None: the model's cap alone). Kept in
    #: the round's record so a replay caps as the round did.
    max_win_multiplier: int | None = None

    def to_json(self) -> dict[str, object]:
        return {
            "gamble_allowed": self.gamble_allowed,
            "gamble_limit_credits": None
            if self.gamble_limit_credits is None
            else str(self.gamble_limit_credits),
            "max_gambles": self.max_gambles,
            # written only where a market set it: every record before the cap reads the same
            **(
                {"max_win_multiplier": self.max_win_multiplier}
                if self.max_win_multiplier is not None
                else {}
            ),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RoundOptions:
        limit = data.get("gamble_limit_credits")
        return cls(
            gamble_allowed=bool(data.get("gamble_allowed", True)),
            gamble_limit_credits=None if limit is None else Decimal(limit),
            max_gambles=data.get("max_gambles"),
            max_win_multiplier=data.get("max_win_multiplier"),
        )


@dataclass(frozen=True)
class GambleRecord:
    choice: str
    card: Card
    stake_coins: int
    won: bool
    result_coins: int

    def to_json(self) -> dict[str, object]:
        return {
            "choice": self.choice,
            "card": str(self.card),
            "card_colour": self.card.colour,
            "stake_coins": self.stake_coins,
            "won": self.won,
            "result_coins": self.result_coins,
        }

    def events(self) -> list[dict[str, object]]:
        return [{"type": "gamble_card", **self.to_json()}]


@dataclass(frozen=True)
class Gambles:
    """The round's gambles so far and its limits: the largest win a choice may lead to (in
    coins) and the most gambles."""

    limit_coins: int
    max_gambles: int
    played: tuple[GambleRecord, ...] = ()


class GamblePart(Part):
    name = "gamble"
    stage = 60

    def __init__(self, rules: Gamble) -> None:
        self.rules = rules

    def prepare(self, ctx: Context, round_: Round) -> Round:
        options: RoundOptions = round_.part(OPTIONS) or RoundOptions()
        limit = options.gamble_limit_credits
        if limit is None:
            limit = Decimal(self.rules.win_limit_credits)
        coin_size: Decimal = round_.bet.coin_size
        most = self.rules.max_gambles if options.max_gambles is None else options.max_gambles
        limit_coins = math.floor(limit / coin_size)
        cap = round_.part(ROUND_CAP)
        if cap is not None:  # a gamble never takes the round's win past its cap
            limit_coins = min(limit_coins, cap.cap_coins)
        return round_.with_part(self.name, Gambles(limit_coins, most))

    def choices(self, round_: Round, stake: int | None = None) -> tuple[str, ...]:
        """The gamble choices offered now: none past the gamble count, none whose win would
        pass the amount limit."""
        state: Gambles = round_.part(self.name)
        stake = round_.win_coins if stake is None else stake
        if stake <= 0 or len(state.played) >= state.max_gambles:
            return ()
        rules = self.rules
        return tuple(
            choice
            for choice in CHOICES
            if stake * (rules.colour_multiplier if is_colour(choice) else rules.suit_multiplier)
            <= state.limit_coins
        )

    def close(self, ctx: Context, round_: Round) -> Round | None:
        options: RoundOptions = round_.part(OPTIONS) or RoundOptions()
        if round_.win_coins > 0 and options.gamble_allowed and self.choices(round_):
            return replaced(round_, phase=GAMBLE)
        return None

    def actions(self, ctx: Context, round_: Round) -> list[str]:
        if round_.phase != GAMBLE:
            return []
        return [*(f"gamble {c}" for c in self.choices(round_)), COLLECT]

    def act(self, ctx: Context, round_: Round, action: str, rng: RandomSource) -> Round | None:
        if action == COLLECT:
            if round_.phase != GAMBLE:
                raise RuleError(f"nothing to collect: the round is {round_.phase}")
            return replaced(round_, phase=COMPLETE, actions=(*round_.actions, COLLECT))
        verb, _, choice = action.partition(" ")
        if verb != GAMBLE or not choice:
            return None
        if round_.phase != GAMBLE:
            raise RuleError(f"there is no win to gamble: the round is {round_.phase}")
        offered = self.choices(round_)
        if choice not in offered:
            if choice not in CHOICES:
                raise RuleError(
                    f"{choice!r} is not a gamble choice; choose one of {', '.join(CHOICES)}"
                )
            raise RuleError(
                f"{choice} is not offered: its win would pass the gamble limit; "
                f"offered: {', '.join(offered)}"
            )
        rules = self.rules

        def run(round_: Round, recorder: RecordingSource) -> Round:
            card = draw_card(recorder)
            won = guessed(choice, card)
            multiplier = rules.colour_multiplier if is_colour(choice) else rules.suit_multiplier
            result = round_.win_coins * multiplier if won else 0
            state: Gambles = round_.part(self.name)
            record = GambleRecord(choice, card, round_.win_coins, won, result)
            state = Gambles(state.limit_coins, state.max_gambles, (*state.played, record))
            round_ = replaced(round_, win_coins=result, parts={**round_.parts, self.name: state})
            if not won or not self.choices(round_):
                return replaced(round_, phase=COMPLETE)
            return round_

        return guarded(ctx.composition, round_, action, rng, run)

    def finish(self, ctx: Context, round_: Round, rng: RandomSource) -> Round | None:
        if round_.phase != GAMBLE:
            return None
        return self.act(ctx, round_, COLLECT, rng)

    def round_events(self, ctx: Context, round_: Round) -> list[dict[str, object]]:
        state: Gambles | None = round_.part(self.name)
        return [e for g in state.played for e in g.events()] if state is not None else []

    def round_json(self, ctx: Context, round_: Round) -> dict[str, object]:
        state: Gambles | None = round_.part(self.name)
        if state is None:
            return {"gambles": [], "gamble_limit_coins": 0, "max_gambles": 0}
        return {
            "gambles": [g.to_json() for g in state.played],
            "gamble_limit_coins": state.limit_coins,
            "max_gambles": state.max_gambles,
        }


def part(model: GameModel) -> GamblePart:
    rules = mechanics(model).gamble
    assert rules is not None
    return GamblePart(rules)
