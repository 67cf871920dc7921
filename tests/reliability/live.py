"""The real server as a separate process, and clients that survive it being killed.

:class:`LiveServer` runs ``.venv/bin/reelsmith serve`` on a free port over a given database and
can ``kill -9`` and restart it. :class:`Client` retries a request that failed in flight
(connection refused or dropped, the server gone) with the *same* Idempotency-Key and body
until it gets an answer, which is what a real client must do. :class:`Player` plays like a person
with a fast thumb: spins of both titles, free spins, gambles, collects, deposits and
withdrawals, and keeps a :class:`~tests.reliability.money.ClientRecord` of what the server
confirmed.
"""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from tests.reliability import figures
from tests.reliability.money import ClientRecord

ROOT = Path(__file__).resolve().parents[2]
REELSMITH = ROOT / ".venv" / "bin" / "reelsmith"
OPERATOR_KEY = "reliability-operator-key"
SECRET = "reliability-secret-key"
PG_URL = os.environ.get("REELSMITH_TEST_DATABASE_URL")
TSAR = "days-of-the-tsar"
SULTAN = "sultan-spins"
TSAR_BET = {"lines": 25, "coins_per_line": 1, "coin_size": "0.01"}  # 0.25


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def pg_schema() -> Iterator[str]:
    """A fresh PostgreSQL schema (dropped afterwards); yields the URL that selects it."""
    import psycopg

    assert PG_URL, "PostgreSQL scenarios need REELSMITH_TEST_DATABASE_URL"
    plain = PG_URL.replace("+psycopg", "")
    schema = f"rel_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(plain, autocommit=True) as connection:
        connection.execute(f'CREATE SCHEMA "{schema}"')
    separator = "&" if "?" in PG_URL else "?"
    try:
        yield f"{PG_URL}{separator}options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(plain, autocommit=True) as connection:
            connection.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


class LiveServer:
    """``reelsmith serve`` in its own process group, restartable on the same database."""

    def __init__(self, database_url: str, log_dir: Path, dev: bool = True, **settings: str) -> None:
        self.database_url = database_url
        self.log_dir = log_dir
        self.dev = dev
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0
        self.env = {
            **os.environ,
            "REELSMITH_DATABASE_URL": database_url,
            "REELSMITH_SECRET_KEY": SECRET,
            "REELSMITH_OPERATOR_API_KEY": OPERATOR_KEY,
            "REELSMITH_RATE_LIMIT_PER_SECOND": "1000000",
            "REELSMITH_RATE_LIMIT_BURST": "1000000",
            "REELSMITH_HISTORY_LIMIT": "100000",
            "REELSMITH_LOG_JSON": "false",
            **{f"REELSMITH_{k.upper()}": v for k, v in settings.items()},
        }
        if dev and not database_url.startswith("sqlite"):
            # the suite forces draws on PostgreSQL as well: deliberately (`check_dev_mode`)
            self.env["REELSMITH_DEV_MODE_ANYWHERE"] = "true"

    def start(self, timeout: float = 90.0) -> None:
        self.spawn()
        self.wait_ready(timeout)

    def spawn(self) -> None:
        command = [str(REELSMITH), "serve", "--port", str(self.port)]
        if self.dev:
            command.append("--dev")  # on PostgreSQL too: see `env`
        self.starts += 1
        log = (self.log_dir / f"server-{self.port}-{self.starts}.log").open("wb")
        self.process = subprocess.Popen(
            command, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        log.close()

    def wait_ready(self, timeout: float = 90.0) -> None:
        assert self.process is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited with {self.process.returncode}; see logs")
            try:
                if httpx.get(f"{self.url}/healthz", timeout=1.0).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.05)
        raise RuntimeError(f"the server did not answer within {timeout} s")

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def kill(self) -> None:
        """``kill -9``: no shutdown, no flush, whatever was in flight is cut."""
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def rss_kib(self) -> int:
        """The server process's own resident memory (RssAnon from /proc), in KiB: what a
        leak would grow. The database file's pages SQLite reads through its memory map are
        resident too (in RssFile), up to the map's size, but they are the file's cache."""
        status = Path(f"/proc/{self.pid}/status").read_text()
        for line in status.splitlines():
            if line.startswith("RssAnon:"):
                return int(line.split()[1])
        raise RuntimeError("no RssAnon")


class Client:
    """HTTP with retries of in-flight failures under the same key and body.

    ``urls`` may name several servers over one database: each request goes to the next one.
    """

    def __init__(self, urls: list[str], retry_for: float = 120.0) -> None:
        self.clients = [httpx.Client(base_url=u, timeout=60.0) for u in urls]
        self.turn = random.randrange(max(1, len(self.clients)))
        self.retry_for = retry_for
        self.retried = 0  # requests cut by a failure in flight and sent again
        self.answered = 0  # requests a server answered (any status)

    def close(self) -> None:
        for client in self.clients:
            client.close()

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        headers: dict[str, str] | None = None,
        key: str | None = None,
        params: dict[str, Any] | None = None,
    ) -> httpx.Response:
        headers = dict(headers or {})
        if method != "GET":
            headers["Idempotency-Key"] = key or uuid.uuid4().hex
        deadline = time.monotonic() + self.retry_for
        failed = False
        while True:
            self.turn = (self.turn + 1) % len(self.clients)
            try:
                response = self.clients[self.turn].request(
                    method, path, json=body, headers=headers, params=params
                )
            except httpx.TransportError:
                if time.monotonic() > deadline:
                    raise
                if not failed:
                    failed = True
                    self.retried += 1
                time.sleep(0.05)
                continue
            self.answered += 1
            figures.add("requests")
            return response

    def get(self, path: str, **kwargs: Any) -> httpx.Response:
        return self.request("GET", path, **kwargs)


