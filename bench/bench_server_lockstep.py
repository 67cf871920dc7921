"""The server's CPU per request with the machine's load taken out of the batching: the served
app (``serve_app``, as each ``reelsmith serve`` worker runs it) driven in this process over
ASGI by 32 clients in lockstep.

bench_server.py's CPU per request moves with the machine's other load even though it counts
CPU, not time: a slower machine answers fewer requests a second, a commit group then holds
fewer calls, and its BEGIN, COMMIT and loop passes are shared by fewer requests. Here the 32
clients send their requests together and wait for all 32 answers before the next (a round's
free spins likewise, for the clients whose round is open), so every commit group holds the
same calls whatever the machine's speed, and no HTTP parsing or load generator is counted:
the figure is the process's CPU (``time.process_time``) per request, the app's own work and
the database driver's. The baseline, in the same run and process, is ``/healthz`` (the
middleware and routing alone). "session reads" counts the token checks that had to read
their session's row outside the request's transaction (see ``server/sessions.py``).

SQLite and, when ``REELSMITH_TEST_DATABASE_URL`` reaches PostgreSQL, PostgreSQL (in a schema
of its own, dropped afterwards); ``BENCH_DATABASES`` picks some (``sqlite,postgresql``),
``BENCH_SECONDS`` sets each measurement's length (default 8).
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_server  # the bench's bet, keys and database URL

CLIENTS = 32
SECONDS = float(os.environ.get("BENCH_SECONDS", "8"))
CONFIGS = ("sqlite", "postgresql")
CHOSEN = [c.strip() for c in os.environ.get("BENCH_DATABASES", ",".join(CONFIGS)).split(",")]
for _config in CHOSEN:
    if _config not in CONFIGS:
        raise SystemExit(f"BENCH_DATABASES: unknown {_config!r}; known: {', '.join(CONFIGS)}")
GAME = "/api/games/days-of-the-tsar"


class Client:
    """Requests straight to an ASGI app, with the lifespan's state in each scope.

    The client runs in the measured process, on the event loop's thread, so its own work is
    counted with the server's, and it does as little as it can: bodies are written and read
    with orjson (the server's own dependency), and a round step's answer is read only when
    its round may still be open (`bench_server.open_answer`). Reading every spin's answer
    with the standard library's ``json`` cost some 250,000 instructions a request, a tenth of
    the server's."""

    def __init__(self, app: Any, state: dict[str, Any]) -> None:
        self.app = app
        self.state = state

    async def request(
        self, method: str, path: str, headers: dict[str, str], body: Any = None
    ) -> tuple[int, Any]:
        """The answer's status and its body, read."""
        status, data = await self.exchange(method, path, headers, body)
        return status, orjson.loads(data) if data else None

    async def exchange(
        self, method: str, path: str, headers: dict[str, str], body: Any = None
    ) -> tuple[int, bytes]:
        """The answer's status and its body as sent."""
        payload = b"" if body is None else orjson.dumps(body)
        raw = [(b"host", b"bench"), (b"content-length", str(len(payload)).encode())]
        if body is not None:
            raw.append((b"content-type", b"application/json"))
        raw.extend((name.lower().encode(), value.encode()) for name, value in headers.items())
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": method,
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "root_path": "",
            "headers": raw,
            "client": ("127.0.0.1", 50000),
            "server": ("127.0.0.1", 80),
            "state": dict(self.state),
        }
        received = False

        async def receive() -> dict[str, Any]:
            nonlocal received
            if not received:
                received = True
                return {"type": "http.request", "body": payload, "more_body": False}
            await asyncio.Event().wait()  # the client stays connected
            raise AssertionError("unreachable")

        status = 0
        chunks: list[bytes] = []

        async def send(message: dict[str, Any]) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))

        await self.app(scope, receive, send)
        return status, b"".join(chunks)


async def players(client: Client) -> list[str]:
    operator = {"X-API-Key": bench_server.OPERATOR}
    tokens = []
    for _ in range(CLIENTS):
        key = uuid.uuid4().hex
        _, player = await client.request(
            "POST",
            "/operator/players",
            {**operator, "Idempotency-Key": key},
            {"external_ref": key, "currency": "EUR"},
        )
        await client.request(
            "POST",
            f"/operator/players/{player['id']}/deposit",
            {**operator, "Idempotency-Key": key + "d"},
            {"amount": "100000.00"},
        )
        _, session = await client.request(
            "POST", f"/operator/players/{player['id']}/sessions", operator
        )
        tokens.append(session["token"])
    return tokens


async def step(client: Client, token: str, path: str, body: Any, statuses: list[int]) -> Any:
    """One round step; the round's answer while it is open, else None."""
    headers = {"Authorization": f"Bearer {token}", "Idempotency-Key": uuid.uuid4().hex}
    status, data = await client.exchange("POST", path, headers, body)
    statuses.append(status)
    return bench_server.open_answer(data) if status == 200 else None


