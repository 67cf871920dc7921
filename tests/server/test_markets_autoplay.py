"""Markets (default and gb) and autoplay through the API. Both databases."""

from __future__ import annotations

from tests.server.forcing import TSAR_BET, tsar_free_no_egg, tsar_no_win, tsar_trigger, tsar_win

GAME = "days-of-the-tsar"


def test_gb_market_rules(api):
    player = api.player(market="gb", deposit="50.00")
    api.login(player)
    market = api.as_player("GET", "/api/me").json()["market"]
    assert market["currency"] == "GBP" and market["locale"] == "en_GB"
    assert not market["autoplay"] and not market["turbo"] and not market["slam_stop"]
    assert market["min_round_ms"] == 2500 and market["show_session_net"]
    assert not market["celebrate_wins_not_above_stake"]


def test_gb_refuses_autoplay(api):
    api.login(api.player(market="gb"))
    response = api.as_player("POST", f"/api/games/{GAME}/autoplay", {"bet": TSAR_BET, "rounds": 5})
    assert response.status_code == 403 and response.json()["code"] == "autoplay_not_allowed"


def test_gb_minimum_round_duration(api):
    api.login(api.player(market="gb"))
    bet = {"lines": 25, "coins_per_line": 1, "coin_size": "0.01"}
    assert api.spin(GAME, bet, tsar_no_win()).status_code == 200
    api.clock.advance(ms=2000)
    too_soon = api.spin(GAME, bet, tsar_no_win())
    assert too_soon.status_code == 429 and too_soon.json()["code"] == "min_round_duration"
    assert too_soon.json()["retry_after_ms"] == 500
    api.clock.advance(ms=500)
    assert api.spin(GAME, bet, tsar_no_win()).status_code == 200


def test_gb_session_net_and_no_celebration_of_small_wins(api):
    api.login(api.player(market="gb"))
    bet = {"lines": 25, "coins_per_line": 1, "coin_size": "0.01"}
    body = api.spin(GAME, bet, tsar_no_win()).json()
    assert body["session_net"]["minor"] == -25
    assert body["session_net"]["formatted"] == "-£0.25"
    api.clock.advance(seconds=3)
    body = api.spin(GAME, bet, tsar_win()).json()
    body = api.act(GAME, body["round_id"], "collect").json()
    win = body["win"]["minor"]
    assert body["session_net"]["minor"] == -50 + win
    assert body["celebrate"] is (win > 25)
    # a returning page reads the session's net position from /api/me
    me = api.as_player("GET", "/api/me").json()
    assert me["session_net"] == body["session_net"]


def test_me_has_no_session_net_where_the_market_does_not_show_it(api):
    api.login(api.player())
    api.spin(GAME, {"lines": 25, "coins_per_line": 1, "coin_size": "0.01"}, tsar_no_win())
    assert "session_net" not in api.as_player("GET", "/api/me").json()


def test_gb_max_stake(api):
    api.login(api.player(market="gb"))
    response = api.spin(GAME, {"lines": 25, "coins_per_line": 2, "coin_size": "0.20"})
    assert response.status_code == 400 and "maximum stake 5.00" in response.json()["message"]
    response = api.spin("sultan-spins", {"bet": "10.00"})
    assert response.status_code == 400 and "not offered" in response.json()["message"]


def test_default_market_celebrates_every_win(api):
    api.login(api.player())
    body = api.spin(GAME, TSAR_BET, tsar_win()).json()
    assert body["celebrate"] is True and "session_net" not in body


def test_money_formatted_for_the_locale(api):
    api.login(api.player(market="gb", deposit="1234.50"))
    assert api.as_player("GET", "/api/me").json()["balance"]["formatted"] == "£1,234.50"


