"""Game server throughput: durable spins per second and p50/p99 latency, 32 concurrent clients.

Starts the real server (`reelsmith serve`) as a separate process, creates 32 players, and has
each client spin Days of the Tsar as fast as the server answers, for a fixed time, playing each
round to its end: any free spins one request each, as the game requires. The clients play with
the gamble declined (``"gamble": false``, a player's choice), so a win is paid with its spin;
``BENCH_GAMBLE=1`` has them leave the gamble on and send the collect request after each win,
as a player who always collects does. Every request is committed to the database before its
response. The table gives both rates: spins (rounds started) and requests (spins, free spins,
collects). The baseline, measured in the same run with the same clients, is the server's
`/healthz` endpoint: the HTTP stack alone, no database. "CPU ms/req" is the CPU time the
server's processes spent per request; on PostgreSQL, "PG CPU ms/req" beside it is the CPU time
of the database's backends serving the server's connections (found by the application name
the bench gives them in `pg_stat_activity`), so the two add up to what a request costs the
machine, the load generator left out. CPU is read from ``/proc`` before and after each
measurement (user + system time), which the machine's other load changes little, where the
throughput figures move with it.

"errors" counts answers other than success and requests whose connection broke (the client
then opens a new one and goes on); after a configuration's rows the run prints why its
connections broke and the server's own log lines above info, if there were any.

Runs on SQLite (one and two workers) and, when PostgreSQL is reachable, on PostgreSQL (two
workers). ``BENCH_CONFIGS`` picks some of them (``sqlite1,sqlite2,postgresql2``; all by
default), ``BENCH_SECONDS`` sets the length of each measurement.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import orjson
import uvloop

CLIENTS = 32
SECONDS = float(os.environ.get("BENCH_SECONDS", "10"))
OPERATOR = "bench-operator-key"
SECRET = "bench-secret-key"
PG_URL = os.environ.get(
    "REELSMITH_TEST_DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)
BET = {"lines": 25, "coins_per_line": 1, "coin_size": "0.01"}
GAMBLE = os.environ.get("BENCH_GAMBLE", "") not in ("", "0")
ROOT = Path(__file__).resolve().parent.parent
CONFIGS = ("sqlite1", "sqlite2", "postgresql2")
CHOSEN = [c.strip() for c in os.environ.get("BENCH_CONFIGS", ",".join(CONFIGS)).split(",")]
for _config in CHOSEN:
    if _config not in CONFIGS:
        raise SystemExit(f"BENCH_CONFIGS: unknown {_config!r}; known: {', '.join(CONFIGS)}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(
    database_url: str, workers: int, log_path: Path
) -> tuple[subprocess.Popen[bytes], str]:
    """The server on a free port, its output (log lines, tracebacks) written to ``log_path``."""
    port = free_port()
    env = {
        **os.environ,
        "REELSMITH_DATABASE_URL": database_url,
        "REELSMITH_SECRET_KEY": SECRET,
        "REELSMITH_OPERATOR_API_KEY": OPERATOR,
        "REELSMITH_RATE_LIMIT_PER_SECOND": "100000",
        "REELSMITH_RATE_LIMIT_BURST": "100000",
    }
    with log_path.open("wb") as log:  # the server writes to its own copy of the file
        process = subprocess.Popen(
            [
                str(ROOT / ".venv/bin/reelsmith"),
                "serve",
                "--port",
                str(port),
                "--workers",
                str(workers),
            ],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    if answers(url):
        return process, url
    process.kill()
    process.wait()
    said = log_path.read_text(errors="replace").splitlines()[-10:]
    raise RuntimeError("the server did not start; its last words:\n" + "\n".join(said))


def answers(url: str, tries: int = 200) -> bool:
    """Whether the server at ``url`` answers ``/healthz`` within ``tries`` tenths of a second."""
    for _ in range(tries):
        try:
            if httpx.get(f"{url}/healthz", timeout=0.5).status_code == 200:
                return True
        except httpx.HTTPError:
            time.sleep(0.1)
    return False


@contextlib.contextmanager
def pg_schema() -> Iterator[str | None]:
    """A scratch schema on the PostgreSQL of ``PG_URL``, dropped afterwards; None (and a line
    saying why) when no PostgreSQL answers."""
    try:
        import psycopg

        with psycopg.connect(PG_URL.replace("+psycopg", ""), connect_timeout=3) as connection:
            schema = f"bench_{uuid.uuid4().hex[:8]}"
            connection.execute(f'CREATE SCHEMA "{schema}"')
            connection.commit()
    except Exception as exc:  # no PostgreSQL here
        print(f"PostgreSQL skipped: {exc}")
        yield None
        return
    try:
        yield schema
    finally:
        with psycopg.connect(PG_URL.replace("+psycopg", "")) as connection:
            connection.execute(f'DROP SCHEMA "{schema}" CASCADE')
            connection.commit()


def schema_url(schema: str) -> str:
    """``PG_URL`` with ``schema`` first on the search path."""
    separator = "&" if "?" in PG_URL else "?"
    return f"{PG_URL}{separator}options=-csearch_path%3D{schema}"


async def make_players(client: httpx.AsyncClient) -> list[str]:
    tokens = []
    headers = {"X-API-Key": OPERATOR}
    for _ in range(CLIENTS):
        key = uuid.uuid4().hex
        player = (
            await client.post(
                "/operator/players",
                json={"external_ref": key, "currency": "EUR"},
                headers={**headers, "Idempotency-Key": key},
            )
        ).json()["id"]
        await client.post(
            f"/operator/players/{player}/deposit",
            json={"amount": "100000.00"},
            headers={**headers, "Idempotency-Key": key + "d"},
        )
        tokens.append(
            (await client.post(f"/operator/players/{player}/sessions", headers=headers)).json()[
                "token"
            ]
        )
    return tokens


class Connection:
    """A minimal keep-alive HTTP/1.1 client over one socket.

    The load generator shares the machine's two cores with the server, so it must cost as
    little CPU per request as possible: httpx spends several times more CPU per request than
    the server's own work, and would measure itself rather than the server. For the same
    reason bodies are written and read with orjson and the clients run on uvloop (both are
    the server's own dependencies), and an answer is read only when the client needs what it
    says (see `open_answer`): a spin's answer of 3-5 kB costs orjson some 45 µs to read, about a
    twentieth of what the server spends on the request.
    """

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    @classmethod
    async def open(cls, url: str) -> Connection:
        host, port = url.removeprefix("http://").split(":")
        reader, writer = await asyncio.open_connection(host, int(port))
        return cls(reader, writer)

    async def request(
        self, method: str, path: str, headers: dict[str, str], body: Any = None
    ) -> tuple[int, bytes]:
        """The answer's status and its body as sent."""
        payload = b"" if body is None else orjson.dumps(body)
        lines = [f"{method} {path} HTTP/1.1", "Host: bench", f"Content-Length: {len(payload)}"]
        if body is not None:
            lines.append("Content-Type: application/json")
        lines.extend(f"{name}: {value}" for name, value in headers.items())
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + payload)
        head = await self.reader.readuntil(b"\r\n\r\n")
        status = int(head[9:12])
        length = 0
        for line in head.split(b"\r\n"):
            if line[:15].lower() == b"content-length:":
                length = int(line[15:])
        return status, await self.reader.readexactly(length)

    def close(self) -> None:
        self.writer.close()


