"""Live sessions: a token is good only while its session row says so.

A token names its session; the row says whether the session is live: not revoked (the
player's logout, an operator's revocation, the player disabled) and not expired, and that
it still exists. Every request with a token is checked against the row:

- a state-changing request (spin, round steps, autoplay) reads the row in the same
  transaction as the player's lock (see `Idempotency.run`): exact in every
  process, at no cost in round trips;
- every request checks this process's cache of live sessions first, rechecking a session's
  row once it was last read more than ``recheck_ms`` ago. A revocation this process made
  takes effect at once (it drops the session here); one another process made, within
  ``recheck_ms`` for reads (and at once for writes, above).

A state-changing request that found its row live in its transaction tells the cache
(`LiveSessions.seen_live`): that read is as fresh as the cache's own, so a player who keeps
playing never has the row read a second time, outside the transaction, on the event loop
(a blocking round trip there holds up every request in flight in the process).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from reelsmith.server.clock import Clock
from reelsmith.server.errors import UnauthenticatedError
from reelsmith.store import players
from reelsmith.store.db import Database


def refusal(row: Any, player_id: str, now_ms: int) -> UnauthenticatedError | None:
    """Why the session in ``row`` (a `players.SESSION_QUERY` row, or None) refuses a token of
    ``player_id`` now, or None if it is live."""
    if row is None or str(row["player_id"]) != player_id:
        return UnauthenticatedError(
            "session_not_found", "the session does not exist; start a new one"
        )
    if row["disabled_ms"] is not None:
        return UnauthenticatedError("player_disabled", "the player's account is disabled")
    if row["revoked_ms"] is not None:
        return UnauthenticatedError("session_revoked", "the session was ended; start a new one")
    if now_ms >= int(row["expires_ms"]):
        return UnauthenticatedError(
            "session_expired", "the session has expired; start a new session"
        )
    return None


class LiveSessions:
    """The sessions this process saw live, with when it last read each one's row."""

    def __init__(self, db: Database, clock: Clock, recheck_ms: int, size: int = 65_536) -> None:
        self.db = db
        self.clock = clock
        self.recheck_ms = recheck_ms
        self.size = size
        self.reads = 0  # rows read (a measure of what the cache saves)
        self._checked: OrderedDict[str, tuple[str, int]] = OrderedDict()
        self._lock = threading.Lock()

    def check(self, player_id: str, session_id: str) -> None:
        """Refuse (401) a token whose session is not live."""
        now = self.clock.now_ms()
        with self._lock:
            seen = self._checked.get(session_id)
        if seen is not None and seen[0] == player_id and now - seen[1] < self.recheck_ms:
            return
        with self.db.read() as connection:
            row = players.session(connection, session_id)
        self.reads += 1
        refused = refusal(row, player_id, now)
        if refused is not None:
            with self._lock:
                self._checked.pop(session_id, None)
            raise refused
        self.seen_live(player_id, session_id, now)

    def seen_live(self, player_id: str, session_id: str, now_ms: int) -> None:
        """The session's row was read at ``now_ms`` and found live for ``player_id`` (here,
        or in a request's own transaction): no recheck before ``recheck_ms`` from then."""
        with self._lock:
            self._checked[session_id] = (player_id, now_ms)
            self._checked.move_to_end(session_id)
            while len(self._checked) > self.size:
                self._checked.popitem(last=False)

    def forget(self, session_ids: list[str]) -> None:
        """Sessions this process just revoked: refused from the next request on."""
        with self._lock:
            for session_id in session_ids:
                self._checked.pop(session_id, None)
