"""Bad input gets a 4xx JSON body {code, message}; nothing is half-written; 5xx leak nothing."""

from __future__ import annotations

import json

import pytest

from tests.server.conftest import OPERATOR_KEY
from tests.server.forcing import TSAR_BET, tsar_no_win

GAME = "days-of-the-tsar"


@pytest.mark.parametrize(
    "bet",
    [
        {"lines": -1, "coins_per_line": 1, "coin_size": "0.01"},
        {"lines": 0, "coins_per_line": 1, "coin_size": "0.01"},
        {"lines": 25, "coins_per_line": 10**9, "coin_size": "0.01"},
        {"lines": 25, "coins_per_line": 1.5, "coin_size": "0.01"},
        {"lines": 25, "coins_per_line": 1, "coin_size": "0.03"},
        {"lines": 25, "coins_per_line": 1, "coin_size": "-0.01"},
        {"lines": "25", "coins_per_line": 1, "coin_size": "0.01"},
        {"lines": 25, "coins_per_line": 1},
        {},
    ],
)
def test_bad_tsar_bets(api, bet):
    player = api.player()
    api.login(player)
    response = api.spin(GAME, bet)
    assert response.status_code == 400 and response.json()["code"] == "invalid_bet", response.text
    assert api.balance(player) == 10000


@pytest.mark.parametrize(
    "bet",
    [
        {"bet": "0"},
        {"bet": "-1.00"},
        {"bet": "1e9"},
        {"bet": "0.205"},
        {"bet": None},
        {"amount": "1.00"},
    ],
)
def test_bad_sultan_bets(api, bet):
    player = api.player()
    api.login(player)
    response = api.spin("sultan-spins", bet)
    assert response.status_code == 400, response.text
    assert api.balance(player) == 10000


def test_unknown_game_and_route(api):
    api.login(api.player())
    response = api.spin("book-of-nothing", TSAR_BET)
    assert response.status_code == 404 and response.json()["code"] == "unknown_game"
    response = api.client.get("/api/nowhere")
    assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_another_players_round(api):
    alice, bob = api.player(), api.player()
    api.login(alice)
    round_id = api.spin(GAME, TSAR_BET, tsar_no_win()).json()["round_id"]
    api.login(bob)
    response = api.act(GAME, round_id, "collect")
    assert response.status_code == 404
    response = api.act(GAME, "not-a-round", "collect")
    assert response.status_code == 404


def test_malformed_and_oversized_bodies(api):
    api.login(api.player())
    headers = {
        "Authorization": f"Bearer {api.token}",
        "Idempotency-Key": "k",
        "Content-Type": "application/json",
    }
    response = api.client.post(f"/api/games/{GAME}/spin", content=b"{not json", headers=headers)
    assert response.status_code == 400 and response.json()["code"] == "invalid_request"
    response = api.client.post(f"/api/games/{GAME}/spin", content=b"[1, 2]", headers=headers)
    assert response.status_code == 400
    big = b'{"bet": {"lines": 1}, "x": "' + b"a" * 70_000 + b'"}'
    response = api.client.post(f"/api/games/{GAME}/spin", content=big, headers=headers)
    assert response.status_code == 413 and response.json()["code"] == "body_too_large"
    response = api.client.post(
        f"/api/games/{GAME}/spin", json={"bet": TSAR_BET, "extra": 1}, headers=headers
    )
    assert response.status_code == 400 and "extra" in response.json()["message"]


def test_forced_draws_outside_dev_mode(tmp_path):
    from tests.server.conftest import build

    for api in build("sqlite", tmp_path, dev_mode=False):
        api.login(api.player())
        response = api.spin(GAME, TSAR_BET, tsar_no_win())
        assert response.status_code == 403 and response.json()["code"] == "dev_mode_only"


def test_forced_draws_that_do_not_fit(api):
    player = api.player()
    api.login(player)
    response = api.spin(GAME, TSAR_BET, [999, 0, 0, 0, 0])
    assert response.status_code == 400 and response.json()["code"] == "invalid_forced_draw"
    assert api.balance(player) == 10000


def test_internal_errors_leak_no_trace(tmp_path, monkeypatch):
    from tests.server.conftest import build

    for api in build("sqlite", tmp_path):
        player = api.player()
        api.login(player)
        service = api.client.app.state.service

        def broken(*args, **kwargs):
            raise RuntimeError("secret internals: /etc/passwd")

        monkeypatch.setattr(service.settlement, "settle", broken)
        response = api.spin(GAME, TSAR_BET, tsar_no_win())
        assert response.status_code == 500
        assert response.json() == {
            "code": "internal_error",
            "message": "an internal error occurred; the request was not applied",
        }
        assert "passwd" not in response.text
        # nothing half-written: no bet taken, no round left open
        assert api.balance(player) == 10000
        state = api.as_player("GET", f"/api/games/{GAME}/state").json()
        assert state["open_round"] is None


