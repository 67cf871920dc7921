"""The kept versions of the models rounds were played on (migration 0014): a version's files
by the hash of its model and variant (`reelsmith.engine.model.model_hash`)."""

from __future__ import annotations

import json

from sqlalchemy import Connection

from reelsmith.store import sql

_KEEP = (
    "INSERT INTO model_versions (hash, game, variant, files, created_ms)"
    " VALUES (:hash, :game, :variant, :files, :now) ON CONFLICT (hash) DO NOTHING"
)


def keep(
    connection: Connection, hash_: str, game: str, variant: str, files: dict[str, str], now: int
) -> None:
    """Keep ``files`` (text by path in the title's folder) as the version ``hash_``, unless a
    version of that hash is kept already (the same data: it stays as it was)."""
    params = {
        "hash": hash_,
        "game": game,
        "variant": variant,
        "files": json.dumps(files, sort_keys=True),
        "now": now,
    }
    sql.send(connection, _KEEP, params)


def files(connection: Connection, hash_: str) -> dict[str, str] | None:
    """The files kept as the version ``hash_``, or None."""
    found = sql.scalar(
        connection, "SELECT files FROM model_versions WHERE hash = :hash", {"hash": hash_}
    )
    return None if found is None else dict(json.loads(found))