def operator(client: Client, method: str, path: str, body: Any = None) -> httpx.Response:
    return client.request(method, path, body, headers={"X-API-Key": OPERATOR_KEY})


def new_player(client: Client, deposit_minor: int) -> ClientRecord:
    """A funded player with a session token."""
    ref = uuid.uuid4().hex
    created = operator(
        client, "POST", "/operator/players", {"external_ref": ref, "currency": "EUR"}
    )
    assert created.status_code == 201, created.text
    record = ClientRecord(str(created.json()["id"]))
    if deposit_minor:
        deposit(client, record, deposit_minor)
    session = operator(client, "POST", f"/operator/players/{record.player_id}/sessions")
    assert session.status_code == 201, session.text
    record.token = str(session.json()["token"])
    return record


def amount(minor: int) -> str:
    return f"{minor // 100}.{minor % 100:02d}"


def deposit(client: Client, record: ClientRecord, minor: int) -> httpx.Response:
    response = operator(
        client, "POST", f"/operator/players/{record.player_id}/deposit", {"amount": amount(minor)}
    )
    assert response.status_code == 200, response.text
    record.deposits_minor += minor
    return response


class Player:
    """One player's client: plays until told to stop, retrying in-flight failures."""

    def __init__(
        self,
        client: Client,
        record: ClientRecord,
        seed: int,
        forced: dict[str, list[list[int]]] | None = None,
    ) -> None:
        self.client = client
        self.record = record
        self.random = random.Random(seed)
        self.forced = forced or {}
        self.open: dict[str, str] = {}  # game -> open round id
        self.unexpected: list[str] = []
        self.steps = 0

    def _auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.record.token}"}

    def _play(self, method: str, path: str, body: Any = None) -> httpx.Response:
        return self.client.request(method, path, body, headers=self._auth())

    def _round(self, game: str, response: httpx.Response, what: str) -> None:
        if response.status_code != 200:
            if response.status_code != 402:  # a balance too low for any bet is fine
                self.unexpected.append(f"{what}: {response.status_code} {response.text[:200]}")
            return
        body = response.json()
        self.record.saw_round(body, game)
        if body["status"] == "open":
            self.open[game] = str(body["round_id"])
        else:
            self.open.pop(game, None)

    def continue_round(self, game: str) -> None:
        round_id = self.open[game]
        state = self.client.get(f"/api/history/rounds/{round_id}", headers=self._auth())
        allowed = state.json()["round"]["actions_allowed"] if state.status_code == 200 else []
        base = f"/api/games/{game}/rounds/{round_id}"
        if allowed == ["free_spin"]:
            response = self._play("POST", f"{base}/free-spin", {})
        elif any(a.startswith("gamble") for a in allowed) and self.random.random() < 0.4:
            choices = [a.split(" ", 1)[1] for a in allowed if a.startswith("gamble ")]
            choice = self.random.choice(choices)
            response = self._play("POST", f"{base}/gamble", {"choice": choice})
        else:
            response = self._play("POST", f"{base}/collect", {})
        self._round(game, response, f"continue {round_id}")

    def step(self) -> None:
        """One thing a player does next."""
        self.steps += 1
        if self.open:
            self.continue_round(self.random.choice(sorted(self.open)))
            return
        roll = self.random.random()
        if roll < 0.04:
            deposit(self.client, self.record, self.random.choice([100, 250, 1000]))
        elif roll < 0.07:
            minor = self.random.choice([50, 100])
            response = operator(
                self.client,
                "POST",
                f"/operator/players/{self.record.player_id}/withdraw",
                {"amount": amount(minor)},
            )
            if response.status_code == 200:
                self.record.withdrawals_minor += minor
            elif response.status_code != 402:
                self.unexpected.append(f"withdraw: {response.status_code} {response.text[:200]}")
        elif roll < 0.30:
            bet = self.random.choice(["0.20", "0.40", "1.00"])
            response = self._play("POST", f"/api/games/{SULTAN}/spin", {"bet": {"bet": bet}})
            self._round(SULTAN, response, "sultan spin")
        else:
            body: dict[str, Any] = {"bet": TSAR_BET}
            options = self.forced.get(TSAR, [])
            if options and self.random.random() < 0.3:
                body["forced_draws"] = self.random.choice(options)
            self._round(TSAR, self._play("POST", f"/api/games/{TSAR}/spin", body), "tsar spin")

    def run(self, stop: threading.Event) -> None:
        try:
            while not stop.is_set():
                self.step()
        except Exception as exc:  # reported by the scenario, which then fails
            self.unexpected.append(f"the client stopped: {exc!r}")

    def finish_open_rounds(self) -> int:
        """Find every open round through the API and play it to the end; returns how many."""
        finished = 0
        for game in (TSAR, SULTAN):
            state = self.client.get(f"/api/games/{game}/state", headers=self._auth())
            assert state.status_code == 200, state.text
            found = state.json()["open_round"]
            if found is None:
                if game in self.open:
                    self.unexpected.append(f"{game}: the client's open round is not open")
                    self.open.pop(game)
                continue
            self.open[game] = str(found["round_id"])
            if found["round_id"] not in self.record.rounds:
                self.unexpected.append(f"{game}: open round {found['round_id']} nobody started")
            finished += 1
            for _ in range(1000):
                if game not in self.open:
                    break
                self.continue_round(game)
        return finished