def test_rate_limit_per_player(tmp_path):
    from tests.server.conftest import build

    for api in build("sqlite", tmp_path, rate_limit_per_second=0.001, rate_limit_burst=5):
        api.login(api.player())
        codes = [api.as_player("GET", "/api/me").status_code for _ in range(7)]
        assert codes[:5] == [200] * 5 and codes[5:] == [429, 429]
        # the bucket runs on the server's clock: it tells how long to wait, and refills as
        # that clock moves (one token per 1,000 s at this rate), never by the wall clock
        refused = api.as_player("GET", "/api/me")
        assert refused.status_code == 429 and refused.headers["retry-after"] == "1000"
        api.clock.advance(seconds=999)
        assert api.as_player("GET", "/api/me").status_code == 429
        api.clock.advance(seconds=1)
        assert api.as_player("GET", "/api/me").status_code == 200
        assert api.as_player("GET", "/api/me").status_code == 429
        other = api.player()
        api.login(other)
        assert api.as_player("GET", "/api/me").status_code == 200


def test_web_client_files_are_revalidated(api):
    index = api.client.get("/")
    assert index.status_code == 200 and index.headers["cache-control"] == "no-cache"
    script = api.client.get("/web/js/main.js")
    assert script.status_code == 200 and script.headers["cache-control"] == "no-cache"
    again = api.client.get("/web/js/main.js", headers={"If-None-Match": script.headers["etag"]})
    assert again.status_code == 304


def test_integers_beyond_64_bits_are_refused_cleanly(api):
    api.login(api.player())
    bet = {"lines": 25, "coins_per_line": 1, "coin_size": "0.01"}
    # refused as the body is read, by name, before any field sees it
    for response in (
        api.spin("days-of-the-tsar", bet, [2**70, -(2**70)]),
        api.spin("days-of-the-tsar", {**bet, "lines": 2**70}),
        api.as_player(
            "POST", "/api/games/days-of-the-tsar/autoplay", {"bet": bet, "rounds": 2**64}
        ),
        api.op("POST", "/operator/players", {"external_ref": 2**63, "currency": "EUR"}),
    ):
        assert response.status_code == 400 and response.json()["code"] == "invalid_request"
        assert "beyond 64 bits" in response.json()["message"]
    response = api.spin("days-of-the-tsar", {**bet, "lines": 2**62})
    assert response.status_code == 400 and response.json()["code"] == "invalid_bet"


def test_an_operator_key_with_non_ascii_characters_is_refused(api):
    # schemathesis found it: compare_digest refuses non-ASCII str, which was a 500
    for key in (b"cl\xe9", b"\xff" * 40):
        response = api.client.get("/operator/ledger/verify", headers={"X-API-Key": key})
        assert response.status_code == 401 and response.json()["code"] == "invalid_api_key"


def test_bodies_are_taken_as_json_only(api):
    """A body without a JSON content type (none, text/plain, a form) is refused with 415 on
    every endpoint that reads one, round steps and FastAPI's routes alike; it was read as
    JSON where the type was missing."""
    player = api.player()
    api.login(player)
    headers = {"Authorization": f"Bearer {api.token}", "Idempotency-Key": "plain"}
    sends = [
        (
            f"/api/games/{GAME}/spin",
            b'{"bet": {"lines": 25, "coins_per_line": 2, "coin_size": "0.05"}}',
        ),
        (
            f"/api/games/{GAME}/autoplay",
            b'{"bet": {"lines": 25, "coins_per_line": 2, "coin_size": "0.05"}, "rounds": 2}',
        ),
    ]
    for path, content in sends:
        for content_type in ("text/plain", "application/x-www-form-urlencoded", None):
            extra = {} if content_type is None else {"Content-Type": content_type}
            response = api.client.post(path, content=content, headers={**headers, **extra})
            assert response.status_code == 415, (path, content_type, response.text)
            assert response.json()["code"] == "unsupported_media_type"
            assert "application/json" in response.json()["message"]
    for path in (f"/operator/players/{player}/deposit", "/operator/players"):
        response = api.client.post(
            path,
            content=b'{"amount": "1.00"}',
            headers={
                "X-API-Key": OPERATOR_KEY,
                "Idempotency-Key": "plain",
                "Content-Type": "text/plain",
            },
        )
        assert response.status_code == 415 and response.json()["code"] == "unsupported_media_type"
    assert api.balance(player) == 10000
    body = json.dumps({"bet": TSAR_BET, "forced_draws": tsar_no_win()}).encode()
    response = api.client.post(
        f"/api/games/{GAME}/spin",
        content=body,
        headers={**headers, "Content-Type": "application/json; charset=utf-8"},
    )
    assert response.status_code == 200, response.text
    assert api.balance(player) == 10000 - 250


def test_round_steps_are_described_in_openapi(api):
    spec = api.client.get("/openapi.json").json()
    steps = {
        "/api/games/{game}/spin": "bet",
        "/api/games/{game}/rounds/{round_id}/free-spin": "forced_draws",
        "/api/games/{game}/rounds/{round_id}/gamble": "choice",
        "/api/games/{game}/rounds/{round_id}/collect": "forced_draws",
    }
    for path, field in steps.items():
        operation = spec["paths"][path]["post"]
        names = {p["name"] for p in operation["parameters"]}
        assert {"authorization", "idempotency-key", "game"} <= names, path
        schema = operation["requestBody"]["content"]["application/json"]["schema"]
        assert operation["requestBody"]["required"] is True
        assert field in schema["properties"] and schema["additionalProperties"] is False, path
