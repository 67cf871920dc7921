"""A player's history page, written as JSON by the database itself."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Connection, bindparam, text

# A history page's rounds and steps, as (JSON key, column, whether the column holds JSON).
HISTORY_ROUND = (
    ("round_id", "id", False),
    ("number", "number", False),
    ("game", "game", False),
    ("variant", "variant", False),
    ("status", "status", False),
    ("bet", "bet", True),
    ("bet_minor", "bet_minor", False),
    ("win_minor", "win_minor", False),
    ("currency", "currency", False),
    ("balance_before_minor", "balance_before", False),
    ("balance_after_minor", "balance_after", False),
    ("resolved_by", "resolved_by", False),
    # a JSON boolean on both databases (SQLite keeps a boolean as 0 or 1)
    ("forced", "(CASE WHEN forced THEN 'true' ELSE 'false' END)", True),
    ("created_ms", "created_ms", False),
    ("completed_ms", "completed_ms", False),
    ("round", "view", True),
)
HISTORY_STEP = (
    ("seq", "seq", False),
    ("action", "action", False),
    ("balance_after_minor", "balance_after", False),
    ("created_ms", "created_ms", False),
    ("view", "view", True),
)


def json_object(sqlite: bool, fields: Sequence[tuple[str, str, bool]]) -> str:
    """SQL that makes a row's JSON object of ``fields`` (a JSON column goes in as JSON)."""
    if sqlite:
        pairs = ", ".join(f"'{key}', {f'json({col})' if js else col}" for key, col, js in fields)
        return f"json_object({pairs})"
    pairs = ", ".join(f"'{key}', {f'{col}::json' if js else col}" for key, col, js in fields)
    return f"json_build_object({pairs})::text"


def free_round_of(sqlite: bool) -> str:
    """SQL for a round's free-round campaign as the one-round recall names it
    (``{"campaign_id": ..., "number": ...}``, `reelsmith.store.free_rounds.play_of`), or SQL
    NULL for a paid round: a lookup by the round's id in ``free_round_plays``' key."""
    pairs = "'campaign_id', f.campaign_id, 'number', f.number"
    build = f"json_object({pairs})" if sqlite else f"json_build_object({pairs})"
    return f"(SELECT {build} FROM free_round_plays f WHERE f.round_id = rounds.id)"


def page(connection: Connection, sqlite: bool, player_id: str, game: str | None, limit: int) -> str:
    """The JSON text ``{"rounds": [...]}`` of the player's last ``limit`` rounds (of ``game``),
    newest first, each with its steps and, as the one-round recall gives it, the free-round
    campaign that gave it (``free_round``, null for a paid round).

    Two queries, the rounds and then all their steps, however many rounds, and the database
    writes each round's and each step's JSON, the stored JSON of its bet and view inside as
    it is: only the texts are joined here (a page of 100 rounds holds a few megabytes of
    views; parsing and writing them again in Python cost about ten times the queries, all of
    it holding Python's global lock)."""
    where = "player_id = :player" + (" AND game = :game" if game is not None else "")
    fields = (*HISTORY_ROUND, ("free_round", free_round_of(sqlite), True))
    found = connection.execute(
        text(
            f"SELECT id, {json_object(sqlite, fields)} FROM rounds"
            f" WHERE {where} ORDER BY number DESC LIMIT :limit"
        ),
        {"player": player_id, "game": game, "limit": limit},
    ).all()
    steps: dict[str, list[str]] = {row[0]: [] for row in found}
    if found:
        for round_id, step in connection.execute(
            text(
                f"SELECT round_id, {json_object(sqlite, HISTORY_STEP)} FROM round_steps"
                " WHERE round_id IN :ids ORDER BY round_id, seq"
            ).bindparams(bindparam("ids", expanding=True)),
            {"ids": list(steps)},
        ):
            steps[round_id].append(step)
    # each round's object, its steps added before its closing brace
    texts = [f'{body[:-1]},"steps":[{",".join(steps[rid])}]}}' for rid, body in found]
    return '{"rounds":[' + ",".join(texts) + "]}"
