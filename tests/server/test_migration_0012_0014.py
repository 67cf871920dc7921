"""Migrations 0012 to 0014 on SQLite and PostgreSQL: a database as release 0011 left it (a
player with 3,000 rounds, one a day) gains ``rounds.model_hash`` (null for the rounds already
there: their version was not recorded) and the index on ``rounds.created_ms``, which the
planner then takes for the report's selection of one day, and the table of kept model versions;
the downgrade removes them and leaves the rounds as they were."""

from __future__ import annotations

from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import inspect, text

from reelsmith.server.clock import ManualClock
from reelsmith.server.services.reports import _ROUNDS
from reelsmith.store.db import MIGRATIONS
from tests.server.conftest import older_release

ROUND = (
    "INSERT INTO rounds (id, player_id, number, game, variant, currency, bet_minor, bet,"
    " status, record, view, win_minor, balance_before, balance_after, created_ms, updated_ms)"
    " VALUES (:id, 'old-player', :number, 'days-of-the-tsar', '96.00', 'EUR', 25, '{}',"
    " 'complete', '{}', '{}', 0, 100, 75, :created, :created)"
)
DAY_MS = 86_400_000
# a round a day for 3,000 days before the one the report asks for: a day is a small share
HISTORY = [
    {"id": f"round-{n}", "number": n, "created": 5 + (n - 1) * DAY_MS} for n in range(1, 3001)
]


def columns(db: Any) -> set[str]:
    with db.engine.connect() as connection:
        return {c["name"] for c in inspect(connection).get_columns("rounds", schema=db.schema)}


def tables(db: Any) -> set[str]:
    with db.engine.connect() as connection:
        return set(inspect(connection).get_table_names(schema=db.schema))


def indexes(db: Any) -> dict[str, list[str]]:
    with db.engine.connect() as connection:
        found = inspect(connection).get_indexes("rounds", schema=db.schema)
    return {str(i["name"]): list(i["column_names"]) for i in found}


def plan(db: Any, kind: str) -> str:
    """The database's plan for the report's selection of a day's rounds."""
    params = {"start": 0, "end": DAY_MS}
    with db.write() as connection:
        connection.execute(text("ANALYZE"))  # the planner's statistics of the rows there now
    with db.read() as connection:
        if kind == "sqlite":
            rows = connection.execute(text(f"EXPLAIN QUERY PLAN {_ROUNDS}"), params).all()
            return "\n".join(str(row[-1]) for row in rows)
        rows = connection.execute(text(f"EXPLAIN {_ROUNDS}"), params).all()
        return "\n".join(str(row[0]) for row in rows)


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_migrations_0012_to_0014_up_and_down(kind: str, tmp_path: Any) -> None:
    with older_release(kind, tmp_path, "0011", ManualClock(), "old") as db:
        with db.write() as connection:
            connection.execute(text(ROUND), HISTORY)
        assert "model_hash" not in columns(db)
        assert "ix_rounds_created" not in indexes(db)
        db.migrate()
        assert "model_hash" in columns(db) and "model_versions" in tables(db)
        assert indexes(db)["ix_rounds_created"] == ["created_ms"]
        assert "ix_rounds_created" in plan(db, kind)
        with db.write() as connection:
            hashes = connection.execute(text("SELECT DISTINCT model_hash FROM rounds")).all()
            assert [tuple(h) for h in hashes] == [(None,)]
            connection.execute(text("UPDATE rounds SET model_hash = :h"), {"h": "a" * 64})
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        with db.engine.connect() as connection:
            if db.schema:
                connection.execute(text(f'SET search_path TO "{db.schema}"'))
            config.attributes["connection"] = connection
            command.downgrade(config, "0011")
            connection.commit()
        assert "model_hash" not in columns(db) and "model_versions" not in tables(db)
        assert "ix_rounds_created" not in indexes(db)
        with db.read() as connection:
            row = connection.execute(
                text("SELECT id, bet_minor, created_ms FROM rounds WHERE number = 1")
            ).one()
            assert connection.execute(text("SELECT COUNT(*) FROM rounds")).scalar() == 3000
        assert tuple(row) == ("round-1", 25, 5)
