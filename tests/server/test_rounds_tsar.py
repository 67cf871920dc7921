"""Days of the Tsar rounds through the API: spin, free spins one request at a time, gamble,
collect; money and round state together. Both databases."""

from __future__ import annotations

from tests.server.forcing import (
    HEART_CARD,
    SPADE_CARD,
    TSAR_BET,
    tsar_free_no_egg,
    tsar_no_win,
    tsar_trigger,
    tsar_win,
)

GAME = "days-of-the-tsar"


def setup(api, deposit="100.00"):
    player = api.player(deposit=deposit)
    api.login(player)
    return player


def test_a_losing_spin_takes_the_bet_and_completes(api):
    player = setup(api)
    response = api.spin(GAME, TSAR_BET, tsar_no_win())
    body = response.json()
    assert response.status_code == 200, body
    assert body["status"] == "complete" and body["win"]["minor"] == 0
    assert body["bet"]["minor"] == 250
    assert body["balance"]["minor"] == 10000 - 250 == api.balance(player)


def test_a_win_waits_for_gamble_or_collect_and_is_paid_on_collect(api):
    player = setup(api)
    body = api.spin(GAME, TSAR_BET, tsar_win()).json()
    assert body["status"] == "open" and body["win"]["minor"] > 0
    assert (
        "collect" in body["round"]["actions_allowed"]
        and "gamble red" in body["round"]["actions_allowed"]
    )
    assert api.balance(player) == 10000 - 250  # not paid until collected
    win = body["win"]["minor"]
    collected = api.act(GAME, body["round_id"], "collect").json()
    assert collected["status"] == "complete"
    assert collected["balance"]["minor"] == 10000 - 250 + win == api.balance(player)


def test_a_spin_without_the_gamble_pays_its_win_at_once(api):
    player = setup(api)
    body = api.spin(GAME, TSAR_BET, tsar_win(), gamble=False).json()
    win = body["win"]["minor"]
    assert win > 0 and body["status"] == "complete", body
    assert body["round"]["actions_allowed"] == [] and body["round"]["gamble_choices"] == []
    assert body["balance"]["minor"] == 10000 - 250 + win == api.balance(player)
    # the choice is part of the round's record: the replay gives the same round
    replay = api.op("POST", f"/operator/rounds/{body['round_id']}/replay", key=None).json()
    assert replay["identical"] is True, replay
    # the next spin needs no collect first, and by default the gamble is offered again
    again = api.spin(GAME, TSAR_BET, tsar_win()).json()
    assert again["status"] == "open" and "collect" in again["round"]["actions_allowed"]


def test_free_spins_without_the_gamble_end_with_their_last_spin(api):
    player = setup(api)
    body = api.spin(GAME, TSAR_BET, tsar_trigger(), gamble=False).json()
    round_id = body["round_id"]
    while body["status"] == "open":
        assert body["round"]["actions_allowed"] == ["free_spin"]
        body = api.act(GAME, round_id, "free-spin", {"forced_draws": tsar_free_no_egg()}).json()
    assert body["status"] == "complete" and body["win"]["minor"] > 0
    assert api.balance(player) == 10000 - 250 + body["win"]["minor"]


def test_gamble_choice_must_be_a_boolean(api):
    player = setup(api)
    response = api.spin(GAME, TSAR_BET, tsar_win(), gamble="no")
    assert response.status_code == 400 and "gamble" in response.json()["message"]
    assert api.balance(player) == 10000


def test_gamble_win_doubles_and_loss_loses(api):
    player = setup(api)
    body = api.spin(GAME, TSAR_BET, tsar_win()).json()
    win = body["win"]["minor"]
    doubled = api.act(
        GAME, body["round_id"], "gamble", {"choice": "red", "forced_draws": [HEART_CARD]}
    ).json()
    assert doubled["status"] == "open" and doubled["win"]["minor"] == 2 * win
    assert doubled["round"]["gambles"][0]["card"] == "2 of hearts"
    lost = api.act(
        GAME, body["round_id"], "gamble", {"choice": "hearts", "forced_draws": [SPADE_CARD]}
    ).json()
    assert lost["status"] == "complete" and lost["win"]["minor"] == 0
    assert api.balance(player) == 10000 - 250


