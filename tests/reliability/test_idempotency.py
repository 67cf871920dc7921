"""Idempotency of every state-changing endpoint, on both databases.

For each one: the first call with a key is applied; the same call replayed with the same key
returns the same status and the same bytes and changes nothing (balance, ledger, rounds, steps,
audit entries, autoplays, game state); the same key with a different body (or path) is a 409
``idempotency_key_reused`` that changes nothing either.

Endpoints without a key, by design: ``POST /operator/players/{id}/sessions`` and
``POST /demo/session`` issue a new session on every call (a login moves no money);
``POST /operator/rounds/{id}/replay`` only reads; ``POST /operator/jobs/resolve-stale-rounds``
is idempotent by what it does (a second run finds nothing left to resolve), checked below.
"""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import text

from tests.reliability import figures
from tests.server.forcing import (
    HEART_CARD,
    SPADE_CARD,
    TSAR_BET,
    tsar_free_no_egg,
    tsar_no_win,
    tsar_trigger,
    tsar_win,
)

TSAR = "days-of-the-tsar"
SULTAN = "sultan-spins"
TABLES = (
    "players",
    "accounts",
    "ledger_transactions",
    "postings",
    "rounds",
    "round_steps",
    "audit_log",
    "autoplays",
    "game_states",
    "sessions",
)


def state(api: Any) -> tuple[Any, ...]:
    """Every row count and every balance: what a replay must not move."""
    with api.db.read() as connection:
        counts = tuple(
            connection.execute(text(f"SELECT COUNT(*) FROM {t}")).scalar_one() for t in TABLES
        )
        balances = tuple(
            connection.execute(text("SELECT id, balance FROM accounts ORDER BY id")).all()
        )
        rounds = tuple(
            connection.execute(
                text("SELECT id, status, win_minor, updated_ms FROM rounds ORDER BY id")
            ).all()
        )
        autoplays = tuple(
            connection.execute(
                text("SELECT id, status, remaining FROM autoplays ORDER BY id")
            ).all()
        )
    return counts, balances, rounds, autoplays


def replayed_and_refused(
    api: Any, send: Any, body: dict[str, Any] | None, other: Any, status: int = 200
) -> Any:
    """``send(body, key)`` once, again with the same key, then ``other(key)`` (a different
    request under the same key)."""
    key = api.key()
    first = send(body, key)
    assert first.status_code == status, first.text
    after_first = state(api)
    again = send(body, key)
    assert again.status_code == first.status_code
    assert again.content == first.content  # the same bytes, not just the same JSON
    assert state(api) == after_first
    reused = other(key)
    assert reused.status_code == 409, reused.text
    assert reused.json()["code"] == "idempotency_key_reused"
    assert state(api) == after_first
    figures.add("requests", 3)
    figures.add("replays")
    return first.json()


@pytest.fixture
def player(api):
    player_id = api.player(deposit="100.00")
    api.login(player_id)
    return player_id


def test_create_player(api):
    def create_player(body, key):
        return api.op("POST", "/operator/players", body, key=key)

    replayed_and_refused(
        api,
        create_player,
        {"external_ref": "idem-a", "currency": "EUR"},
        lambda key: create_player({"external_ref": "idem-b", "currency": "EUR"}, key),
        201,
    )


@pytest.mark.parametrize("kind", ["deposit", "withdraw"])
def test_deposit_and_withdraw(api, player, kind):
    def transfer(body, key):
        return api.op("POST", f"/operator/players/{player}/{kind}", body, key=key)

    replayed_and_refused(
        api, transfer, {"amount": "5.00"}, lambda key: transfer({"amount": "6.00"}, key)
    )


@pytest.mark.parametrize("game", [TSAR, SULTAN])
def test_spin(api, player, game):
    bet = TSAR_BET if game == TSAR else {"bet": "1.00"}
    forced = tsar_no_win() if game == TSAR else None

    def spin(body, key):
        return api.as_player("POST", f"/api/games/{game}/spin", body, key=key)

    body = {"bet": bet, **({"forced_draws": forced} if forced else {})}
    first = replayed_and_refused(
        api, spin, body, lambda key: spin({**body, "autoplay_id": "other"}, key)
    )
    assert api.balance(player) == 10_000 - first["bet"]["minor"] + first["win"]["minor"] * (
        first["status"] == "complete"
    )


def test_free_spin(api, player):
    round_id = api.spin(TSAR, TSAR_BET, tsar_trigger()).json()["round_id"]

    def free_spin(body, key):
        return api.as_player(
            "POST", f"/api/games/{TSAR}/rounds/{round_id}/free-spin", body, key=key
        )

    first = replayed_and_refused(
        api,
        free_spin,
        {"forced_draws": tsar_free_no_egg()},
        lambda key: free_spin({}, key),
    )
    assert len(first["round"]["spins"]) == 2  # one free spin played, not two


def test_gamble_and_collect(api, player):
    round_id = api.spin(TSAR, TSAR_BET, tsar_win()).json()["round_id"]
    base = f"/api/games/{TSAR}/rounds/{round_id}"

    def gamble(body, key):
        return api.as_player("POST", f"{base}/gamble", body, key=key)

    won = replayed_and_refused(
        api,
        gamble,
        {"choice": "red", "forced_draws": [HEART_CARD]},
        lambda key: gamble({"choice": "black", "forced_draws": [SPADE_CARD]}, key),
    )
    assert len(won["round"]["gambles"]) == 1

    def collect(body, key):
        return api.as_player("POST", f"{base}/collect", body, key=key)

    paid = replayed_and_refused(api, collect, {}, lambda key: gamble({"choice": "red"}, key))
    assert paid["status"] == "complete"
    assert api.balance(player) == 10_000 - 250 + paid["win"]["minor"]


def test_autoplay_start_and_stop(api, player):
    def autoplay(body, key):
        return api.as_player("POST", f"/api/games/{TSAR}/autoplay", body, key=key)

    started = replayed_and_refused(
        api,
        autoplay,
        {"bet": TSAR_BET, "rounds": 5},
        lambda key: autoplay({"bet": TSAR_BET, "rounds": 6}, key),
        201,
    )
    other = autoplay({"bet": TSAR_BET, "rounds": 3}, api.key()).json()

    def stop(_body, key):
        return api.as_player("POST", f"/api/autoplay/{started['id']}/stop", key=key)

    replayed_and_refused(
        api,
        stop,
        None,
        lambda key: api.as_player("POST", f"/api/autoplay/{other['id']}/stop", key=key),
    )


def test_keys_are_per_player(api):
    """Two players may use the same key: each gets their own result."""
    alice, bob = api.player(deposit=None), api.player(deposit=None)
    for player in (alice, bob):
        response = api.op(
            "POST", f"/operator/players/{player}/deposit", {"amount": "3.00"}, key="shared"
        )
        assert response.status_code == 200 and response.json()["id"] == player
    assert api.balance(alice) == api.balance(bob) == 300


def test_the_resolution_job_resolves_a_round_once(api, player):
    api.spin(TSAR, TSAR_BET, tsar_trigger())
    api.clock.advance(days=2, seconds=1)
    first = api.op("POST", "/operator/jobs/resolve-stale-rounds", key=None).json()["resolved"]
    after = state(api)
    again = api.op("POST", "/operator/jobs/resolve-stale-rounds", key=None).json()["resolved"]
    assert len(first) == 1 and again == [] and state(api) == after
