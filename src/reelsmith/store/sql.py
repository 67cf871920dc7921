"""Hand-written SQL for the hot paths (a spin's dozen statements), run on the database
driver's own cursor inside the SQLAlchemy connection's transaction.

Statements are written once with ``:name`` parameters and translated per dialect (psycopg uses
``%(name)s``). Executing them on the driver's cursor skips SQLAlchemy's expression building,
compilation and result wrapping, which together cost more than the statements themselves.
Both SQLite (3.35+) and PostgreSQL support ``RETURNING``.

On PostgreSQL every statement is a round trip to the server, and a round trip costs more than
most of these statements: the client's send and wait, the server's wake-up, read and reply.
So inside a write transaction (`Database.write`, which opens a `Batch`), statements whose
result the caller does not need (`send`) wait, and go to the server with the next statement
that needs an answer, or with the COMMIT, all in one round trip (psycopg's pipeline mode: the
server runs them one after another, in order, as if sent one by one). Reads the caller will
need soon can be sent ahead (`prefetch`), so that several reads share one round trip too.
On SQLite, which runs in the server's own process, every statement runs at once.

A statement that fails in a batch fails the round trip that carried it: the error is raised
there (by the next read, or by the commit) and the transaction rolls back as a whole, as it
would have had the statement been sent alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from functools import cache
from types import TracebackType
from typing import Any

from psycopg import pq
from sqlalchemy import Connection
from sqlalchemy.exc import DBAPIError

from reelsmith.store import pgwire

_PARAM = re.compile(r"(?<!:):(\w+)")
# The attribute a write transaction's Batch is kept in on its Connection: read before every
# statement, where ``Connection.info`` costs several attribute hops through the pool.
_BATCH_ATTRIBUTE = "_reelsmith_batch"


@cache
def _translate(sql: str, dialect: str) -> str:
    if dialect == "postgresql":
        return _PARAM.sub(r"%(\1)s", sql)
    return sql


@cache
def _is_read(statement: str) -> bool:
    return statement.lstrip()[:6].upper() == "SELECT"


class EarlierCallError(Exception):
    """The writes an earlier call of the same transaction left waiting (`Batch.pending`)
    failed in the round trip of a later statement: ``error`` is what they met, ``owners`` the
    call whose statement it was, then the calls whose statements were behind it (as
    `Batch.owners` names them), which did not run, nor did the later statement."""

    def __init__(self, error: Exception, owners: list[Any]) -> None:
        super().__init__(f"an earlier call's writes failed: {error}")
        self.error = error
        self.owners = owners


class Batch:
    """The statements of one PostgreSQL write transaction waiting to be sent, and the rows of
    the reads sent ahead of time."""

    def __init__(self) -> None:
        # (statement, parameters, whether it is a read sent ahead)
        self.queued: list[tuple[str, dict[str, Any], bool]] = []
        #: The statements at the front of ``queued`` that earlier, finished calls of the
        #: transaction left there (a commit group's calls: their writes go with a later
        #: call's round trip), by whose they are: (owner, the index in ``queued`` its
        #: statements end at), in order. An error one of them meets is `EarlierCallError`.
        self.owners: list[tuple[Any, int]] = []
        #: The reads sent ahead among ``queued`` (their statements): a commit group's
        #: queue holds the writes of many calls, too many to search at every `one`.
        self.reads: set[str] = set()
        # inside `together`: the writes to send as one statement
        self.joining: list[tuple[str, dict[str, Any]]] | None = None
        self.prefetched: dict[tuple[str, tuple[tuple[str, Any], ...]], Any] = {}
        self.round_trips = 0  # batches sent: one round trip each
        self.statements = 0  # statements they carried (BEGIN and COMMIT not counted)

    @property
    def pending(self) -> int:
        """How many statements at the front of ``queued`` earlier calls left (`owners`)."""
        return self.owners[-1][1] if self.owners else 0

    def discard(self) -> None:
        """Forget what is queued and what was read ahead (the caller rolls back), but for
        what an earlier call left pending."""
        del self.queued[self.pending :]
        self.reads = {statement for statement, _params, read in self.queued if read}
        self.prefetched.clear()

    def read_ahead(self, sql: str, params: dict[str, Any]) -> None:
        """Queue the read ``sql`` to be sent ahead (`prefetch`)."""
        self.queued.append((sql, params, True))
        self.reads.add(sql)

    def send(
        self,
        connection: Connection,
        then: tuple[str, dict[str, Any]] | None = None,
        commit: bool = False,
    ) -> tuple[list[tuple[str, dict[str, Any], bool]], pgwire.Exchange]:
        """Send the queued statements, then ``then``, then with ``commit`` the COMMIT, in one
        round trip, without waiting for the answers: what was queued, and the exchange."""
        raw = connection.connection.driver_connection
        queued, self.queued = self.queued, []
        self.owners = []
        self.reads = set()
        statements = [(statement, params) for statement, params, _read in queued]
        if then is not None:
            statements.append(then)
        self.round_trips += 1
        self.statements += len(statements)
        with driver_errors(connection):
            return queued, pgwire.Exchange(raw, statements, commit=commit)

    def flush(
        self,
        connection: Connection,
        then: tuple[str, dict[str, Any]] | None = None,
        commit: bool = False,
    ) -> pgwire.Result | None:
        """`send`, and wait for the answers: ``then``'s result is returned, and the reads
        sent ahead are kept for `one`."""
        pending, owners = self.pending, self.owners  # as sent: `send` starts them afresh
        queued, exchange = self.send(connection, then, commit)
        try:
            with driver_errors(connection):
                exchange.wait()
                results = exchange.results()
        except Exception as exc:
            failed = exchange.failed_at
            if failed is not None and failed < pending:
                raise EarlierCallError(exc, behind(owners, failed)) from exc
            raise
        fresh: dict[tuple[str, tuple[tuple[str, Any], ...]], Any] = {}
        for (statement, params, read), result in zip(queued, results, strict=False):
            if read:
                fresh[read_key(statement, params)] = result.first()
            else:
                fresh.clear()  # a write after a read: its row may be stale
        if then is not None and not _is_read(then[0]):
            fresh.clear()
        self.prefetched.update(fresh)
        return results[-1] if then is not None else None


def behind(owners: list[tuple[Any, int]], failed: int) -> list[Any]:
    """Of `Batch.owners` as they were sent: the owner of statement ``failed``, then the
    owners of the statements after it, each once."""
    found: list[Any] = []
    for who, end in owners:
        if end > failed and not any(who is seen for seen in found):
            found.append(who)
    return found


class driver_errors:  # noqa: N801 - used as a function: ``with driver_errors(connection):``
    """The driver's errors as SQLAlchemy's (`IntegrityError` and the rest), as a statement
    run through SQLAlchemy would raise them. A class rather than a generator context manager:
    every statement of the hot path runs inside one."""

    __slots__ = ("connection", "statement")

    def __init__(self, connection: Connection, statement: str | None = None) -> None:
        self.connection = connection
        self.statement = statement

    def __enter__(self) -> None:
        return None

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if exc is None:
            return
        dialect = self.connection.dialect
        error = dialect.loaded_dbapi.Error
        if isinstance(exc, error):
            raise DBAPIError.instance(self.statement, None, exc, error, dialect=dialect) from exc


def read_key(sql: str, params: Mapping[str, Any]) -> tuple[str, tuple[tuple[str, Any], ...]]:
    """What `Batch.prefetched` keeps a read's row under: the statement and its parameters in
    their order (a read whose parameters come in another order is read again, not missed)."""
    return (sql, tuple(params.items()))


def batch_of(connection: Connection) -> Batch | None:
    """The write transaction's batch (PostgreSQL, inside `Database.write`), else None."""
    batch: Batch | None = connection.__dict__.get(_BATCH_ATTRIBUTE)
    return batch


