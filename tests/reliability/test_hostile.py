"""Hostile input: every refusal is a 4xx naming what is wrong, and nothing is written.

Each case snapshots the player's balance, the ledger, the rounds and the audit log, sends the
bad request and checks the snapshot is unchanged. Both databases. A refusal its handler
decided is remembered under its Idempotency-Key (one row more, holding that very refusal);
one refused before (authentication, a malformed body) is not.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from sqlalchemy import text

from reelsmith.server import tokens
from tests.reliability import figures
from tests.server.forcing import TSAR_BET, tsar_no_win, tsar_trigger, tsar_win

TSAR = "days-of-the-tsar"
SULTAN = "sultan-spins"


def snapshot(api: Any, player: str) -> tuple[int, ...]:
    """Everything a refused request must leave as it was."""
    with api.db.read() as connection:
        counts = tuple(
            int(connection.execute(text(f"SELECT COUNT(*) FROM {table}")).scalar_one())
            for table in (
                "ledger_transactions",
                "postings",
                "rounds",
                "round_steps",
                "audit_log",
                "players",
                "idempotency_keys",
            )
        )
    return (api.balance(player), *counts)


def refused(api: Any, player: str, send: Any, status: int, code: str | None = None) -> Any:
    before = snapshot(api, player)
    response = send()
    figures.add("inputs")
    figures.add("server_errors", int(response.status_code >= 500))
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) >= {"code", "message"} and body["message"], body
    if code is not None:
        assert body["code"] == code, body
    after = snapshot(api, player)
    assert after[:-1] == before[:-1]
    assert after[-1] - before[-1] in (0, 1)  # the refusal remembered under its key, or not
    return body


BAD_TSAR_BETS = [
    ({"lines": 25, "coins_per_line": -1, "coin_size": "0.01"}, "negative coins"),
    ({"lines": 25, "coins_per_line": 1, "coin_size": "-0.05"}, "negative coin size"),
    ({"lines": 25, "coins_per_line": 0, "coin_size": "0.01"}, "zero coins"),
    ({"lines": 25, "coins_per_line": 1, "coin_size": "0"}, "zero coin size"),
    ({"lines": 25, "coins_per_line": 10**30, "coin_size": "0.01"}, "huge coins"),
    ({"lines": 25, "coins_per_line": 1, "coin_size": "1e999999999"}, "huge coin size"),
    ({"lines": 25, "coins_per_line": 1.5, "coin_size": "0.01"}, "fractional coins"),
    ({"lines": 25, "coins_per_line": 1, "coin_size": "0.015"}, "fractional coin size"),
    ({"lines": 25, "coins_per_line": 1, "coin_size": 0.1 + 0.2}, "inexact float coin size"),
    ({"lines": 25, "coins_per_line": 1, "coin_size": "0.04"}, "coin size not offered"),
    ({"lines": 26, "coins_per_line": 1, "coin_size": "0.01"}, "too many lines"),
    ({"lines": 25, "coins_per_line": 1, "coin_size": "NaN"}, "NaN"),
    ({"lines": 25, "coins_per_line": 1, "coin_size": "Infinity"}, "infinity"),
    ({"lines": True, "coins_per_line": 1, "coin_size": "0.01"}, "boolean lines"),
    ({"lines": [25], "coins_per_line": 1, "coin_size": "0.01"}, "list lines"),
    ({"lines": 25, "coins_per_line": {"a": 1}, "coin_size": "0.01"}, "object coins"),
    ({"lines": 25, "coins_per_line": 1, "coin_size": None}, "null coin size"),
]
BAD_SULTAN_BETS = [
    ("-1.00", "negative"),
    ("0.00", "zero"),
    ("100000000000000000000.00", "huge"),
    ("1e999999999", "huge exponent"),
    ("0.30", "not on the ladder"),
    ("0.201", "fractional cent"),
    ("sNaN", "signalling NaN"),
    ("", "empty"),
    ("1,00", "comma"),
]


@pytest.mark.parametrize(("bet", "why"), BAD_TSAR_BETS, ids=[w for _, w in BAD_TSAR_BETS])
def test_bad_tsar_bets_are_refused(api, bet, why):
    player = api.player()
    api.login(player)
    refused(api, player, lambda: api.spin(TSAR, bet), 400)


@pytest.mark.parametrize(("bet", "why"), BAD_SULTAN_BETS, ids=[w for _, w in BAD_SULTAN_BETS])
def test_bad_sultan_bets_are_refused(api, bet, why):
    player = api.player()
    api.login(player)
    refused(api, player, lambda: api.spin(SULTAN, {"bet": bet}), 400, "invalid_bet")


@pytest.mark.parametrize(
    "amount",
    ["-1.00", "0", "0.00", "0.001", "1e999999999", "1e999990", "-1e999999999", "1e16", "NaN", "x"],
)
def test_bad_amounts_are_refused_quickly(api, amount):
    """Regression: "1e999999999" overflowed the decimal context (a 500), and "1e999990" was
    turned into a million-digit integer under the player's lock (28 s of CPU for 10 bytes)."""
    player = api.player()
    refused(
        api,
        player,
        lambda: api.op("POST", f"/operator/players/{player}/deposit", {"amount": amount}),
        400,
        "invalid_amount",
    )


