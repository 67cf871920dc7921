"""Where a spin's Python goes in the server: one worker under cProfile, on CPU time.

Starts one server worker (the app ``reelsmith serve`` runs, with its HTTP protocol) in a
process of its own, has bench_server.py's 32 clients spin Days of the Tsar against it, and
profiles the worker only while they do, after a second of warm-up (start-up, migrations and
the engines' warm-up are left out). The profiler counts CPU time (``time.process_time``), so
the machine's other load moves the figures less than it moves wall-clock time; it still
slows every Python call several times over, so its figures are shares of a request, not the
server's speed (bench_server.py measures that). Prints the functions with the most CPU time
of their own per request and where the full profile was written (open it with ``pstats``).

PostgreSQL (``REELSMITH_TEST_DATABASE_URL``, in a schema of its own, dropped afterwards) by
default, SQLite with ``BENCH_DATABASE=sqlite``; ``BENCH_SECONDS`` (default 10) sets how long the
clients spin, ``BENCH_PROFILE`` where the profile is written (default a temporary file).
"""

from __future__ import annotations

import asyncio
import contextlib
import cProfile
import os
import pstats
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import FrameType

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_server  # the bench's clients and players

TOP = 25


def serve(port: int, out: str) -> None:
    """The profiled worker: SIGUSR1 starts the profiler, SIGUSR2 stops it and writes ``out``."""
    import uvicorn

    profile = cProfile.Profile(time.process_time)

    def start(signum: int, frame: FrameType | None) -> None:
        profile.enable()

    def stop(signum: int, frame: FrameType | None) -> None:
        profile.disable()
        profile.dump_stats(out)

    signal.signal(signal.SIGUSR1, start)
    signal.signal(signal.SIGUSR2, stop)
    os.environ.setdefault("REELSMITH_LOG_JSON", "true")
    # uvicorn raises the SIGINT it stopped for again once it has stopped
    with contextlib.suppress(KeyboardInterrupt):
        uvicorn.run(  # as `reelsmith serve` runs each worker
            "reelsmith.server.app:serve_app",
            factory=True,
            host="127.0.0.1",
            port=port,
            log_level="warning",
            http="reelsmith.server.transport:LimitedHttpToolsProtocol",
            access_log=False,
        )


async def drive(url: str, worker: subprocess.Popen[bytes], seconds: float) -> int:
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        tokens = await bench_server.make_players(client)
    warm = time.perf_counter() + 1.0
    await asyncio.gather(*(bench_server.spin_client(url, t, warm, [], []) for t in tokens))
    latencies: list[float] = []
    errors: list[int] = []
    worker.send_signal(signal.SIGUSR1)
    stop = time.perf_counter() + seconds
    await asyncio.gather(
        *(bench_server.spin_client(url, t, stop, latencies, errors) for t in tokens)
    )
    worker.send_signal(signal.SIGUSR2)
    if errors:
        raise SystemExit(f"{len(errors)} requests failed (first status {errors[0]})")
    return len(latencies)


def main() -> None:
    if len(sys.argv) == 4 and sys.argv[1] == "--serve":
        serve(int(sys.argv[2]), sys.argv[3])
        return
    seconds = float(os.environ.get("BENCH_SECONDS", "10"))
    out = os.environ.get("BENCH_PROFILE") or tempfile.mktemp(prefix="reelsmith-", suffix=".prof")
    sqlite = os.environ.get("BENCH_DATABASE", "postgresql") == "sqlite"
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as held:
        if sqlite:
            database_url = f"sqlite:///{tmp}/profile.db"
        else:
            schema = held.enter_context(bench_server.pg_schema())
            if schema is None:
                raise SystemExit("no PostgreSQL (set BENCH_DATABASE=sqlite to profile on SQLite)")
            database_url = bench_server.schema_url(schema)
        port = bench_server.free_port()
        env = {
            **os.environ,
            "REELSMITH_DATABASE_URL": database_url,
            "REELSMITH_SECRET_KEY": bench_server.SECRET,
            "REELSMITH_OPERATOR_API_KEY": bench_server.OPERATOR,
            "REELSMITH_RATE_LIMIT_PER_SECOND": "100000",
            "REELSMITH_RATE_LIMIT_BURST": "100000",
        }
        worker = subprocess.Popen(
            [sys.executable, __file__, "--serve", str(port), out],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        url = f"http://127.0.0.1:{port}"
        try:
            if not bench_server.answers(url, tries=300):
                raise SystemExit("the server did not start")
            requests = asyncio.run(drive(url, worker, seconds))
            for _ in range(100):  # the worker writes the profile on SIGUSR2
                if Path(out).exists() and Path(out).stat().st_size:
                    break
                time.sleep(0.1)
        finally:
            worker.send_signal(signal.SIGINT)
            worker.wait(timeout=60)
    stats = pstats.Stats(out)
    rows = []
    total = 0.0
    for (path, line, name), (_cc, calls, own, cumulative, _callers) in stats.stats.items():  # type: ignore[attr-defined]
        total += own
        where = path.split("/site-packages/")[-1].split("/src/")[-1]
        rows.append((own, cumulative, calls, f"{where}:{line} {name}" if line else name))
    rows.sort(reverse=True)
    database = "SQLite" if sqlite else "PostgreSQL"
    print(
        f"one worker on {database}, 32 clients, {requests:,} requests profiled in {seconds:.0f} s;"
        f" {total * 1e6 / requests:,.0f} us of profiled CPU a request"
    )
    print(f"{'own us/req':>10} {'cum us/req':>10} {'calls/req':>9}  function")
    for own, cumulative, calls, name in rows[:TOP]:
        print(
            f"{own * 1e6 / requests:>10.1f} {cumulative * 1e6 / requests:>10.1f}"
            f" {calls / requests:>9.2f}  {name}"
        )
    print(f"profile: {out}")


if __name__ == "__main__":
    main()
