"""The free-round campaigns' rows and the rounds they gave: every statement the server runs on
them (see `reelsmith.server.services.free_rounds`)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, text

from reelsmith.store import sql

_COLUMNS = (
    "id, player_id, game, bet, bet_minor, currency, rounds, played, status, expires_ms,"
    " request_hash, created_ms, updated_ms, cancelled_ms"
)


def campaign(connection: Connection, campaign_id: str) -> Any:
    """The campaign's row, or None."""
    return sql.one(
        connection,
        f"SELECT {_COLUMNS} FROM free_round_campaigns WHERE id = :id",
        {"id": campaign_id},
    )


def of_player(connection: Connection, player_id: str) -> list[Any]:
    """The player's campaigns, newest first (ties by id)."""
    result = connection.execute(
        text(
            f"SELECT {_COLUMNS} FROM free_round_campaigns WHERE player_id = :player"
            " ORDER BY created_ms DESC, id"
        ),
        {"player": player_id},
    )
    return list(result.mappings())


def player_market(connection: Connection, player_id: str) -> tuple[str, str]:
    """The player's market and currency."""
    row = sql.one(
        connection, "SELECT market, currency FROM players WHERE id = :id", {"id": player_id}
    )
    return str(row["market"]), str(row["currency"])


def wins_minor(connection: Connection, campaign_id: str) -> int:
    """What the campaign's rounds paid so far (wins and jackpot wins of finished rounds)."""
    found = sql.scalar(
        connection,
        "SELECT COALESCE(SUM(r.win_minor), 0) FROM free_round_plays f"
        " JOIN rounds r ON r.id = f.round_id WHERE f.campaign_id = :id",
        {"id": campaign_id},
    )
    return int(found or 0)


def insert(connection: Connection, params: dict[str, Any]) -> None:
    sql.run(
        connection,
        "INSERT INTO free_round_campaigns (id, player_id, game, bet, bet_minor, currency,"
        " rounds, played, status, expires_ms, request_hash, created_ms, updated_ms)"
        " VALUES (:id, :player, :game, :bet, :bet_minor, :currency, :rounds, 0, 'active',"
        " :expires, :hash, :now, :now)",
        params,
    )


def count_play(connection: Connection, campaign_id: str, number: int, now: int) -> bool:
    """Count the campaign's round ``number`` (its played rounds were ``number - 1``): False
    when the campaign is no longer active at that count. The last round finishes it."""
    moved = sql.run(
        connection,
        "UPDATE free_round_campaigns SET played = :number, updated_ms = :now,"
        " status = CASE WHEN :number >= rounds THEN 'finished' ELSE status END"
        " WHERE id = :id AND status = 'active' AND played = :before AND expires_ms > :now",
        {"id": campaign_id, "number": number, "before": number - 1, "now": now},
    )
    return moved == 1


def link(connection: Connection, round_id: str, campaign_id: str, number: int) -> None:
    """Record that ``round_id`` is the campaign's round ``number`` (unique per campaign)."""
    sql.send(
        connection,
        "INSERT INTO free_round_plays (round_id, campaign_id, number)"
        " VALUES (:round, :campaign, :number)",
        {"round": round_id, "campaign": campaign_id, "number": number},
    )


def cancel(connection: Connection, campaign_id: str, now: int) -> None:
    sql.run(
        connection,
        "UPDATE free_round_campaigns SET status = 'cancelled', cancelled_ms = :now,"
        " updated_ms = :now WHERE id = :id AND status = 'active'",
        {"id": campaign_id, "now": now},
    )


def is_free(connection: Connection, round_id: str) -> bool:
    """Whether a free-round campaign gave the round."""
    return (
        sql.one(
            connection,
            "SELECT 1 AS one FROM free_round_plays WHERE round_id = :id",
            {"id": round_id},
        )
        is not None
    )


def play_of(connection: Connection, round_id: str) -> dict[str, Any] | None:
    """The campaign and number of a round a free-round campaign gave, else None."""
    found = sql.one(
        connection,
        "SELECT campaign_id, number FROM free_round_plays WHERE round_id = :id",
        {"id": round_id},
    )
    if found is None:
        return None
    return {"campaign_id": str(found["campaign_id"]), "number": int(found["number"])}