def test_huge_autoplay_limits_are_refused(api):
    player = api.player()
    api.login(player)
    for name in ("loss_limit", "stop_on_win_above"):
        body = {"bet": TSAR_BET, "rounds": 5, name: "1e999999999"}
        refused(
            api,
            player,
            lambda body=body: api.as_player("POST", f"/api/games/{TSAR}/autoplay", body),
            400,
            f"invalid_{name}",
        )


def test_wrong_currency(api):
    player = api.player()
    refused(
        api,
        player,
        lambda: api.op(
            "POST", f"/operator/players/{player}/deposit", {"amount": "1.00", "currency": "GBP"}
        ),
        400,
        "wrong_currency",
    )
    refused(
        api,
        player,
        lambda: api.op("POST", "/operator/players", {"external_ref": "gbp", "currency": "GBP"}),
        400,
        "wrong_currency",
    )


def test_gamble_without_a_win(api):
    player = api.player()
    api.login(player)
    round_id = api.spin(TSAR, TSAR_BET, tsar_no_win()).json()["round_id"]
    send = lambda: api.act(TSAR, round_id, "gamble", {"choice": "red"})  # noqa: E731
    refused(api, player, send, 409, "round_finished")
    # a round in free spins offers no gamble either
    open_id = api.spin(TSAR, TSAR_BET, tsar_trigger()).json()["round_id"]
    send = lambda: api.act(TSAR, open_id, "gamble", {"choice": "red"})  # noqa: E731
    refused(api, player, send, 409, "gamble_not_available")


def test_a_spin_while_a_round_is_open(api):
    player = api.player()
    api.login(player)
    round_id = api.spin(TSAR, TSAR_BET, tsar_win()).json()["round_id"]
    body = refused(api, player, lambda: api.spin(TSAR, TSAR_BET), 409, "round_open")
    assert body["round_id"] == round_id


def test_expired_forged_and_foreign_tokens(api):
    alice, bob = api.player(), api.player()
    api.login(alice)
    round_id = api.spin(TSAR, TSAR_BET, tsar_win()).json()["round_id"]
    expired = tokens.sign("test-secret-key", tokens.Claims(alice, "s", api.clock.now_ms() - 1))
    forged = tokens.sign("guessed-key", tokens.Claims(alice, "s", api.clock.now_ms() + 10**7))
    body, signature = api.token.split(".")
    tampered = tokens._b64(
        tokens._unb64(body).replace(alice.encode(), bob.encode())
    )  # another player's id under alice's signature
    cases: tuple[tuple[str, str | None], ...] = (
        (expired, "session_expired"),
        (forged, "invalid_token"),
        (f"{tampered}.{signature}", "invalid_token"),
        ("", None),
        ("not-a-token", "invalid_token"),
        ("a.b.c", "invalid_token"),
    )
    for token, code in cases:
        refused(
            api,
            alice,
            lambda token=token: api.client.post(
                f"/api/games/{TSAR}/rounds/{round_id}/collect",
                json={},
                headers={"Authorization": f"Bearer {token}", "Idempotency-Key": api.key()},
            ),
            401,
            code,
        )
    # bob's valid token, alice's round id: the round does not exist for bob
    api.login(bob)
    for action, payload in (("collect", {}), ("gamble", {"choice": "red"}), ("free-spin", {})):
        refused(
            api,
            alice,
            lambda action=action, payload=payload: api.act(TSAR, round_id, action, payload),
            404,
            "not_found",
        )
    refused(api, alice, lambda: api.as_player("GET", f"/api/history/rounds/{round_id}"), 404)


