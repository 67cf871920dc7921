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
# oldest first (ties by id: one order on every database), those set aside until later left
STALE_ROUNDS = (
    "SELECT id, player_id, game FROM rounds WHERE status = 'open' AND updated_ms < :cutoff"
    " AND (resolve_retry_ms IS NULL OR resolve_retry_ms <= :now)"
    " ORDER BY updated_ms, id"
)
SET_ASIDE_ROUNDS = (
    "SELECT id, player_id, game, updated_ms, resolve_failures, resolve_error,"
    " resolve_retry_ms FROM rounds WHERE status = 'open' AND resolve_failures > 0"
    " ORDER BY updated_ms, id"
)
_INSERT = (
    "INSERT INTO rounds (id, player_id, number, session_id, game, variant, currency,"
    " bet_minor, bet, status, record, view, win_minor, balance_before,"
    " balance_after, autoplay_id, resolved_by, created_ms, updated_ms, completed_ms, forced,"
    " model_hash, mode)"
    " VALUES (:id, :player, :number, :session, :game, :variant, :currency,"
    " :bet_minor, :bet, :status, :record, :view, :win, :before, :after, :autoplay,"
    " :resolved, :now, :now, :completed, :forced, :model_hash, :mode)"
)
# a round once forced stays forced
_UPDATE = (
    "UPDATE rounds SET status = :status, record = :record, view = :view,"
    " win_minor = :win, updated_ms = :now, balance_after = :after,"
    " completed_ms = :completed, resolved_by = :resolved, forced = (forced OR :forced)"
    " WHERE id = :id"
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


def stale(connection: Connection, cutoff_ms: int, now_ms: int) -> list[tuple[str, str, str]]:
    """Rounds open and untouched since before ``cutoff_ms``, oldest first, but those set
    aside until after ``now_ms``: (id, player, game)."""
    return [
        (str(r.id), str(r.player_id), str(r.game))
        for r in connection.execute(text(STALE_ROUNDS), {"cutoff": cutoff_ms, "now": now_ms})
    ]


def resolve_failures(connection: Connection, round_id: str) -> int:
    """How many resolver passes failed on the round so far."""
    found = connection.execute(
        text("SELECT resolve_failures FROM rounds WHERE id = :id"), {"id": round_id}
    ).scalar()
    return int(found or 0)


def set_aside(
    connection: Connection, round_id: str, failures: int, error: str, retry_ms: int
) -> None:
    """Record that resolving an open round failed, ``failures`` times now, last with
    ``error``: no pass tries it again before ``retry_ms``."""
    connection.execute(
        text(
            "UPDATE rounds SET resolve_failures = :failures, resolve_error = :error,"
            " resolve_retry_ms = :retry WHERE id = :id AND status = 'open'"
        ),
        {"id": round_id, "failures": failures, "error": error[:2000], "retry": retry_ms},
    )


def set_aside_rounds(connection: Connection) -> list[Any]:
    """The open rounds the resolver failed on, oldest first (the operator's listing)."""
    return list(connection.execute(text(SET_ASIDE_ROUNDS)).mappings())


def count_set_aside(connection: Connection) -> int:
    return int(
        connection.execute(
            text("SELECT count(*) FROM rounds WHERE status = 'open' AND resolve_failures > 0")
        ).scalar_one()
    )
