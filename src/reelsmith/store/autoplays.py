"""The autoplays' rows: every statement the server runs on them."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, insert, select, update

from reelsmith.store import sql
from reelsmith.store.tables import autoplays


def autoplay(connection: Connection, autoplay_id: str) -> Any:
    """The autoplay's row as a mapping, or None."""
    return (
        connection.execute(select(autoplays).where(autoplays.c.id == autoplay_id))
        .mappings()
        .first()
    )


def autoplay_fast(connection: Connection, autoplay_id: str) -> Any:
    """The autoplay's row read on the driver's cursor (a round step's path), or None."""
    return sql.one(connection, "SELECT * FROM autoplays WHERE id = :id", {"id": autoplay_id})


def active(connection: Connection, player_id: str, game: str) -> Any:
    """The player's active autoplay of ``game``, or None."""
    return (
        connection.execute(
            select(autoplays).where(
                autoplays.c.player_id == player_id,
                autoplays.c.game == game,
                autoplays.c.status == "active",
            )
        )
        .mappings()
        .first()
    )


def stop_active(connection: Connection, player_id: str, game: str, reason: str, now: int) -> None:
    connection.execute(
        update(autoplays)
        .where(
            autoplays.c.player_id == player_id,
            autoplays.c.game == game,
            autoplays.c.status == "active",
        )
        .values(status="stopped", stop_reason=reason, updated_ms=now)
    )


def insert_autoplay(connection: Connection, **values: Any) -> None:
    connection.execute(insert(autoplays).values(**values))


def stop(connection: Connection, autoplay_id: str, reason: str, now: int) -> None:
    connection.execute(
        update(autoplays)
        .where(autoplays.c.id == autoplay_id)
        .values(status="stopped", stop_reason=reason, updated_ms=now)
    )


def after_step(
    connection: Connection,
    autoplay_id: str,
    remaining: int,
    net_minor: int,
    status: str,
    reason: str | None,
    balance_minor: int,
    now: int,
) -> None:
    sql.send(
        connection,
        "UPDATE autoplays SET remaining = :remaining, net_minor = :net, status = :status,"
        " stop_reason = :reason, balance_minor = :balance, updated_ms = :now WHERE id = :id",
        {
            "remaining": remaining,
            "net": net_minor,
            "status": status,
            "reason": reason,
            "balance": balance_minor,
            "now": now,
            "id": autoplay_id,
        },
    )


def hold_bet(connection: Connection, autoplay_id: str, bet: str) -> None:
    sql.send(
        connection,
        "UPDATE autoplays SET bet = :bet WHERE id = :id",
        {"bet": bet, "id": autoplay_id},
    )
