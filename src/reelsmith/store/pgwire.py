"""Statements sent to PostgreSQL in one round trip, one network write, on libpq's own handle.

psycopg's pipeline mode runs statements in one round trip, but it hands each statement to the
socket as it is executed: a dozen statements are a dozen writes to the socket (each a trip
through the kernel's TCP stack, and a wake-up of the server's process) and a dozen passes
through psycopg's Python-level machinery. Measured on the game server under load, the network
writes were about a tenth of its CPU. Here the whole batch is buffered in libpq and written
at once; the server reads it in one go.

Used for the hot path's hand-written SQL (`store.sql`) inside write transactions only, where
the statements are few and known: each is prepared once per connection (``rs_<n>``; savepoint
commands are not), parameters travel as text (one given as ``bytes`` is UTF-8 text already
and goes as it is) and the server infers their types from the statement. Result columns are
read back by their type: integers, booleans, text and numbers. A column of another type is
refused by name rather than guessed at. psycopg itself prepares
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
# result statuses as plain integers (what a result's ``status`` gives)
_COMMAND_OK = int(pq.ExecStatus.COMMAND_OK)
_TUPLES_OK = int(pq.ExecStatus.TUPLES_OK)
_FATAL_ERROR = int(pq.ExecStatus.FATAL_ERROR)
_SYNC = int(pq.ExecStatus.PIPELINE_SYNC)
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
    """A parameter's text form (``Exchange`` writes exact ``str`` and ``int`` itself)."""
    if value is None:
        return None
    if isinstance(value, bool):
        return b"t" if value else b"f"
    if isinstance(value, int | Decimal):
        return str(value).encode("ascii")
    if isinstance(value, str):
        return value.encode("utf-8")
    raise TypeError(f"a parameter of type {type(value).__name__} is not sent as text here")


class Result:
    """One statement's outcome: rows changed (or returned), column names and rows."""

    __slots__ = ("columns", "rowcount", "rows")

    def __init__(
        self,
        rowcount: int = -1,
        columns: list[str] | None = None,
        rows: list[tuple[Any, ...]] | None = None,
    ) -> None:
        self.rowcount = rowcount
        self.columns = [] if columns is None else columns
        self.rows = [] if rows is None else rows

    def __repr__(self) -> str:
        return f"Result(rowcount={self.rowcount}, columns={self.columns}, rows={self.rows})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Result):
            return NotImplemented
        return (self.rowcount, self.columns, self.rows) == (
            other.rowcount,
            other.columns,
            other.rows,
        )

    def first(self) -> dict[str, Any] | None:
        if not self.rows:
            return None
        return dict(zip(self.columns, self.rows[0], strict=True))


@dataclass
class _Prepared:
    """The statements prepared on one connection: SQL text -> name; names are never reused.
    ``shapes`` keeps each prepared statement's result columns and their readers, read from
    its first result: a prepared statement's columns cannot change (the server refuses to
    run it if they would), so its later results are read without asking again."""

    names: dict[bytes, bytes] = field(default_factory=dict)
    made: int = 0
    shapes: dict[bytes, tuple[list[str], list[Any]]] = field(default_factory=dict)

    def forget(self) -> None:
        self.names.clear()
        self.shapes.clear()


_PREPARED: weakref.WeakKeyDictionary[Any, _Prepared] = weakref.WeakKeyDictionary()


def run(
    raw: Any, statements: list[tuple[str, dict[str, Any]]], commit: bool = False
) -> list[Result]:
    """Run ``statements`` (``:name`` SQL, parameters) on psycopg connection ``raw`` in one
    round trip, after BEGIN if no transaction is open and before COMMIT with ``commit``; their
    results, in order. The first error the server reports is raised (psycopg's exception
    for it) once the round trip is over; the statements after it did not run."""
    exchange = Exchange(raw, statements, commit)
    exchange.wait()
    return exchange.results()


