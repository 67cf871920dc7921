"""History readers while another player spins: the spins' latency with and without them.

The real server (``reelsmith serve``, one worker, the default rate limit of 50 requests a
second per player) on SQLite and on PostgreSQL. One player spins Days of the Tsar at 40
requests a second and times each request, first alone, then while three other players each
read their last 100 rounds (``GET /api/history/rounds?limit=100``, every round with its steps)
at 45 pages a second, within their rate limit. The figures (p50 and p99 of the spinner's
requests, the pages read) go to the suite's summary; there is no timed assertion. What is
asserted: no request fails, none is refused for its rate, every page is whole.
``RELIABILITY_READERS_SECONDS`` sets each measurement's length (5 s by default).
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from tests.reliability import figures
from tests.reliability.live import TSAR, TSAR_BET, Client, LiveServer, new_player, pg_schema

SECONDS = float(os.environ.get("RELIABILITY_READERS_SECONDS", "5"))
READERS = 3
PAGE = 100  # rounds a page
SPINS_PER_SECOND = 40.0
PAGES_PER_SECOND = 45.0  # each reader: under the limit of 50 a second


class Wire:
    """A keep-alive HTTP/1.1 connection that reads responses whole without parsing bodies
    it is not asked to (a reader's page is a megabyte: the client must cost little)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, port: int) -> Wire:
        return cls(*await asyncio.open_connection("127.0.0.1", port))

    async def request(
        self, method: str, path: str, token: str, body: Any = None
    ) -> tuple[int, bytes]:
        payload = b"" if body is None else json.dumps(body).encode()
        head = [
            f"{method} {path} HTTP/1.1",
            "Host: reelsmith",
            f"Authorization: Bearer {token}",
            f"Content-Length: {len(payload)}",
        ]
        if body is not None:
            head += ["Content-Type: application/json", f"Idempotency-Key: {uuid.uuid4().hex}"]
        self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + payload)
        response = await self.reader.readuntil(b"\r\n\r\n")
        length = 0
        for line in response.split(b"\r\n"):
            if line[:15].lower() == b"content-length:":
                length = int(line[15:])
        return int(response[9:12]), await self.reader.readexactly(length)

    def close(self) -> None:
        self.writer.close()


async def paced(rate: float, stop: float, step: Any) -> None:
    """``step()`` ``rate`` times a second until ``stop`` (late steps are not made up)."""
    period = 1.0 / rate
    due = time.monotonic()
    while time.monotonic() < stop:
        await step()
        due = max(due + period, time.monotonic() - period)
        await asyncio.sleep(max(0.0, due - time.monotonic()))


async def play_rounds(port: int, token: str, rounds: int) -> None:
    """``rounds`` whole rounds (free spins played out), at the rate limit's pace."""
    wire = await Wire.open(port)
    played = 0

    async def one() -> None:
        nonlocal played
        status, raw = await wire.request(
            "POST", f"/api/games/{TSAR}/spin", token, {"bet": TSAR_BET, "gamble": False}
        )
        if status == 429:  # setting up, past the rate on a stalled machine: wait and go on
            await asyncio.sleep(1.0)
            return
        assert status == 200, raw[:300]
        body = json.loads(raw)
        while body["status"] == "open":
            status, raw = await wire.request(
                "POST", f"/api/games/{TSAR}/rounds/{body['round_id']}/free-spin", token, {}
            )
            assert status == 200, raw[:300]
            body = json.loads(raw)
        played += 1

    try:
        while played < rounds:
            await paced(SPINS_PER_SECOND, time.monotonic() + 0.5, one)
    finally:
        wire.close()


async def spinner(port: int, token: str, stop: float, latencies: list[float]) -> list[str]:
    wire = await Wire.open(port)
    problems: list[str] = []
    open_round: str | None = None

    async def one(timed: bool = True) -> None:
        nonlocal open_round
        if open_round is None:
            path, body = f"/api/games/{TSAR}/spin", {"bet": TSAR_BET, "gamble": False}
        else:
            path, body = f"/api/games/{TSAR}/rounds/{open_round}/free-spin", {}
        begin = time.perf_counter()
        status, raw = await wire.request("POST", path, token, body)
        if timed:
            latencies.append(time.perf_counter() - begin)
        if status != 200:
            problems.append(f"{path}: {status} {raw[:200]!r}")
            return
        answer = json.loads(raw)
        open_round = answer["round_id"] if answer["status"] == "open" else None

    try:
        await paced(SPINS_PER_SECOND, stop, one)
        while open_round is not None and not problems:  # its free spins, untimed
            await one(timed=False)
    finally:
        wire.close()
    return problems


