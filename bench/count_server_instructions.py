"""The served app's instructions per request, counted by valgrind: a figure the machine's
other load does not move.

On a machine others are using, CPU time per request moves by a fifth or more from one run to
the next (a slower machine makes smaller commit groups, and caches are shared), so a cut of a
few percent cannot be seen in it. Instructions executed can: this script drives the served
app (``serve_app``, as each ``reelsmith serve`` worker runs it) in one process over ASGI with
32 clients in lockstep (as ``bench_server_lockstep.py`` does) for a fixed number of rounds of
spins, under ``valgrind --tool=callgrind`` with its counting switched on only while the
measured requests run (start-up, migrations and warm-up are not counted), and prints the
instructions per request of the spins (a round's free spins included) beside the ``/healthz``
baseline counted the same way in the same run.

The reels are drawn from a seeded stream instead of the operating system's, and sessions are
not re-read while the run lasts, so two runs of the same code play the same rounds and count
alike. Only the event loop's thread is counted: the app's requests run there, and SQLite's
checkpoints, which run on a thread of their own every 20 ms of wall time, would make the
count follow valgrind's speed. On PostgreSQL the count is the server's process alone, not the
database's.

    $ .venv/bin/python bench/count_server_instructions.py          # SQLite and PostgreSQL
    $ BENCH_DATABASES=postgresql BENCH_ROUNDS=10 .venv/bin/python bench/count_server_instructions.py

``BENCH_ROUNDS`` (default 10) sets the lockstep rounds of 32 spins; ``BENCH_DATABASES`` picks
databases (``sqlite,postgresql``; PostgreSQL when ``REELSMITH_TEST_DATABASE_URL`` reaches one);
``BENCH_CALLGRIND_DIR`` keeps callgrind's dumps in a folder of each run's own there, for
``callgrind_annotate --inclusive=yes`` (the main thread's: ``callgrind.out.PID.N-01``, spins
first, then healthz).
Needs valgrind (Debian's package ``valgrind``); a run takes minutes.
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_server  # the bench's bet, keys and database URL
import bench_server_lockstep as lockstep  # the in-process client and its lockstep

ROUNDS = int(os.environ.get("BENCH_ROUNDS", "10"))
CONFIGS = ("sqlite", "postgresql")
CHOSEN = [c.strip() for c in os.environ.get("BENCH_DATABASES", ",".join(CONFIGS)).split(",")]
for _config in CHOSEN:
    if _config not in CONFIGS:
        raise SystemExit(f"BENCH_DATABASES: unknown {_config!r}; known: {', '.join(CONFIGS)}")
KEEP = os.environ.get("BENCH_CALLGRIND_DIR", "")
SEED = 20261202
HEALTH_REQUESTS = 320
INNER = "REELSMITH_COUNTING"  # set in the child that runs under valgrind


def callgrind(*args: str) -> None:
    """Tell valgrind, which runs this process, to count or to write what it counted."""
    subprocess.run(
        ["callgrind_control", *args, str(os.getpid())],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


async def measure() -> None:
    """In the child under valgrind: count the spins' requests, then the healthz baseline's,
    each dumped apart; their request counts go to stdout."""
    from reelsmith.rng import source
    from reelsmith.server.app import serve_app

    seeded = source.SeededSource(SEED)
    source.SystemSource.randbelow = lambda _self, bound, purpose: seeded.randbelow(  # type: ignore[method-assign]
        bound, purpose
    )
    app = serve_app()
    logging.getLogger("reelsmith.server").disabled = True  # the request log: not counted
    state: dict[str, Any] = {}
    inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    running = asyncio.create_task(
        app({"type": "lifespan", "asgi": {"version": "3.0"}, "state": state}, inbox.get, outbox.put)
    )
    await inbox.put({"type": "lifespan.startup"})
    await outbox.get()
    client = lockstep.Client(app, state)
    tokens = await lockstep.players(client)
    await lockstep.lockstep(client, tokens, math.inf, [], rounds=3)  # warm-up, not counted
    statuses: list[int] = []
    callgrind("--instr=on")
    await lockstep.lockstep(client, tokens, math.inf, statuses, rounds=ROUNDS)
    callgrind("--dump=spins")
    health: list[int] = []
    for _ in range(HEALTH_REQUESTS // len(tokens)):
        answers = await asyncio.gather(*(client.exchange("GET", "/healthz", {}) for _ in tokens))
        health.extend(status for status, _body in answers)
    callgrind("--dump=healthz")
    callgrind("--instr=off")
    failed_spins = sum(1 for s in statuses if s != 200)
    failed_health = sum(1 for s in health if s != 200)
    print(f"counted {len(statuses)} {failed_spins} {len(health)} {failed_health}", flush=True)
    await inbox.put({"type": "lifespan.shutdown"})
    await outbox.get()
    await running


def child(database_url: str) -> None:
    os.environ.update(
        {
            "REELSMITH_DATABASE_URL": database_url,
            "REELSMITH_SECRET_KEY": bench_server.SECRET,
            "REELSMITH_OPERATOR_API_KEY": bench_server.OPERATOR,
            "REELSMITH_RATE_LIMIT_PER_SECOND": "100000",
            "REELSMITH_RATE_LIMIT_BURST": "100000",
            "REELSMITH_SESSION_RECHECK_MS": str(10**12),  # valgrind is slow: never re-read
        }
    )
    asyncio.run(measure())


def count(label: str, database_url: str) -> None:
    """Run the child under valgrind and print its row."""
    with tempfile.TemporaryDirectory() as tmp:
        if KEEP:  # callgrind's own dumps, kept for callgrind_annotate
            tmp = tempfile.mkdtemp(prefix=f"{label.lower()}-", dir=Path(KEEP).resolve())
        out = Path(tmp) / "callgrind.out"
        result = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                "--instr-atstart=no",
                "--separate-threads=yes",  # the event loop's thread alone is counted
                f"--callgrind-out-file={out}.%p",
                sys.executable,
                __file__,
                database_url,
            ],
            env={**os.environ, INNER: "1"},
            capture_output=True,
            text=True,
            check=False,
        )
        found = re.search(r"^counted (\d+) (\d+) (\d+) (\d+)$", result.stdout, flags=re.M)
        if result.returncode != 0 or found is None:
            raise SystemExit(f"{label}: the counted run failed:\n{result.stdout}{result.stderr}")
        requests, failed_spins, health, failed_health = (int(x) for x in found.groups())
        totals = []
        # the dumps of the main thread (the event loop's), in order: callgrind.out.PID.N-01
        dumps = sorted(
            Path(tmp).glob("callgrind.out.*.*-01"), key=lambda p: int(p.name.split(".")[-1][:-3])
        )
        for dump in dumps:
            text = dump.read_text(errors="replace")
            total = re.search(r"^totals: (\d+)", text, flags=re.M)
            assert total is not None, dump
            totals.append(int(total.group(1)))
    if len(totals) < 2:
        raise SystemExit(f"{label}: valgrind wrote {len(totals)} dumps, not 2")
    spin_ir, health_ir = totals[0], totals[1]
    for name, n, instructions, failed in (
        ("healthz (baseline)", health, health_ir, failed_health),
        ("spin (committed)", requests, spin_ir, failed_spins),
    ):
        print(f"{label:<12}{name:<20}{n:>10,}{instructions // max(1, n):>18,}{failed:>8}")


def main() -> None:
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        raise SystemExit("count_server_instructions needs valgrind (apt-get install valgrind)")
    print(
        f"instructions per request of the served app in one process, 32 clients in lockstep, "
        f"rounds of 32 spins: {ROUNDS} (seeded reels), counted by valgrind"
    )
    print(f"{'database':<12}{'endpoint':<20}{'requests':>10}{'instructions/req':>18}{'errors':>8}")
    for label, url in lockstep.databases(CHOSEN, "count"):
        count(label, url)


if __name__ == "__main__":
    if os.environ.get(INNER):
        child(sys.argv[1])
    else:
        main()
