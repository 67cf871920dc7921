"""An unexpected error in any endpoint, a player's round step included: answered 500 with
the JSON ``internal_error`` body, logged once on the server's logger with its traceback inside
one JSON line, and never raised on to the HTTP server (which would log it again as plain text
lines and close the connection)."""

from __future__ import annotations

import json
import logging
import warnings

import pytest

from reelsmith.server import logs
from reelsmith.server.app import create_app
from reelsmith.server.clock import ManualClock
from reelsmith.server.settings import Settings
from reelsmith.store.db import Database
from tests.server.conftest import OPERATOR_KEY, SECRET
from tests.server.forcing import TSAR_BET

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


@pytest.fixture
def db(tmp_path):
    db = Database(f"sqlite:///{tmp_path}/server.db")
    yield db
    db.dispose()


@pytest.fixture
def client(db):
    settings = Settings.load(secret_key=SECRET, operator_api_key=OPERATOR_KEY)
    app = create_app(settings, clock=ManualClock(), database=db, run_resolver=False)

    def broken() -> None:
        raise RuntimeError("a bug\nover two lines")

    app.add_api_route("/broken", broken)
    # raise_server_exceptions: an error that reached the HTTP server fails the test
    with TestClient(app, raise_server_exceptions=True) as client:
        yield client


def errors_logged(caplog):
    return [r for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.mark.parametrize("where", ["route", "round step"])
def test_an_internal_error_is_one_json_line_and_a_json_answer(client, db, caplog, where):
    with caplog.at_level(logging.INFO, logger="reelsmith"):
        if where == "route":
            answer = client.get("/broken")
        else:
            player = client.post(
                "/operator/players",
                json={"external_ref": "p", "currency": "EUR", "market": "default"},
                headers={"X-API-Key": OPERATOR_KEY, "Idempotency-Key": "k1"},
            ).json()["id"]
            client.post(
                f"/operator/players/{player}/deposit",
                json={"amount": "10.00"},
                headers={"X-API-Key": OPERATOR_KEY, "Idempotency-Key": "k2"},
            )
            token = client.post(
                f"/operator/players/{player}/sessions", headers={"X-API-Key": OPERATOR_KEY}
            ).json()["token"]
            with db.write() as connection:  # the spin's step has nowhere to go
                connection.exec_driver_sql("DROP TABLE round_steps")
            answer = client.post(
                "/api/games/days-of-the-tsar/spin",
                json={"bet": TSAR_BET},
                headers={"Authorization": f"Bearer {token}", "Idempotency-Key": "k3"},
            )
    assert answer.status_code == 500
    assert answer.json()["code"] == "internal_error"
    assert "a bug" not in answer.text  # no trace to the client
    (logged,) = errors_logged(caplog)
    line = logs.JsonFormatter().format(logged)
    assert "\n" not in line
    entry = json.loads(line)
    assert entry["event"] == "internal_error"
    assert entry["error"] == ("RuntimeError" if where == "route" else "OperationalError")
    assert "Traceback" in entry["exception"]
    # the request line says 500 too
    (request,) = [
        r for r in caplog.records if r.getMessage() == "request" and r.fields["status"] == 500
    ]
    assert request.fields["status"] == 500
