"""Statements sent to PostgreSQL in one round trip, one network write, on libpq's own handle.

psycopg's pipeline mode runs statements in one round trip, but it hands each statement to the
socket as it is executed: a dozen statements are a dozen writes to the socket (each a trip
through the kernel's TCP stack, and a wake-up of the server's process) and a dozen passes
through psycopg's Python-level machinery. Measured on the game server under load, the network
writes were about a tenth of its CPU. Here the whole batch is buffered in libpq and written
at once; the server reads it in one go.

Used for the hot path's hand-written SQL (`store.sql`) inside write transactions only, where
the statements are few and known: each is prepared once per connection (``rs_<n>``; savepoint
commands are not), parameters travel as text and the server infers their types from the
statement. Result columns are read back by their type: integers, booleans, text and numbers.
A column of another type is refused by name rather than guessed at. psycopg itself prepares
nothing on these connections (see `Database`): after a rollback it would deallocate every
prepared statement, these too; a statement found deallocated all the same is prepared afresh
the next time.

The transaction is psycopg's: a batch that starts it sends BEGIN first, and psycopg sees the
transaction libpq reports (its COMMIT and ROLLBACK work as ever).
"""

from __future__ import annotations

import re
import select
import weakref
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cache
from typing import Any

from psycopg import errors, pq

_PARAM = re.compile(r"(?<!:):(\w+)")
_OK = (pq.ExecStatus.COMMAND_OK, pq.ExecStatus.TUPLES_OK)
_IDLE = pq.TransactionStatus.IDLE


def _text(value: bytes) -> str:
    return value.decode("utf-8")


def _bool(value: bytes) -> bool:
    return value == b"t"


def _decimal(value: bytes) -> Decimal:
    return Decimal(value.decode("ascii"))


# type oid -> reader of the text form
_READERS: dict[int, Any] = {
    16: _bool,  # boolean
    20: int,  # bigint
    21: int,  # smallint
    23: int,  # integer
    26: int,  # oid
    25: _text,  # text
    1043: _text,  # varchar
    1042: _text,  # char
    19: _text,  # name
    700: float,  # real
    701: float,  # double precision
    1700: _decimal,  # numeric
}


