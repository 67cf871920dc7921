"""The rounds' rows, their steps and the carried game state: every statement the server runs
on them."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, select, text

from reelsmith.store import sql
from reelsmith.store.tables import round_steps, rounds

# 'open' written out, not bound: a planner uses a partial index (ix_rounds_open_updated, open
# rounds only) only when the query's condition visibly implies the index's
OPEN_ROUND_QUERY = (
    "SELECT * FROM rounds WHERE player_id = :player AND game = :game AND status = 'open'"
)
ROUND_QUERY = "SELECT * FROM rounds WHERE id = :id"
STALE_ROUNDS = (
    "SELECT id, player_id, game FROM rounds WHERE status = 'open' AND updated_ms < :cutoff"
)
_INSERT = (
    "INSERT INTO rounds (id, player_id, number, session_id, game, variant, currency,"
    " bet_minor, bet, status, record, view, win_minor, balance_before,"
    " balance_after, autoplay_id, resolved_by, created_ms, updated_ms, completed_ms)"
    " VALUES (:id, :player, :number, :session, :game, :variant, :currency,"
    " :bet_minor, :bet, :status, :record, :view, :win, :before, :after, :autoplay,"
    " :resolved, :now, :now, :completed)"
)
_UPDATE = (
    "UPDATE rounds SET status = :status, record = :record, view = :view,"
    " win_minor = :win, updated_ms = :now, balance_after = :after,"
    " completed_ms = :completed, resolved_by = :resolved WHERE id = :id"
)


def open_round_params(player_id: str, game: str) -> dict[str, Any]:
    return {"player": player_id, "game": game}


def open_round(connection: Connection, player_id: str, game: str) -> Any:
    """The player's open round of ``game``, or None."""
    return sql.one(connection, OPEN_ROUND_QUERY, open_round_params(player_id, game))


def round_(connection: Connection, round_id: str) -> Any:
    """The round's row, or None (read on the driver's cursor: a round step's path)."""
    return sql.one(connection, ROUND_QUERY, {"id": round_id})


def round_mapping(connection: Connection, round_id: str) -> Any:
    """The round's row as a mapping, or None (recall, replay and resolution)."""
    return connection.execute(select(rounds).where(rounds.c.id == round_id)).mappings().first()


_STEP = (
    "INSERT INTO round_steps (round_id, seq, action, view, balance_after, created_ms)"
    " VALUES (:id, :seq, :action, :view, :balance, :now)"
)
# The round and its step in one statement (PostgreSQL): the step's view is the round's view
# after it, sent once.
_INSERT_WITH_STEP = f"WITH r AS ({_INSERT}) {_STEP}"
_UPDATE_WITH_STEP = f"WITH r AS ({_UPDATE}) {_STEP}"


def write_step(
    connection: Connection,
    settled: dict[str, Any],
    new: dict[str, Any] | None,
    seq: int,
    action: str,
    balance_minor: int,
) -> None:
    """A round's state after a step and the step itself (its view is the round's, at the
    balance ``balance_minor``): the round inserted with the columns known at its start
    (``new``) when the step started it, else updated."""
    params = {**(new or {}), **settled, "seq": seq, "action": action, "balance": balance_minor}
    if connection.dialect.name == "postgresql":
        sql.send(connection, _UPDATE_WITH_STEP if new is None else _INSERT_WITH_STEP, params)
        return
    sql.send(connection, _UPDATE if new is None else _INSERT, params)
    sql.send(connection, _STEP, params)


def steps(connection: Connection, round_id: str) -> list[Any]:
    """The round's steps in order."""
    return list(
        connection.execute(
            select(round_steps)
            .where(round_steps.c.round_id == round_id)
            .order_by(round_steps.c.seq)
        )
    )


def carried_state(connection: Connection, player_id: str, game: str, bet_key: str) -> Any:
    """The JSON text of the state a player carries at a bet of a game, or None."""
    return sql.scalar(
        connection,
        "SELECT state FROM game_states WHERE player_id = :player AND game = :game"
        " AND bet_key = :key",
        {"player": player_id, "game": game, "key": bet_key},
    )


def keep_state(
    connection: Connection, player_id: str, game: str, bet_key: str, state: str, now: int
) -> None:
    sql.send(
        connection,
        "INSERT INTO game_states (player_id, game, bet_key, state, updated_ms)"
        " VALUES (:player, :game, :key, :state, :now)"
        " ON CONFLICT (player_id, game, bet_key)"
        " DO UPDATE SET state = excluded.state, updated_ms = excluded.updated_ms",
        {"player": player_id, "game": game, "key": bet_key, "state": state, "now": now},
    )


def stale(connection: Connection, cutoff_ms: int) -> list[tuple[str, str, str]]:
    """Rounds open and untouched since before ``cutoff_ms``: (id, player, game)."""
    return [
        (str(r.id), str(r.player_id), str(r.game))
        for r in connection.execute(text(STALE_ROUNDS), {"cutoff": cutoff_ms})
    ]
