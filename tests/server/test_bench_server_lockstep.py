"""bench/bench_server_lockstep.py prints the served app's CPU per request for the spins beside
the healthz baseline, with no failed request (a short run on SQLite: the figures are not
judged)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).parents[2] / "bench" / "bench_server_lockstep.py"


def test_spins_beside_the_baseline_without_errors():
    result = subprocess.run(
        [sys.executable, str(SCRIPT)],
        env={**os.environ, "BENCH_DATABASES": "sqlite", "BENCH_SECONDS": "1"},
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    rows = {}
    for line in result.stdout.splitlines():
        if line.startswith("SQLite"):
            cells = line.split()
            rows[cells[1]] = cells[-4:]  # requests/s, errors, CPU ms/req, session reads
    assert set(rows) == {"healthz", "spin"}, result.stdout
    for rate, errors, cpu_ms, _reads in rows.values():
        assert float(rate.replace(",", "")) > 0 and errors == "0" and float(cpu_ms) > 0
    assert rows["healthz"][3] == "0"  # healthz reads no session


def test_an_unknown_database_is_refused_by_name():
    result = subprocess.run(
        [sys.executable, str(SCRIPT)],
        env={**os.environ, "BENCH_DATABASES": "oracle"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0 and "BENCH_DATABASES: unknown 'oracle'" in result.stderr
