"""Idempotency: a state-changing request runs once under its key, in one write transaction,
and every retry with the key gets the first answer, byte for byte.

A state-changing operation locks the player, checks its idempotency key, does its work (the
round and the money together, or the operator's change) and stores its response under the
key, all in one transaction: either everything is written or nothing is.

A key stores the answer as the client got it, its HTTP status included: a refusal's status
comes from the one table of `http_errors`.

A success is kept for good. A refusal (a spin without the money for it, a bet out of range)
is kept for ``refusals_kept_seconds`` (an hour by default) and then purged
(`Idempotency.purge_refusals`, run with each pass of the resolver): inside that window a
retry with its key gets the same refusal, after it the key is free and a request with it runs
anew. Refused requests with new keys, which cost a player nothing, so grow the table by at
most the player's rate limit times the window, not without bound.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy import Connection
from sqlalchemy.exc import IntegrityError

from reelsmith.server import sessions
from reelsmith.server.errors import ConflictError, DomainError, InvalidInputError, remembered
from reelsmith.server.http_errors import status_of
from reelsmith.server.jsontext import Rendered, dumps, json_bytes, json_text
from reelsmith.server.services.context import Context
from reelsmith.server.services.player import Player, read_player
from reelsmith.store import idempotency, players, sql
from reelsmith.store.db import ReadAhead

# refusals deleted per transaction by `Idempotency.purge_refusals`
PURGE_BATCH = 1000

Work = Callable[[Connection, Player | None], tuple[int, dict[str, Any]]]


def request_hash(method: str, path: str, body: Any) -> str:
    return hashlib.sha256(f"{method} {path} {dumps(body)}".encode()).hexdigest()


def _reused() -> ConflictError:
    return ConflictError(
        "idempotency_key_reused", "this Idempotency-Key was used with a different request"
    )


def check_key(key: str | None) -> str:
    if not key:
        raise InvalidInputError(
            "idempotency_key_required",
            "send an Idempotency-Key header with every state-changing request",
        )
    if len(key) > 128:
        raise InvalidInputError(
            "invalid_idempotency_key", "the Idempotency-Key is longer than 128 characters"
        )
    return key


class Idempotency:
    def __init__(self, context: Context, live_sessions: sessions.LiveSessions) -> None:
        self.context = context
        self.live_sessions = live_sessions

    def for_player(
        self,
        player_id: str,
        session_id: str | None,
        key: str | None,
        fingerprint: str,
        work: Work,
        prefetch: Sequence[tuple[str, dict[str, Any]]] = (),
    ) -> tuple[int, dict[str, Any]]:
        """A player's request: :meth:`run` in the player's own key scope, with the player
        locked and the session checked (every state change a player asks for goes this way)."""
        return self.run(
            f"player:{player_id}",
            key,
            fingerprint,
            work,
            player_id=player_id,
            prefetch=prefetch,
            session_id=session_id,
        )

    def ahead(
        self,
        player_id: str,
        session_id: str | None,
        key: str | None,
        prefetch: Sequence[tuple[str, dict[str, Any]]] = (),
    ) -> ReadAhead:
        """What :meth:`for_player` with these arguments reads first, declared for a commit
        group to read ahead (see `CommitGroup.run`): all of it the player's own rows."""
        reads = self._first_reads(f"player:{player_id}", key, player_id, session_id, prefetch)
        return ReadAhead(player_id, tuple(reads))

    def _first_reads(
        self,
        scope: str,
        key: str | None,
        player_id: str,
        session_id: str | None,
        prefetch: Sequence[tuple[str, dict[str, Any]]],
    ) -> list[tuple[str, dict[str, Any]]]:
        """The reads :meth:`run` sends ahead for a player's request, in order: the player
        locked, the session, the idempotency key and ``prefetch``."""
        reads = [(players.player_query(self.context.db.is_sqlite, lock=True), {"id": player_id})]
        if session_id is not None:
            reads.append((players.SESSION_QUERY, {"id": session_id}))
        if key:
            reads.append((idempotency.KEY_QUERY, idempotency.params(scope, key)))
        reads.extend(prefetch)
        return reads

    def run(
        self,
        scope: str,
        key: str | None,
        fingerprint: str,
        work: Work,
        player_id: str | None = None,
        prefetch: Sequence[tuple[str, dict[str, Any]]] = (),
        session_id: str | None = None,
    ) -> tuple[int, dict[str, Any]]:
        """Run ``work`` in one write transaction under the idempotency key; with ``player_id``
        the player's row is locked first and ``work`` gets the player (wallet and audit head
        as of the lock). ``prefetch`` names reads ``work`` will make first: on PostgreSQL they
        go to the server with the lock and the idempotency lookup, in one round trip. With
        ``session_id`` (a player's request) the session's row is read with them, and a
        session that is not live refuses the request before anything else.

        A refusal ``work`` raises (it reached the handler: the key was free and the player
        locked) is remembered under the key like a success, unless it says to retry later
        (see `remembered`): its transaction is rolled back, and the refusal stored in one of
        its own (`_store_refusal`)."""
        db = self.context.db
        for attempt in range(3):
            refusal: DomainError | None = None
            try:
                with db.write() as connection:
                    if player_id is not None:
                        reads = self._first_reads(scope, key, player_id, session_id, prefetch)
                        for statement, params in reads:
                            sql.prefetch(connection, statement, params)
                    player = (
                        None
                        if player_id is None
                        else read_player(connection, player_id, db.is_sqlite, lock=True)
                    )
                    if session_id is not None and player_id is not None:
                        row = players.session(connection, session_id)
                        now = self.context.clock.now_ms()
                        ended = sessions.refusal(row, player_id, now)
                        if ended is not None:
                            raise ended
                        self.live_sessions.seen_live(player_id, session_id, now)
                    checked = check_key(key)
                    found = idempotency.find(connection, scope, checked)
                    if found is not None:
                        if found["request_hash"] != fingerprint:
                            raise _reused()
                        text = str(found["response"])
                        return int(found["status_code"]), Rendered(json.loads(text), text)
                    try:
                        status, response = work(connection, player)
                    except DomainError as exc:
                        if remembered(exc):
                            refusal = exc
                        raise
                    # key order kept (not sorted): a replay is byte-for-byte the first response
                    written = json_bytes(response, sort_keys=False)
                    idempotency.store(
                        connection,
                        scope,
                        checked,
                        fingerprint,
                        status,
                        written,
                        self.context.clock.now_ms(),
                    )
                    return status, Rendered(response, written)
            except DomainError as exc:
                if exc is not refusal:
                    raise
                assert key is not None  # check_key refuses a request without one
                return self._store_refusal(scope, key, fingerprint, exc, player_id)
            except IntegrityError:
                # a concurrent request with the same key won the race: return its response
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    def _store_refusal(
        self, scope: str, key: str, fingerprint: str, refusal: DomainError, player_id: str | None
    ) -> tuple[int, dict[str, Any]]:
        """Store a refusal under its key (the work's own transaction was rolled back, nothing
        of it is left) and return it as the response, the same text a retry gets. Under the
        player's lock again: a request with the same key that came in meanwhile and stored
        its response first is the key's answer instead."""
        db = self.context.db
        text = json_text(refusal.body(), sort_keys=False)
        with db.write() as connection:
            if player_id is not None:
                read_player(connection, player_id, db.is_sqlite, lock=True)
            idempotency.store(
                connection,
                scope,
                key,
                fingerprint,
                status_of(refusal),
                text,
                self.context.clock.now_ms(),
                if_absent=True,
            )
            row = idempotency.find(connection, scope, key)
        if row is None or row["request_hash"] != fingerprint:
            raise _reused()
        stored = str(row["response"])
        return int(row["status_code"]), Rendered(json.loads(stored), stored)

    def purge_refusals(self, batch: int = PURGE_BATCH) -> int:
        """Delete the refusals stored longer ago than ``refusals_kept_seconds``, ``batch``
        at a time, each batch in its own transaction (a writer waits for one batch at most):
        how many."""
        context = self.context
        before = context.clock.now_ms() - context.settings.refusals_kept_seconds * 1000
        purged = 0
        while True:
            with context.db.write() as connection:
                done = idempotency.purge_refusals(connection, before, batch)
            purged += done
            if done < batch:
                return purged
