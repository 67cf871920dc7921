"""Recall: a player's history, one round for the player or the operator, and a stored
round replayed from its draws against what was stored."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import Connection

from reelsmith.server.errors import ConflictError, InvalidInputError, not_found
from reelsmith.server.jsontext import Rendered
from reelsmith.server.services.context import Context
from reelsmith.server.services.player import read_player
from reelsmith.server.services.stored import restore, stored_price
from reelsmith.store import free_rounds, history, rounds


def round_json(
    connection: Connection, row: Any, steps: bool = True, operator: bool = False
) -> dict[str, Any]:
    data: dict[str, Any] = {
        "round_id": row["id"],
        "number": row["number"],
        "game": row["game"],
        "variant": row["variant"],
        "status": row["status"],
        "bet": json.loads(row["bet"]),
        "bet_minor": row["bet_minor"],
        "win_minor": row["win_minor"],
        "currency": row["currency"],
        "balance_before_minor": row["balance_before"],
        "balance_after_minor": row["balance_after"],
        "resolved_by": row["resolved_by"],
        "forced": bool(row["forced"]),
        "created_ms": row["created_ms"],
        "completed_ms": row["completed_ms"],
        "round": json.loads(row["view"]),
    }
    if steps:
        data["steps"] = [
            {
                "seq": s.seq,
                "action": s.action,
                "balance_after_minor": s.balance_after,
                "created_ms": s.created_ms,
                "view": json.loads(s.view),
            }
            for s in rounds.steps(connection, row["id"])
        ]
        # the campaign that gave the round, if a free-round campaign did (None: a paid round)
        data["free_round"] = free_rounds.play_of(connection, row["id"])
    if operator:
        # the model and variant it was played on (None: a round from before it was recorded)
        data["model_hash"] = row["model_hash"]
        data["record"] = json.loads(row["record"])
        data["player_id"] = row["player_id"]
    return data


class Recall:
    def __init__(self, context: Context) -> None:
        self.context = context

    def history(self, player_id: str, game: str | None, limit: int) -> Rendered:
        """The player's last ``limit`` rounds, newest first, each with its steps, as the
        database wrote their JSON (see `history.page`). The server runs it off the event
        loop (see the player's routes)."""
        context = self.context
        if not 1 <= limit <= context.settings.history_limit:
            raise InvalidInputError(
                "invalid_limit", f"limit must be 1 to {context.settings.history_limit}"
            )
        if game is not None:
            context.title(game)
        sqlite = context.db.is_sqlite
        with context.db.read() as connection:
            player = read_player(connection, player_id, sqlite, lock=False)
            text = history.page(connection, sqlite, player.id, game, limit)
        return Rendered({}, text)

    def player_round(self, player_id: str, round_id: str) -> dict[str, Any]:
        with self.context.db.read() as connection:
            row = rounds.round_mapping(connection, round_id)
            if row is None or row["player_id"] != player_id:
                raise not_found(f"round {round_id}")
            return round_json(connection, row)

    def operator_round(self, round_id: str) -> dict[str, Any]:
        with self.context.db.read() as connection:
            row = rounds.round_mapping(connection, round_id)
            if row is None:
                raise not_found(f"round {round_id}")
            return round_json(connection, row, operator=True)

    def replay_round(self, round_id: str) -> dict[str, Any]:
        """Re-run a stored round from its draws and compare with what was stored.

        A round replays on the model and variant it was played on (its ``model_hash``): the
        title served now when it is that version, else the version kept when a server served
        it (`reelsmith.server.services.versions`). When that version is neither, the replay is
        refused (409 ``model_changed``, naming the hashes) rather than run on mathematics the
        round was not played on. A round from before the hash was recorded replays on the
        title served now (``model_hash`` null in the answer)."""
        context = self.context
        with context.db.read() as connection:
            row = rounds.round_mapping(connection, round_id)
            if row is None:
                raise not_found(f"round {round_id}")
            served = context.title(row["game"])
            played_on = row["model_hash"]
            title = context.versions.title(connection, row["game"], row["variant"], played_on)
        if title is None:
            now = (
                served.model_hash(row["variant"])
                if row["variant"] in served.model.variants
                else None
            )
            raise ConflictError(
                "model_changed",
                f"round {round_id} was played on {row['game']} {row['variant']} with model"
                f" hash {played_on}, which is neither served (the model served now "
                + (f"has hash {now}" if now else "has no such variant")
                + ") nor kept: serve that version to replay it",
            )
        record = json.loads(row["record"])
        if row["status"] == "voided":
            return {
                "round_id": round_id,
                "identical": None,
                "message": "a voided round is not replayed: "
                "its malfunction is not part of its draws",
            }
        replayed = restore(title, row)
        view = title.view(stored_price(title, row, replayed), replayed)
        stored = json.loads(row["view"])
        return {
            "round_id": round_id,
            "model_hash": played_on,
            "identical": view == stored and title.record(replayed) == record,
            "replayed": view,
            "stored": stored,
        }