class TestAutoplay:
    def test_runs_n_rounds_counting_down(self, api):
        api.login(api.player())
        auto = api.as_player(
            "POST", f"/api/games/{GAME}/autoplay", {"bet": TSAR_BET, "rounds": 3}
        ).json()
        assert auto["remaining"] == 3 and auto["status"] == "active"
        remaining = []
        for _ in range(3):
            body = api.spin(GAME, TSAR_BET, tsar_no_win(), autoplay_id=auto["id"]).json()
            remaining.append(body["autoplay"]["remaining"])
        assert remaining == [2, 1, 0] and body["autoplay"]["status"] == "finished"
        response = api.spin(GAME, TSAR_BET, autoplay_id=auto["id"])
        assert response.status_code == 409 and response.json()["code"] == "autoplay_finished"

    def test_stops_on_a_feature(self, api):
        api.login(api.player())
        auto = api.as_player(
            "POST",
            f"/api/games/{GAME}/autoplay",
            {"bet": TSAR_BET, "rounds": 10, "stop_on_feature": True},
        ).json()
        body = api.spin(GAME, TSAR_BET, tsar_trigger(), autoplay_id=auto["id"]).json()
        assert (
            body["autoplay"]["status"] == "stopped" and body["autoplay"]["stop_reason"] == "feature"
        )

    def test_stops_on_a_single_win_above(self, api):
        api.login(api.player())
        auto = api.as_player(
            "POST",
            f"/api/games/{GAME}/autoplay",
            {"bet": TSAR_BET, "rounds": 10, "stop_on_win_above": "0.01"},
        ).json()
        body = api.spin(GAME, TSAR_BET, tsar_win(), autoplay_id=auto["id"]).json()
        # the win waits for gamble or collect: the round's whole win is judged when it ends
        assert body["status"] == "open" and body["autoplay"]["status"] == "active"
        assert body["autoplay"]["net_minor"] == -250
        done = api.act(GAME, body["round_id"], "collect").json()
        assert done["autoplay"]["stop_reason"] == "single_win_above"
        assert done["autoplay"]["net_minor"] == done["win"]["minor"] - 250

    def test_the_round_counts_when_its_free_spins_end(self, api):
        api.login(api.player())
        auto = api.as_player(
            "POST",
            f"/api/games/{GAME}/autoplay",
            {"bet": TSAR_BET, "rounds": 1, "loss_limit": "1000.00"},
        ).json()
        body = api.spin(GAME, TSAR_BET, tsar_trigger(), autoplay_id=auto["id"]).json()
        assert body["autoplay"]["remaining"] == 0 and body["autoplay"]["status"] == "active"
        refused = api.spin(GAME, TSAR_BET, autoplay_id=auto["id"])
        assert refused.status_code == 409  # its round is still open
        while body["status"] == "open":
            action = "free-spin" if body["round"]["actions_allowed"] == ["free_spin"] else "collect"
            body = api.act(
                GAME,
                body["round_id"],
                action,
                {"forced_draws": tsar_free_no_egg()} if action == "free-spin" else None,
            ).json()
        assert body["autoplay"]["status"] == "finished"
        assert body["autoplay"]["stop_reason"] == "rounds_done"
        assert body["autoplay"]["net_minor"] == body["win"]["minor"] - 250

    def test_stops_on_the_loss_limit(self, api):
        api.login(api.player())
        auto = api.as_player(
            "POST",
            f"/api/games/{GAME}/autoplay",
            {"bet": TSAR_BET, "rounds": 10, "loss_limit": "5.00"},
        ).json()
        body = api.spin(GAME, TSAR_BET, tsar_no_win(), autoplay_id=auto["id"]).json()
        assert body["autoplay"]["status"] == "active" and body["autoplay"]["net_minor"] == -250
        body = api.spin(GAME, TSAR_BET, tsar_no_win(), autoplay_id=auto["id"]).json()
        assert body["autoplay"]["stop_reason"] == "loss_limit"

    def test_the_player_can_stop_it(self, api):
        api.login(api.player())
        auto = api.as_player(
            "POST", f"/api/games/{GAME}/autoplay", {"bet": TSAR_BET, "rounds": 10}
        ).json()
        stopped = api.as_player("POST", f"/api/autoplay/{auto['id']}/stop").json()
        assert stopped["status"] == "stopped" and stopped["stop_reason"] == "player"
        assert api.spin(GAME, TSAR_BET, autoplay_id=auto["id"]).status_code == 409

    def test_bad_autoplay_requests(self, api):
        api.login(api.player())
        for body, code in (
            ({"bet": TSAR_BET, "rounds": 0}, "invalid_request"),
            ({"bet": TSAR_BET, "rounds": 5, "loss_limit": "-1"}, "invalid_loss_limit"),
            ({"bet": {"lines": 99}, "rounds": 5}, "invalid_bet"),
        ):
            response = api.as_player("POST", f"/api/games/{GAME}/autoplay", body)
            assert response.status_code == 400 and response.json()["code"] == code