def open_answer(data: bytes) -> dict[str, Any] | None:
    """A round step's answer while its round is open, else None. It is read only when its
    bytes hold "open" somewhere: the client needs nothing of a finished round's answer."""
    if b'"open"' not in data:
        return None
    answer: dict[str, Any] = orjson.loads(data)
    return answer if answer.get("status") == "open" else None


# The status recorded for a request whose connection broke (reset, closed before the answer):
# the client opens a new connection and goes on, and the run prints why after its table.
BROKEN = 0
BROKEN_BY: list[str] = []
CONNECTION_FAILURES = (ConnectionError, asyncio.IncompleteReadError)


async def spin_client(
    url: str,
    token: str,
    stop: float,
    latencies: list[float],
    errors: list[int],
    spins: list[int] | None = None,
) -> None:
    connection = await Connection.open(url)
    auth = f"Bearer {token}"
    try:
        while time.perf_counter() < stop:
            start = time.perf_counter()
            connection, answer = await attempt(
                connection,
                url,
                errors,
                "POST",
                "/api/games/days-of-the-tsar/spin",
                {"Authorization": auth, "Idempotency-Key": uuid.uuid4().hex},
                {"bet": BET, "gamble": GAMBLE},
            )
            if answer is None:
                continue
            status, data = answer
            latencies.append(time.perf_counter() - start)
            if spins is not None:
                spins.append(status)
            if status != 200:
                errors.append(status)
                continue
            body = open_answer(data)
            while body is not None:
                allowed = body["round"]["actions_allowed"]
                action = "free-spin" if allowed == ["free_spin"] else "collect"
                start = time.perf_counter()
                connection, answer = await attempt(
                    connection,
                    url,
                    errors,
                    "POST",
                    f"/api/games/days-of-the-tsar/rounds/{body['round_id']}/{action}",
                    {"Authorization": auth, "Idempotency-Key": uuid.uuid4().hex},
                    {},
                )
                if answer is None:
                    # the round stays open: the next spin is refused until the resolver
                    # settles it, and counts as an error too
                    break
                status, data = answer
                latencies.append(time.perf_counter() - start)
                if status != 200:
                    errors.append(status)
                    break
                body = open_answer(data)
    finally:
        connection.close()


