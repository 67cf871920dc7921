"""A newcomer's first use of the lab: wall time, CPU time and peak memory of the first
``analyze`` and ``simulate`` a fresh install runs, beside a second run of the same command
(the baseline, measured in the same run).

Each command runs in a process of its own (``python -m reelsmith.cli``, as the console script
does), with numba's cache in a folder of this run (``NUMBA_CACHE_DIR``) that starts empty, as a
fresh install's does: the first run compiles every kernel it calls and writes what numba can
cache there; the second starts from that cache. The difference is what compiled code costs a
first use. The figures come from the operating system's accounting of each process
(``os.wait4``: its CPU time and peak resident memory) and the wall clock around it.
``BENCH_FIRST_USE_SPINS`` sets the simulation's rounds (100,000).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPINS = os.environ.get("BENCH_FIRST_USE_SPINS", "100000")
COMMANDS = {
    "analyze days-of-the-tsar": ["analyze", "days-of-the-tsar", "--json"],
    f"simulate aurora-fox ({int(SPINS):,} rounds)": [
        "simulate",
        "aurora-fox",
        "--spins",
        SPINS,
        "--seed",
        "1",
        "--workers",
        "1",
        "--json",
    ],
}


@dataclass(frozen=True)
class Use:
    wall: float
    cpu: float
    peak_mb: float


def run(args: list[str], cache: Path) -> Use:
    """One process running ``reelsmith <args>`` with numba's cache in ``cache``."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    start = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "reelsmith.cli", *args],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        error = process.stderr.read().decode() if process.stderr else ""
        raise SystemExit(f"reelsmith {' '.join(args)} failed: {error.strip()}")
    # ru_maxrss is in kilobytes on Linux
    return Use(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024)


def main() -> None:
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores; numba's cache starts empty")
    header = f"{'command':38} {'run':>7} {'wall s':>8} {'cpu s':>8} {'peak MB':>8}"
    print(header)
    print("-" * len(header))
    for name, args in COMMANDS.items():
        with tempfile.TemporaryDirectory(prefix="reelsmith-numba-") as cache:
            first = run(args, Path(cache))
            second = run(args, Path(cache))
            cached = sum(1 for _ in Path(cache).rglob("*.nbi"))
        for label, use in (("first", first), ("second", second)):
            print(f"{name:38} {label:>7} {use.wall:8.1f} {use.cpu:8.1f} {use.peak_mb:8.0f}")
        print(
            f"{'':38} {'ratio':>7} {first.wall / second.wall:8.1f} {first.cpu / second.cpu:8.1f}"
            f" {first.peak_mb / second.peak_mb:8.2f}   ({cached} compiled functions cached)"
        )


if __name__ == "__main__":
    main()
