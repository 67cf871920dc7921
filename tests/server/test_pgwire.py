"""The hot path's statements on libpq's own handle (PostgreSQL): one round trip per batch, each
statement prepared once per connection, results read back by type, errors raised as the
server reports them, and a connection whose prepared statements vanished recovers."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import psycopg
import pytest
from psycopg import errors

from reelsmith.store import pgwire, sql
from reelsmith.store.db import CommitGroup, Database

from .conftest import scratch_database

pytestmark = pytest.mark.skipif(
    not os.environ.get("REELSMITH_TEST_DATABASE_URL"), reason="needs PostgreSQL"
)


@pytest.fixture
def raw() -> Iterator[psycopg.Connection[Any]]:
    url = os.environ["REELSMITH_TEST_DATABASE_URL"].replace("+psycopg", "")
    with psycopg.connect(url, prepare_threshold=None) as connection:
        connection.execute("CREATE TEMP TABLE t (id INTEGER PRIMARY KEY, name TEXT)")
        connection.commit()
        yield connection


def test_values_come_back_by_their_type(raw: psycopg.Connection[Any]) -> None:
    (result,) = pgwire.run(
        raw,
        [
            (
                "SELECT CAST(:small AS INTEGER) AS i, CAST(:big AS BIGINT) AS b,"
                " CAST(:yes AS BOOLEAN) AS y, CAST(:word AS TEXT) AS w,"
                " CAST(:word AS VARCHAR(9)) AS v, CAST('1.50' AS NUMERIC) AS n,"
                " CAST(NULL AS TEXT) AS nothing",
                {"small": 7, "big": 2**40, "yes": True, "word": "Fabergé"},
            )
        ],
    )
    assert result.first() == {
        "i": 7,
        "b": 2**40,
        "y": True,
        "w": "Fabergé",
        "v": "Fabergé",
        "n": Decimal("1.50"),
        "nothing": None,
    }
    raw.rollback()


def test_a_column_of_a_type_not_read_here_is_refused_by_name(
    raw: psycopg.Connection[Any],
) -> None:
    with pytest.raises(TypeError, match="column 'at'"):
        pgwire.run(raw, [("SELECT now() AS at", {})])
    raw.rollback()


def test_bad_parameters_are_named(raw: psycopg.Connection[Any]) -> None:
    with pytest.raises(KeyError, match="no parameter 'name'"):
        pgwire.run(raw, [("INSERT INTO t VALUES (:id, :name)", {"id": 1})])
    with pytest.raises(TypeError, match="float"):
        pgwire.run(raw, [("INSERT INTO t VALUES (:id, :name)", {"id": 1.5, "name": "x"})])
    assert raw.pgconn.transaction_status == psycopg.pq.TransactionStatus.IDLE  # nothing sent


def test_a_batch_begins_the_transaction_and_psycopg_commits_it(
    raw: psycopg.Connection[Any],
) -> None:
    results = pgwire.run(
        raw,
        [
            ("INSERT INTO t VALUES (:id, :name)", {"id": 1, "name": "a"}),
            ("INSERT INTO t VALUES (:id, :name)", {"id": 2, "name": "b"}),
            ("UPDATE t SET name = :name WHERE id >= :id", {"id": 1, "name": "c"}),
            ("SELECT COUNT(*) AS n FROM t", {}),
        ],
    )
    assert [r.rowcount for r in results] == [1, 1, 2, 1]
    assert results[3].first() == {"n": 2}
    assert raw.pgconn.transaction_status == psycopg.pq.TransactionStatus.INTRANS
    raw.commit()
    assert raw.execute("SELECT COUNT(*) FROM t").fetchone() == (2,)


def test_each_statement_is_prepared_once_per_connection(raw: psycopg.Connection[Any]) -> None:
    insert = "INSERT INTO t VALUES (:id, :name)"
    pgwire.run(raw, [(insert, {"id": 1, "name": "a"}), (insert, {"id": 2, "name": "b"})])
    names = dict(pgwire._PREPARED[raw].names)
    pgwire.run(raw, [(insert, {"id": 3, "name": "c"})], commit=True)
    assert pgwire._PREPARED[raw].names == names and len(names) == 1
    (prepared,) = raw.execute("SELECT name FROM pg_prepared_statements").fetchall()
    assert prepared[0] == names[pgwire.positional(insert)[0]].decode()
    raw.rollback()


def test_an_error_stops_the_batch_and_is_raised_after_it(raw: psycopg.Connection[Any]) -> None:
    with pytest.raises(errors.UniqueViolation):
        pgwire.run(
            raw,
            [
                ("INSERT INTO t VALUES (:id, :name)", {"id": 1, "name": "a"}),
                ("INSERT INTO t VALUES (:id, :name)", {"id": 1, "name": "again"}),
                ("UPDATE t SET name = :name WHERE id = :id", {"id": 1, "name": "never"}),
            ],
            commit=True,
        )
    assert raw.pgconn.transaction_status == psycopg.pq.TransactionStatus.INERROR
    raw.rollback()
    assert raw.execute("SELECT COUNT(*) FROM t").fetchone() == (0,)
    # the UPDATE's PREPARE did not run: it is prepared when next used
    (result,) = pgwire.run(
        raw, [("UPDATE t SET name = :name WHERE id = :id", {"id": 1, "name": "x"})]
    )
    assert result.rowcount == 0
    raw.rollback()


def test_statements_deallocated_behind_its_back_are_prepared_again(
    raw: psycopg.Connection[Any],
) -> None:
    insert = "INSERT INTO t VALUES (:id, :name)"
    pgwire.run(raw, [(insert, {"id": 1, "name": "a"})], commit=True)
    raw.execute("DEALLOCATE ALL")
    raw.commit()
    with pytest.raises(errors.InvalidSqlStatementName):
        pgwire.run(raw, [(insert, {"id": 2, "name": "b"})])
    raw.rollback()
    pgwire.run(raw, [(insert, {"id": 2, "name": "b"})], commit=True)
    assert raw.execute("SELECT COUNT(*) FROM t").fetchone() == (2,)


@pytest.fixture
def db(tmp_path: Any) -> Iterator[Database]:
    with scratch_database("postgresql", tmp_path) as database:
        yield database


def test_a_group_call_that_lost_its_prepared_statements_runs_again(db: Database) -> None:
    with db.write() as connection:
        connection.exec_driver_sql("CREATE TABLE marks (who VARCHAR(8) PRIMARY KEY)")
    group = CommitGroup(db)

    def mark(who: str, deallocate: bool) -> str:
        with db.write() as connection:
            if deallocate and group.retried == 0:
                raw = connection.connection.driver_connection
                assert raw is not None
                raw.pgconn.exec_(b"DEALLOCATE ALL")  # as another library on it might
            sql.send(connection, "INSERT INTO marks VALUES (:who)", {"who": who})
        return who

    async def main() -> list[str]:
        first = await group.run(mark, "a", False, writes=True)
        return [first, await group.run(mark, "b", True, writes=True)]

    assert asyncio.run(main()) == ["a", "b"]
    assert group.retried == 1
    with db.read() as connection:
        found = connection.exec_driver_sql("SELECT who FROM marks ORDER BY who").all()
    assert [row[0] for row in found] == ["a", "b"]


def test_an_exchange_that_broke_off_raises_instead_of_answering() -> None:
    url = os.environ["REELSMITH_TEST_DATABASE_URL"].replace("+psycopg", "")
    connection = psycopg.connect(url, prepare_threshold=None)
    try:
        exchange = pgwire.Exchange(connection, [("SELECT 1 AS one", {})], commit=True)
        exchange.fail(psycopg.OperationalError("the server went away"))
        with pytest.raises(psycopg.OperationalError, match="went away"):
            exchange.results()
    finally:
        connection.pgconn.finish()  # mid-batch: the connection is given up, as a broken one is
