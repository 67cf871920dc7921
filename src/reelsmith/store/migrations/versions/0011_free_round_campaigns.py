"""free-round campaigns and the rounds they gave

An operator gives a player free rounds of a title at a fixed bet (a campaign); the player
plays them without the bet being charged, and their wins are paid. ``free_round_campaigns``
holds each campaign (its operator-given id, the hash of the request that created it, the
rounds given and played, its expiry and status); ``free_round_plays`` links each round a
campaign gave to it, unique by the round's number in the campaign so that a campaign never
gives more rounds than it holds, however its plays race. Rounds played before this revision
are paid rounds: no row here.

``wallet_calls.is_free`` marks the seamless wallet's calls for a free round (sent to the
operator with ``is_free: true``); every call before this revision was a paid round's.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-04 03:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "free_round_campaigns",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(36), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("bet", sa.Text(), nullable=False),
        sa.Column("bet_minor", sa.BigInteger(), nullable=False),
        sa.Column("currency", sa.String(3), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("played", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("expires_ms", sa.BigInteger(), nullable=False),
        sa.Column("request_hash", sa.String(64), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.Column("updated_ms", sa.BigInteger(), nullable=False),
        sa.Column("cancelled_ms", sa.BigInteger(), nullable=True),
        sa.CheckConstraint("rounds > 0", name="ck_free_round_campaigns_rounds"),
        sa.CheckConstraint(
            "played >= 0 AND played <= rounds", name="ck_free_round_campaigns_played"
        ),
    )
    op.create_index(
        "ix_free_round_campaigns_player", "free_round_campaigns", ["player_id", "status"]
    )
    op.create_table(
        "free_round_plays",
        sa.Column("round_id", sa.String(36), primary_key=True),
        sa.Column(
            "campaign_id",
            sa.String(64),
            sa.ForeignKey("free_round_campaigns.id"),
            nullable=False,
        ),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.UniqueConstraint("campaign_id", "number", name="uq_free_round_plays_number"),
    )
    op.add_column(
        "wallet_calls",
        sa.Column("is_free", sa.Boolean(), server_default=sa.false(), nullable=False),
    )


def downgrade() -> None:
    with op.batch_alter_table("wallet_calls") as batch:
        batch.drop_column("is_free")
    op.drop_table("free_round_plays")
    op.drop_table("free_round_campaigns")
