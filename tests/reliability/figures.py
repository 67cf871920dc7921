"""The figures the reliability suite measures, printed at the end of the run.

Every test that proves something adds what it did here (requests sent, kills survived, inputs
tried, money discrepancies found, RNG p-values); ``conftest.py`` prints them in pytest's terminal
summary, so the numbers in docs/reliability.md are the ones a run printed.
"""

from __future__ import annotations

import threading
from collections import defaultdict

_lock = threading.Lock()
_counts: dict[str, int] = defaultdict(int)
_lines: list[tuple[str, str]] = []


def add(name: str, amount: int = 1) -> None:
    """Add ``amount`` to the counter ``name`` (requests sent, kills survived, ...)."""
    with _lock:
        _counts[name] += amount


def note(section: str, line: str) -> None:
    """A line of results under ``section`` (one scenario's figures, one test's p-value)."""
    with _lock:
        _lines.append((section, line))


def counts() -> dict[str, int]:
    with _lock:
        return dict(_counts)


def lines() -> list[tuple[str, str]]:
    with _lock:
        return list(_lines)