class TestAutoplayHoldsItsBet:
    def test_a_spin_with_another_bet_is_refused_by_name_and_not_played(self, api):
        player = api.player()
        api.login(player)
        auto = api.as_player(
            "POST", f"/api/games/{GAME}/autoplay", {"bet": TSAR_BET, "rounds": 3}
        ).json()
        assert auto["bet"] == TSAR_BET
        balance = api.balance(player)
        bigger = {**TSAR_BET, "coins_per_line": 5}
        refused = api.spin(GAME, bigger, tsar_no_win(), autoplay_id=auto["id"])
        assert refused.status_code == 409, refused.text
        body = refused.json()
        assert body["code"] == "autoplay_bet_mismatch"
        assert '"coins_per_line":2' in body["message"] and '"coins_per_line":5' in body["message"]
        assert body["autoplay"]["remaining"] == 3 and body["autoplay"]["status"] == "active"
        assert api.balance(player) == balance
        # its own bet still plays, and counts down
        played = api.spin(GAME, TSAR_BET, tsar_no_win(), autoplay_id=auto["id"]).json()
        assert played["autoplay"]["remaining"] == 2

    def test_it_goes_on_at_the_lowered_bet_and_then_holds_that(self, api):
        api.login(api.player(deposit="3.00"))
        auto = api.as_player(
            "POST", f"/api/games/{GAME}/autoplay", {"bet": TSAR_BET, "rounds": 3}
        ).json()
        body = api.spin(GAME, TSAR_BET, tsar_no_win(), autoplay_id=auto["id"]).json()
        # 2.50 staked from 3.00: the balance of 0.50 covers 25 lines x 1 coin at 0.02 (the
        # title lowers coins per line first, then the coin size)
        lowered = {**TSAR_BET, "coins_per_line": 1, "coin_size": "0.02"}
        assert body["next_bet"] == {
            "from": TSAR_BET,
            "to": lowered,
            "total": {"minor": 50, "amount": "0.50", "formatted": "€0.50"},
        }, body.get("next_bet")
        assert body["autoplay"]["bet"] == lowered
        refused = api.spin(GAME, TSAR_BET, tsar_no_win(), autoplay_id=auto["id"])
        assert refused.json()["code"] == "autoplay_bet_mismatch"
        assert api.spin(GAME, lowered, tsar_no_win(), autoplay_id=auto["id"]).status_code == 200


def test_the_lowered_bet_comes_with_the_step_that_lowered_the_balance(api):
    api.login(api.player(deposit="3.00"))
    body = api.spin(GAME, TSAR_BET, tsar_no_win()).json()
    assert body["status"] == "complete" and body["bet_lowered"] is None
    assert body["next_bet"]["to"] == {**TSAR_BET, "coins_per_line": 1, "coin_size": "0.02"}
    # a round that still leaves the bet covered says nothing
    again = api.spin(GAME, body["next_bet"]["to"], tsar_no_win()).json()
    assert "next_bet" not in again


def test_a_lost_gamble_that_ends_the_round_brings_the_lowered_bet(api):
    api.login(api.player(deposit="3.00"))
    body = api.spin(GAME, TSAR_BET, tsar_win()).json()
    assert body["status"] == "open" and "next_bet" not in body  # the win may yet be collected
    lost = api.act(GAME, body["round_id"], "gamble", {"choice": "red", "forced_draws": [51]})
    lost = lost.json()
    assert lost["status"] == "complete" and lost["win"]["minor"] == 0, lost
    assert lost["next_bet"]["from"] == TSAR_BET
    assert lost["next_bet"]["total"]["minor"] <= 50
