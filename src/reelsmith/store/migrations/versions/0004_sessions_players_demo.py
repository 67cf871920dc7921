"""sessions that end, players that can be disabled, the demo player marked

``sessions.revoked_ms``: when a session was ended (the player's logout, an operator's
revocation); a token of a revoked session is refused. ``players.disabled_ms``: when an
operator disabled the player (no new session, no round). ``players.demo``: the demo player,
marked by the server alone (no request sets it), at most one (a partial unique index): the
demo player was found by its ``external_ref``, which an operator sets.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("sessions", sa.Column("revoked_ms", sa.BigInteger(), nullable=True))
    op.add_column("players", sa.Column("disabled_ms", sa.BigInteger(), nullable=True))
    op.add_column(
        "players", sa.Column("demo", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    op.create_index(
        "uq_players_one_demo",
        "players",
        ["demo"],
        unique=True,
        sqlite_where=sa.text("demo"),
        postgresql_where=sa.text("demo"),
    )


def downgrade() -> None:
    op.drop_index("uq_players_one_demo", table_name="players")
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.drop_column("demo")
        batch_op.drop_column("disabled_ms")
    with op.batch_alter_table("sessions", schema=None) as batch_op:
        batch_op.drop_column("revoked_ms")
