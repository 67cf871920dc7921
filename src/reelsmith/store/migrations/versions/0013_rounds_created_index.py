"""rounds by start time: an index

The operator's reports select the rounds started in a period (``created_ms`` from one UTC
midnight to another). Without an index each report reads every round ever played; with it, a
day's report reads that day's rounds. It costs each new round one index entry, written once
(a round's start time never changes).

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-04 07:05:00
"""

from __future__ import annotations

from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_rounds_created", "rounds", ["created_ms"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_rounds_created", table_name="rounds")
