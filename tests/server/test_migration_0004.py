"""Migration 0004 on a database an older release made (migrated to 0003, with a player, a
session and a round in it): the columns arrive with their defaults, the old session's token
still plays, and the new behaviour works on the old rows."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from reelsmith.server import tokens
from reelsmith.server.clock import ManualClock
from tests.server.conftest import SECRET, Api, app_over, older_release
from tests.server.forcing import TSAR_BET, tsar_no_win


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_migration_0004_on_a_database_of_0002(kind: str, tmp_path: Any) -> None:
    clock = ManualClock()
    with older_release(kind, tmp_path, "0003", clock, external_ref="demo") as db:
        now = clock.now_ms()
        with db.write() as connection:
            connection.execute(
                text(
                    "INSERT INTO sessions (id, player_id, created_ms, expires_ms)"
                    " VALUES ('old-session', 'old-player', :now, :expires)"
                ),
                {"now": now, "expires": now + 3_600_000},
            )
        app = app_over(db, clock, demo=True)  # migrates to the newest
        with db.read() as connection:
            row = connection.execute(
                text("SELECT demo, disabled_ms FROM players WHERE id = 'old-player'")
            ).one()
            assert not row.demo and row.disabled_ms is None
            assert (
                connection.execute(
                    text("SELECT revoked_ms FROM sessions WHERE id = 'old-session'")
                ).scalar_one()
                is None
            )
        with TestClient(app) as client:
            api = Api(client, clock, db)
            old = tokens.sign(SECRET, tokens.Claims("old-player", "old-session", now + 3_600_000))
            assert api.as_player("GET", "/api/me", token=old).status_code == 200
            # the old player named "demo" is not the demo player
            demo = client.post("/demo/session").json()
            assert api.as_player("GET", "/api/me", token=demo["token"]).json()["id"] != "old-player"
            api.op("POST", "/operator/players/old-player/deposit", {"amount": "10.00"})
            spin = api.as_player(
                "POST",
                "/api/games/days-of-the-tsar/spin",
                {"bet": TSAR_BET, "forced_draws": tsar_no_win()},
                token=old,
            )
            assert spin.status_code == 200, spin.text
            api.op("POST", "/operator/players/old-player/disable", key=None)
            assert api.as_player("GET", "/api/me", token=old).status_code == 401
