"""refusals stored under idempotency keys, by age: a partial index

A refused request (insufficient funds, a bet out of range) is stored under its key like a
success, so that a retry gets the same refusal; refusals are kept for a window and then
purged (`store.idempotency.purge_refusals`). The purge finds them by this index, which holds
refusals alone (status 400 and above), by the time they were stored.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-03 18:15:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index(
        "ix_idempotency_refusals",
        "idempotency_keys",
        ["created_ms"],
        unique=False,
        sqlite_where=sa.text("status_code >= 400"),
        postgresql_where=sa.text("status_code >= 400"),
    )


def downgrade() -> None:
    op.drop_index("ix_idempotency_refusals", table_name="idempotency_keys")
