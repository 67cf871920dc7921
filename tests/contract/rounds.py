"""Rounds played through the game server's ``Title``, and a round's outcome as the contract
compares it.

A round's *record* is what the server stores to replay it (``Title.record``: bet, options or
starting state, variant, actions, draws). Its *outcome* is everything the round decided: the
player's view (screens, line and scatter wins, reveals, gems and pots, free spins, gambles,
phase, totals; the draws and actions are left out because the record holds them), the
settlement (``Title.outcome``: status, win, jackpot win and refund in minor units) and the
state the player carries on (``Title.kept_state``).
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Callable
from typing import Any

from reelsmith.rng import RandomSource
from reelsmith.server.markets import Market
from reelsmith.server.service import json_text
from reelsmith.server.titles import Title

Chooser = Callable[[list[str]], str]


def normal(data: Any) -> Any:
    """``data`` as it reads back from the server's JSON text (tuples become lists, keys
    strings): the form fixtures are stored and compared in."""
    return json.loads(json_text(data, sort_keys=True))


def chooser(seed: int) -> Chooser:
    """A player who picks among the actions offered at random (seeded)."""
    pick = random.Random(seed)
    return lambda offered: pick.choice(offered)


def play(
    title: Title,
    market: Market,
    raw_bet: dict[str, Any],
    state: Any,
    rng: RandomSource,
    choose: Chooser,
    *,
    gamble: bool = True,
) -> list[Any]:
    """Play a round to its end through the server's title: the round after each step (the
    spin, then every action chosen among those offered)."""
    bet = title.parse_bet(market, raw_bet)
    steps = [title.start(market, bet, state, rng, gamble)]
    while offered := title.actions(steps[-1]):
        steps.append(title.act(steps[-1], choose(offered), rng))
    return steps


def record_of(title: Title, round_: Any) -> dict[str, Any]:
    return normal(title.record(round_))


def outcome_of(title: Title, market: Market, round_: Any) -> dict[str, Any]:
    """The round's outcome (see the module's docstring), in stored form."""
    view = dict(title.view(market, round_))
    view.pop("draws")
    view.pop("actions")
    kept = title.kept_state(round_)
    return normal(
        {
            "view": view,
            "settlement": dataclasses.asdict(title.outcome(market, round_)),
            "kept_state": None if kept is None else list(kept),
        }
    )


class Player:
    """A player's carried state per bet key, kept as the server keeps it (``game_states``:
    the state's JSON under ``Title.state_key``), handed to each new round."""

    def __init__(self, title: Title) -> None:
        self.title = title
        self.states: dict[str, Any] = {}

    def state_for(self, bet: Any) -> Any:
        key = self.title.state_key(bet)
        return self.title.load_state(None if key is None else self.states.get(key))

    def settle(self, round_: Any) -> None:
        kept = self.title.kept_state(round_)
        if kept is not None:
            key, state = kept
            self.states[key] = normal(state)

    def play(
        self,
        market: Market,
        raw_bet: dict[str, Any],
        rng: RandomSource,
        choose: Chooser,
        *,
        gamble: bool = True,
    ) -> list[Any]:
        bet = self.title.parse_bet(market, raw_bet)
        steps = play(self.title, market, raw_bet, self.state_for(bet), rng, choose, gamble=gamble)
        self.settle(steps[-1])
        return steps
