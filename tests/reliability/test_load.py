"""Soak: ten minutes at the benchmark's rate, no errors, flat memory, money conserved.

The approach of ``bench/bench_server.py``, with its light keep-alive HTTP client (so the rate
is the benchmark's, not a slower client's): the real server as its own process over SQLite,
32 concurrent clients spinning Days of the Tsar as fast as it answers (playing out free spins,
collecting wins), every spin committed before its response. The server's resident memory is
sampled from ``/proc/<pid>/status`` every 5 seconds, and the size of SQLite's write-ahead log
with it: SQLite's checkpoints must keep the log bounded under writes that never pause.
``RELIABILITY_LOAD_SECONDS`` changes the duration (600 by default).
"""

from __future__ import annotations

import asyncio
import os
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import orjson
import pytest

from tests.reliability import figures
from tests.reliability.live import (
    OPERATOR_KEY,
    TSAR,
    TSAR_BET,
    Client,
    LiveServer,
    new_player,
)
from tests.reliability.money import ClientRecord, check_all

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from bench_server import Connection  # the benchmark's own client

CLIENTS = 32
SECONDS = float(os.environ.get("RELIABILITY_LOAD_SECONDS", "600"))
SAMPLE_EVERY = 5.0
WAL_BOUND = 64 * 2**20  # the log starts over at WAL_CHECKPOINT_PAGES (16 MiB); four times that


async def spin_client(url: str, record: ClientRecord, stop: float, counts: dict[str, int]) -> None:
    auth = f"Bearer {record.token}"
    connection = await Connection.open(url)

    async def post(path: str, body: dict[str, object]) -> Any:
        nonlocal connection
        headers = {"Authorization": auth, "Idempotency-Key": uuid.uuid4().hex}
        for _attempt in range(5):
            try:
                status, data = await connection.request("POST", path, headers, body)
                break
            except (OSError, asyncio.IncompleteReadError) as exc:
                # counted as an error, sent again with its key on a new connection
                counts["errors"] += 1
                name = f"transport {type(exc).__name__}"
                counts[name] = counts.get(name, 0) + 1
                connection.close()
                connection = await Connection.open(url)
        else:
            return None
        counts["requests"] += 1
        if status != 200:
            counts["errors"] += 1
            counts[f"status {status}"] = counts.get(f"status {status}", 0) + 1
            return None
        return orjson.loads(data)  # every answer is read: the test checks each round

    try:
        while time.monotonic() < stop:
            body = await post(f"/api/games/{TSAR}/spin", {"bet": TSAR_BET})
            if body is None:
                continue
            record.saw_round(body, TSAR)
            while body["status"] == "open":
                allowed = body["round"]["actions_allowed"]
                action = "free-spin" if allowed == ["free_spin"] else "collect"
                body = await post(f"/api/games/{TSAR}/rounds/{body['round_id']}/{action}", {})
                if body is None:
                    break
                record.saw_round(body, TSAR)
    finally:
        connection.close()


async def drive(url: str, records: list[ClientRecord], seconds: float) -> dict[str, int]:
    counts = {"requests": 0, "errors": 0}
    stop = time.monotonic() + seconds
    await asyncio.gather(*(spin_client(url, r, stop, counts) for r in records))
    return counts


@pytest.mark.slow
def test_ten_minutes_at_the_benchmark_rate(tmp_path):
    server = LiveServer(f"sqlite:///{tmp_path}/load.db", tmp_path, dev=False)
    server.start()
    setup = Client([server.url])
    samples: list[tuple[float, int]] = []
    wal_sizes: list[int] = []
    wal = tmp_path / "load.db-wal"
    done = threading.Event()

    def sample() -> None:
        begin = time.monotonic()
        while not done.is_set():
            samples.append((time.monotonic() - begin, server.rss_kib()))
            wal_sizes.append(wal.stat().st_size if wal.exists() else 0)
            done.wait(SAMPLE_EVERY)

    try:
        records = [new_player(setup, 10_000_000) for _ in range(CLIENTS)]
        sampler = threading.Thread(target=sample, daemon=True)
        begin = time.monotonic()
        sampler.start()
        counts = asyncio.run(drive(server.url, records, SECONDS))
        elapsed = time.monotonic() - begin
        done.set()
        sampler.join()
        samples.append((elapsed, server.rss_kib()))
        figures.add("requests", counts["requests"])
        report = check_all(server.database_url, setup.clients[0], OPERATOR_KEY, records)
        figures.add("scenarios")
        figures.add("players_checked", len(records))
        figures.add("discrepancies", report.discrepancies)
        rss = [kib for _, kib in samples]
        # memory after the first minute (caches warm) against the end
        warm = [kib for t, kib in samples if t >= min(60.0, elapsed / 2)]
        figures.note(
            "load (SQLite, 1 worker, 32 clients)",
            f"{elapsed:.0f} s, {counts['requests']:,} requests, "
            f"{counts['requests'] / elapsed:,.0f} per second, {counts['errors']} errors, "
            f"{report.rounds:,} rounds, {report.discrepancies} money discrepancies; "
            "server memory (RssAnon) "
            f"start {rss[0] / 1024:.0f} MiB, after warm-up {warm[0] / 1024:.0f} MiB, "
            f"end {rss[-1] / 1024:.0f} MiB, max {max(rss) / 1024:.0f} MiB "
            f"({len(rss)} samples every {SAMPLE_EVERY:.0f} s)",
        )
        minutes = [kib for t, kib in samples if int(t) % 60 < SAMPLE_EVERY][
            : int(elapsed // 60) + 1
        ]
        figures.note(
            "load (SQLite, 1 worker, 32 clients)",
            "RssAnon at each minute (MiB): " + " ".join(f"{kib / 1024:.0f}" for kib in minutes),
        )
        figures.note(
            "load (SQLite, 1 worker, 32 clients)",
            f"write-ahead log: max {max(wal_sizes) / 2**20:.1f} MiB over {len(wal_sizes)} "
            f"samples, end {wal_sizes[-1] / 2**20:.1f} MiB",
        )
        assert max(wal_sizes) <= WAL_BOUND, [size // 2**20 for size in wal_sizes]
        assert counts["errors"] == 0, counts
        assert report.problems == [], report.problems[:10]
        # flat: no growth past a quarter of the warmed-up size over the rest of the run
        assert max(warm) <= warm[0] * 1.25, [kib // 1024 for kib in rss]
    finally:
        done.set()
        setup.close()
        server.stop()
