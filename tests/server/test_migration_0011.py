"""Migration 0011 on SQLite and PostgreSQL: a database as release 0010 left it (a player, a
seamless wallet call) gains the free-round tables and ``wallet_calls.is_free`` (false for the
calls already there); a campaign's round number is unique; the downgrade removes them and
leaves the older rows as they were."""

from __future__ import annotations

from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import inspect, text
from sqlalchemy.exc import IntegrityError

from reelsmith.server.clock import ManualClock
from reelsmith.store.db import MIGRATIONS
from tests.server.conftest import older_release

CALL = (
    "INSERT INTO wallet_calls (id, request_uuid, kind, player_id, user_ref, game, round_id,"
    " currency, amount_minor, state, next_attempt_ms, created_ms, updated_ms) VALUES"
    " ('call-1', 'req-1', 'bet', 'old-player', 'old', 'days-of-the-tsar', 'round-1', 'EUR',"
    " 25, 'acknowledged', 0, 0, 0)"
)
CAMPAIGN = (
    "INSERT INTO free_round_campaigns (id, player_id, game, bet, bet_minor, currency, rounds,"
    " status, expires_ms, request_hash, created_ms, updated_ms) VALUES ('c', 'old-player',"
    " 'days-of-the-tsar', '{}', 25, 'EUR', 2, 'active', 1, 'h', 0, 0)"
)


def tables(db: Any) -> set[str]:
    with db.engine.connect() as connection:
        return set(inspect(connection).get_table_names(schema=db.schema))


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_migration_0011_up_and_down(kind: str, tmp_path: Any) -> None:
    with older_release(kind, tmp_path, "0010", ManualClock(), "old") as db:
        with db.write() as connection:
            connection.execute(text(CALL))
        db.migrate()
        assert {"free_round_campaigns", "free_round_plays"} <= tables(db)
        with db.write() as connection:
            assert connection.execute(text("SELECT is_free FROM wallet_calls")).scalar() in (
                False,
                0,
            )
            connection.execute(text(CAMPAIGN))
            connection.execute(
                text(
                    "INSERT INTO free_round_plays (round_id, campaign_id, number)"
                    " VALUES ('r1', 'c', 1)"
                )
            )
        with pytest.raises(IntegrityError), db.write() as connection:  # round 1 again
            connection.execute(
                text(
                    "INSERT INTO free_round_plays (round_id, campaign_id, number)"
                    " VALUES ('r2', 'c', 1)"
                )
            )
        with pytest.raises(IntegrityError), db.write() as connection:  # more than it holds
            connection.execute(text("UPDATE free_round_campaigns SET played = 3"))
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        with db.engine.connect() as connection:
            if db.schema:
                connection.execute(text(f'SET search_path TO "{db.schema}"'))
            config.attributes["connection"] = connection
            command.downgrade(config, "0010")
            connection.commit()
        assert not {"free_round_campaigns", "free_round_plays"} & tables(db)
        with db.read() as connection:
            row = connection.execute(text("SELECT id, amount_minor FROM wallet_calls")).one()
        assert tuple(row) == ("call-1", 25)
