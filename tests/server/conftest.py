"""Fixtures for the game server's tests: the real app over SQLite and over PostgreSQL.

PostgreSQL runs when ``REELSMITH_TEST_DATABASE_URL`` is set (CI sets it); each test gets its
own schema, dropped afterwards.
"""

from __future__ import annotations

import os
import uuid
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import text

from reelsmith.rng import RandomSource
from reelsmith.server.app import create_app
from reelsmith.server.clock import ManualClock
from reelsmith.server.settings import Settings
from reelsmith.store.db import Database

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

OPERATOR_KEY = "test-operator-key"
SECRET = "test-secret-key"
PG_URL = os.environ.get("REELSMITH_TEST_DATABASE_URL")


def make_database(kind: str, tmp_path: Any) -> tuple[Database, str | None]:
    if kind == "sqlite":
        return Database(f"sqlite:///{tmp_path}/server.db"), None
    if not PG_URL:
        pytest.skip("PostgreSQL tests need REELSMITH_TEST_DATABASE_URL")
    schema = f"t_{uuid.uuid4().hex[:12]}"
    return Database(PG_URL, schema=schema, pool_size=5), schema


def drop_schema(schema: str) -> None:
    admin = Database(PG_URL or "", pool_size=1)
    with admin.engine.connect() as connection:
        connection.execute(text("SET lock_timeout = 0"))  # a test's sessions may linger
        connection.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        connection.commit()
    admin.dispose()


@contextmanager
def scratch_database(kind: str, tmp_path: Any, *statements: str) -> Iterator[Database]:
    """A migrated database of ``kind`` (PostgreSQL: in a schema of its own) after
    ``statements`` ran in one write; disposed of (the schema dropped) afterwards."""
    db, schema = make_database(kind, tmp_path)
    try:
        db.migrate()  # on PostgreSQL, creates the test's schema
        with db.write() as connection:
            for statement in statements:
                connection.exec_driver_sql(statement)
        yield db
    finally:
        db.dispose()
        if schema:
            drop_schema(schema)


@contextmanager
def older_release(
    kind: str, tmp_path: Any, revision: str, clock: ManualClock, external_ref: str
) -> Iterator[Database]:
    """A database of ``kind`` migrated only to ``revision``, as an older release left it,
    holding that release's player ``old-player`` (``external_ref``) with an empty euro wallet;
    disposed of (a PostgreSQL schema dropped) afterwards."""
    db, schema = make_database(kind, tmp_path)
    try:
        db.migrate(revision)
        with db.write() as connection:
            connection.execute(
                text(
                    "INSERT INTO players (id, external_ref, currency, market, created_ms)"
                    " VALUES ('old-player', :ref, 'EUR', 'default', :now)"
                ),
                {"ref": external_ref, "now": clock.now_ms()},
            )
            connection.execute(
                text(
                    "INSERT INTO accounts (player_id, name, currency, balance)"
                    " VALUES ('old-player', 'wallet:old-player', 'EUR', 0)"
                )
            )
        yield db
    finally:
        db.dispose()
        if schema:
            drop_schema(schema)


def app_over(db: Database, clock: ManualClock, **settings: Any) -> Any:
    """Today's server over ``db`` (which it migrates to the newest revision), resolver off."""
    config = {"secret_key": SECRET, "operator_api_key": OPERATOR_KEY, "dev_mode": True}
    return create_app(
        Settings.load(**config, **settings), clock=clock, database=db, run_resolver=False
    )


class Api:
    """A test client that knows the operator key and can play as a player."""

    def __init__(self, client: TestClient, clock: ManualClock, db: Database) -> None:
        self.client = client
        self.clock = clock
        self.db = db
        self.token: str | None = None

    @staticmethod
    def key() -> str:
        return uuid.uuid4().hex

    def op(self, method: str, path: str, json: Any = None, key: str | None = "auto") -> Any:
        headers = {"X-API-Key": OPERATOR_KEY}
        if key is not None:
            headers["Idempotency-Key"] = self.key() if key == "auto" else key
        return self.client.request(method, path, json=json, headers=headers)

    def player(
        self,
        external_ref: str | None = None,
        market: str = "default",
        deposit: str | None = "100.00",
    ) -> str:
        currency = {"default": "EUR", "de": "EUR", "gb": "GBP", "jp": "JPY"}[market]
        response = self.op(
            "POST",
            "/operator/players",
            {"external_ref": external_ref or self.key(), "currency": currency, "market": market},
        )
        assert response.status_code == 201, response.text
        player_id = str(response.json()["id"])
        if deposit:
            assert (
                self.op(
                    "POST", f"/operator/players/{player_id}/deposit", {"amount": deposit}
                ).status_code
                == 200
            )
        return player_id

    def login(self, player_id: str) -> str:
        response = self.op("POST", f"/operator/players/{player_id}/sessions", key=None)
        assert response.status_code == 201, response.text
        self.token = str(response.json()["token"])
        return self.token

    def as_player(
        self,
        method: str,
        path: str,
        json: Any = None,
        key: str | None = "auto",
        token: str | None = None,
        **kwargs: Any,
    ) -> Any:
        headers = {"Authorization": f"Bearer {token or self.token}"}
        if key is not None and method != "GET":
            headers["Idempotency-Key"] = self.key() if key == "auto" else key
        return self.client.request(method, path, json=json, headers=headers, **kwargs)

    def spin(
        self, game: str, bet: dict[str, Any], forced: list[int] | None = None, **extra: Any
    ) -> Any:
        body: dict[str, Any] = {"bet": bet, **extra}
        if forced is not None:
            body["forced_draws"] = forced
        return self.as_player("POST", f"/api/games/{game}/spin", body)

    def act(self, game: str, round_id: str, action: str, body: dict[str, Any] | None = None) -> Any:
        return self.as_player("POST", f"/api/games/{game}/rounds/{round_id}/{action}", body or {})

    def balance(self, player_id: str) -> int:
        return int(
            self.op("GET", f"/operator/players/{player_id}", key=None).json()["balance"]["minor"]
        )


def build(
    kind: str, tmp_path: Any, rng: RandomSource | None = None, **settings: Any
) -> Iterator[Api]:
    db, schema = make_database(kind, tmp_path)
    config = {"secret_key": SECRET, "operator_api_key": OPERATOR_KEY, "dev_mode": True, **settings}
    clock = ManualClock()
    app = create_app(Settings.load(**config), clock=clock, rng=rng, database=db, run_resolver=False)
    try:
        with TestClient(app, raise_server_exceptions=False) as client:
            yield Api(client, clock, db)
    finally:
        db.dispose()
        if schema:
            drop_schema(schema)


@pytest.fixture(params=["sqlite", "postgresql"])
def api(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[Api]:
    yield from build(request.param, tmp_path)


@pytest.fixture
def sqlite_api(tmp_path: Any) -> Iterator[Api]:
    yield from build("sqlite", tmp_path)