async def reader(port: int, token: str, stop: float, pages: list[int]) -> list[str]:
    wire = await Wire.open(port)
    problems: list[str] = []

    async def one() -> None:
        status, raw = await wire.request("GET", f"/api/history/rounds?limit={PAGE}", token)
        if status != 200:
            problems.append(f"history: {status} {raw[:200]!r}")
        elif not raw.endswith(b"]}]}"):  # the last round's steps, then the page, closed
            problems.append(f"history: a page that ends {raw[-40:]!r}")
        else:
            pages.append(len(raw))

    try:
        await paced(PAGES_PER_SECOND, stop, one)
    finally:
        wire.close()
    return problems


def apart(coroutine: Any) -> Any:
    """``asyncio.run`` on a thread of its own (a browser test's loop may be running here)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def percentiles(latencies: list[float]) -> tuple[float, float]:
    ordered = sorted(latencies)
    return statistics.median(ordered) * 1000, ordered[max(0, int(len(ordered) * 0.99) - 1)] * 1000


async def measure(port: int, spin_token: str, reader_tokens: list[str]) -> dict[str, Any]:
    alone: list[float] = []
    problems = await spinner(port, spin_token, time.monotonic() + SECONDS, alone)
    with_readers: list[float] = []
    pages: list[int] = []
    stop = time.monotonic() + SECONDS
    results = await asyncio.gather(
        spinner(port, spin_token, stop, with_readers),
        *(reader(port, token, stop, pages) for token in reader_tokens),
    )
    for found in results:
        problems += found
    return {"alone": alone, "with": with_readers, "pages": pages, "problems": problems}


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_history_readers_barely_move_another_players_spins(tmp_path, database):
    if database == "postgresql":
        if not os.environ.get("REELSMITH_TEST_DATABASE_URL"):
            pytest.skip("PostgreSQL scenarios need REELSMITH_TEST_DATABASE_URL")
        schema = pg_schema()
        url = schema.__enter__()
    else:
        schema, url = None, f"sqlite:///{tmp_path}/readers.db"
    server = LiveServer(
        url,
        tmp_path,
        dev=False,
        rate_limit_per_second="50",
        rate_limit_burst="100",
        history_limit=str(PAGE),
    )
    server.start()
    setup = Client([server.url])
    try:
        spin_player = new_player(setup, 10_000_000)
        readers = [new_player(setup, 10_000_000) for _ in range(READERS)]

        async def prepare() -> None:
            await asyncio.gather(*(play_rounds(server.port, r.token, PAGE) for r in readers))

        apart(prepare())
        found = apart(measure(server.port, spin_player.token, [r.token for r in readers]))
    finally:
        setup.close()
        server.stop()
        if schema is not None:
            schema.__exit__(None, None, None)
    figures.add("scenarios")
    figures.add("requests", len(found["alone"]) + len(found["with"]) + len(found["pages"]))
    alone, loaded = percentiles(found["alone"]), percentiles(found["with"])
    pages = found["pages"]
    label = "SQLite" if database == "sqlite" else "PostgreSQL"
    figures.note(
        "history readers during spins (1 worker)",
        f"{label}: spins alone p50 {alone[0]:.1f} ms p99 {alone[1]:.1f} ms "
        f"({len(found['alone'])} requests); with {READERS} readers p50 {loaded[0]:.1f} ms "
        f"p99 {loaded[1]:.1f} ms ({len(found['with'])} requests); the readers read "
        f"{len(pages) / SECONDS:.0f} pages/s of {PAGE} rounds, "
        f"{statistics.mean(pages) / 2**20 if pages else 0:.2f} MiB each",
    )
    assert found["problems"] == [], found["problems"][:10]
    assert len(found["alone"]) > SECONDS * SPINS_PER_SECOND / 4
    assert pages  # the readers did read (how many: the figures)
