"""Sultan Spins' carried state keyed by bet level

Sultan Spins' bets became bet levels (whole stake units, priced by each market): a player's
carried state (pots, trigger points, meter) is now stored under the level (``level-5``) rather
than the bet's amount as text (``"1.00"``). Before this revision every market priced a stake
unit at 0.20, so each stored amount is the level ``amount / 0.20``; the table below is that
ladder, frozen here so the migration never depends on today's model or markets.

No row is lost or merged: a key the table does not map (no pricing ever gave it) keeps its
amount text, which no level key can equal, so it stays where it was stored (for the operator,
and for a downgrade) and no round reads it; a key whose level already holds a state keeps its
amount too. The downgrade moves the level keys of the table back to their amounts.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01 16:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

GAME = "sultan-spins"
#: The bet amounts Sultan Spins offered before bet levels, and the level each one is.
LEVEL_OF_AMOUNT: dict[str, int] = {
    "0.20": 1,
    "0.40": 2,
    "0.60": 3,
    "0.80": 4,
    "1.00": 5,
    "1.20": 6,
    "1.60": 8,
    "2.00": 10,
    "3.00": 15,
    "4.00": 20,
    "5.00": 25,
    "6.00": 30,
    "8.00": 40,
    "10.00": 50,
    "20.00": 100,
    "50.00": 250,
    "100.00": 500,
}


def level_key(level: int) -> str:
    return f"level-{level}"


def state_key_after(key: str) -> str:
    """The key a state stored under ``key`` before this revision has after it."""
    level = LEVEL_OF_AMOUNT.get(key)
    return key if level is None else level_key(level)


_MOVE = sa.text(
    "UPDATE game_states SET bet_key = :new WHERE game = :game AND bet_key = :old"
    " AND NOT EXISTS (SELECT 1 FROM game_states AS taken"
    " WHERE taken.player_id = game_states.player_id AND taken.game = game_states.game"
    " AND taken.bet_key = :new)"
)


def upgrade() -> None:
    connection = op.get_bind()
    for amount, level in LEVEL_OF_AMOUNT.items():
        connection.execute(_MOVE, {"game": GAME, "old": amount, "new": level_key(level)})


def downgrade() -> None:
    connection = op.get_bind()
    for amount, level in LEVEL_OF_AMOUNT.items():
        connection.execute(_MOVE, {"game": GAME, "old": level_key(level), "new": amount})
