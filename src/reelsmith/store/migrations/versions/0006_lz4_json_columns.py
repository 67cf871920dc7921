"""PostgreSQL compresses the wide JSON columns with lz4

A round's record and view, each step's view and each stored response are JSON text of a few
kilobytes; PostgreSQL compresses a row's widest values once the row passes about 2 kB, and its
default method (pglz) was the costliest single thing a database backend did in a spin (a
tenth of its CPU, three values a spin). lz4 compresses as well for this text at a fraction of
the CPU. Only how new values are stored changes: a value reads back byte for byte the same
whichever method compressed it, and values already stored stay as they are.

SQLite stores text uncompressed, and a PostgreSQL built without lz4 offers only pglz: there
this revision changes nothing. The downgrade returns the columns to the server's default.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01 19:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

#: (table, column): the text columns that hold a round's or a response's JSON.
WIDE_COLUMNS = (
    ("rounds", "record"),
    ("rounds", "view"),
    ("round_steps", "view"),
    ("idempotency_keys", "response"),
    ("game_states", "state"),
)


def _lz4_available(connection: sa.Connection) -> bool:
    """Whether this PostgreSQL server was built with lz4 (the methods it accepts are the
    enumerated values of ``default_toast_compression``)."""
    methods = connection.execute(
        sa.text("SELECT enumvals FROM pg_settings WHERE name = 'default_toast_compression'")
    ).scalar()
    return methods is not None and "lz4" in methods


def _set_compression(method: str) -> None:
    for table, column in WIDE_COLUMNS:
        op.execute(f'ALTER TABLE {table} ALTER COLUMN "{column}" SET COMPRESSION {method}')


def upgrade() -> None:
    connection = op.get_bind()
    if connection.dialect.name != "postgresql" or not _lz4_available(connection):
        return
    _set_compression("lz4")


def downgrade() -> None:
    connection = op.get_bind()
    if connection.dialect.name != "postgresql":
        return
    _set_compression("DEFAULT")
