"""stale rounds the resolver could not finish: set aside, tried again later

A round the 2-day resolver fails to finish (a damaged record, a title no longer served) is
set aside rather than tried on every pass: how many passes failed on it, the last reason, and
the time before which no pass tries it again. The other stale rounds are resolved meanwhile.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-03 18:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rounds", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("resolve_failures", sa.Integer(), server_default=sa.text("0"), nullable=False)
        )
        batch_op.add_column(sa.Column("resolve_error", sa.Text(), nullable=True))
        batch_op.add_column(sa.Column("resolve_retry_ms", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    # ALTER TABLE ... DROP COLUMN on both databases (SQLite 3.35 and later): a copy of the
    # table, as a batch would make on SQLite, fails on the rows that refer to the rounds
    for column in ("resolve_retry_ms", "resolve_error", "resolve_failures"):
        op.drop_column("rounds", column)
