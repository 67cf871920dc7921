"""An Idempotency-Key remembers the response of any request its handler decided, refusals
included: a retry with the same key and body gets the first response, byte for byte, and can
never turn a refusal into a payment later. A 429 (send it again later) is not remembered, nor
is a request refused before its handler (authentication, a malformed body)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import text

from tests.server.forcing import TSAR_BET, tsar_no_win, tsar_win

TSAR = "days-of-the-tsar"
SULTAN = "sultan-spins"


def deposit(api: Any, player: str, amount: str) -> None:
    response = api.op("POST", f"/operator/players/{player}/deposit", {"amount": amount})
    assert response.status_code == 200, response.text


def test_a_spin_refused_for_its_balance_stays_refused(api):
    player = api.player(deposit=None)
    api.login(player)
    key = api.key()
    body = {"bet": TSAR_BET, "forced_draws": tsar_no_win()}
    first = api.as_player("POST", f"/api/games/{TSAR}/spin", body, key=key)
    assert first.status_code == 402 and first.json()["code"] == "insufficient_balance"
    deposit(api, player, "10.00")
    again = api.as_player("POST", f"/api/games/{TSAR}/spin", body, key=key)
    assert again.status_code == 402 and again.content == first.content
    assert api.balance(player) == 1000  # nothing played
    other = api.as_player("POST", f"/api/games/{TSAR}/spin", {**body, "gamble": False}, key=key)
    assert other.status_code == 409 and other.json()["code"] == "idempotency_key_reused"
    fresh = api.as_player("POST", f"/api/games/{TSAR}/spin", body)
    assert fresh.status_code == 200


def test_a_withdrawal_refused_for_its_balance_never_pays_out(api):
    player = api.player(deposit="1.00")
    key = api.key()
    path = f"/operator/players/{player}/withdraw"
    first = api.op("POST", path, {"amount": "5.00"}, key=key)
    assert first.status_code == 402
    deposit(api, player, "10.00")
    again = api.op("POST", path, {"amount": "5.00"}, key=key)
    assert again.status_code == 402 and again.content == first.content
    assert api.balance(player) == 1100


def test_a_spin_refused_for_an_open_round_does_not_start_one_later(api):
    player = api.player()
    api.login(player)
    open_id = api.spin(TSAR, TSAR_BET, tsar_win()).json()["round_id"]  # waits for the gamble
    key = api.key()
    body = {"bet": TSAR_BET, "forced_draws": tsar_no_win()}
    first = api.as_player("POST", f"/api/games/{TSAR}/spin", body, key=key)
    assert first.status_code == 409 and first.json()["round_id"] == open_id
    assert api.act(TSAR, open_id, "collect").status_code == 200
    balance = api.balance(player)
    again = api.as_player("POST", f"/api/games/{TSAR}/spin", body, key=key)
    assert again.status_code == 409 and again.content == first.content
    assert api.balance(player) == balance


def test_refused_round_steps_and_autoplay_are_remembered(api):
    player = api.player()
    api.login(player)
    done = api.spin(TSAR, TSAR_BET, tsar_no_win()).json()["round_id"]
    key = api.key()
    path = f"/api/games/{TSAR}/rounds/{done}/collect"
    first = api.as_player("POST", path, {}, key=key)
    assert first.status_code == 409 and first.json()["code"] == "round_finished"
    assert api.as_player("POST", path, {}, key=key).content == first.content
    key = api.key()
    body = {"bet": {"bet": "3.33"}, "rounds": 5}
    first = api.as_player("POST", f"/api/games/{SULTAN}/autoplay", body, key=key)
    assert first.status_code == 400 and first.json()["code"] == "invalid_bet"
    assert api.as_player("POST", f"/api/games/{SULTAN}/autoplay", body, key=key).content == (
        first.content
    )


def test_a_player_creation_refused_is_remembered(api):
    api.player(external_ref="carol")
    key = api.key()
    body = {"external_ref": "carol", "currency": "EUR"}
    first = api.op("POST", "/operator/players", body, key=key)
    assert first.status_code == 409 and first.json()["code"] == "player_exists"
    assert api.op("POST", "/operator/players", body, key=key).content == first.content


def test_a_429_is_not_remembered(api):
    """A minimum round duration's 429 says: send the same request later. It does."""
    player = api.player(market="gb")
    api.login(player)
    api.spin(TSAR, {**TSAR_BET, "coins_per_line": 1}, tsar_no_win())
    key = api.key()
    body = {"bet": {**TSAR_BET, "coins_per_line": 1}, "forced_draws": tsar_no_win()}
    first = api.as_player("POST", f"/api/games/{TSAR}/spin", body, key=key)
    assert first.status_code == 429 and first.json()["code"] == "min_round_duration"
    api.clock.advance(seconds=3)
    again = api.as_player("POST", f"/api/games/{TSAR}/spin", body, key=key)
    assert again.status_code == 200, again.text


def test_a_request_refused_before_its_handler_is_not_remembered(api):
    player = api.player(deposit=None)
    api.login(player)
    key = api.key()
    bad = api.as_player("POST", f"/api/games/{TSAR}/spin", {"bet": TSAR_BET, "x": 1}, key=key)
    assert bad.status_code == 400
    good = api.as_player("POST", f"/api/games/{TSAR}/spin", {"bet": TSAR_BET}, key=key)
    assert good.status_code == 402  # the key was free: this body is its first request


def test_a_spin_s_answer_is_stored_as_sent_and_sent_again_byte_for_byte(api):
    """The answer goes to the client and to the key's row as the same UTF-8 bytes (the
    market's currency sign included), stored as text; a retry gets those bytes again."""
    player = api.player()
    api.login(player)
    key = api.key()
    body = {"bet": TSAR_BET, "forced_draws": tsar_win()}
    first = api.as_player("POST", f"/api/games/{TSAR}/spin", body, key=key)
    assert first.status_code == 200
    assert "€".encode() in first.content  # the formatted amounts: not plain ASCII
    with api.db.read() as connection:
        stored = connection.execute(
            text("SELECT response FROM idempotency_keys WHERE key = :key"), {"key": key}
        ).scalar_one()
    assert isinstance(stored, str) and stored.encode() == first.content
    again = api.as_player("POST", f"/api/games/{TSAR}/spin", body, key=key)
    assert again.status_code == 200 and again.content == first.content
    assert api.balance(player) == first.json()["balance"]["minor"]  # played once


def test_a_step_with_nothing_to_say_takes_an_empty_body(api):
    player = api.player()
    token = api.login(player)
    open_id = api.spin(TSAR, TSAR_BET, tsar_win()).json()["round_id"]  # waits for the gamble
    headers = {"Authorization": f"Bearer {token}"}
    # a gamble needs its choice: an empty body is refused naming it, and the round stays open
    refused = api.client.post(f"/api/games/{TSAR}/rounds/{open_id}/gamble", headers=headers)
    assert refused.status_code == 400, refused.text
    assert refused.json() == {"code": "invalid_request", "message": "choice: Field required"}
    balance = api.balance(player)
    collected = api.client.post(
        f"/api/games/{TSAR}/rounds/{open_id}/collect",
        headers={**headers, "Idempotency-Key": api.key()},
    )
    assert collected.status_code == 200, collected.text
    assert collected.json()["round_id"] == open_id and api.balance(player) > balance