def open_batch(connection: Connection) -> Batch:
    """Start queueing ``connection``'s statements in a new `Batch` (a PostgreSQL write
    transaction); `close_batch` ends it."""
    batch = connection.__dict__[_BATCH_ATTRIBUTE] = Batch()
    return batch


def close_batch(connection: Connection) -> None:
    """Forget ``connection``'s batch, if it has one (its transaction is over)."""
    connection.__dict__.pop(_BATCH_ATTRIBUTE, None)


def _execute(connection: Connection, sql: str, params: Mapping[str, Any] | None) -> pgwire.Result:
    """Run ``sql`` now (with whatever the batch holds, first); its row count and first row."""
    # The statement belongs to the connection's open transaction: SQLAlchemy begins it on the
    # same driver connection (see Database: BEGIN IMMEDIATE on SQLite) and commits it.
    if not connection.in_transaction():
        raise RuntimeError("hot-path SQL runs inside a transaction (Database.write/read)")
    batch = batch_of(connection)
    if batch is not None:
        if not _is_read(sql):
            batch.prefetched.clear()  # a write may change what an earlier read found
        result = batch.flush(connection, then=(sql, dict(params or {})))
        assert result is not None
        return result
    statement = _translate(sql, connection.dialect.name)
    cursor = connection.connection.cursor()
    try:
        with driver_errors(connection, statement):
            cursor.execute(statement, dict(params or {}))
        if cursor.description is None:
            return pgwire.Result(cursor.rowcount)
        row = cursor.fetchone()
        columns = [column[0] for column in cursor.description]
        return pgwire.Result(cursor.rowcount, columns, [] if row is None else [tuple(row)])
    finally:
        cursor.close()


