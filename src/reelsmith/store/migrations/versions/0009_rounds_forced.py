"""rounds played with forced draws: marked

In dev mode a player may choose a round's draws (forced draws, for QA). Every round any of
whose steps took forced draws is marked, so that history, the audit and the payout report
tell it from a round of chance. Rounds before this revision were all taken as unforced.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-03 18:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rounds", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("forced", sa.Boolean(), server_default=sa.false(), nullable=False)
        )


def downgrade() -> None:
    op.drop_column("rounds", "forced")  # ALTER TABLE ... DROP COLUMN: see 0007's downgrade