@cache
def positional(sql: str) -> tuple[bytes, tuple[str, ...]]:
    """``:name`` parameters as ``$1``, ``$2``...: the statement and the names in order (a
    name used twice is one parameter)."""
    names: list[str] = []

    def number(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in names:
            names.append(name)
        return f"${names.index(name) + 1}"

    return _PARAM.sub(number, sql).encode("utf-8"), tuple(names)


@cache
def _control(text: bytes) -> bool:
    return text.lstrip()[:9].upper().startswith((b"SAVEPOINT", b"RELEASE", b"ROLLBACK"))


def _param(value: Any) -> bytes | None:
    if value is None:
        return None
    if isinstance(value, bool):
        return b"t" if value else b"f"
    if isinstance(value, int | Decimal):
        return str(value).encode("ascii")
    if isinstance(value, str):
        return value.encode("utf-8")
    raise TypeError(f"a parameter of type {type(value).__name__} is not sent as text here")


@dataclass
class Result:
    """One statement's outcome: rows changed (or returned), column names and rows."""

    rowcount: int = -1
    columns: list[str] = field(default_factory=list)
    rows: list[tuple[Any, ...]] = field(default_factory=list)

    def first(self) -> dict[str, Any] | None:
        if not self.rows:
            return None
        return dict(zip(self.columns, self.rows[0], strict=True))


@dataclass
class _Prepared:
    """The statements prepared on one connection: SQL text -> name; names are never reused."""

    names: dict[bytes, bytes] = field(default_factory=dict)
    made: int = 0


_PREPARED: weakref.WeakKeyDictionary[Any, _Prepared] = weakref.WeakKeyDictionary()


def _next_result(pgconn: Any) -> Any:
    while pgconn.is_busy():  # wait with Python's lock let go, then read what came
        select.select([pgconn.socket], [], [])
        pgconn.consume_input()
    return pgconn.get_result()


def run(
    raw: Any, statements: list[tuple[str, dict[str, Any]]], commit: bool = False
) -> list[Result]:
    """Run ``statements`` (``:name`` SQL, parameters) on psycopg connection ``raw`` in one
    round trip, after BEGIN if no transaction is open and before COMMIT with ``commit``; their
    results, in order. The first error the server reports is raised (psycopg's exception
    for it) once the round trip is over; the statements after it did not run."""
    pgconn = raw.pgconn
    prepared = _PREPARED.get(raw)
    if prepared is None:
        prepared = _PREPARED[raw] = _Prepared()
    begin = pgconn.transaction_status == _IDLE
    if begin and (raw.isolation_level is not None or raw.read_only is not None):
        raise RuntimeError("a batch begins plain transactions only (no isolation or read-only)")
    sends = []  # (statement text, its name if it must be prepared first, its parameters)
    for sql, params in statements:
        text, names = positional(sql)
        try:
            values = [_param(params[n]) for n in names]
        except KeyError as exc:
            raise KeyError(f"no parameter {exc} for {sql!r}") from None
        sends.append((text, values))
    # per command sent, in order: ("begin"|"commit", None), ("prepare", text), ("run", index)
    expected: list[tuple[str, Any]] = []
    pgconn.enter_pipeline_mode()
    try:
        if begin:
            pgconn.send_query_params(b"BEGIN", None)
            expected.append(("begin", None))
        fresh: dict[bytes, bytes] = {}
        for index, (text, values) in enumerate(sends):
            if _control(text):  # savepoints: cheap to parse, and nothing to deallocate
                pgconn.send_query_params(text, None)
                expected.append(("run", index))
                continue
            name = prepared.names.get(text) or fresh.get(text)
            if name is None:
                name = fresh[text] = f"rs_{prepared.made}".encode("ascii")
                prepared.made += 1
                pgconn.send_prepare(name, text)
                expected.append(("prepare", text))
            pgconn.send_query_prepared(name, values)
            expected.append(("run", index))
        if commit:
            pgconn.send_query_params(b"COMMIT", None)
            expected.append(("commit", None))
        pgconn.pipeline_sync()
        while pgconn.flush():
            select.select([], [pgconn.socket], [])
        results = [Result() for _ in statements]
        failure: Exception | None = None
        for kind, what in expected:
            result = _next_result(pgconn)
            while _next_result(pgconn) is not None:  # the command's end
                pass
            status = result.status
            if status == pq.ExecStatus.FATAL_ERROR and failure is None:
                failure = errors.error_from_result(result, encoding=raw.info.encoding)
                if isinstance(failure, errors.InvalidSqlStatementName):
                    # deallocated behind this module's back: prepare afresh next time
                    prepared.names.clear()
            if status not in _OK:
                continue  # the error, or skipped after it (PIPELINE_ABORTED)
            if kind == "prepare":
                prepared.names[what] = fresh[what]
            elif kind == "run" and failure is None:
                try:
                    results[what] = _read(result)
                except TypeError as exc:  # raised once every result is read
                    failure = exc
        sync = _next_result(pgconn)
        if sync is None or sync.status != pq.ExecStatus.PIPELINE_SYNC:
            raise errors.InternalError("the batch's results did not end where it did")
    finally:
        pgconn.exit_pipeline_mode()
    if failure is not None:
        raise failure
    return results


def _read(result: Any) -> Result:
    columns = [result.fname(i).decode("utf-8") for i in range(result.nfields)]
    readers = []
    for i, column in enumerate(columns):
        reader = _READERS.get(result.ftype(i))
        if reader is None:
            raise TypeError(f"column {column!r} has a type (oid {result.ftype(i)}) not read here")
        readers.append(reader)
    rows = []
    for r in range(result.ntuples):
        rows.append(
            tuple(
                None if (value := result.get_value(r, i)) is None else reader(value)
                for i, reader in enumerate(readers)
            )
        )
    return Result(result.command_tuples if result.command_tuples is not None else -1, columns, rows)
