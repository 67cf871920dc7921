"""Responsible play on the server: the market settings (reality check, what an autoplay must
have and stop on), the session's start for the client's clock, and autoplay stopping on a
jackpot and on a balance change. Both databases."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from reelsmith.server.markets import MARKETS_DIR, MarketError, load_market, load_markets
from tests.server.forcing import NEAR_POTS, TSAR_BET, sultan_stops, tsar_no_win

TSAR = "days-of-the-tsar"
SULTAN = "sultan-spins"


def require(api, **flags):
    """Make the default market require what ``flags`` name (as a market file would)."""
    service = api.client.app.state.service
    markets = service.context.markets
    markets["default"] = dataclasses.replace(markets["default"], **flags)


def start(api, game, bet, **settings):
    return api.as_player(
        "POST", f"/api/games/{game}/autoplay", {"bet": bet, "rounds": 10, **settings}
    )


# -- market files --------------------------------------------------------------------------


def test_the_shipped_markets_set_their_responsible_play():
    markets = load_markets()
    assert markets["gb"].reality_check_minutes == 60 and markets["gb"].show_session_net
    default = markets["default"]
    assert default.reality_check_minutes == 0
    assert not default.autoplay_requires_loss_limit
    assert not default.autoplay_requires_stop_on_jackpot
    assert not default.autoplay_requires_stop_on_balance_change


def market_file(tmp_path: Path, replace: dict[str, str]) -> Path:
    text = (MARKETS_DIR / "gb.toml").read_text()
    for old, new in replace.items():
        assert old in text
        text = text.replace(old, new)
    path = tmp_path / "gb.toml"
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("replace", "message"),
    [
        ({"reality_check_minutes = 60": "reality_check_minutes = -5"}, r"from 0 \(none\) to 1440"),
        ({"reality_check_minutes = 60": "reality_check_minutes = true"}, "whole number"),
        ({"reality_check_minutes = 60": 'reality_check_minutes = "60"'}, "whole number"),
        ({"show_session_net = true": "show_session_net = false"}, "needs show_session_net"),
        (
            {"reality_check_minutes = 60": "autoplay_requires_loss_limit = 1"},
            "autoplay_requires_loss_limit must be true or false",
        ),
    ],
)
def test_bad_responsible_play_settings_are_refused_by_name(tmp_path, replace, message):
    with pytest.raises(MarketError, match=message):
        load_market(market_file(tmp_path, replace))


def test_a_market_may_leave_the_new_settings_out(tmp_path):
    market = load_market(market_file(tmp_path, {"reality_check_minutes = 60\n": ""}))
    assert market.reality_check_minutes == 0 and not market.autoplay_requires_loss_limit


def test_the_client_reads_the_settings_and_the_session_start(api):
    api.login(api.player(market="gb"))
    api.clock.advance(seconds=95)
    me = api.as_player("GET", "/api/me").json()
    assert me["market"]["reality_check_minutes"] == 60
    assert me["market"]["autoplay_requires_loss_limit"] is False
    assert me["server_ms"] - me["session_started_ms"] == 95_000
    assert me["server_ms"] == api.clock.now_ms()


# -- what the market requires of an autoplay ----------------------------------------------


def test_a_market_that_requires_a_loss_limit_refuses_an_autoplay_without_one(api):
    api.login(api.player())
    require(api, autoplay_requires_loss_limit=True)
    refused = start(api, TSAR, TSAR_BET)
    assert refused.status_code == 400 and refused.json()["code"] == "loss_limit_required"
    assert "requires a loss limit" in refused.json()["message"]
    assert start(api, TSAR, TSAR_BET, loss_limit="20.00").status_code == 201


def test_the_stops_a_market_requires_apply_whatever_the_player_chose(api):
    api.login(api.player())
    chosen = start(api, TSAR, TSAR_BET, stop_on_jackpot=True).json()
    assert chosen["stop_on_jackpot"] is True and chosen["stop_on_balance_change"] is False
    require(
        api, autoplay_requires_stop_on_jackpot=True, autoplay_requires_stop_on_balance_change=True
    )
    forced = start(api, TSAR, TSAR_BET, stop_on_jackpot=False).json()
    assert forced["stop_on_jackpot"] is True and forced["stop_on_balance_change"] is True


def test_bad_stop_flags_are_refused_by_name(api):
    api.login(api.player())
    for name in ("stop_on_jackpot", "stop_on_balance_change"):
        response = start(api, TSAR, TSAR_BET, **{name: "maybe"})
        assert response.status_code == 400, response.text
        assert name in response.json()["message"]


# -- stopping ------------------------------------------------------------------------------


@pytest.mark.parametrize("stop", [True, False])
def test_a_jackpot_stops_an_autoplay_that_asks_for_it(api, stop):
    api.login(api.player())
    auto = start(api, SULTAN, {"bet": "2.00"}, stop_on_jackpot=stop).json()
    # teal's trigger at seed + 1: the first gem on reel 1 takes the pot (as in the rounds tests)
    body = api.spin(
        SULTAN,
        {"bet": "2.00"},
        [*NEAR_POTS, *sultan_stops(gem_reels=(0,)), 0],
        autoplay_id=auto["id"],
    ).json()
    assert body["round"]["spins"][0]["gems"][0]["reveal"] == "jackpot"
    if stop:
        assert body["autoplay"]["status"] == "stopped"
        assert body["autoplay"]["stop_reason"] == "jackpot"
    else:
        assert body["autoplay"]["status"] == "active"


def test_a_balance_change_outside_the_autoplay_stops_it_before_its_next_spin(api):
    player = api.player()
    api.login(player)
    auto = start(api, TSAR, TSAR_BET, stop_on_balance_change=True).json()
    for _ in range(2):  # its own rounds change the balance: no stop
        body = api.spin(TSAR, TSAR_BET, tsar_no_win(), autoplay_id=auto["id"]).json()
        assert body["autoplay"]["status"] == "active"
    assert (
        api.op("POST", f"/operator/players/{player}/deposit", {"amount": "5.00"}).status_code == 200
    )
    balance = api.balance(player)
    refused = api.spin(TSAR, TSAR_BET, tsar_no_win(), autoplay_id=auto["id"])
    assert refused.status_code == 409 and refused.json()["code"] == "autoplay_finished"
    assert refused.json()["autoplay"]["stop_reason"] == "balance_changed"
    assert api.balance(player) == balance  # the refused spin took no bet
    # the stop was kept: the next try finds the autoplay stopped, and so does the game state
    again = api.spin(TSAR, TSAR_BET, tsar_no_win(), autoplay_id=auto["id"])
    assert again.status_code == 409 and again.json()["autoplay"]["status"] == "stopped"
    assert api.as_player("GET", f"/api/games/{TSAR}/state").json()["autoplay"] is None


def test_without_the_stop_a_deposit_leaves_the_autoplay_running(api):
    player = api.player()
    api.login(player)
    auto = start(api, TSAR, TSAR_BET).json()
    api.spin(TSAR, TSAR_BET, tsar_no_win(), autoplay_id=auto["id"])
    api.op("POST", f"/operator/players/{player}/deposit", {"amount": "5.00"})
    body = api.spin(TSAR, TSAR_BET, tsar_no_win(), autoplay_id=auto["id"]).json()
    assert body["autoplay"]["status"] == "active" and body["autoplay"]["remaining"] == 8
