"""A round settles at the price, limits and rules it started with: the operator reprices a
market, takes a title out of it or removes the market while rounds are open, restarts the
server over the same database, and each open round finishes under its own terms; a player
whose market is gone can still be paid out. Both databases."""

from __future__ import annotations

import shutil
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from reelsmith.server.clock import ManualClock
from reelsmith.server.markets import MARKETS_DIR
from reelsmith.store.db import Database
from tests.server.conftest import Api, app_over, drop_schema, make_database
from tests.server.forcing import NEAR_POTS, sultan_stops, tsar_trigger, tsar_win

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

TSAR, SULTAN = "days-of-the-tsar", "sultan-spins"


class Deployment:
    """One database and one folder of markets, served again after each edit of the folder,
    as an operator restarts the server."""

    def __init__(self, db: Database, markets: Path) -> None:
        self.db = db
        self.markets = markets
        self.clock = ManualClock()
        self.token: str | None = None

    @contextmanager
    def serve(self) -> Iterator[Api]:
        app = app_over(self.db, self.clock, markets_dir=str(self.markets))
        with TestClient(app, raise_server_exceptions=False) as client:
            api = Api(client, self.clock, self.db)
            api.token = self.token
            yield api
            self.token = api.token

    def edit(self, market: str, old: str, new: str) -> None:
        path = self.markets / f"{market}.toml"
        text = path.read_text(encoding="utf-8")
        assert old in text, (market, old)
        path.write_text(text.replace(old, new), encoding="utf-8")


@pytest.fixture(params=["sqlite", "postgresql"])
def deployment(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Deployment]:
    db, schema = make_database(request.param, tmp_path)
    markets = tmp_path / "markets"
    shutil.copytree(MARKETS_DIR, markets)
    try:
        yield Deployment(db, markets)
    finally:
        db.dispose()
        if schema:
            drop_schema(schema)


def books_balance(api: Api) -> None:
    assert api.op("GET", "/operator/ledger/verify", key=None).json()["ok"]


def replays_identically(api: Api, round_id: str) -> None:
    replay = api.op("POST", f"/operator/rounds/{round_id}/replay", key=None).json()
    assert replay["identical"] is True, replay


YEN_TSAR_BET = {"lines": 25, "coins_per_line": 1, "coin_size": "1"}  # 25 coins of 1 yen
TENFOLD_YEN = (
    'credit_value = "100"\ncoin_sizes = ["1", "2", "5", "10", "20", "25"]\ngamble_limit',
    'credit_value = "1000"\ncoin_sizes = ["10", "20", "50", "100", "200", "250"]\ngamble_limit',
)


def test_a_win_waiting_for_collect_is_paid_at_the_price_of_its_bet(deployment):
    """The jp market repriced tenfold (a credit 100 -> 1000 yen) with a ¥25 Tsar round's win
    waiting: the collect pays the win the round showed at ¥25, not ten times it."""
    with deployment.serve() as api:
        player = api.player(market="jp", deposit="10000")
        api.login(player)
        body = api.spin(TSAR, YEN_TSAR_BET, tsar_win(), gamble=True).json()
        assert body["status"] == "open" and body["bet"]["minor"] == 25, body
        win = body["round"]["win_minor"]
        assert win > 0 and api.balance(player) == 10_000 - 25
    deployment.edit("jp", *TENFOLD_YEN)
    with deployment.serve() as api:
        collected = api.act(TSAR, body["round_id"], "collect").json()
        assert collected["status"] == "complete", collected
        # the open round pays what it showed at its own bet
        assert collected["win"]["minor"] == win
        assert collected["round"]["coin_size_minor"] == 1
        assert collected["balance"]["minor"] == 10_000 - 25 + win == api.balance(player)
        replays_identically(api, body["round_id"])
        books_balance(api)
        # and a new round is priced by the market as it is now: ten yen a coin
        fresh = api.spin(TSAR, {**YEN_TSAR_BET, "coin_size": "10"}, gamble=False).json()
        assert fresh["bet"]["minor"] == 250 and fresh["round"]["coin_size_minor"] == 10, fresh


