"""The idempotency keys' rows: a state-changing request's stored answer, by scope and key."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, text

from reelsmith.store import sql

KEY_QUERY = (
    "SELECT request_hash, status_code, response FROM idempotency_keys"
    " WHERE scope = :scope AND key = :key"
)
_INSERT = (
    "INSERT INTO idempotency_keys (scope, key, request_hash, status_code, response,"
    " created_ms) VALUES (:scope, :key, :hash, :status, :response, :now)"
)


def params(scope: str, key: str) -> dict[str, Any]:
    return {"scope": scope, "key": key}


def find(connection: Connection, scope: str, key: str) -> Any:
    """The key's row (``request_hash``, ``status_code``, ``response``), or None."""
    return sql.one(connection, KEY_QUERY, params(scope, key))


def store(
    connection: Connection,
    scope: str,
    key: str,
    request_hash: str,
    status: int,
    response: str | bytes,
    now: int,
    if_absent: bool = False,
) -> None:
    """Store the answer under the key; ``if_absent``: unless the key holds one already (the
    statement then waits for an answer, else it goes with the transaction's next one).
    ``response`` as UTF-8 bytes goes to PostgreSQL's batch as it is; elsewhere (SQLite, which
    would store bytes as a blob) it is stored as its text."""
    if isinstance(response, bytes) and sql.batch_of(connection) is None:
        response = response.decode()
    values = {
        "scope": scope,
        "key": key,
        "hash": request_hash,
        "status": status,
        "response": response,
        "now": now,
    }
    if if_absent:
        sql.run(connection, _INSERT + " ON CONFLICT (scope, key) DO NOTHING", values)
    else:
        sql.send(connection, _INSERT, values)


# 'status_code >= 400' written out, not bound: the partial index (ix_idempotency_refusals)
# serves a query whose condition visibly implies the index's
_REFUSALS_BEFORE = (
    "SELECT scope, key FROM idempotency_keys WHERE status_code >= 400 AND created_ms < :before"
    " ORDER BY created_ms LIMIT :limit"
)


def purge_refusals(connection: Connection, before_ms: int, limit: int) -> int:
    """Delete up to ``limit`` stored refusals (status 400 and above) stored before
    ``before_ms``, oldest first: how many. Successes are kept for good."""
    found = connection.execute(text(_REFUSALS_BEFORE), {"before": before_ms, "limit": limit}).all()
    if not found:
        return 0
    connection.execute(
        text("DELETE FROM idempotency_keys WHERE scope = :scope AND key = :key"),
        [{"scope": row.scope, "key": row.key} for row in found],
    )
    return len(found)


def count_refusals(connection: Connection) -> int:
    """How many refusals are stored (all ages)."""
    return int(
        connection.execute(
            text("SELECT count(*) FROM idempotency_keys WHERE status_code >= 400")
        ).scalar_one()
    )