class Exchange:
    """One batch on the wire: sent when made; its answers read as they come (`poll`, which
    never waits, for a caller watching the socket itself) or all at once (`wait`)."""

    def __init__(
        self, raw: Any, statements: list[tuple[str, dict[str, Any]]], commit: bool = False
    ) -> None:
        self.raw = raw
        pgconn = self.pgconn = raw.pgconn
        prepared = _PREPARED.get(raw)
        if prepared is None:
            prepared = _PREPARED[raw] = _Prepared()
        self._prepared = prepared
        begin = pgconn.transaction_status == _IDLE
        if begin and (raw.isolation_level is not None or raw.read_only is not None):
            raise RuntimeError("a batch begins plain transactions only (no isolation or read-only)")
        sends = []  # (statement text, its parameters)
        for sql, params in statements:
            text, names = positional(sql)
            values: list[bytes | None] = []
            add = values.append
            try:
                for name in names:
                    value = params[name]
                    kind = type(value)  # the common exact types first: a spin sends sixty
                    if kind is str:
                        add(value.encode())
                    elif kind is int:
                        add(b"%d" % value)
                    elif kind is bytes:  # UTF-8 text already (a written JSON answer)
                        add(value)
                    else:
                        add(_param(value))
            except KeyError as exc:
                raise KeyError(f"no parameter {exc} for {sql!r}") from None
            sends.append((text, values))
        # per command sent, in order: ("begin"|"commit", None), ("prepare", text), ("run", i)
        self._expected: list[tuple[str, Any]] = []
        self._fresh: dict[bytes, bytes] = {}  # statements prepared by this batch
        self._texts = [text for text, _values in sends]
        self._results: list[Result | None] = [None] * len(statements)
        self._failure: Exception | None = None
        #: The statement (its index in ``statements``) the server reported the batch's first
        #: error for; None when the error was not one statement's (BEGIN, COMMIT, the wire).
        self.failed_at: int | None = None
        self._next = 0  # the command whose answer comes next
        self._answered = False  # its answer has come (its end, a null result, is next)
        self.done = False
        pgconn.enter_pipeline_mode()
        try:
            self._send(sends, begin, commit)
        except BaseException:
            self.done = True
            raise

    def _send(
        self, sends: list[tuple[bytes, list[bytes | None]]], begin: bool, commit: bool
    ) -> None:
        pgconn, expected = self.pgconn, self._expected
        if begin:
            pgconn.send_query_params(b"BEGIN", None)
            expected.append(("begin", None))
        for index, (text, values) in enumerate(sends):
            if _control(text):  # savepoints: cheap to parse, and nothing to deallocate
                pgconn.send_query_params(text, None)
                expected.append(("run", index))
                continue
            name = self._prepared.names.get(text) or self._fresh.get(text)
            if name is None:
                name = self._fresh[text] = f"rs_{self._prepared.made}".encode("ascii")
                self._prepared.made += 1
                pgconn.send_prepare(name, text)
                expected.append(("prepare", (text, index)))
            pgconn.send_query_prepared(name, values)
            expected.append(("run", index))
        if commit:
            pgconn.send_query_params(b"COMMIT", None)
            expected.append(("commit", None))
        pgconn.pipeline_sync()
        while pgconn.flush():
            select.select([], [pgconn.socket], [])

    def poll(self) -> bool:
        """Read what has come without waiting; True once every answer has (the batch is
        over, and the connection out of pipeline mode)."""
        if self.done:
            return True
        pgconn = self.pgconn
        pgconn.consume_input()
        expected = self._expected
        ended = len(expected)
        at, answered = self._next, self._answered
        try:
            while not pgconn.is_busy():
                result = pgconn.get_result()
                if at == ended:  # all answered: the sync is next
                    if result is None or result.status != _SYNC:
                        self._failure = self._failure or errors.InternalError(
                            "the batch's answers did not end where it did"
                        )
                    self.done = True
                    pgconn.exit_pipeline_mode()
                    return True
                if result is None:
                    if answered:  # the command's end
                        answered = False
                        at += 1
                    continue
                if not answered:
                    answered = True
                    self._take(expected[at], result)
            return False
        finally:
            self._next, self._answered = at, answered

    def fail(self, exc: Exception) -> None:
        """The exchange broke off (the connection failed while its answers were awaited):
        `results` raises ``exc`` unless the server had reported an error already."""
        self.done = True
        if self._failure is None:
            self._failure = exc

    def wait(self) -> None:
        """Read every answer, waiting for them (with Python's lock let go)."""
        while not self.poll():
            select.select([self.pgconn.socket], [], [])

    def results(self) -> list[Result]:
        """The statements' results; raises the batch's first error instead, if it met one."""
        if self._failure is not None:
            raise self._failure
        return [Result() if result is None else result for result in self._results]

    def _take(self, expected: tuple[str, Any], result: Any) -> None:
        kind, what = expected
        status = result.status
        if status != _COMMAND_OK and status != _TUPLES_OK:
            if status == _FATAL_ERROR and self._failure is None:
                self._failure = errors.error_from_result(result, encoding=self.raw.info.encoding)
                if kind == "run":
                    self.failed_at = what
                elif kind == "prepare":
                    self.failed_at = what[1]
                if isinstance(self._failure, errors.InvalidSqlStatementName):
                    # deallocated behind this module's back: prepare afresh next time
                    self._prepared.forget()
            return  # the error, or skipped after it (PIPELINE_ABORTED)
        if kind == "run":
            if self._failure is None:
                try:
                    self._results[what] = self._read(self._texts[what], result)
                except TypeError as exc:  # raised once every answer is read
                    self._failure = exc
                    self.failed_at = what
        elif kind == "prepare":
            self._prepared.names[what[0]] = self._fresh[what[0]]

    def _read(self, text: bytes, result: Any) -> Result:
        """The result of statement ``text``, its shape taken from the connection's record of
        the prepared statement when there is one (savepoint commands are not prepared)."""
        shapes = self._prepared.shapes
        shape = shapes.get(text)
        if shape is None:
            shape = _shape(result)
            if text in self._prepared.names:
                shapes[text] = shape
        return _read(result, *shape)


def _shape(result: Any) -> tuple[list[str], list[Any]]:
    """A result's column names and the reader of each column's text form."""
    columns = [result.fname(i).decode("utf-8") for i in range(result.nfields)]
    readers = []
    for i, column in enumerate(columns):
        reader = _READERS.get(result.ftype(i))
        if reader is None:
            raise TypeError(f"column {column!r} has a type (oid {result.ftype(i)}) not read here")
        readers.append(reader)
    return columns, readers


def _read(result: Any, columns: list[str], readers: list[Any]) -> Result:
    count = result.command_tuples
    if not columns:  # a write without RETURNING: its row count alone
        return Result(count if count is not None else -1)
    get = result.get_value
    fields = list(enumerate(readers))
    rows = [
        tuple([None if (value := get(r, i)) is None else reader(value) for i, reader in fields])
        for r in range(result.ntuples)
    ]
    return Result(count if count is not None else -1, columns, rows)
