"""The hot path's SQL in write transactions: on PostgreSQL the statements that need no answer
wait and travel with the next read or the COMMIT (one round trip); reads can be sent ahead.
On SQLite every statement runs at once. Both give the same results."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from reelsmith.store import sql
from reelsmith.store.db import Database
from reelsmith.wallet import ledger

from .conftest import scratch_database


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[Database]:
    scratch = "CREATE TABLE scratch (id INTEGER PRIMARY KEY, value INTEGER)"
    with scratch_database(request.param, tmp_path, scratch) as database:
        yield database


def values(db: Database) -> dict[int, int]:
    with db.read() as connection:
        rows = connection.execute(text("SELECT id, value FROM scratch")).all()
    return {int(row.id): int(row.value) for row in rows}


INSERT = "INSERT INTO scratch (id, value) VALUES (:id, :value)"
COUNT = "SELECT COUNT(*) AS n, COALESCE(SUM(value), 0) AS total FROM scratch"


def test_sent_writes_travel_with_the_next_read_and_it_sees_them(db: Database) -> None:
    with db.write() as connection:
        batch = sql.batch_of(connection)
        for i in range(3):
            sql.send(connection, INSERT, {"id": i, "value": 10 * i})
        if batch is not None:  # PostgreSQL: nothing sent yet
            assert (batch.round_trips, len(batch.queued)) == (0, 3)
        row = sql.one(connection, COUNT)
        assert (row["n"], row["total"]) == (3, 30)
        if batch is not None:
            assert (batch.round_trips, batch.statements, batch.queued) == (1, 4, [])
    assert values(db) == {0: 0, 1: 10, 2: 20}


def test_the_commit_carries_what_is_still_queued(db: Database) -> None:
    with db.write() as connection:
        batch = sql.batch_of(connection)
        sql.send(connection, INSERT, {"id": 1, "value": 5})
        sql.send(connection, "UPDATE scratch SET value = value + 1 WHERE id = :id", {"id": 1})
    if batch is not None:
        assert (batch.round_trips, batch.statements) == (1, 2)  # the writes and the COMMIT
    assert values(db) == {1: 6}


def test_reads_sent_ahead_share_one_round_trip(db: Database) -> None:
    with db.write() as connection:
        sql.send(connection, INSERT, {"id": 1, "value": 7})
        sql.send(connection, INSERT, {"id": 2, "value": 8})
    query = "SELECT value FROM scratch WHERE id = :id"
    with db.write() as connection:
        batch = sql.batch_of(connection)
        sql.prefetch(connection, query, {"id": 1})
        sql.prefetch(connection, query, {"id": 2})
        sql.prefetch(connection, query, {"id": 3})
        assert sql.one(connection, query, {"id": 2}) == {"value": 8}
        assert sql.one(connection, query, {"id": 1}) == {"value": 7}
        assert sql.one(connection, query, {"id": 3}) is None
        if batch is not None:
            assert batch.round_trips == 1


def test_a_write_after_a_read_sent_ahead_makes_the_next_read_fresh(db: Database) -> None:
    query = "SELECT value FROM scratch WHERE id = :id"
    with db.write() as connection:
        sql.send(connection, INSERT, {"id": 1, "value": 1})
        sql.prefetch(connection, query, {"id": 1})
        sql.send(connection, "UPDATE scratch SET value = 2 WHERE id = :id", {"id": 1})
        assert sql.one(connection, query, {"id": 1}) == {"value": 2}
    with db.write() as connection:
        sql.prefetch(connection, query, {"id": 1})
        assert sql.scalar(connection, "SELECT COUNT(*) FROM scratch") == 1  # sent with it
        sql.run(connection, "UPDATE scratch SET value = 3 WHERE id = :id", {"id": 1})
        assert sql.one(connection, query, {"id": 1}) == {"value": 3}


def test_a_failing_sent_write_fails_the_transaction_and_nothing_of_it_remains(
    db: Database,
) -> None:
    with db.write() as connection:
        sql.send(connection, INSERT, {"id": 1, "value": 1})
    with pytest.raises(IntegrityError), db.write() as connection:
        sql.send(connection, INSERT, {"id": 2, "value": 2})
        sql.send(connection, INSERT, {"id": 1, "value": 3})  # the primary key is taken
        sql.send(connection, INSERT, {"id": 4, "value": 4})
    assert values(db) == {1: 1}
    with db.write() as connection:  # the pooled connection is clean again
        sql.send(connection, INSERT, {"id": 5, "value": 5})
    assert values(db) == {1: 1, 5: 5}


def test_a_statement_built_with_sqlalchemy_runs_after_the_queued_ones(db: Database) -> None:
    with db.write() as connection:
        sql.send(connection, INSERT, {"id": 1, "value": 9})
        found = connection.execute(text("SELECT value FROM scratch WHERE id = 1")).scalar()
        assert found == 9


def test_without_a_write_transaction_send_runs_at_once(db: Database) -> None:
    with db.engine.connect() as connection, connection.begin():
        assert sql.batch_of(connection) is None
        sql.send(connection, INSERT, {"id": 1, "value": 1})
        sql.prefetch(connection, "SELECT value FROM scratch", {})  # nothing to send ahead
        assert sql.scalar(connection, "SELECT value FROM scratch WHERE id = 1") == 1


def test_hot_path_sql_outside_a_transaction_is_refused(db: Database) -> None:
    with db.engine.connect() as connection, pytest.raises(RuntimeError, match="transaction"):
        sql.one(connection, COUNT)


def open_wallet(db: Database, balance: int) -> tuple[str, int, int]:
    with db.write() as connection:
        player = "p1"
        connection.execute(
            text(
                "INSERT INTO players (id, external_ref, currency, market, created_ms)"
                " VALUES (:id, :id, 'EUR', 'default', 0)"
            ),
            {"id": player},
        )
        wallet = ledger.open_wallet(connection, player, "EUR")
        house = ledger.house_account(connection, "cash", "EUR")
        if balance:
            ledger.post(connection, "deposit", player, [(wallet, balance), (house, -balance)], 0)
    return player, wallet, house


@pytest.mark.parametrize("known", [False, True])
def test_a_bet_the_wallet_does_not_cover_writes_nothing(db: Database, known: bool) -> None:
    player, wallet, house = open_wallet(db, 100)
    with pytest.raises(ledger.InsufficientFundsError), db.write() as connection:
        ledger.post(
            connection,
            "bet",
            player,
            [(wallet, -150), (house, 150)],
            1,
            wallets={wallet: 100} if known else (wallet,),
        )
    with db.write() as connection:
        ledger.post(
            connection,
            "bet",
            player,
            [(wallet, -100), (house, 100)],
            2,
            wallets={wallet: 100} if known else (wallet,),
        )
        batch = sql.batch_of(connection)
        if batch is not None and known:  # covered: the whole transaction waits for the commit
            assert batch.round_trips == 0
    with db.read() as connection:
        assert ledger.wallet(connection, player).balance == 0
        report = ledger.verify(connection)
        assert report.ok, report
        assert report.transactions == 2


def test_the_database_refuses_a_wallet_going_negative_even_when_told_it_is_covered(
    db: Database,
) -> None:
    player, wallet, house = open_wallet(db, 100)
    with pytest.raises(IntegrityError, match="ck_wallet_not_negative"), db.write() as connection:
        # a wrong balance from the caller: the check here passes, the database's does not
        ledger.post(
            connection, "bet", player, [(wallet, -150), (house, 150)], 1, wallets={wallet: 500}
        )
    with db.read() as connection:
        assert ledger.wallet(connection, player).balance == 100
        assert ledger.verify(connection).transactions == 1


def test_writes_sent_together_are_one_statement_with_every_effect(db: Database) -> None:
    with db.write() as connection:
        sql.send(connection, INSERT, {"id": 1, "value": 1})
    with db.write() as connection:
        batch = sql.batch_of(connection)
        with sql.together(connection):
            sql.send(connection, INSERT, {"id": 2, "value": 20})
            sql.send(
                connection,
                "UPDATE scratch SET value = :value WHERE id = :id",
                {"id": 1, "value": 3},
            )
            sql.send(connection, INSERT, {"id": 3, "value": 30})
        if batch is not None:  # PostgreSQL: one statement waits, its parameters renamed apart
            assert len(batch.queued) == 1
            statement, params, _read = batch.queued[0]
            assert statement.startswith("WITH p0 AS (INSERT")
            assert params == {
                "p0_id": 2,
                "p0_value": 20,
                "p1_id": 1,
                "p1_value": 3,
                "p2_id": 3,
                "p2_value": 30,
            }
        row = sql.one(connection, COUNT)
        assert (row["n"], row["total"]) == (3, 53)
    assert values(db) == {1: 3, 2: 20, 3: 30}


def test_one_write_sent_together_goes_as_it_is(db: Database) -> None:
    with db.write() as connection:
        batch = sql.batch_of(connection)
        with sql.together(connection):
            sql.send(connection, INSERT, {"id": 4, "value": 40})
        if batch is not None:
            assert batch.queued == [(INSERT, {"id": 4, "value": 40}, False)]
    assert values(db) == {4: 40}


def test_a_failing_part_fails_the_statement_and_the_transaction(db: Database) -> None:
    with db.write() as connection:
        sql.send(connection, INSERT, {"id": 1, "value": 1})
    with pytest.raises(IntegrityError), db.write() as connection, sql.together(connection):
        sql.send(connection, INSERT, {"id": 5, "value": 50})
        sql.send(connection, INSERT, {"id": 1, "value": 2})  # the key is taken
    assert values(db) == {1: 1}


def test_a_statement_with_a_with_of_its_own_cannot_join(db: Database) -> None:
    if db.is_sqlite:
        pytest.skip("SQLite runs each statement as it comes")
    nested = "WITH v AS (SELECT 1) INSERT INTO scratch (id, value) VALUES (:id, :value)"
    refused = pytest.raises(ValueError, match="WITH of its own")
    with refused, db.write() as connection, sql.together(connection):
        sql.send(connection, INSERT, {"id": 6, "value": 60})
        sql.send(connection, nested, {"id": 7, "value": 70})
