"""Hand-written SQL for the hot paths (a spin's dozen statements), run on the database
driver's own cursor inside the SQLAlchemy connection's transaction.

Statements are written once with ``:name`` parameters and translated per dialect (psycopg uses
``%(name)s``). Executing them on the driver's cursor skips SQLAlchemy's expression building,
compilation and result wrapping, which together cost more than the statements themselves.
Both SQLite (3.35+) and PostgreSQL support ``RETURNING``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from typing import Any

from sqlalchemy import Connection

_PARAM = re.compile(r"(?<!:):(\w+)")


@cache
def _translate(sql: str, dialect: str) -> str:
    if dialect == "postgresql":
        return _PARAM.sub(r"%(\1)s", sql)
    return sql


def _execute(connection: Connection, sql: str, params: Mapping[str, Any] | None) -> Any:
    # The statement belongs to the connection's open transaction: SQLAlchemy begins it on the
    # same driver connection (see Database: BEGIN IMMEDIATE on SQLite) and commits it.
    if not connection.in_transaction():
        raise RuntimeError("hot-path SQL runs inside a transaction (Database.write/read)")
    cursor = connection.connection.cursor()
    cursor.execute(_translate(sql, connection.dialect.name), dict(params or {}))
    return cursor


def run(connection: Connection, sql: str, params: Mapping[str, Any] | None = None) -> int:
    """Execute ``sql`` (``:name`` parameters) on ``connection``; the number of rows it changed."""
    cursor = _execute(connection, sql, params)
    try:
        return int(cursor.rowcount)
    finally:
        cursor.close()


def one(connection: Connection, sql: str, params: Mapping[str, Any] | None = None) -> Any:
    """The first row as a dict keyed by column name, or None."""
    cursor = _execute(connection, sql, params)
    try:
        row = cursor.fetchone()
        if row is None:
            return None
        return dict(zip([column[0] for column in cursor.description], row, strict=True))
    finally:
        cursor.close()


def scalar(connection: Connection, sql: str, params: Mapping[str, Any] | None = None) -> Any:
    """The first column of the first row, or None."""
    cursor = _execute(connection, sql, params)
    try:
        row = cursor.fetchone()
        return None if row is None else row[0]
    finally:
        cursor.close()