def test_free_spins_are_paid_at_the_price_of_their_trigger(deployment):
    """A Tsar round in free spins when the default market's credit is repriced: every free
    spin and the round's total pay at the triggering bet's coin."""
    with deployment.serve() as api:
        player = api.player(market="default", deposit="100.00")
        api.login(player)
        bet = {"lines": 25, "coins_per_line": 1, "coin_size": "0.01"}
        body = api.spin(TSAR, bet, tsar_trigger(), gamble=False).json()
        assert body["status"] == "open" and "free_spin" in body["round"]["actions_allowed"]
    deployment.edit(  # a credit of 2 euros: the coins are 0.02 to 0.50
        "default",
        'variant = "96.00"\ncoin_sizes = ["0.01", "0.02", "0.05", "0.10", "0.20", "0.25"]',
        'variant = "96.00"\ncredit_value = "2"\ncoin_sizes = ["0.02", "0.04", "0.10"]',
    )
    with deployment.serve() as api:
        step = body
        while step["status"] == "open" and "free_spin" in step["round"]["actions_allowed"]:
            answer = api.act(TSAR, body["round_id"], "free-spin")
            assert answer.status_code == 200, answer.text
            step = answer.json()
            assert step["round"]["coin_size_minor"] == 1, step
        if step["status"] == "open":
            step = api.act(TSAR, body["round_id"], "collect").json()
        assert step["status"] == "complete"
        coins = step["round"]["win_coins"]
        assert step["win"]["minor"] == coins  # one cent a coin, as the round began
        assert api.balance(player) == 10_000 - 25 + coins
        replays_identically(api, body["round_id"])
        books_balance(api)


def test_a_ladder_round_keeps_its_stake_unit(deployment):
    """Sultan Spins in free spins when the jp stake unit goes from 20 to 40 yen: the round's
    wins are counted at 20 yen a stake unit to its end."""
    with deployment.serve() as api:
        player = api.player(market="jp", deposit="10000")
        api.login(player)
        forced = [*NEAR_POTS, *sultan_stops(bonus_reels=(0, 1, 2))]
        body = api.spin(SULTAN, {"bet": "100"}, forced).json()
        assert body["bet"]["minor"] == 100, body
    deployment.edit("jp", 'stake_unit = "20"', 'stake_unit = "40"')
    with deployment.serve() as api:
        step = body
        while step["status"] == "open":
            step = api.act(SULTAN, body["round_id"], "free-spin").json()
            assert step["round"]["bet_minor"] == 100, step
        assert step["status"] == "complete"
        assert step["win"]["minor"] == step["round"]["win_minor"]
        assert step["round"]["paid_amount"] == str(step["round"]["win_minor"])
        assert api.balance(player) == 10_000 - 100 + step["win"]["minor"]
        replays_identically(api, body["round_id"])
        books_balance(api)


def _tsar_out_of(deployment: Deployment, market: str) -> None:
    path = deployment.markets / f"{market}.toml"
    text = path.read_text(encoding="utf-8")
    start = text.index("[games.days-of-the-tsar]")
    end = text.find("\n[", start + 1)
    path.write_text(text[:start] + (text[end + 1 :] if end >= 0 else ""), encoding="utf-8")


def _open_tsar_win(api: Api, market: str, deposit: str, bet: dict[str, Any]) -> tuple[str, Any]:
    player = api.player(market=market, deposit=deposit)
    api.login(player)
    body = api.spin(TSAR, bet, tsar_win(), gamble=True).json()
    assert body["status"] == "open", body
    return player, body


def test_a_title_taken_out_of_its_market_still_finishes_its_open_rounds(deployment):
    with deployment.serve() as api:
        _player, body = _open_tsar_win(api, "jp", "10000", YEN_TSAR_BET)
    _tsar_out_of(deployment, "jp")
    with deployment.serve() as api:
        collected = api.act(TSAR, body["round_id"], "collect")
        assert collected.status_code == 200, collected.text
        assert collected.json()["win"]["minor"] == body["round"]["win_minor"]
        refused = api.spin(TSAR, YEN_TSAR_BET)
        assert refused.status_code == 403 and refused.json()["code"] == "game_not_offered"
        books_balance(api)


