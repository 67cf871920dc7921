"""The gamble in the server: whether a round may gamble (the model has a gamble, the market
allows it and the player did not decline it), its limit in the market's money, and the
gamble's choices and limit in a round's view."""

from __future__ import annotations

from typing import Any

from reelsmith.engine.model import GameModel
from reelsmith.engine.round import Round
from reelsmith.mechanics import composition
from reelsmith.mechanics.gamble.live import GAMBLE, GamblePart, RoundOptions
from reelsmith.server.markets import Market


def round_options(model: GameModel, market: Market, gamble: bool) -> RoundOptions:
    """The options a coin-bet round starts with in ``market``: the gamble where the model has
    one, the market allows it and the player did not decline it; the market's gamble limit (in
    its money) in credits in place of the model's; the market's cap on a round's win, where it
    sets one (the round applies it where the model caps its rounds)."""
    rules = market.game(model.id)
    limit = rules.gamble_limit  # in the market's money; the engine's limit is in credits
    has_gamble = composition(model).named(GAMBLE) is not None
    return RoundOptions(
        gamble_allowed=market.gamble and gamble and has_gamble,
        gamble_limit_credits=None if limit is None else limit / rules.credit_value,
        max_win_multiplier=market.max_win_multiplier,
    )


class GambleMoney:
    def __init__(self, model: GameModel) -> None:
        part = composition(model).named(GAMBLE)
        assert isinstance(part, GamblePart)
        self.part = part

    def view(self, price: Any, round_: Round, data: dict[str, Any]) -> None:
        data["gamble_choices"] = list(self.part.choices(round_)) if round_.phase == GAMBLE else []
        data["gamble_limit_minor"] = round_.part(GAMBLE).limit_coins * price.unit_minor