async def lockstep(
    client: Client, tokens: list[str], stop: float, statuses: list[int], rounds: int | None = None
) -> None:
    """Rounds of 32 spins sent together, each round's free spins likewise, until ``stop``
    (a ``time.perf_counter`` reading) or, given ``rounds``, that many rounds."""
    spin = {"bet": bench_server.BET, "gamble": False}
    played = 0
    while time.perf_counter() < stop if rounds is None else played < rounds:
        played += 1
        answers = await asyncio.gather(
            *(step(client, t, f"{GAME}/spin", spin, statuses) for t in tokens)
        )
        open_rounds = [(t, a) for t, a in zip(tokens, answers, strict=True) if a is not None]
        while open_rounds:
            answers = await asyncio.gather(
                *(
                    step(client, t, f"{GAME}/rounds/{a['round_id']}/free-spin", {}, statuses)
                    for t, a in open_rounds
                )
            )
            open_rounds = [
                (t, a) for (t, _), a in zip(open_rounds, answers, strict=True) if a is not None
            ]


async def health(client: Client, stop: float, statuses: list[int]) -> None:
    while time.perf_counter() < stop:
        statuses.append((await client.exchange("GET", "/healthz", {}))[0])


Row = tuple[float, float, int, int]


async def measure() -> dict[str, Row]:
    from reelsmith.server.app import serve_app

    app = serve_app()
    logging.getLogger("reelsmith.server").disabled = True  # the request log: not measured
    state: dict[str, Any] = {}
    inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    lifespan = {"type": "lifespan", "asgi": {"version": "3.0"}, "state": state}
    running = asyncio.create_task(app(lifespan, inbox.get, outbox.put))
    await inbox.put({"type": "lifespan.startup"})
    started = await outbox.get()
    if started["type"] != "lifespan.startup.complete":
        raise SystemExit(f"the app did not start: {started}")
    client = Client(app, state)
    tokens = await players(client)
    results = {}
    for name in ("healthz (baseline)", "spin (committed)"):
        if name.startswith("spin"):  # a second of warm-up, not counted
            await lockstep(client, tokens, time.perf_counter() + 1.0, [])
        statuses: list[int] = []
        reads = app.state.sessions.reads
        cpu = time.process_time()
        begin = time.perf_counter()
        if name.startswith("spin"):
            await lockstep(client, tokens, begin + SECONDS, statuses)
        else:
            await asyncio.gather(*(health(client, begin + SECONDS, statuses) for _ in tokens))
        elapsed = time.perf_counter() - begin
        used = time.process_time() - cpu
        results[name] = (
            len(statuses) / elapsed,
            used * 1000 / max(1, len(statuses)),
            sum(1 for s in statuses if s != 200),
            app.state.sessions.reads - reads,
        )
    await inbox.put({"type": "lifespan.shutdown"})
    await outbox.get()
    await running
    return results


def run(label: str, database_url: str) -> None:
    os.environ.update(
        {
            "REELSMITH_DATABASE_URL": database_url,
            "REELSMITH_SECRET_KEY": bench_server.SECRET,
            "REELSMITH_OPERATOR_API_KEY": bench_server.OPERATOR,
            "REELSMITH_RATE_LIMIT_PER_SECOND": "100000",
            "REELSMITH_RATE_LIMIT_BURST": "100000",
        }
    )
    for name, (rate, cpu_ms, errors, reads) in asyncio.run(measure()).items():
        print(f"{label:<12}{name:<20}{rate:>11,.0f}{errors:>8}{cpu_ms:>13.3f}{reads:>15,}")


def databases(chosen: list[str], stem: str) -> Iterator[tuple[str, str]]:
    """The label and URL of each chosen database in turn: SQLite in a scratch folder (file
    ``stem``.db), PostgreSQL in a scratch schema when one is reachable; each is removed once
    the caller moves on."""
    if "sqlite" in chosen:
        with tempfile.TemporaryDirectory() as tmp:
            yield "SQLite", f"sqlite:///{tmp}/{stem}.db"
    if "postgresql" in chosen:
        with bench_server.pg_schema() as schema:
            if schema is not None:
                yield "PostgreSQL", bench_server.schema_url(schema)


def main() -> None:
    print(
        f"{CLIENTS} clients in lockstep over ASGI in one process, {SECONDS:.0f} s per "
        "measurement, CPU of the process per request"
    )
    print(
        f"{'database':<12}{'endpoint':<20}{'requests/s':>11}{'errors':>8}{'CPU ms/req':>13}"
        f"{'session reads':>15}"
    )
    for label, url in databases(CHOSEN, "lockstep"):
        run(label, url)


if __name__ == "__main__":
    main()