def test_a_player_whose_market_is_gone_finishes_the_round_and_is_paid_out(deployment):
    with deployment.serve() as api:
        player, body = _open_tsar_win(
            api, "gb", "20.00", {"lines": 25, "coins_per_line": 1, "coin_size": "0.01"}
        )
        win = body["round"]["win_minor"]
    (deployment.markets / "gb.toml").unlink()
    with deployment.serve() as api:
        collected = api.act(TSAR, body["round_id"], "collect")
        assert collected.status_code == 200, collected.text
        assert collected.json()["balance"]["minor"] == 2000 - 25 + win
        shown = api.op("GET", f"/operator/players/{player}", key=None)
        assert shown.status_code == 200 and shown.json()["market"] == "gb"
        assert shown.json()["balance"]["formatted"].startswith("£")
        out = api.op("POST", f"/operator/players/{player}/withdraw", {"amount": "1.00"})
        assert out.status_code == 200, out.text
        assert api.balance(player) == 2000 - 25 + win - 100
        refused = api.op("POST", f"/operator/players/{player}/deposit", {"amount": "1.00"})
        assert refused.status_code == 409 and refused.json()["code"] == "market_closed"
        assert "gb" in refused.json()["message"]
        spin = api.spin(TSAR, {"lines": 25, "coins_per_line": 1, "coin_size": "0.01"})
        assert spin.status_code == 403 and spin.json()["code"] == "market_closed", spin.text
        books_balance(api)


def test_the_server_tells_at_start_what_its_markets_and_titles_no_longer_cover(deployment, caplog):
    with deployment.serve() as api:
        _open_tsar_win(api, "gb", "20.00", {"lines": 25, "coins_per_line": 1, "coin_size": "0.01"})
        _open_tsar_win(api, "jp", "10000", YEN_TSAR_BET)
        _open_tsar_win(api, "jp", "10000", YEN_TSAR_BET)
    with caplog.at_level("WARNING", logger="reelsmith.server"), deployment.serve():
        pass
    assert not [r for r in caplog.records if "no longer" in r.getMessage()]
    (deployment.markets / "gb.toml").unlink()
    _tsar_out_of(deployment, "jp")
    with caplog.at_level("WARNING", logger="reelsmith.server"), deployment.serve():
        pass
    told = sorted(r.getMessage() for r in caplog.records if "no longer" in r.getMessage())
    assert told == [
        "1 player of market 'gb', which is no longer served: their open rounds finish at their"
        " own terms and their money can be withdrawn, but nothing new starts",
        "2 open rounds of title 'days-of-the-tsar' in market 'jp', which no longer offers it:"
        " they finish at their own terms",
    ]


def test_the_resolver_finishes_open_rounds_of_a_title_or_market_taken_away(deployment):
    """Rounds left open in a title dropped from its market and in a market removed are
    resolved after the delay at their own price, with the rest; none is set aside."""
    with deployment.serve() as api:
        jp_player, jp_round = _open_tsar_win(api, "jp", "10000", YEN_TSAR_BET)
        gb_player, gb_round = _open_tsar_win(
            api, "gb", "20.00", {"lines": 25, "coins_per_line": 1, "coin_size": "0.01"}
        )
    _tsar_out_of(deployment, "jp")
    (deployment.markets / "gb.toml").unlink()
    deployment.clock.advance(days=2, seconds=1)
    with deployment.serve() as api:
        answer = api.op("POST", "/operator/jobs/resolve-stale-rounds", key=None)
        assert answer.status_code == 200, answer.text
        assert sorted(answer.json()["resolved"]) == sorted(
            [jp_round["round_id"], gb_round["round_id"]]
        )
        assert answer.json()["set_aside"] == []
        assert api.balance(jp_player) == 10000 - 25 + jp_round["round"]["win_minor"]
        assert api.balance(gb_player) == 2000 - 25 + gb_round["round"]["win_minor"]
        assert api.op("GET", "/operator/audit/payouts", key=None).json()["ok"]
        books_balance(api)
