"""Clocks: the server reads time only through one of these, so tests can move it."""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    def now_ms(self) -> int: ...


class SystemClock:
    def now_ms(self) -> int:
        return time.time_ns() // 1_000_000


class ManualClock:
    """A clock that only moves when told to (tests: token expiry, 2-day resolution)."""

    def __init__(self, start_ms: int = 1_767_225_600_000) -> None:  # 2026-01-01T00:00Z
        self._now = start_ms

    def now_ms(self) -> int:
        return self._now

    def advance(self, *, ms: int = 0, seconds: float = 0, days: float = 0) -> None:
        self._now += ms + int(seconds * 1000) + int(days * 86_400_000)
