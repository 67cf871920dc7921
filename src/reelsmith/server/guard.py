"""Throttling on the server's clock: each player's requests, and by client address wrong operator
keys and demo sessions.

`FailureThrottle` lets each client address fail ``burst`` times, then once per
``1 / per_second`` seconds: a token bucket of failures. While an address has none left,
every operator request from it is refused (429 with Retry-After), the right key included, so
that guessing keys runs at the refill rate and a correct guess is not told apart from a
wrong one. `RequestThrottle` is the same bucket counting every request (``POST
/demo/session``).
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from reelsmith.server.clock import Clock
from reelsmith.server.errors import RetryLaterError


class Bucket:
    """Token buckets per key on the injectable clock, at most ``size`` keys kept (the least
    recently used go first: a full bucket is what a new key gets anyway)."""

    def __init__(self, clock: Clock, per_second: float, burst: int, size: int = 65_536) -> None:
        self.clock = clock
        self.per_second = per_second
        self.burst = burst
        self.size = size
        self._buckets: OrderedDict[str, tuple[float, int]] = OrderedDict()
        self._lock = threading.Lock()

    def _level(self, key: str, now: int) -> float:
        level, last = self._buckets.get(key, (float(self.burst), now))
        # a clock set back refills nothing (and takes nothing away)
        return min(float(self.burst), level + max(0, now - last) / 1000 * self.per_second)

    def wait_ms(self, key: str) -> int:
        """0 if ``key`` has a token left, else the milliseconds until it has one."""
        now = self.clock.now_ms()
        with self._lock:
            level = self._level(key, now)
        if level >= 1:
            return 0
        return max(1, int((1 - level) / self.per_second * 1000))

    def take(self, key: str) -> bool:
        """Take a token for ``key``; False (and none taken) if it has none left."""
        now = self.clock.now_ms()
        with self._lock:
            level = self._level(key, now)
            allowed = level >= 1
            self._buckets[key] = (level - 1 if allowed else level, now)
            self._buckets.move_to_end(key)
            while len(self._buckets) > self.size:
                self._buckets.popitem(last=False)
        return allowed


def too_many(code: str, message: str, wait_ms: int) -> RetryLaterError:
    return RetryLaterError(code, message, retry_after_ms=wait_ms)
