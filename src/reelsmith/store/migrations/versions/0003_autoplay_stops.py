"""autoplay stops on a jackpot and on a balance change

An autoplay may stop when a jackpot is won and when the player's balance changes by anything
but the autoplay's own rounds (a deposit, a withdrawal, play elsewhere): two flags, and the
balance the autoplay left after its last step to compare the next spin's balance with.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01 09:40:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("autoplays", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("stop_on_jackpot", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
        batch_op.add_column(
            sa.Column(
                "stop_on_balance_change", sa.Boolean(), server_default=sa.false(), nullable=False
            )
        )
        batch_op.add_column(sa.Column("balance_minor", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("autoplays", schema=None) as batch_op:
        batch_op.drop_column("balance_minor")
        batch_op.drop_column("stop_on_balance_change")
        batch_op.drop_column("stop_on_jackpot")