def test_oversized_and_malformed_bodies(api):
    player = api.player()
    api.login(player)
    headers = {"Authorization": f"Bearer {api.token}", "Content-Type": "application/json"}
    path = f"/api/games/{TSAR}/spin"

    def post(content: bytes, **extra: str) -> Any:
        return api.client.post(
            path, content=content, headers={**headers, "Idempotency-Key": api.key(), **extra}
        )

    for content, status in (
        (b"{not json", 400),
        (b"", 400),
        (b"null", 400),
        (b"[1, 2]", 400),
        (b'"a string"', 400),
        (b'{"bet": "25"}', 400),
        (b'{"bet": {"lines": 25}, "bet": 1}', 400),
        (b"\xff\xfe\x00", 400),
        (b'{"bet": {"lines": 25, "coins_per_line": 1, "coin_size": "0.01"}, "x": 1}', 400),
        (b'{"bet": {}, "forced_draws": [' + b"1," * 500 + b"1]}", 400),
        (b'{"bet": {"lines": 25}, "pad": "' + b"a" * 70_000 + b'"}', 413),
        (b"[" * 60_000 + b"]" * 60_000, 413),
        (b"[" * 30_000 + b"]" * 30_000, 400),
    ):
        refused(api, player, lambda content=content: post(content), status)
    refused(api, player, lambda: post(b'{"bet": {}}', **{"Content-Length": "99999999"}), 413)
    refused(api, player, lambda: post(b"<xml/>", **{"Content-Type": "application/xml"}), 415)


@pytest.mark.parametrize(
    "where",
    ["external_ref", "player_path", "round_path", "autoplay_path", "autoplay_id", "choice"],
)
def test_nul_characters_are_refused(api, where):
    """Regression: PostgreSQL text cannot hold NUL, so these were 500s there (and SQLite
    stored an external_ref with a NUL in it)."""
    player = api.player()
    api.login(player)
    round_id = api.spin(TSAR, TSAR_BET, tsar_win()).json()["round_id"]
    sends = {
        "external_ref": lambda: api.op(
            "POST", "/operator/players", {"external_ref": "a\x00b", "currency": "EUR"}
        ),
        "player_path": lambda: api.op("GET", "/operator/players/a%00b", key=None),
        "round_path": lambda: api.as_player("GET", "/api/history/rounds/a%00b"),
        "autoplay_path": lambda: api.as_player("POST", "/api/autoplay/a%00/stop"),
        "autoplay_id": lambda: api.spin(TSAR, TSAR_BET, autoplay_id="\x00"),
        "choice": lambda: api.act(TSAR, round_id, "gamble", {"choice": "red\x00"}),
    }
    refused(api, player, sends[where], 400, "invalid_request")


def test_idempotency_keys_that_do_not_fit(api):
    player = api.player()
    send = lambda: api.op(  # noqa: E731
        "POST", f"/operator/players/{player}/deposit", {"amount": "1.00"}, key="k" * 129
    )
    refused(api, player, send, 400, "invalid_idempotency_key")
    send = lambda: api.op(  # noqa: E731
        "POST", f"/operator/players/{player}/deposit", {"amount": "1.00"}, key=None
    )
    refused(api, player, send, 400, "idempotency_key_required")


def test_unknown_ids(api):
    player = api.player()
    api.login(player)
    ghost = str(uuid.uuid4())
    refused(api, player, lambda: api.act(TSAR, ghost, "collect"), 404, "not_found")
    refused(api, player, lambda: api.op("GET", f"/operator/players/{ghost}", key=None), 404)
    refused(
        api,
        player,
        lambda: api.op("POST", f"/operator/players/{ghost}/deposit", {"amount": "1.00"}),
        404,
    )
    refused(api, player, lambda: api.as_player("POST", f"/api/autoplay/{ghost}/stop"), 404)
    refused(api, player, lambda: api.spin("no-such-game", TSAR_BET), 404, "unknown_game")
