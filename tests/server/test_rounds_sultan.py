"""Sultan Spins rounds through the API: pots and meter per bet size, gems, free spins, bet
lowering. Both databases."""

from __future__ import annotations

import json

from tests.server.forcing import NEAR_POTS, NEW_POTS, SULTAN, sultan_stops

GAME = "sultan-spins"


def setup(api, deposit="100.00"):
    player = api.player(deposit=deposit)
    api.login(player)
    return player


def state(api, bet):
    return api.as_player(
        "GET", f"/api/games/{GAME}/state", params={"bet": json.dumps({"bet": bet})}
    ).json()


def reveal(outcome):
    from reelsmith.engine.ladder import ladder_rules

    table = ladder_rules(SULTAN).gem_reveal(SULTAN.variant("94.00"))
    return sum(table.weights[: table.outcomes.index(outcome)])


def test_pots_start_at_their_seeds_and_a_gem_raises_one(api):
    setup(api)
    before = state(api, "1.00")["carried_state"]
    assert before["pots_minor"] == [200, 500, 2500, 10000, 50000]
    assert before["caps_minor"] == [2500, 5000, 25000, 125000, 500000]
    body = api.spin(
        GAME, {"bet": "1.00"}, [*NEW_POTS, *sultan_stops(gem_reels=(2,)), reveal("ten")]
    ).json()
    assert body["status"] == "complete", body
    assert body["round"]["pots_minor"][2] == 2600
    after = state(api, "1.00")["carried_state"]
    assert after["pots_minor"] == [200, 500, 2600, 10000, 50000]
    assert "triggers" not in json.dumps(after)


def test_a_new_round_records_its_rules_version_and_draws_its_trigger_points_below_the_cap(api):
    setup(api)
    body = api.spin(GAME, {"bet": "1.00"}, [*NEW_POTS, *sultan_stops()]).json()
    record = api.op("GET", f"/operator/rounds/{body['round_id']}", key=None).json()["record"]
    assert record["rules_version"] == 2
    assert [d[:2] for d in record["draws"][:5]] == [
        ["jackpot_trigger_teal", 22],
        ["jackpot_trigger_blue", 44],
        ["jackpot_trigger_green", 224],
        ["jackpot_trigger_purple", 1149],
        ["jackpot_trigger_red", 4499],
    ]


def test_pots_are_kept_per_bet_size(api):
    setup(api)
    api.spin(GAME, {"bet": "1.00"}, [*NEW_POTS, *sultan_stops(gem_reels=(0,)), reveal("ace")])
    assert state(api, "1.00")["carried_state"]["pots_minor"][0] == 300
    assert state(api, "2.00")["carried_state"]["pots_minor"][0] == 400  # seed 2x at 2.00


def test_jackpot_spin_pays_the_pot(api):
    player = setup(api)
    # teal's trigger drawn as seed + 1 = 3: the first gem on reel 1 takes the pot to it
    body = api.spin(GAME, {"bet": "2.00"}, [*NEAR_POTS, *sultan_stops(gem_reels=(0,)), 0]).json()
    gem = body["round"]["spins"][0]["gems"][0]
    assert gem["reveal"] == "jackpot" and gem["jackpot_bets"] == 3
    ledger_kinds = api.op("GET", f"/operator/rounds/{body['round_id']}", key=None).json()
    assert ledger_kinds["round"]["jackpot_coins"] == 3 * 40
    assert api.balance(player) == 10000 - 200 + body["win"]["minor"]
    assert body["win"]["minor"] >= 600


def test_two_bonus_symbols_fill_a_spot(api):
    setup(api)
    api.spin(GAME, {"bet": "1.00"}, [*NEW_POTS, *sultan_stops(bonus_reels=(0, 3))])
    assert state(api, "1.00")["carried_state"]["meter"] == 1


def test_free_spins_round(api):
    player = setup(api)
    body = api.spin(GAME, {"bet": "1.00"}, [*NEW_POTS, *sultan_stops(bonus_reels=(0, 2, 4))]).json()
    assert (
        body["status"] == "open"
        and body["round"]["level"] == 1
        and body["round"]["level_spins_left"] == 7
    )
    quiet = sultan_stops(reel_set="free_spins")
    for _ in range(7):
        body = api.act(GAME, body["round_id"], "free-spin", {"forced_draws": quiet}).json()
        assert body["round"]["multiplier"] == 1
    assert body["status"] == "complete" and len(body["round"]["spins"]) == 8
    assert api.balance(player) == 10000 - 100 + body["win"]["minor"]


def test_bet_off_the_market_ladder(api):
    setup(api)
    response = api.spin(GAME, {"bet": "0.30"})
    assert response.status_code == 400 and response.json()["code"] == "invalid_bet"
    response = api.spin(GAME, {"bet": 1.0})
    assert response.status_code == 400


def test_bet_is_lowered_and_the_response_says_so(api):
    setup(api, deposit="1.50")
    body = api.spin(GAME, {"bet": "2.00"}, [*NEW_POTS, *sultan_stops()]).json()
    assert body["bet_lowered"] == {"from": {"bet": "2.00"}, "to": {"bet": "1.20"}}
    assert body["bet"]["minor"] == 120


def test_below_the_lowest_bet(api):
    setup(api, deposit="0.19")
    response = api.spin(GAME, {"bet": "1.00"})
    assert response.status_code == 402 and response.json()["code"] == "insufficient_balance"


def test_a_corrupted_stored_state_is_a_logged_500_and_takes_nothing(sqlite_api, caplog):
    import logging

    from sqlalchemy import text

    api = sqlite_api
    player = setup(api)
    played = api.spin(GAME, {"bet": "1.00"}, [*NEW_POTS, *sultan_stops(), 0]).json()
    assert played["status"] == "complete", played
    balance = api.balance(player)
    for broken in ('{"pots": [1, 2], "triggers": [3, 4], "meter": 0}', "{not json", '{"meter": 1}'):
        with api.db.write() as connection:
            connection.execute(
                text("UPDATE game_states SET state = :state WHERE player_id = :player"),
                {"state": broken, "player": player},
            )
        caplog.clear()
        response = api.spin(GAME, {"bet": "1.00"})
        # the server's fault, not the player's request: a 500 naming it, nothing taken
        assert response.status_code == 500, response.text
        assert response.json()["code"] == "game_state_corrupt"
        assert api.balance(player) == balance
        assert api.as_player("GET", f"/api/games/{GAME}/state").json()["open_round"] is None
        logged = [r for r in caplog.records if r.levelno == logging.ERROR]
        assert any(
            "stored sultan-spins state" in r.getMessage() and player in r.getMessage()
            for r in logged
        ), [r.getMessage() for r in logged]
    # another bet size's state is untouched and plays
    assert api.spin(GAME, {"bet": "2.00"}).status_code == 200
