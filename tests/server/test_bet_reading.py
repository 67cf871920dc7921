"""A coin-bet title keeps the bets it has read (`CoinBets.parse_bet`): the same bet in
the same market is read once, and the kept bets change nothing a player sees."""

from __future__ import annotations

from typing import Any

import pytest

from reelsmith.engine.bets import BetError
from reelsmith.mechanics.coins import server as titles
from reelsmith.server.markets import load_markets
from reelsmith.server.registry import TitleRegistry

BET = {"lines": 25, "coins_per_line": 1, "coin_size": "0.01"}


@pytest.fixture(scope="module")
def served() -> tuple[Any, dict[str, Any]]:
    registry = TitleRegistry.load()
    return registry["days-of-the-tsar"], load_markets(models=registry.models())


def test_a_bet_read_again_is_the_bet_read_before(served: tuple[Any, dict[str, Any]]) -> None:
    title, markets = served
    market = markets["default"]
    first = title.parse_bet(market, dict(BET))
    assert title.parse_bet(market, dict(BET)) is first
    assert title.parse_bet(market, {**BET, "coins_per_line": 2}) != first


def test_a_kept_bet_does_not_answer_for_another_type_or_market(
    served: tuple[Any, dict[str, Any]],
) -> None:
    title, markets = served
    market = markets["default"]
    title.parse_bet(market, dict(BET))
    with pytest.raises(BetError, match="coins_per_line must be a whole number"):
        title.parse_bet(market, {**BET, "coins_per_line": True})  # 1 == True, not the same bet
    yen = markets["jp"]
    with pytest.raises(BetError, match=r"coin size 0\.01 is not offered in this market"):
        title.parse_bet(yen, dict(BET))  # read in its own market, not taken from another's


def test_a_refused_bet_is_refused_every_time_and_not_kept(
    served: tuple[Any, dict[str, Any]],
) -> None:
    title, markets = served
    market = markets["default"]
    wrong = {**BET, "lines": 99}
    kept = len(title.bets._parsed)
    for _ in range(2):
        with pytest.raises(BetError):
            title.parse_bet(market, dict(wrong))
    assert len(title.bets._parsed) == kept


def test_an_unhashable_bet_is_read_without_being_kept(
    served: tuple[Any, dict[str, Any]],
) -> None:
    title, markets = served
    with pytest.raises(BetError):
        title.parse_bet(markets["default"], {**BET, "lines": [25]})


def test_the_kept_bets_are_bounded(
    served: tuple[Any, dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    title, markets = served
    monkeypatch.setattr(titles, "PARSED_BETS_KEPT", 3)
    market = markets["default"]
    for coins in range(1, 8):
        title.parse_bet(market, {**BET, "coins_per_line": coins})
        assert len(title.bets._parsed) <= 3
