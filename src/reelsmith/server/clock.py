"""Clocks: the server reads time only through one of these, so tests can move it.

Every time the server stores or compares across requests (a round's age for the resolver,
the minimum time between a player's rounds, a session's expiry) may be written by one host
and read by another. On PostgreSQL, where several hosts share one database, the server's
clock is therefore the database server's (`DatabaseClock`): no application host's wall clock
is read for anything stored or compared, so a host whose clock is set days ahead or behind
writes and compares the same times as its neighbours. SQLite is one host's file: its clock is
that host's (`SystemClock`).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Protocol

log = logging.getLogger("reelsmith.server")


class Clock(Protocol):
    def now_ms(self) -> int: ...


class SystemClock:
    def now_ms(self) -> int:
        return time.time_ns() // 1_000_000


class DatabaseClock:
    """The database server's clock, read through this host's monotonic clock.

    ``read_ms`` asks the database for its time (one round trip); the answer, taken as the
    time half-way through the round trip, is the base from which this host's monotonic clock
    (which no one sets: NTP steps, an operator's ``date -s`` and a wrong time zone leave it
    alone) counts on. The base is read again every ``refresh_seconds``, so the two clocks'
    drift never adds up. Successive readings never go back: a reading behind the last time
    given (the round trip's jitter) keeps that time.

    When the database cannot be read, the last base goes on counting (the database is
    needed for everything else too, so this is rare and short) and the read is tried again
    after ``retry_seconds``; without any base yet, the error is raised."""

    def __init__(
        self,
        read_ms: Callable[[], int],
        *,
        refresh_seconds: float = 60.0,
        retry_seconds: float = 5.0,
        monotonic_ns: Callable[[], int] = time.monotonic_ns,
    ) -> None:
        self._read_ms = read_ms
        self._refresh_ns = int(refresh_seconds * 1e9)
        self._retry_ns = int(retry_seconds * 1e9)
        self._monotonic_ns = monotonic_ns
        self._base_ms: int | None = None
        self._base_ns = 0
        self._next_read_ns = 0
        self._last_ms = 0
        self._lock = threading.Lock()

    def sync(self) -> None:
        """Read the database's time now (a new base)."""
        before = self._monotonic_ns()
        database_ms = self._read_ms()
        after = self._monotonic_ns()
        with self._lock:
            self._base_ms = database_ms
            self._base_ns = (before + after) // 2
            self._next_read_ns = after + self._refresh_ns

    def now_ms(self) -> int:
        now_ns = self._monotonic_ns()
        if self._base_ms is None or now_ns >= self._next_read_ns:
            try:
                self.sync()
            except Exception as exc:
                if self._base_ms is None:
                    raise
                self._next_read_ns = now_ns + self._retry_ns
                log.warning("cannot read the database's clock (%s): counting on from the last", exc)
            now_ns = self._monotonic_ns()
        with self._lock:
            assert self._base_ms is not None
            value = self._base_ms + (now_ns - self._base_ns) // 1_000_000
            if value < self._last_ms:
                value = self._last_ms
            self._last_ms = value
            return value


class ManualClock:
    """A clock that only moves when told to (tests: token expiry, 2-day resolution)."""

    def __init__(self, start_ms: int = 1_767_225_600_000) -> None:  # 2026-01-01T00:00Z
        self._now = start_ms

    def now_ms(self) -> int:
        return self._now

    def advance(self, *, ms: int = 0, seconds: float = 0, days: float = 0) -> None:
        self._now += ms + int(seconds * 1000) + int(days * 86_400_000)
