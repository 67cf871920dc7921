"""initial schema

Revision ID: 0001
Revises:
Create Date: 2026-11-29 15:08:18.178929
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "audit_log",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("player_id", sa.String(length=36), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("round_id", sa.String(length=36), nullable=True),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.Column("prev_hash", sa.String(length=64), nullable=False),
        sa.Column("hash", sa.String(length=64), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("player_id", "seq", name="uq_audit_player_seq"),
    )
    op.create_table(
        "idempotency_keys",
        sa.Column("scope", sa.String(length=64), nullable=False),
        sa.Column("key", sa.String(length=128), nullable=False),
        sa.Column("request_hash", sa.String(length=64), nullable=False),
        sa.Column("status_code", sa.Integer(), nullable=False),
        sa.Column("response", sa.Text(), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("scope", "key"),
    )
    op.create_table(
        "players",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("external_ref", sa.String(length=128), nullable=False),
        sa.Column("currency", sa.String(length=3), nullable=False),
        sa.Column("market", sa.String(length=32), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.Column("audit_seq", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column(
            "audit_hash", sa.String(length=64), server_default=sa.text("('')"), nullable=False
        ),
        sa.Column("last_round_ms", sa.BigInteger(), nullable=True),
        sa.Column("rounds_played", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("external_ref"),
    )
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("player_id", sa.String(length=36), nullable=True),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("currency", sa.String(length=3), nullable=False),
        sa.Column("balance", sa.BigInteger(), server_default=sa.text("0"), nullable=False),
        sa.CheckConstraint("player_id IS NULL OR balance >= 0", name="ck_wallet_not_negative"),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("name", "currency", name="uq_accounts_name_currency"),
        sa.UniqueConstraint("player_id"),
    )
    op.create_table(
        "autoplays",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("player_id", sa.String(length=36), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("bet", sa.Text(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("remaining", sa.Integer(), nullable=False),
        sa.Column("stop_on_feature", sa.Boolean(), nullable=False),
        sa.Column("stop_on_win_above_minor", sa.BigInteger(), nullable=True),
        sa.Column("loss_limit_minor", sa.BigInteger(), nullable=True),
        sa.Column("net_minor", sa.BigInteger(), server_default=sa.text("0"), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("stop_reason", sa.String(length=64), nullable=True),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.Column("updated_ms", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("autoplays", schema=None) as batch_op:
        batch_op.create_index("ix_autoplays_player", ["player_id"], unique=False)

    op.create_table(
        "game_states",
        sa.Column("player_id", sa.String(length=36), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("bet_key", sa.String(length=32), nullable=False),
        sa.Column("state", sa.Text(), nullable=False),
        sa.Column("updated_ms", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
        ),
        sa.PrimaryKeyConstraint("player_id", "game", "bet_key"),
    )
    op.create_table(
        "ledger_transactions",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("player_id", sa.String(length=36), nullable=False),
        sa.Column("round_id", sa.String(length=36), nullable=True),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("ledger_transactions", schema=None) as batch_op:
        batch_op.create_index("ix_ledger_transactions_player", ["player_id"], unique=False)
        batch_op.create_index("ix_ledger_transactions_round", ["round_id"], unique=False)

    op.create_table(
        "rounds",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("player_id", sa.String(length=36), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("session_id", sa.String(length=36), nullable=True),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("variant", sa.String(length=16), nullable=False),
        sa.Column("currency", sa.String(length=3), nullable=False),
        sa.Column("bet_minor", sa.BigInteger(), nullable=False),
        sa.Column("bet", sa.Text(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("record", sa.Text(), nullable=False),
        sa.Column("view", sa.Text(), nullable=False),
        sa.Column("win_minor", sa.BigInteger(), server_default=sa.text("0"), nullable=False),
        sa.Column("balance_before", sa.BigInteger(), nullable=False),
        sa.Column("balance_after", sa.BigInteger(), nullable=True),
        sa.Column("autoplay_id", sa.String(length=36), nullable=True),
        sa.Column("resolved_by", sa.String(length=16), nullable=True),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.Column("updated_ms", sa.BigInteger(), nullable=False),
        sa.Column("completed_ms", sa.BigInteger(), nullable=True),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("player_id", "number", name="uq_rounds_player_number"),
    )
    with op.batch_alter_table("rounds", schema=None) as batch_op:
        batch_op.create_index("ix_rounds_status_updated", ["status", "updated_ms"], unique=False)
        batch_op.create_index(
            "uq_rounds_one_open",
            ["player_id", "game"],
            unique=True,
            sqlite_where=sa.text("status = 'open'"),
            postgresql_where=sa.text("status = 'open'"),
        )

    op.create_table(
        "sessions",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("player_id", sa.String(length=36), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.Column("expires_ms", sa.BigInteger(), nullable=False),
        sa.Column("bets_minor", sa.BigInteger(), server_default=sa.text("0"), nullable=False),
        sa.Column("wins_minor", sa.BigInteger(), server_default=sa.text("0"), nullable=False),
        sa.Column("rounds", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("sessions", schema=None) as batch_op:
        batch_op.create_index("ix_sessions_player", ["player_id"], unique=False)

    op.create_table(
        "postings",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("transaction_id", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
        ),
        sa.ForeignKeyConstraint(
            ["transaction_id"],
            ["ledger_transactions.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("postings", schema=None) as batch_op:
        batch_op.create_index("ix_postings_account", ["account_id"], unique=False)
        batch_op.create_index("ix_postings_transaction", ["transaction_id"], unique=False)

    op.create_table(
        "round_steps",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("round_id", sa.String(length=36), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("action", sa.String(length=32), nullable=False),
        sa.Column("view", sa.Text(), nullable=False),
        sa.Column("balance_after", sa.BigInteger(), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["round_id"],
            ["rounds.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("round_id", "seq", name="uq_round_steps_seq"),
    )


def downgrade() -> None:
    op.drop_table("round_steps")
    with op.batch_alter_table("postings", schema=None) as batch_op:
        batch_op.drop_index("ix_postings_transaction")
        batch_op.drop_index("ix_postings_account")

    op.drop_table("postings")
    with op.batch_alter_table("sessions", schema=None) as batch_op:
        batch_op.drop_index("ix_sessions_player")

    op.drop_table("sessions")
    with op.batch_alter_table("rounds", schema=None) as batch_op:
        batch_op.drop_index(
            "uq_rounds_one_open",
            sqlite_where=sa.text("status = 'open'"),
            postgresql_where=sa.text("status = 'open'"),
        )
        batch_op.drop_index("ix_rounds_status_updated")

    op.drop_table("rounds")
    with op.batch_alter_table("ledger_transactions", schema=None) as batch_op:
        batch_op.drop_index("ix_ledger_transactions_round")
        batch_op.drop_index("ix_ledger_transactions_player")

    op.drop_table("ledger_transactions")
    op.drop_table("game_states")
    with op.batch_alter_table("autoplays", schema=None) as batch_op:
        batch_op.drop_index("ix_autoplays_player")

    op.drop_table("autoplays")
    op.drop_table("accounts")
    op.drop_table("players")
    op.drop_table("idempotency_keys")
    op.drop_table("audit_log")