def run(connection: Connection, sql: str, params: Mapping[str, Any] | None = None) -> int:
    """Execute ``sql`` (``:name`` parameters) on ``connection`` now; the number of rows it
    changed."""
    return _execute(connection, sql, params).rowcount


def send(connection: Connection, sql: str, params: Mapping[str, Any] | None = None) -> None:
    """Execute ``sql``, a statement whose result the caller does not need. In a PostgreSQL
    write transaction it is queued and sent with the next statement that needs an answer or
    with the commit (an error it meets is raised there); elsewhere it runs now."""
    batch = batch_of(connection)
    if batch is None:
        run(connection, sql, params)
        return
    if not connection.in_transaction():
        raise RuntimeError("hot-path SQL runs inside a transaction (Database.write/read)")
    batch.prefetched.clear()
    if batch.joining is not None:
        batch.joining.append((sql, dict(params or {})))
        return
    batch.queued.append((sql, dict(params or {}), False))


@contextmanager
def together(connection: Connection) -> Iterator[None]:
    """The writes `send` queues inside the block go to PostgreSQL as one statement (each a
    data-modifying part of one ``WITH``), where each would be a statement of its own: one
    parse, plan and execution instead of several, on the server and here.

    The parts of one statement run on one snapshot: the caller keeps them to writes that
    touch different rows and do not read what another part writes (each may read what was
    written before the block). A part may not have a ``WITH`` of its own. Elsewhere (SQLite,
    outside a write transaction's batch) each statement runs as `send` runs it."""
    batch = batch_of(connection)
    if batch is None or batch.joining is not None:
        yield
        return
    joining: list[tuple[str, dict[str, Any]]] = []
    batch.joining = joining
    try:
        yield
    finally:
        batch.joining = None
    if len(joining) == 1:
        statement, params = joining[0]
    elif joining:
        statement, params = joined(joining)
    else:
        return
    batch.queued.append((statement, params, False))


@cache
def _part(statement: str, index: int) -> str:
    """``statement`` with each ``:name`` parameter renamed ``:pINDEX_name``."""
    if statement.lstrip()[:4].upper() == "WITH":
        raise ValueError(f"a statement with a WITH of its own cannot join another: {statement}")
    return _PARAM.sub(rf":p{index}_\1", statement)


