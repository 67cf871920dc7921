"""Players, sessions and the wallet through the operator API, on both databases."""

from __future__ import annotations

import pytest


def test_create_player_deposit_withdraw(api):
    player = api.player(deposit=None)
    assert api.balance(player) == 0
    response = api.op("POST", f"/operator/players/{player}/deposit", {"amount": "50.25"})
    assert response.status_code == 200
    assert response.json()["balance"] == {"minor": 5025, "amount": "50.25", "formatted": "€50.25"}
    response = api.op("POST", f"/operator/players/{player}/withdraw", {"amount": "10.00"})
    assert response.json()["balance"]["minor"] == 4025


def test_withdrawal_never_overdraws(api):
    player = api.player(deposit="5.00")
    response = api.op("POST", f"/operator/players/{player}/withdraw", {"amount": "5.01"})
    assert response.status_code == 402 and response.json()["code"] == "insufficient_balance"
    assert api.balance(player) == 500


@pytest.mark.parametrize(
    ("amount", "code"),
    [
        ("0.001", "invalid_amount"),
        ("-5.00", "invalid_amount"),
        ("0", "invalid_amount"),
        ("abc", "invalid_amount"),
        ("1e30", "invalid_amount"),
    ],
)
def test_bad_amounts(api, amount, code):
    player = api.player(deposit=None)
    response = api.op("POST", f"/operator/players/{player}/deposit", {"amount": amount})
    assert response.status_code == 400 and response.json()["code"] == code
    assert api.balance(player) == 0


def test_float_amount_is_refused(api):
    player = api.player(deposit=None)
    response = api.op("POST", f"/operator/players/{player}/deposit", {"amount": 10.5})
    assert response.status_code == 400 and response.json()["code"] == "invalid_request"


def test_wrong_currency(api):
    response = api.op(
        "POST", "/operator/players", {"external_ref": "x1", "currency": "GBP", "market": "default"}
    )
    assert response.status_code == 400 and response.json()["code"] == "wrong_currency"
    player = api.player()
    response = api.op(
        "POST", f"/operator/players/{player}/deposit", {"amount": "1.00", "currency": "USD"}
    )
    assert response.status_code == 400 and response.json()["code"] == "wrong_currency"


def test_unknown_market_and_duplicate_player(api):
    response = api.op(
        "POST", "/operator/players", {"external_ref": "x", "currency": "EUR", "market": "mars"}
    )
    assert response.status_code == 400 and response.json()["code"] == "unknown_market"
    api.player(external_ref="same")
    response = api.op("POST", "/operator/players", {"external_ref": "same", "currency": "EUR"})
    assert response.status_code == 409 and response.json()["code"] == "player_exists"


def test_operator_endpoints_need_the_api_key(api):
    response = api.client.post(
        "/operator/players",
        json={"external_ref": "a", "currency": "EUR"},
        headers={"Idempotency-Key": "k"},
    )
    assert response.status_code == 401 and response.json()["code"] == "invalid_api_key"
    response = api.client.get("/operator/ledger/verify", headers={"X-API-Key": "wrong"})
    assert response.status_code == 401


class TestIdempotency:
    def test_a_retry_returns_the_original_response_and_moves_no_money(self, api):
        player = api.player(deposit=None)
        first = api.op(
            "POST", f"/operator/players/{player}/deposit", {"amount": "20.00"}, key="dep-1"
        )
        again = api.op(
            "POST", f"/operator/players/{player}/deposit", {"amount": "20.00"}, key="dep-1"
        )
        assert first.status_code == again.status_code == 200
        assert first.json() == again.json()
        assert api.balance(player) == 2000

    def test_the_same_key_with_another_body_is_a_conflict(self, api):
        player = api.player(deposit=None)
        api.op("POST", f"/operator/players/{player}/deposit", {"amount": "20.00"}, key="dep-2")
        response = api.op(
            "POST", f"/operator/players/{player}/deposit", {"amount": "30.00"}, key="dep-2"
        )
        assert response.status_code == 409 and response.json()["code"] == "idempotency_key_reused"
        assert api.balance(player) == 2000

    def test_state_changing_calls_need_a_key(self, api):
        player = api.player(deposit=None)
        response = api.op(
            "POST", f"/operator/players/{player}/deposit", {"amount": "1.00"}, key=None
        )
        assert response.status_code == 400 and response.json()["code"] == "idempotency_key_required"

    def test_player_creation_retry(self, api):
        body = {"external_ref": "idem", "currency": "EUR"}
        first = api.op("POST", "/operator/players", body, key="create-1")
        again = api.op("POST", "/operator/players", body, key="create-1")
        assert first.status_code == again.status_code == 201 and first.json() == again.json()


class TestSessions:
    def test_a_token_sees_its_own_player_only(self, api):
        alice, bob = api.player(), api.player()
        token = api.login(alice)
        me = api.as_player("GET", "/api/me")
        assert me.status_code == 200 and me.json()["id"] == alice
        assert me.json()["market"]["currency"] == "EUR"
        api.login(bob)
        response = api.spin(
            "days-of-the-tsar", {"lines": 1, "coins_per_line": 1, "coin_size": "0.01"}
        )
        round_id = response.json()["round_id"]
        other = api.as_player("GET", f"/api/history/rounds/{round_id}", token=token)
        assert other.status_code == 404

    def test_expired_tokens_are_refused(self, api):
        api.login(api.player())
        assert api.as_player("GET", "/api/me").status_code == 200
        api.clock.advance(seconds=3601)
        response = api.as_player("GET", "/api/me")
        assert response.status_code == 401 and response.json()["code"] == "session_expired"

    @pytest.mark.parametrize("token", ["", "abc", "abc.def", "eyJzdWIiOiJ4In0.AAAA"])
    def test_forged_or_malformed_tokens(self, api, token):
        response = api.client.get("/api/me", headers={"Authorization": f"Bearer {token}"})
        assert response.status_code == 401 and response.json()["code"] in (
            "invalid_token",
            "missing_token",
        )

    def test_a_token_signed_with_another_key(self, api):
        from reelsmith.server import tokens

        player = api.player()
        forged = tokens.sign(
            "not-the-server-key", tokens.Claims(player, "s", api.clock.now_ms() + 10**6)
        )
        response = api.client.get("/api/me", headers={"Authorization": f"Bearer {forged}"})
        assert response.status_code == 401 and response.json()["code"] == "invalid_token"


def test_ledger_and_audit_verify(api):
    player = api.player()
    api.op("POST", f"/operator/players/{player}/withdraw", {"amount": "1.00"})
    ledger = api.op("GET", "/operator/ledger/verify", key=None).json()
    assert ledger["ok"] and ledger["transactions"] == 2
    audit = api.op("GET", "/operator/audit/verify", key=None).json()
    assert audit["ok"] and audit["entries"] == 3
