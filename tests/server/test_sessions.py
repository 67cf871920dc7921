"""Sessions end: the player's logout, an operator's revocation (one session or all of a
player's), a disabled player; every token is checked against its session row, so a token of
a session that was revoked, expired or deleted is refused (401)."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import text

from reelsmith.server.app import create_app
from reelsmith.server.settings import Settings
from tests.server.conftest import OPERATOR_KEY, SECRET, Api, drop_schema, make_database
from tests.server.forcing import TSAR_BET, tsar_no_win

TSAR = "days-of-the-tsar"


def spin(api: Any, token: str) -> Any:
    return api.as_player(
        "POST",
        f"/api/games/{TSAR}/spin",
        {"bet": TSAR_BET, "forced_draws": tsar_no_win()},
        token=token,
    )


def test_logout_ends_the_session_at_once(api):
    player = api.player()
    token = api.login(player)
    other = api.login(player)
    assert api.as_player("GET", "/api/me", token=token).status_code == 200
    response = api.as_player("POST", "/api/session/logout", token=token)
    assert response.status_code == 200 and response.json()["revoked"] is True
    for refused in (api.as_player("GET", "/api/me", token=token), spin(api, token)):
        assert refused.status_code == 401 and refused.json()["code"] == "session_revoked"
    assert spin(api, other).status_code == 200  # the player's other session plays on


def test_an_operator_revokes_one_session_or_all(api):
    player = api.player()
    first, second, third = (api.login(player) for _ in range(3))
    session = api.client.get("/api/me", headers={"Authorization": f"Bearer {first}"}).json()
    response = api.op("POST", f"/operator/sessions/{session['session_id']}/revoke", key=None)
    assert response.status_code == 200 and response.json()["revoked"] == [session["session_id"]]
    assert api.as_player("GET", "/api/me", token=first).status_code == 401
    assert api.as_player("GET", "/api/me", token=second).status_code == 200
    response = api.op("POST", f"/operator/players/{player}/sessions/revoke", key=None)
    assert response.status_code == 200 and len(response.json()["revoked"]) == 2
    for token in (second, third):
        assert spin(api, token).status_code == 401
    unknown = api.op("POST", "/operator/sessions/no-such-session/revoke", key=None)
    assert unknown.status_code == 404


def test_a_disabled_player_has_no_session_and_plays_no_round(api):
    player = api.player()
    token = api.login(player)
    response = api.op("POST", f"/operator/players/{player}/disable", key=None)
    assert response.status_code == 200 and response.json()["disabled"] is True
    refused = spin(api, token)
    assert refused.status_code == 401 and refused.json()["code"] in (
        "player_disabled",
        "session_revoked",
    )
    new = api.op("POST", f"/operator/players/{player}/sessions", key=None)
    assert new.status_code == 403 and new.json()["code"] == "player_disabled"
    # the operator still pays the player out
    withdraw = api.op("POST", f"/operator/players/{player}/withdraw", {"amount": "10.00"})
    assert withdraw.status_code == 200
    assert (
        api.op("POST", f"/operator/players/{player}/enable", key=None).json()["disabled"] is False
    )
    assert spin(api, api.login(player)).status_code == 200
    assert api.as_player("GET", "/api/me", token=token).status_code == 401  # ended for good


@pytest.mark.parametrize("change", ["delete", "expire"])
def test_a_token_plays_only_while_its_row_says_so(api, change):
    """Regression: the token was never checked against its row, so it played after the row
    was expired or deleted."""
    player = api.player()
    token = api.login(player)
    session_id = api.as_player("GET", "/api/me", token=token).json()["session_id"]
    with api.db.write() as connection:
        if change == "delete":
            connection.execute(text("DELETE FROM sessions WHERE id = :id"), {"id": session_id})
        else:
            connection.execute(
                text("UPDATE sessions SET expires_ms = :now WHERE id = :id"),
                {"id": session_id, "now": api.clock.now_ms()},
            )
    # a state-changing request reads the row in its own transaction: refused at once
    response = spin(api, token)
    assert response.status_code == 401, response.text
    assert (
        response.json()["code"]
        == {"delete": "session_not_found", "expire": "session_expired"}[change]
    )
    # a read, within the recheck bound
    api.clock.advance(ms=1000)
    assert api.as_player("GET", "/api/me", token=token).status_code == 401


def test_a_write_s_own_session_read_keeps_the_cache_fresh(api):
    """A state-changing request reads its session's row in its own transaction; that read
    refreshes this process's cache of live sessions, so a player who keeps playing has the
    row read no second time outside the transaction (a blocking round trip on the event
    loop). A session nothing read for ``session_recheck_ms`` is read again."""
    live = api.client.app.state.sessions
    player = api.player()
    token = api.login(player)
    assert spin(api, token).status_code == 200
    reads = live.reads
    for _ in range(4):  # 3.6 s in all: the routes' own check would have read the row twice
        api.clock.advance(ms=900)
        assert spin(api, token).status_code == 200
    assert live.reads == reads
    api.clock.advance(ms=1000)
    assert api.as_player("GET", "/api/me", token=token).status_code == 200
    assert live.reads == reads + 1


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_revocation_elsewhere_holds_for_writes_at_once_and_reads_within_the_bound(tmp_path, kind):
    """Two server processes on one database (two apps, each its own cache of live
    sessions): a session revoked through one is refused by the other's writes at once and by
    its reads once ``session_recheck_ms`` has passed."""
    from fastapi.testclient import TestClient

    from reelsmith.server.clock import ManualClock

    db, schema = make_database(kind, tmp_path)
    clock = ManualClock()
    config = {"secret_key": SECRET, "operator_api_key": OPERATOR_KEY, "dev_mode": True}
    apps = [
        create_app(Settings.load(**config), clock=clock, database=db, run_resolver=False)
        for _ in range(2)
    ]
    try:
        with TestClient(apps[0]) as one, TestClient(apps[1]) as two:
            first, second = Api(one, clock, db), Api(two, clock, db)
            player = first.player()
            token = first.login(player)
            assert second.as_player("GET", "/api/me", token=token).status_code == 200
            first.op("POST", f"/operator/players/{player}/sessions/revoke", key=None)
            assert first.as_player("GET", "/api/me", token=token).status_code == 401
            assert spin(second, token).status_code == 401  # a write: at once
            assert second.as_player("GET", "/api/me", token=token).status_code == 200  # cached
            clock.advance(ms=1000)
            assert second.as_player("GET", "/api/me", token=token).status_code == 401
    finally:
        db.dispose()
        if schema:
            drop_schema(schema)
