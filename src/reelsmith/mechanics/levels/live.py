"""A bet level's part of a round: nothing of its own in the round's JSON (a bet-level round
shows its bet in the server's money, :mod:`reelsmith.mechanics.levels.server`)."""

from __future__ import annotations

from functools import cache

from reelsmith.engine.bet_ladder import BetLevels
from reelsmith.engine.model import GameModel, ModelError
from reelsmith.engine.round import Part


@cache
def bet_levels(model: GameModel) -> BetLevels:
    return BetLevels.from_model(model)


@cache
def spread(model: GameModel) -> int:
    """The units a bet level is spread over: its evaluator's cost at one coin per unit (the
    paylines; a ways game's cost). A round's stake is one coin on each, and a win of ``c``
    coins is ``c x level / spread`` stake units."""
    from reelsmith.mechanics import evaluation

    return int(evaluation(model).cost(model))


def problems(model: GameModel) -> list[str]:
    try:
        bet_levels(model)
    except ModelError as exc:
        return [str(exc)]
    return []


class LevelsPart(Part):
    name = "levels"
    stage = 0


def part(model: GameModel) -> LevelsPart:
    return LevelsPart()
