"""`reelsmith serve --workers N`: a listening socket per worker, connections spread over them,
a dead worker replaced, the port refused by name when it is taken, a clean stop."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import httpx
import pytest

from reelsmith.server import workers

pytestmark = pytest.mark.skipif(
    not workers.per_worker_sockets(), reason="this system has no SO_REUSEPORT"
)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _start(tmp_path: Path, port: int, count: int) -> tuple[subprocess.Popen[bytes], Path]:
    env = {
        **os.environ,
        "REELSMITH_DATABASE_URL": f"sqlite:///{tmp_path / 'workers.db'}",
        "REELSMITH_SECRET_KEY": "k" * 43,
        "REELSMITH_OPERATOR_API_KEY": "o" * 43,
    }
    log = tmp_path / "server.log"
    command = [
        str(Path(sys.executable).with_name("reelsmith")),
        "serve",
        "--port",
        str(port),
        "--workers",
        str(count),
    ]
    with log.open("wb") as out:
        process = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)
    return process, log


def _request_pids(log: Path) -> list[int]:
    pids = []
    for line in log.read_text().splitlines():
        with contextlib.suppress(ValueError):
            entry = json.loads(line)
            if entry.get("message") == "request" and entry.get("route") == "/healthz":
                pids.append(int(entry["pid"]))
    return pids


def _wait_until(predicate, what: str, log: Path, seconds: float = 90) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}:\n{log.read_text()[-3000:]}")
        time.sleep(0.2)


def _healthy(url: str) -> bool:
    with contextlib.suppress(httpx.HTTPError):
        return httpx.get(f"{url}/healthz", timeout=2).status_code == 200
    return False


def test_connections_spread_over_the_workers_and_a_dead_worker_is_replaced(tmp_path):
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    process, log = _start(tmp_path, port, 2)
    try:
        _wait_until(lambda: _healthy(url), "the server did not start", log)
        # both workers listen before the spread is measured: each answers on its own socket
        _wait_until(
            lambda: log.read_text().count("Application startup complete") >= 2,
            "the second worker did not start",
            log,
        )
        for _ in range(80):  # a new connection each: the kernel picks the socket per connection
            assert httpx.get(f"{url}/healthz", timeout=5).status_code == 200
        served = Counter(_request_pids(log))
        assert len(served) == 2, served
        assert min(served.values()) >= 15, served  # by hash of the ports: about 40 each
        # a worker killed outright is replaced, and the port keeps answering meanwhile
        victim = next(iter(served))
        os.kill(victim, signal.SIGKILL)
        _wait_until(
            lambda: log.read_text().count("Application startup complete") >= 3,
            "the dead worker was not replaced",
            log,
        )
        assert f"worker {victim} exited" in log.read_text()
        for _ in range(40):
            assert httpx.get(f"{url}/healthz", timeout=5).status_code == 200
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            status = process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            raise
    assert status == 0, log.read_text()[-3000:]
    with pytest.raises(httpx.ConnectError):  # every worker stopped with the supervisor
        httpx.get(f"{url}/healthz", timeout=2)


def test_a_port_in_use_is_refused_by_name_before_any_worker_starts(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        process, log = _start(tmp_path, port, 2)
        status = process.wait(timeout=60)
    assert status != 0
    text = log.read_text()
    assert f"cannot listen on 127.0.0.1:{port}" in text and "in use" in text
    assert "Application startup complete" not in text
