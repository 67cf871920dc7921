"""open rounds by last update: a partial index

The stale-round job looks for open rounds last updated before a cutoff. The index it used
held every round, keyed by status and time, so each spin also wrote an entry there (and a
round that stayed open moved its entry when it completed). Indexed only while open, a round
that completes with its spin, as most do, never enters the index.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30 01:20:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rounds", schema=None) as batch_op:
        batch_op.drop_index("ix_rounds_status_updated")
        batch_op.create_index(
            "ix_rounds_open_updated",
            ["updated_ms"],
            unique=False,
            sqlite_where=sa.text("status = 'open'"),
            postgresql_where=sa.text("status = 'open'"),
        )


def downgrade() -> None:
    with op.batch_alter_table("rounds", schema=None) as batch_op:
        batch_op.drop_index("ix_rounds_open_updated")
        batch_op.create_index("ix_rounds_status_updated", ["status", "updated_ms"], unique=False)
