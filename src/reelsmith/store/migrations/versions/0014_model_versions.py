"""the versions of the models rounds were played on, kept

A round records the hash of the model and variant it was played on (0012). So that it can be
replayed and its payout re-derived on that version after the title's files have changed, every
server keeps the files of each version it serves (the model file and its variant files, as JSON
text keyed by their paths in the title's folder) under that hash when it starts; a version once
kept is never changed (the hash is of the files' data).

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-04 07:25:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "model_versions",
        sa.Column("hash", sa.String(64), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("variant", sa.String(16), nullable=False),
        sa.Column("files", sa.Text(), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("model_versions")
