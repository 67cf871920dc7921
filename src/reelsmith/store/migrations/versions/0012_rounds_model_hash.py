"""rounds: the hash of the model and variant each was played on

Every round stores the SHA-256 of the exact model and RTP variant it was played on
(`reelsmith.engine.model.model_hash`), so that the operator's report groups rounds by the
version of the mathematics that paid them and a replay can tell whether the title loaded now is
that version. Rounds played before this revision have none (NULL): the version they were
played on was not recorded, and nothing is guessed for them.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-04 07:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("rounds", sa.Column("model_hash", sa.String(64), nullable=True))


def downgrade() -> None:
    # ALTER TABLE ... DROP COLUMN on both databases (SQLite 3.35 and later): a copy of the
    # table, as a batch would make on SQLite, fails on the rows that refer to the rounds
    op.drop_column("rounds", "model_hash")
