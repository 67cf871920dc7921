"""Migration 0006: on PostgreSQL the wide JSON columns compress new values with lz4 (where the
server was built with it), a value stored under pglz before the migration reads back byte for
byte after it, and the downgrade returns the columns to the server's default. On SQLite the
revision changes nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import text

from reelsmith.store.db import MIGRATIONS
from tests.server.conftest import drop_schema, make_database

WIDE = {
    ("rounds", "record"),
    ("rounds", "view"),
    ("round_steps", "view"),
    ("idempotency_keys", "response"),
    ("game_states", "state"),
}
# wide enough to be compressed (a row past about 2 kB), repetitive as a round's JSON is
RESPONSE = json.dumps({"round": [{"line": n, "symbols": ["Jack"] * 5} for n in range(120)]})


def compression(db: Any, schema: str) -> dict[tuple[str, str], str]:
    """The columns' own compression methods ('' for the server's default)."""
    with db.read() as connection:
        rows = connection.execute(
            text(
                "SELECT c.relname, a.attname, a.attcompression FROM pg_attribute a"
                " JOIN pg_class c ON c.oid = a.attrelid"
                " JOIN pg_namespace n ON n.oid = c.relnamespace"
                " WHERE n.nspname = :schema AND a.attnum > 0 AND NOT a.attisdropped"
            ),
            {"schema": schema},
        ).all()
    return {(row.relname, row.attname): row.attcompression for row in rows}


def store_response(db: Any, key: str) -> None:
    with db.write() as connection:
        connection.execute(
            text(
                "INSERT INTO idempotency_keys (scope, key, request_hash, status_code, response,"
                " created_ms) VALUES ('test', :key, 'h', 200, :response, 0)"
            ),
            {"key": key, "response": RESPONSE},
        )


def stored(db: Any, key: str) -> tuple[str, str | None]:
    """The stored response and the method that compressed it (None: stored uncompressed)."""
    with db.read() as connection:
        row = connection.execute(
            text(
                "SELECT response, pg_column_compression(response) AS method"
                " FROM idempotency_keys WHERE key = :key"
            ),
            {"key": key},
        ).one()
    return row.response, row.method


def lz4_built(db: Any) -> bool:
    with db.read() as connection:
        methods = connection.execute(
            text("SELECT enumvals FROM pg_settings WHERE name = 'default_toast_compression'")
        ).scalar()
    return "lz4" in methods


def test_migration_0006_compresses_wide_columns_with_lz4(tmp_path: Any) -> None:
    db, schema = make_database("postgresql", tmp_path)
    assert schema is not None
    try:
        db.migrate("0005")
        if not lz4_built(db):
            pytest.skip("this PostgreSQL server was built without lz4")
        store_response(db, "before")
        assert stored(db, "before") == (RESPONSE, "pglz")  # the server's default

        db.migrate()
        methods = compression(db, schema)
        assert {column for column, method in methods.items() if method == "l"} == WIDE
        assert stored(db, "before") == (RESPONSE, "pglz")  # stored as it was, read the same
        store_response(db, "after")
        assert stored(db, "after") == (RESPONSE, "lz4")

        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        with db.engine.connect() as connection:
            config.attributes["connection"] = connection
            command.downgrade(config, "0005")
            connection.commit()
        assert not any(compression(db, schema).values())
        assert stored(db, "after") == (RESPONSE, "lz4")
    finally:
        db.dispose()
        drop_schema(schema)


def test_migration_0006_leaves_sqlite_as_it_was(tmp_path: Any) -> None:
    db, _ = make_database("sqlite", tmp_path)
    try:
        db.migrate()
        with db.write() as connection:
            connection.execute(
                text(
                    "INSERT INTO idempotency_keys (scope, key, request_hash, status_code,"
                    " response, created_ms) VALUES ('test', 'k', 'h', 200, :response, 0)"
                ),
                {"response": RESPONSE},
            )
        with db.read() as connection:
            assert connection.execute(text("SELECT response FROM idempotency_keys")).scalar() == (
                RESPONSE
            )
            version = connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
            assert version >= "0006"
    finally:
        db.dispose()
