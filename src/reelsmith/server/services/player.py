"""The player as a service's transaction sees it: its row and wallet, read (and locked)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Connection

from reelsmith.server.errors import not_found
from reelsmith.store import players


@dataclass
class Player:
    id: str
    external_ref: str
    currency: str
    market: str
    balance_minor: int
    last_round_ms: int | None
    rounds_played: int = 0
    account_id: int = 0
    audit_seq: int = 0
    audit_hash: str = ""
    disabled_ms: int | None = None


def read_player(connection: Connection, player_id: str, sqlite: bool, lock: bool) -> Player:
    """The player and its wallet; ``lock`` takes the player's row lock for the rest of the
    transaction (see `players.player_query`)."""
    row = players.player(connection, player_id, sqlite, lock)
    if row is None:
        raise not_found(f"player {player_id}")
    return Player(
        str(row["id"]),
        str(row["external_ref"]),
        str(row["currency"]),
        str(row["market"]),
        int(row["balance"]),
        row["last_round_ms"],
        int(row["rounds_played"]),
        int(row["account_id"]),
        int(row["audit_seq"]),
        str(row["audit_hash"] or ""),
        row["disabled_ms"],
    )
