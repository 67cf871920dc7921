"""Hand-written SQL for the hot paths (a spin's dozen statements), run through SQLAlchemy's
connection with the driver's own parameter style.

Statements are written once with ``:name`` parameters and translated per dialect (psycopg uses
``%(name)s``); executing them skips SQLAlchemy's expression building and compilation, which
dominated the cost of a spin. Both SQLite (3.35+) and PostgreSQL support ``RETURNING``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from typing import Any

from sqlalchemy import Connection, CursorResult

_PARAM = re.compile(r"(?<!:):(\w+)")


@cache
def _translate(sql: str, dialect: str) -> str:
    if dialect == "postgresql":
        return _PARAM.sub(r"%(\1)s", sql)
    return sql


def run(
    connection: Connection, sql: str, params: Mapping[str, Any] | None = None
) -> CursorResult[Any]:
    """Execute ``sql`` (``:name`` parameters) on ``connection`` with ``params``."""
    return connection.exec_driver_sql(_translate(sql, connection.dialect.name), dict(params or {}))


def one(connection: Connection, sql: str, params: Mapping[str, Any] | None = None) -> Any:
    """The first row as a mapping, or None."""
    return run(connection, sql, params).mappings().first()


def scalar(connection: Connection, sql: str, params: Mapping[str, Any] | None = None) -> Any:
    return run(connection, sql, params).scalar()