def joined(statements: list[tuple[str, dict[str, Any]]]) -> tuple[str, dict[str, Any]]:
    """Data-modifying ``statements`` as one: the last the main statement, the others parts
    of its ``WITH``; their parameters renamed apart."""
    parts = [_part(statement, i) for i, (statement, _params) in enumerate(statements)]
    params = {
        f"p{i}_{name}": value
        for i, (_statement, values) in enumerate(statements)
        for name, value in values.items()
    }
    heads = ", ".join(f"p{i} AS ({part})" for i, part in enumerate(parts[:-1]))
    return f"WITH {heads} {parts[-1]}", params


def prefetch(connection: Connection, sql: str, params: Mapping[str, Any] | None = None) -> None:
    """Send the read ``sql`` with the next round trip, so that a later `one` of the same
    statement and parameters finds its row without one of its own. In order with the other
    statements: it sees the writes queued before it; a write queued or run after it makes
    its row stale, and it is dropped (the later `one` then reads afresh). A read whose row
    is already at hand (a commit group read it ahead for its call, see `CommitGroup`) is not
    sent again. A no-op outside PostgreSQL write transactions."""
    batch = batch_of(connection)
    if batch is not None:
        values = dict(params or {})
        if batch.prefetched and read_key(sql, values) in batch.prefetched:
            return
        batch.read_ahead(sql, values)


def one(connection: Connection, sql: str, params: Mapping[str, Any] | None = None) -> Any:
    """The first row as a dict keyed by column name, or None."""
    batch = batch_of(connection)
    if batch is not None:
        if sql in batch.reads:
            batch.flush(connection)  # the read was sent ahead: send it now, with the rest
        key = read_key(sql, params or {})
        if key in batch.prefetched:
            return batch.prefetched.pop(key)
    return _execute(connection, sql, params).first()


def scalar(connection: Connection, sql: str, params: Mapping[str, Any] | None = None) -> Any:
    """The first column of the first row, or None."""
    result = _execute(connection, sql, params)
    return result.rows[0][0] if result.rows else None


def rows(
    connection: Connection, sql: str, params: Mapping[str, Any] | None = None
) -> list[dict[str, Any]]:
    """Every row of the read ``sql``, as dicts keyed by column name, run on the driver's
    cursor (what a batch holds is sent first)."""
    if not connection.in_transaction():
        raise RuntimeError("hot-path SQL runs inside a transaction (Database.write/read)")
    batch = batch_of(connection)
    if batch is not None and batch.queued:
        batch.flush(connection)
    statement = _translate(sql, connection.dialect.name)
    cursor = connection.connection.cursor()
    try:
        with driver_errors(connection, statement):
            cursor.execute(statement, dict(params or {}))
        columns = [column[0] for column in cursor.description or ()]
        return [dict(zip(columns, row, strict=True)) for row in cursor.fetchall()]
    finally:
        cursor.close()


def send_commit(connection: Connection) -> pgwire.Exchange | None:
    """Send what the write transaction's batch holds and the COMMIT, without waiting for the
    answer: the caller watches the exchange (`pgwire.Exchange.poll`) and then takes its
    results inside `driver_errors`. None without a batch, or with no transaction open (the
    caller's commit then does what there is to do)."""
    batch = batch_of(connection)
    if batch is None:
        return None
    raw = connection.connection.driver_connection
    assert raw is not None  # a connection inside a transaction has its driver's
    if not batch.queued and raw.pgconn.transaction_status == pq.TransactionStatus.IDLE:
        return None
    return batch.send(connection, commit=True)[1]


def flush(connection: Connection, commit: bool = False) -> None:
    """Send what the write transaction's batch holds (with ``commit``, and the COMMIT) in one
    round trip; a no-op without a batch or with nothing queued (the caller's commit then
    commits, if a transaction is open)."""
    batch = batch_of(connection)
    if batch is not None and batch.queued:
        batch.flush(connection, commit=commit)