async def health_client(url: str, stop: float, latencies: list[float], errors: list[int]) -> None:
    connection = await Connection.open(url)
    try:
        while time.perf_counter() < stop:
            start = time.perf_counter()
            connection, answer = await attempt(connection, url, errors, "GET", "/healthz", {})
            if answer is None:
                continue
            status, _ = answer
            latencies.append(time.perf_counter() - start)
            if status != 200:
                errors.append(status)
    finally:
        connection.close()


async def attempt(
    connection: Connection,
    url: str,
    errors: list[int],
    method: str,
    path: str,
    headers: dict[str, str],
    body: Any = None,
) -> tuple[Connection, tuple[int, bytes] | None]:
    """The request's answer on ``connection``; or, when the connection breaks, None, the
    break recorded (an error, and why) and a new connection to go on with."""
    try:
        return connection, await connection.request(method, path, headers, body)
    except CONNECTION_FAILURES as exc:
        errors.append(BROKEN)
        BROKEN_BY.append(f"{time.strftime('%H:%M:%S')} {type(exc).__name__}: {exc}")
        connection.close()
        return await Connection.open(url), None


def server_trouble(log_path: Path, limit: int = 20) -> list[str]:
    """The server's log lines above info (warnings, errors, tracebacks), the first ``limit``:
    its start-up line and the info lines of its log and uvicorn's left out."""
    lines = []
    for line in log_path.read_text(errors="replace").splitlines():
        if '"level":"info"' in line or line.startswith(("INFO:", "reelsmith serving on ")):
            continue
        lines.append(line[:300])
        if len(lines) == limit:
            break
    return lines


def process_tree_cpu(pid: int) -> float:
    """CPU seconds (user + system) used so far by a process and all its descendants (Linux)."""
    total = 0.0
    ticks = os.sysconf("SC_CLK_TCK")
    pending = [pid]
    while pending:
        current = pending.pop()
        try:
            fields = Path(f"/proc/{current}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / ticks
            for task in Path(f"/proc/{current}/task").iterdir():
                children = (task / "children").read_text().split()
                pending.extend(int(child) for child in children)
        except (FileNotFoundError, ProcessLookupError):
            continue
    return total


def backend_pids(application_name: str) -> list[int]:
    """The PostgreSQL backends serving connections opened under ``application_name``."""
    import psycopg

    with psycopg.connect(PG_URL.replace("+psycopg", ""), connect_timeout=3) as connection:
        rows = connection.execute(
            "SELECT pid FROM pg_stat_activity WHERE application_name = %s", (application_name,)
        ).fetchall()
    return [int(row[0]) for row in rows]


def processes_cpu(pids: list[int]) -> dict[int, float]:
    """CPU seconds (user + system) used so far by each of ``pids`` still running (Linux)."""
    ticks = os.sysconf("SC_CLK_TCK")
    used = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError):
            continue
        used[pid] = (int(fields[11]) + int(fields[12])) / ticks
    return used


class BackendCPU:
    """The CPU spent by the database backends of one server between `start` and `stop`.

    The server's pool opens connections as it needs them, so the backends are listed at
    both ends: one that appears during the measurement counts from zero (all it used was
    used then), one that exits during it is lost (the pool keeps its connections, so this
    is rare; the count of backends is printed beside the figure's source for that reason).
    """

    def __init__(self, application_name: str | None) -> None:
        self.application_name = application_name
        self.before: dict[int, float] = {}

    def start(self) -> None:
        if self.application_name is not None:
            self.before = processes_cpu(backend_pids(self.application_name))

    def stop(self) -> float | None:
        """CPU seconds used since `start`, or None without a database server to watch."""
        if self.application_name is None:
            return None
        after = processes_cpu(backend_pids(self.application_name))
        return sum(seconds - self.before.get(pid, 0.0) for pid, seconds in after.items())


