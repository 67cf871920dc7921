"""rounds: the bet mode each was played in

A round sold in a bet mode (``[modes]`` of its model: an ante, a bought feature) stores the
mode's name beside its bet, whose ``bet_minor`` is then the bet times the mode's price. Rounds
of the base game, and every round played before this revision, have none (NULL).

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-04 13:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("rounds", sa.Column("mode", sa.String(32), nullable=True))


def downgrade() -> None:
    # ALTER TABLE ... DROP COLUMN on both databases, as 0012 does: a batch copy of rounds
    # fails on SQLite on the rows that refer to them
    op.drop_column("rounds", "mode")
