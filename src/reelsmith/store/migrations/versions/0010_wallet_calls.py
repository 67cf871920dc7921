"""the seamless wallet's calls and the operator's session tokens

A seamless deployment leaves the balance at the operator and calls it for each bet, win and
rollback: every call is written here as an intent in the same transaction as its round step,
with its outcome when the answer comes, so that an unanswered bet is rolled back and a win is
retried until acknowledged, across restarts. ``wallet_sessions`` keeps the operator's token of
each game session. A transfer deployment leaves both tables empty.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-03 21:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "wallet_calls",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column("request_uuid", sa.String(36), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("player_id", sa.String(36), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("user_ref", sa.String(128), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("round_id", sa.String(36), nullable=False),
        sa.Column("reference_id", sa.String(36), nullable=True),
        sa.Column("currency", sa.String(3), nullable=False),
        sa.Column("amount_minor", sa.BigInteger(), nullable=False),
        sa.Column("round_closed", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("status", sa.String(64), nullable=True),
        sa.Column("attempts", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("next_attempt_ms", sa.BigInteger(), nullable=False),
        sa.Column("balance_minor", sa.BigInteger(), nullable=True),
        sa.Column("idempotency_key", sa.String(128), nullable=True),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.Column("updated_ms", sa.BigInteger(), nullable=False),
    )
    op.create_index("ix_wallet_calls_due", "wallet_calls", ["state", "next_attempt_ms"])
    op.create_index("ix_wallet_calls_player", "wallet_calls", ["player_id", "kind", "state"])
    op.create_index("ix_wallet_calls_round", "wallet_calls", ["round_id"])
    op.create_index("ix_wallet_calls_created", "wallet_calls", ["created_ms"])
    op.create_table(
        "wallet_sessions",
        sa.Column("session_id", sa.String(36), primary_key=True),
        sa.Column("player_id", sa.String(36), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("operator_token", sa.Text(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("wallet_sessions")
    op.drop_table("wallet_calls")
