"""The players' and sessions' rows: every statement the server runs on them."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, insert, select, text, update

from reelsmith.store import sql
from reelsmith.store.tables import players, sessions

PLAYER_QUERY = (
    "SELECT p.id, p.external_ref, p.currency, p.market, p.last_round_ms, p.rounds_played,"
    " p.audit_seq, p.audit_hash, p.disabled_ms, a.id AS account_id, a.balance"
    " FROM players p JOIN accounts a ON a.player_id = p.id"
    " WHERE p.id = :id"
)
# Both rows: a statement that waited for the lock then reads the newest version of every row
# it locks, but a joined row it does not lock as of before the wait (a stale balance, under
# READ COMMITTED).
PLAYER_LOCK_QUERY = PLAYER_QUERY + " FOR UPDATE OF p, a"
SESSION_QUERY = (
    "SELECT s.player_id, s.expires_ms, s.revoked_ms, p.disabled_ms"
    " FROM sessions s JOIN players p ON p.id = s.player_id WHERE s.id = :id"
)


def player_query(sqlite: bool, lock: bool) -> str:
    """The player and its wallet; ``lock`` takes the player's row lock (PostgreSQL) for the
    rest of the transaction (SQLite's write transaction already excludes other writers)."""
    return PLAYER_LOCK_QUERY if lock and not sqlite else PLAYER_QUERY


def player(connection: Connection, player_id: str, sqlite: bool, lock: bool) -> Any:
    return sql.one(connection, player_query(sqlite, lock), {"id": player_id})


def session(connection: Connection, session_id: str) -> Any:
    """The session's `SESSION_QUERY` row, or None."""
    return sql.one(connection, SESSION_QUERY, {"id": session_id})


def id_of(connection: Connection, external_ref: str) -> str | None:
    found = connection.execute(
        select(players.c.id).where(players.c.external_ref == external_ref)
    ).scalar()
    return None if found is None else str(found)


def insert_player(
    connection: Connection,
    player_id: str,
    external_ref: str,
    currency: str,
    market: str,
    now: int,
    demo: bool = False,
) -> None:
    connection.execute(
        insert(players).values(
            id=player_id,
            external_ref=external_ref,
            currency=currency,
            market=market,
            created_ms=now,
            **({"demo": True} if demo else {}),
        )
    )


def demo_player(connection: Connection) -> str | None:
    found = connection.execute(select(players.c.id).where(players.c.demo.is_(True))).scalar()
    return None if found is None else str(found)


def set_disabled(connection: Connection, player_id: str, disabled_ms: int | None) -> None:
    connection.execute(
        update(players).where(players.c.id == player_id).values(disabled_ms=disabled_ms)
    )


def move_audit_head(
    connection: Connection, player_id: str, seq: int, hash_: str, round_started_ms: int | None
) -> None:
    """The player's audit head after a round step; with ``round_started_ms`` the step started
    a round, counted with its time (the minimum round duration reads it)."""
    started = round_started_ms is not None
    sql.send(
        connection,
        "UPDATE players SET audit_seq = :seq, audit_hash = :hash"
        + (", last_round_ms = :now, rounds_played = rounds_played + 1" if started else "")
        + " WHERE id = :id",
        {"seq": seq, "hash": hash_, "now": round_started_ms, "id": player_id},
    )


def insert_session(
    connection: Connection, session_id: str, player_id: str, now: int, expires_ms: int
) -> None:
    connection.execute(
        insert(sessions).values(
            id=session_id, player_id=player_id, created_ms=now, expires_ms=expires_ms
        )
    )


def session_owner(connection: Connection, session_id: str) -> str | None:
    row = sql.one(connection, "SELECT player_id FROM sessions WHERE id = :id", {"id": session_id})
    return None if row is None else str(row["player_id"])


def end_live_sessions(
    connection: Connection, player_id: str, now: int, session_id: str | None = None
) -> list[str]:
    """End the player's live sessions (only ``session_id`` if given): their ids."""
    query = (
        "SELECT id FROM sessions WHERE player_id = :player AND revoked_ms IS NULL"
        " AND expires_ms > :now"
    )
    params: dict[str, Any] = {"player": player_id, "now": now}
    if session_id is not None:
        query += " AND id = :id"
        params["id"] = session_id
    ended = [str(r.id) for r in connection.execute(text(query), params)]
    for ended_id in ended:
        connection.execute(update(sessions).where(sessions.c.id == ended_id).values(revoked_ms=now))
    return ended


def end_every_session(connection: Connection, player_id: str, now: int) -> list[str]:
    """Mark every session of the player not yet revoked as revoked now: their ids."""
    return [
        str(r.id)
        for r in connection.execute(
            text(
                "UPDATE sessions SET revoked_ms = :now WHERE player_id = :player"
                " AND revoked_ms IS NULL RETURNING id"
            ),
            {"now": now, "player": player_id},
        )
    ]


def session_totals(connection: Connection, session_id: str, player_id: str | None = None) -> Any:
    """The session's bets, wins and start (``player_id``: only if the session is its)."""
    if player_id is None:
        return sql.one(
            connection,
            "SELECT bets_minor, wins_minor FROM sessions WHERE id = :id",
            {"id": session_id},
        )
    return sql.one(
        connection,
        "SELECT bets_minor, wins_minor, created_ms FROM sessions WHERE id = :id"
        " AND player_id = :player",
        {"id": session_id, "player": player_id},
    )


def count_round_in_session(
    connection: Connection, round_id: str, bet_minor: int, started: bool, wins_minor: int
) -> None:
    """The bets, rounds and wins of the session a round is played in."""
    sql.send(
        connection,
        "UPDATE sessions SET bets_minor = bets_minor + :bet, rounds = rounds + :started,"
        " wins_minor = wins_minor + :wins"
        " WHERE id = (SELECT session_id FROM rounds WHERE id = :round)",
        {"bet": bet_minor, "started": int(started), "wins": wins_minor, "round": round_id},
    )


def fresh_session(connection: Connection, player_id: str, fresh_until: int) -> Any:
    """The player's newest live session that lasts beyond ``fresh_until``, or None."""
    return sql.one(
        connection,
        "SELECT id, expires_ms FROM sessions WHERE player_id = :player"
        " AND revoked_ms IS NULL AND expires_ms > :fresh"
        " ORDER BY expires_ms DESC LIMIT 1",
        {"player": player_id, "fresh": fresh_until},
    )