Result = tuple[float, float, float, float, int, float, float | None]


async def measure(url: str, pid: int, application_name: str | None) -> dict[str, Result]:
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        tokens = await make_players(client)
    results = {}
    for name in ("healthz (baseline)", "spin (committed)"):
        latencies: list[float] = []
        errors: list[int] = []
        spins: list[int] = []
        warm = time.perf_counter() + 1.0
        if name.startswith("spin"):
            await asyncio.gather(*(spin_client(url, t, warm, [], []) for t in tokens))
        # The load generator's own full collections (30-60 ms each, measured with
        # gc.callbacks, one to three a spin run) would land in the latency of every request
        # in flight: what it holds so far is set aside, so a collection walks only what the
        # measurement itself makes.
        gc.collect()
        gc.freeze()
        begin = time.perf_counter()
        backends = BackendCPU(application_name)
        backends.start()
        cpu_before = process_tree_cpu(pid)
        stop = begin + SECONDS
        if name.startswith("spin"):
            await asyncio.gather(
                *(spin_client(url, t, stop, latencies, errors, spins) for t in tokens)
            )
        else:
            await asyncio.gather(*(health_client(url, stop, latencies, errors) for _ in tokens))
        elapsed = time.perf_counter() - begin
        gc.unfreeze()
        cpu_ms = (process_tree_cpu(pid) - cpu_before) * 1000 / max(1, len(latencies))
        backend_s = backends.stop()
        backend_ms = None if backend_s is None else backend_s * 1000 / max(1, len(latencies))
        ordered = sorted(latencies)
        p50 = statistics.median(ordered) * 1000
        p99 = ordered[int(len(ordered) * 0.99) - 1] * 1000
        played = sum(1 for status in spins if status == 200)
        results[name] = (
            len(latencies) / elapsed,
            played / elapsed,
            p50,
            p99,
            len(errors),
            cpu_ms,
            backend_ms,
        )
    return results


def run(label: str, database_url: str, workers: int, application_name: str | None = None) -> None:
    BROKEN_BY.clear()
    with tempfile.TemporaryDirectory() as logs:
        log_path = Path(logs) / "server.log"
        process, url = start_server(database_url, workers, log_path)
        try:
            results = uvloop.run(measure(url, process.pid, application_name))
        finally:
            process.terminate()
            process.wait(timeout=10)
            trouble = server_trouble(log_path)
    for name, (rate, spin_rate, p50, p99, errors, cpu_ms, backend_ms) in results.items():
        spins = f"{spin_rate:,.0f}" if spin_rate else "-"
        backend = "-" if backend_ms is None else f"{backend_ms:.2f}"
        print(
            f"{label:<22}{name:<20}{rate:>11,.0f}{spins:>9}{p50:>9.1f}{p99:>9.1f}{errors:>8}"
            f"{cpu_ms:>13.2f}{backend:>15}"
        )
    if BROKEN_BY:
        print(
            f"  {len(BROKEN_BY)} connections broke (the warm-up's not counted as errors):"
            f" {BROKEN_BY[:3]}"
        )
    for line in trouble:
        print(f"  server: {line}")


def main() -> None:
    print(
        f"{CLIENTS} concurrent clients, {SECONDS:.0f} s per measurement, "
        "load generator on the same machine, "
        + ("gamble on: a collect request after each win" if GAMBLE else "gamble declined")
    )
    header = ("database", "endpoint", "requests/s", "spins/s", "p50 ms", "p99 ms", "errors")
    print(
        f"{header[0]:<22}{header[1]:<20}{header[2]:>11}{header[3]:>9}{header[4]:>9}{header[5]:>9}"
        f"{header[6]:>8}{'CPU ms/req':>13}{'PG CPU ms/req':>15}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        if "sqlite1" in CHOSEN:
            run("SQLite, 1 worker", f"sqlite:///{tmp}/bench1.db", 1)
        if "sqlite2" in CHOSEN:
            run("SQLite, 2 workers", f"sqlite:///{tmp}/bench2.db", 2)
    if "postgresql2" not in CHOSEN:
        return
    with pg_schema() as schema:
        if schema is not None:
            url = f"{schema_url(schema)}&application_name={schema}"
            run("PostgreSQL, 2 workers", url, 2, application_name=schema)


if __name__ == "__main__":
    sys.exit(main())
