"""``--demo``: the demo player is the one the server marked, never a player an operator made
(whatever its external_ref); demo sessions are reused while half their life is left, and
``POST /demo/session`` is throttled per client address."""

from __future__ import annotations

from typing import Any

from sqlalchemy import text

from reelsmith.server.app import create_app
from reelsmith.server.settings import Settings
from tests.server.conftest import OPERATOR_KEY, SECRET, Api, build
from tests.server.forcing import TSAR_BET, tsar_no_win


def test_the_demo_never_adopts_an_existing_player(tmp_path):
    """Regression: a player the operator created with external_ref "demo" and funded became
    playable by anyone through POST /demo/session."""
    from fastapi.testclient import TestClient

    from reelsmith.server.clock import ManualClock
    from reelsmith.store.db import Database

    db = Database(f"sqlite:///{tmp_path}/demo.db")
    config = {"secret_key": SECRET, "operator_api_key": OPERATOR_KEY, "dev_mode": True}
    clock = ManualClock()
    plain = create_app(Settings.load(**config), clock=clock, database=db, run_resolver=False)
    with TestClient(plain) as client:
        real = Api(client, clock, db).player(external_ref="demo", deposit="5000.00")
    demo = create_app(
        Settings.load(**config, demo=True), clock=clock, database=db, run_resolver=False
    )
    with TestClient(demo) as client:
        api = Api(client, clock, db)
        session = client.post("/demo/session").json()
        me = api.as_player("GET", "/api/me", token=session["token"]).json()
        assert me["id"] != real and me["external_ref"] != "demo"
        assert me["balance"]["amount"] == "1000.00"
        assert api.balance(real) == 500000
    again = create_app(
        Settings.load(**config, demo=True), clock=clock, database=db, run_resolver=False
    )
    with TestClient(again) as client:  # a restart: the same demo player, found by its mark
        token = client.post("/demo/session").json()["token"]
        assert (
            Api(client, clock, db).as_player("GET", "/api/me", token=token).json()["id"] == me["id"]
        )
    with db.read() as connection:
        marked = connection.execute(text("SELECT COUNT(*) FROM players WHERE demo")).scalar_one()
    assert marked == 1
    db.dispose()


def test_demo_sessions_are_reused_and_throttled(tmp_path):
    for api in build("sqlite", tmp_path, demo=True, demo_sessions_burst=4):
        client = api.client
        sessions = [client.post("/demo/session") for _ in range(4)]
        assert all(r.status_code == 201 for r in sessions)
        assert len({r.json()["session_id"] for r in sessions}) == 1
        assert len({r.json()["token"] for r in sessions}) == 1
        refused = client.post("/demo/session")
        assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
        # half the token's life later, a new session
        api.clock.advance(seconds=1801)
        fresh = client.post("/demo/session").json()
        assert fresh["session_id"] != sessions[0].json()["session_id"]
        token = fresh["token"]
        spin = api.as_player(
            "POST",
            "/api/games/days-of-the-tsar/spin",
            {"bet": TSAR_BET, "forced_draws": tsar_no_win()},
            token=token,
        )
        assert spin.status_code == 200
        logout = api.as_player("POST", "/api/session/logout", token=token)
        assert logout.status_code == 403 and logout.json()["code"] == "demo_session_shared"
        with api.db.read() as connection:
            rows = connection.execute(text("SELECT COUNT(*) FROM sessions")).scalar_one()
        assert rows == 2


def test_demo_sessions_are_off_without_demo(api: Any) -> None:
    assert api.client.post("/demo/session").status_code == 404
