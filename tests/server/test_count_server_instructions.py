"""bench/count_server_instructions.py counts the served app's instructions per request under
valgrind: a short SQLite run prints the spins beside the healthz baseline, with no failed
request, and counts the same rounds to within one percent when run again (the reels are
seeded and only the event loop's thread is counted). Slow: valgrind runs the app some fifty
times slower."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).parents[2] / "bench" / "count_server_instructions.py"

pytestmark = pytest.mark.slow


def counted() -> dict[str, tuple[int, int, int]]:
    result = subprocess.run(
        [sys.executable, str(SCRIPT)],
        env={**os.environ, "BENCH_DATABASES": "sqlite", "BENCH_ROUNDS": "1"},
        capture_output=True,
        text=True,
        check=True,
        timeout=1800,
    )
    rows = {}
    for line in result.stdout.splitlines():
        if line.startswith("SQLite"):
            cells = line.split()
            rows[cells[1]] = tuple(int(c.replace(",", "")) for c in cells[-3:])
    assert set(rows) == {"healthz", "spin"}, result.stdout
    return rows


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="needs valgrind")
def test_spins_are_counted_beside_the_baseline_and_again_alike() -> None:
    first, second = counted(), counted()
    for rows in (first, second):
        health, spin = rows["healthz"], rows["spin"]
        assert health[0] == 320 and spin[0] >= 32 and health[2] == spin[2] == 0
        assert 0 < health[1] < spin[1]
    assert first["spin"][0] == second["spin"][0]  # the same rounds played
    assert abs(first["spin"][1] - second["spin"][1]) < 0.01 * first["spin"][1]
