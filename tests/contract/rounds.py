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
import importlib.util
import json
import random
from collections.abc import Callable
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import reelsmith.store
from reelsmith.rng import RandomSource
from reelsmith.server.jsontext import json_text
from reelsmith.server.markets import Market
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


@cache
def _migration(name: str) -> ModuleType:
    path = Path(reelsmith.store.__file__).parent / "migrations" / "versions" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"migration_{name}", path)
    assert spec is not None and spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def migrated_state_key(key: str) -> str:
    """A carried state's key as the store holds it after every migration: fixtures recorded
    when Sultan Spins' states were keyed by the bet's amount read as migration 0005 moved
    them (by the migration's own mapping), so they are compared with what a round keeps now."""
    return str(_migration("0005_sultan_state_by_bet_level").state_key_after(key))


def migrated_outcome(outcome: dict[str, Any]) -> dict[str, Any]:
    """A stored outcome with its kept state's key as the store holds it today."""
    kept = outcome.get("kept_state")
    if kept is None:
        return outcome
    return {**outcome, "kept_state": [migrated_state_key(kept[0]), kept[1]]}


def record_of(title: Title, round_: Any) -> dict[str, Any]:
    return normal(title.record(round_))


def outcome_of(title: Title, market: Market, round_: Any) -> dict[str, Any]:
    """The round's outcome (see the module's docstring), in stored form."""
    price = title.market_price(market, round_)
    view = dict(title.view(price, round_))
    view.pop("draws")
    view.pop("actions")
    kept = title.kept_state(round_)
    return normal(
        {
            "view": view,
            "settlement": dataclasses.asdict(title.outcome(price, round_)),
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
