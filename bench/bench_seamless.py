"""The seamless wallet's throughput beside the transfer wallet's, in the same run.

Starts the operator simulator (no faults) and, per database, two ``reelsmith serve`` processes
(one worker each) over fresh databases: one with the transfer wallet, one with the seamless
wallet calling the simulator. ``--clients`` threads each play their own player's rounds
(Days of the Tsar at 0.25, no gamble, free spins played out) for ``--seconds``; printed: the
rounds a second, the requests' p50 and p99 latency, and the seamless figures as a share of the
transfer ones. SQLite always; PostgreSQL when ``REELSMITH_TEST_DATABASE_URL`` reaches one (in a
schema of its own, dropped afterwards). Beside each: the CPU time a round costs the server
(its process group's user + system time over the measured window, from ``/proc``), the
simulator, and this process (the clients).

    PYTHONPATH=src .venv/bin/python bench/bench_seamless.py --clients 32 --seconds 15
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
import uuid
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.reliability.live import OPERATOR_KEY, LiveServer, pg_schema  # noqa: E402
from tests.wallet.sim import TSAR, TSAR_BET, OperatorSim, seamless_server  # noqa: E402


def player(url: str, seamless: bool, sim: OperatorSim | None) -> str:
    op = {"X-API-Key": OPERATOR_KEY}
    ref = f"bench-{uuid.uuid4().hex[:10]}"
    created = httpx.post(
        f"{url}/operator/players",
        json={"external_ref": ref, "currency": "EUR"},
        headers={**op, "Idempotency-Key": str(uuid.uuid4())},
    ).json()
    body: dict[str, Any] | None = None
    if seamless:
        assert sim is not None
        sim.player(ref, 10**12, token="bench")
        body = {"operator_token": "bench"}
    else:
        httpx.post(
            f"{url}/operator/players/{created['id']}/deposit",
            json={"amount": "1000000.00"},
            headers={**op, "Idempotency-Key": str(uuid.uuid4())},
        )
    session = httpx.post(
        f"{url}/operator/players/{created['id']}/sessions", json=body, headers=op
    ).json()
    return str(session["token"])


def cpu_seconds(group: int) -> float:
    """User + system CPU time (s) of every process in process group ``group`` (Linux)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == group:  # pgrp; utime and stime are fields 14 and 15
            total += int(fields[11]) + int(fields[12])
    return total / tick


def run(url: str, tokens: list[str], seconds: float) -> tuple[int, list[float]]:
    """Play until ``seconds`` pass: rounds finished, and every request's latency (s)."""
    stop = time.monotonic() + seconds
    rounds = [0] * len(tokens)
    latencies: list[list[float]] = [[] for _ in tokens]

    def client(index: int) -> None:
        auth = {"Authorization": f"Bearer {tokens[index]}"}
        with httpx.Client(base_url=url, timeout=30) as http:
            while time.monotonic() < stop:
                started = time.perf_counter()
                response = http.post(
                    f"/api/games/{TSAR}/spin",
                    json={"bet": TSAR_BET, "gamble": False},
                    headers={**auth, "Idempotency-Key": str(uuid.uuid4())},
                )
                latencies[index].append(time.perf_counter() - started)
                if response.status_code != 200:
                    raise RuntimeError(response.text)
                data = response.json()
                while data["status"] == "open":
                    started = time.perf_counter()
                    step = http.post(
                        f"/api/games/{TSAR}/rounds/{data['round_id']}/free-spin",
                        json={},
                        headers={**auth, "Idempotency-Key": str(uuid.uuid4())},
                    )
                    latencies[index].append(time.perf_counter() - started)
                    data = step.json()
                rounds[index] += 1

    threads = [threading.Thread(target=client, args=(i,)) for i in range(len(tokens))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(rounds), [x for per in latencies for x in per]


def measure(
    kind: str, url_of: Any, sim: OperatorSim, folder: Path, clients: int, seconds: float
) -> dict[str, dict[str, float]]:
    results = {}
    for wallet in ("transfer", "seamless"):
        with ExitStack() as stack:
            url = stack.enter_context(url_of())
            server = (
                seamless_server(sim, url, folder)
                if wallet == "seamless"
                else LiveServer(url, folder, dev=False)
            )
            server.start()
            stack.callback(server.stop)
            tokens = [player(server.url, wallet == "seamless", sim) for _ in range(clients)]
            run(server.url, tokens, 2.0)  # warm up
            assert server.process is not None and sim.process is not None
            groups = (server.process.pid, sim.process.pid)
            cpu_before = [cpu_seconds(group) for group in groups] + [time.process_time()]
            rounds, latencies = run(server.url, tokens, seconds)
            cpu_after = [cpu_seconds(group) for group in groups] + [time.process_time()]
            spent = [
                (b - a) * 1000 / max(rounds, 1) for a, b in zip(cpu_before, cpu_after, strict=True)
            ]
            cuts = statistics.quantiles(latencies, n=100)
            results[wallet] = {
                "rounds_per_s": rounds / seconds,
                "p50_ms": cuts[49] * 1000,
                "p99_ms": cuts[98] * 1000,
                "server_cpu_ms": spent[0],
                "sim_cpu_ms": spent[1],
                "clients_cpu_ms": spent[2],
            }
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=15.0)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-seamless-"))
    sim = OperatorSim(folder).start()
    try:
        kinds: dict[str, Any] = {}

        class SqliteUrl:
            def __enter__(self) -> str:
                return f"sqlite:///{folder}/{uuid.uuid4().hex}.db"

            def __exit__(self, *_: object) -> None:
                return None

        kinds["sqlite"] = SqliteUrl
        if os.environ.get("REELSMITH_TEST_DATABASE_URL"):
            kinds["postgresql"] = pg_schema
        load = os.getloadavg()[0]
        print(
            f"{args.clients} clients, {args.seconds:.0f} s per wallet, one worker each"
            f"  ({time.strftime('%H:%M:%S', time.gmtime())} UTC, load {load:.2f})"
        )
        for kind, url_of in kinds.items():
            found = measure(kind, url_of, sim, folder, args.clients, args.seconds)
            for wallet, figures in found.items():
                print(
                    f"{kind:10} {wallet:8} {figures['rounds_per_s']:8.1f} rounds/s"
                    f"  p50 {figures['p50_ms']:6.1f} ms  p99 {figures['p99_ms']:6.1f} ms"
                    f"  CPU/round: server {figures['server_cpu_ms']:.2f} ms,"
                    f" simulator {figures['sim_cpu_ms']:.2f} ms,"
                    f" clients {figures['clients_cpu_ms']:.2f} ms"
                )
            share = found["seamless"]["rounds_per_s"] / found["transfer"]["rounds_per_s"]
            print(f"{kind:10} seamless / transfer: {share:.0%} of the rounds a second")
    finally:
        sim.stop()


if __name__ == "__main__":
    main()
