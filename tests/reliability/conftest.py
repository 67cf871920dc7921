"""The reliability suite's summary: every figure the tests measured, at the end of the run."""

from __future__ import annotations

from typing import Any

from tests.reliability import figures

COUNTERS = (
    ("scenarios", "scenarios run"),
    ("requests", "requests sent"),
    ("kills", "kills survived (kill -9, restart)"),
    ("rounds_resumed", "open rounds found after the kills and finished"),
    ("replays", "state-changing calls replayed (identical; 409)"),
    ("inputs", "hostile inputs tried"),
    ("refusals", "hostile inputs refused 4xx"),
    ("server_errors", "5xx responses to hostile input"),
    ("players_checked", "player money checks"),
    ("discrepancies", "money discrepancies found"),
    ("rng_draws", "live-path RNG draws tested"),
)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    counts = figures.counts()
    lines = figures.lines()
    if not counts and not lines:
        return
    write = terminalreporter.write_line
    terminalreporter.section("reliability figures")
    for key, label in COUNTERS:
        if key in counts:
            write(f"{label:<48} {counts[key]:>12,}")
    section = None
    for name, line in lines:
        if name != section:
            write("")
            write(f"{name}:")
            section = name
        write(f"  {line}")


# the real app over SQLite and PostgreSQL, as the server tests use it
from tests.server.conftest import api, sqlite_api  # noqa: E402, F401