def test_gamble_without_a_win_is_refused(api):
    setup(api)
    body = api.spin(GAME, TSAR_BET, tsar_no_win()).json()
    response = api.act(GAME, body["round_id"], "gamble", {"choice": "red"})
    assert response.status_code == 409 and response.json()["code"] == "round_finished"


def test_unknown_gamble_choice(api):
    setup(api)
    body = api.spin(GAME, TSAR_BET, tsar_win()).json()
    response = api.act(GAME, body["round_id"], "gamble", {"choice": "purple"})
    assert response.status_code == 409 and response.json()["code"] == "action_not_allowed"


def test_free_spins_are_played_one_request_at_a_time(api):
    player = setup(api)
    body = api.spin(GAME, TSAR_BET, tsar_trigger()).json()
    assert body["status"] == "open"
    assert body["round"]["free_spins_remaining"] == 9 and body["round"]["actions_allowed"] == [
        "free_spin"
    ]
    round_id = body["round_id"]
    # a new spin is refused while the round is open
    blocked = api.spin(GAME, TSAR_BET)
    assert blocked.status_code == 409 and blocked.json()["code"] == "round_open"
    assert blocked.json()["round_id"] == round_id
    played = 0
    while body["round"]["actions_allowed"] == ["free_spin"]:
        body = api.act(GAME, round_id, "free-spin", {"forced_draws": tsar_free_no_egg()}).json()
        played += 1
    assert played == 9 and len(body["round"]["spins"]) == 10
    if body["status"] == "open":  # a win: collect it
        body = api.act(GAME, round_id, "collect").json()
    assert body["status"] == "complete"
    assert api.balance(player) == 10000 - 250 + body["win"]["minor"]


def test_free_spin_outside_free_spins_is_refused(api):
    setup(api)
    body = api.spin(GAME, TSAR_BET, tsar_win()).json()
    response = api.act(GAME, body["round_id"], "free-spin")
    assert response.status_code == 409 and response.json()["code"] == "action_not_allowed"


def test_insufficient_balance(api):
    setup(api, deposit="0.20")
    response = api.spin(GAME, {"lines": 25, "coins_per_line": 1, "coin_size": "0.01"})
    assert response.status_code == 402 and response.json()["code"] == "insufficient_balance"


def test_bet_is_lowered_when_the_balance_falls_short(api):
    player = setup(api, deposit="1.00")
    body = api.spin(
        GAME, {"lines": 25, "coins_per_line": 4, "coin_size": "0.05"}, tsar_no_win()
    ).json()
    assert body["bet_lowered"] == {
        "from": {"lines": 25, "coins_per_line": 4, "coin_size": "0.05"},
        "to": {"lines": 25, "coins_per_line": 2, "coin_size": "0.02"},
    }
    assert body["bet"]["minor"] == 100 and api.balance(player) == 0


def test_a_spin_retry_with_the_same_key_is_not_played_twice(api):
    player = setup(api)
    body = {"bet": TSAR_BET, "forced_draws": tsar_no_win()}
    first = api.as_player("POST", f"/api/games/{GAME}/spin", body, key="spin-1")
    again = api.as_player("POST", f"/api/games/{GAME}/spin", body, key="spin-1")
    assert first.json() == again.json()
    assert api.balance(player) == 10000 - 250
    other = api.as_player("POST", f"/api/games/{GAME}/spin", {"bet": TSAR_BET}, key="spin-1")
    assert other.status_code == 409 and other.json()["code"] == "idempotency_key_reused"


def test_malfunction_voids_and_refunds(tmp_path, caplog):
    import logging

    from tests.server.conftest import build

    class Broken:
        def randbelow(self, bound, purpose):
            raise OSError("entropy source failed")

    for api in build("sqlite", tmp_path, rng=Broken()):
        player = setup(api)
        body = api.spin(GAME, TSAR_BET).json()
        assert body["status"] == "voided"
        assert body["round"]["void_reason"].startswith("OSError")
        assert api.balance(player) == 10000
        # the void is logged for an operator, with the round, the player and the reason
        voids = [r for r in caplog.records if "voided" in r.getMessage()]
        assert len(voids) == 1 and voids[0].levelno == logging.WARNING
        message = voids[0].getMessage()
        assert body["round_id"] in message and player in message
        assert "OSError" in message and "250 minor units returned" in message
        ledger = api.op("GET", "/operator/ledger/verify", key=None).json()
        assert ledger["ok"]
