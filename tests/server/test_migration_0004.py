"""Migration 0004 on a database an older release made (migrated to 0003, with a player, a
session and a round in it): the columns arrive with their defaults, the old session's token
still plays, and the new behaviour works on the old rows."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from reelsmith.server import tokens
from reelsmith.server.app import create_app
from reelsmith.server.clock import ManualClock
from reelsmith.server.settings import Settings
from tests.server.conftest import OPERATOR_KEY, SECRET, Api, drop_schema, make_database
from tests.server.forcing import TSAR_BET, tsar_no_win


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_migration_0004_on_a_database_of_0002(kind: str, tmp_path: Any) -> None:
    db, schema = make_database(kind, tmp_path)
    clock = ManualClock()
    try:
        db.migrate("0003")
        now = clock.now_ms()
        with db.write() as connection:
            connection.execute(
                text(
                    "INSERT INTO players (id, external_ref, currency, market, created_ms)"
                    " VALUES ('old-player', 'demo', 'EUR', 'default', :now)"
                ),
                {"now": now},
            )
            connection.execute(
                text(
                    "INSERT INTO accounts (player_id, name, currency, balance)"
                    " VALUES ('old-player', 'wallet:old-player', 'EUR', 0)"
                )
            )
            connection.execute(
                text(
                    "INSERT INTO sessions (id, player_id, created_ms, expires_ms)"
                    " VALUES ('old-session', 'old-player', :now, :expires)"
                ),
                {"now": now, "expires": now + 3_600_000},
            )
        config = {"secret_key": SECRET, "operator_api_key": OPERATOR_KEY, "dev_mode": True}
        app = create_app(
            Settings.load(**config, demo=True), clock=clock, database=db, run_resolver=False
        )  # migrates to the newest
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
    finally:
        db.dispose()
        if schema:
            drop_schema(schema)
