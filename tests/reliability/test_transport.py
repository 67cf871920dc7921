"""Slow and oversized clients against the real ``reelsmith serve`` over loopback.

Each client that tries to hold the server's memory or time (a huge head, many unfinished
heads, heads and bodies sent a byte at a time, silent and idle connections, bodies too large
or chunked past the limit, more connections than the cap) is refused or cut within its
limit, the server's own memory (RssAnon) stays bounded, and a well-behaved player is served
throughout. The server runs with short timeouts (seconds, not the defaults' ten) so the
suite stays short; the mechanism is the one the defaults use.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.reliability import figures
from tests.reliability.live import TSAR, TSAR_BET, Client, LiveServer, new_player

HEAD_TIMEOUT = 1.5
BODY_TIMEOUT = 1.5
KEEP_ALIVE = 1.0
MAX_CONNECTIONS = 48
MAX_HEAD = 32_768
MAX_BODY = 65_536
# how late a timeout may act: the loop's timers plus a loaded machine
SLACK = 2.5


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    tmp = tmp_path_factory.mktemp("transport")
    live = LiveServer(
        f"sqlite:///{tmp}/transport.db",
        tmp,
        dev=False,
        header_timeout_seconds=str(HEAD_TIMEOUT),
        body_timeout_seconds=str(BODY_TIMEOUT),
        keep_alive_timeout_seconds=str(KEEP_ALIVE),
        max_connections=str(MAX_CONNECTIONS),
    )
    live.start()
    try:
        yield live
    finally:
        live.stop()


@pytest.fixture(scope="module")
def player(server: LiveServer) -> Iterator[tuple[Client, Any]]:
    client = Client([server.url], retry_for=5.0)
    record = new_player(client, 100_000)
    yield client, record
    client.close()


def connect(server: LiveServer, timeout: float = 15.0) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=timeout)
    return sock


def read_until_closed(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes (a reset after a response counts as
    closed: the server closes with the rest of a refused request unread)."""
    data = b""
    while True:
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            return data
        if not chunk:
            return data
        data += chunk


def read_response(sock: socket.socket) -> bytes:
    """One response on a kept-alive connection: its head, then its Content-Length of body."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, f"closed after {data!r}"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(
        int(line.split(b":", 1)[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length:")
    )
    while len(body) < length:
        body += sock.recv(65536)
    return head + b"\r\n\r\n" + body


def status_of(response: bytes) -> int:
    assert response.startswith(b"HTTP/1.1 "), response[:200]
    return int(response[9:12])


def plays(player: tuple[Client, Any]) -> None:
    """A well-behaved player's spin is answered (the server keeps serving others)."""
    client, record = player
    response = client.request(
        "POST",
        f"/api/games/{TSAR}/spin",
        {"bet": TSAR_BET, "gamble": False},
        headers={"Authorization": f"Bearer {record.token}"},
    )
    assert response.status_code == 200, response.text
    body = response.json()
    while body["status"] == "open":  # free spins: play them out
        allowed = body["round"]["actions_allowed"]
        action = "free-spin" if allowed == ["free_spin"] else "collect"
        response = client.request(
            "POST",
            f"/api/games/{TSAR}/rounds/{body['round_id']}/{action}",
            {},
            headers={"Authorization": f"Bearer {record.token}"},
        )
        assert response.status_code == 200, response.text
        body = response.json()


def note(line: str) -> None:
    figures.add("scenarios")
    figures.note("slow and oversized clients (SQLite, 1 worker)", line)


def test_a_huge_header_gets_431_without_being_read(server, player):
    before = server.rss_kib()
    sock = connect(server)
    sent = 0
    head = b"GET /healthz HTTP/1.1\r\nHost: reelsmith\r\nX-Huge: "
    chunk = b"a" * 65536
    begin = time.monotonic()
    try:
        sock.sendall(head)
        while sent < 32 * 2**20:  # 32 MiB, as the attack that was once read and answered
            sock.sendall(chunk)
            sent += len(chunk)
    except (BrokenPipeError, ConnectionResetError):
        pass  # the server refused and closed: the rest is never read
    response = read_until_closed(sock)
    elapsed = time.monotonic() - begin
    sock.close()
    assert status_of(response) == 431, response[:300]
    assert b'"headers_too_large"' in response
    assert sent < 8 * 2**20, f"the server read {sent} bytes of one head"
    grew = server.rss_kib() - before
    plays(player)
    # a head just under the limit is served
    sock = connect(server)
    padding = b"b" * (MAX_HEAD - 200)
    sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: reelsmith\r\nX-Pad: " + padding + b"\r\n\r\n")
    assert status_of(read_response(sock)) == 200
    sock.close()
    note(
        f"a 32 MiB header: 431 after {sent / 2**10:,.0f} KiB sent, {elapsed * 1000:.0f} ms; "
        f"server memory {grew / 1024:+.1f} MiB"
    )
    assert grew < 16 * 1024, f"server memory grew by {grew} KiB"


def test_many_unfinished_heads_stay_bounded_and_are_cut(server, player):
    """16 connections each holding an unfinished head just under the limit, 16 more trying
    to send 16 MiB heads: memory stays bounded, a player is served, and every one of them
    is answered (408 or 431) and closed within the header timeout."""
    before = server.rss_kib()
    holders = []
    for _ in range(16):
        sock = connect(server)
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: reelsmith\r\nX-Slow: " + b"c" * 30_000)
        holders.append(sock)
    refused: list[int] = []

    def flood() -> None:
        sock = connect(server)
        try:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nX-Huge: ")
            for _ in range(256):
                sock.sendall(b"d" * 65536)
        except (BrokenPipeError, ConnectionResetError):
            pass
        refused.append(status_of(read_until_closed(sock)))
        sock.close()

    begin = time.monotonic()
    threads = [threading.Thread(target=flood) for _ in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    held_rss = server.rss_kib()
    plays(player)
    statuses = []
    for sock in holders:
        statuses.append(status_of(read_until_closed(sock)))
        sock.close()
    elapsed = time.monotonic() - begin
    grew = held_rss - before
    note(
        f"16 unfinished 30 KB heads held and 16 heads of 16 MiB sent: server memory "
        f"{grew / 1024:+.1f} MiB; the 16 MiB heads got {sorted(set(refused))}, the held heads "
        f"{sorted(set(statuses))} after {elapsed:.1f} s (header timeout {HEAD_TIMEOUT} s)"
    )
    assert refused == [431] * 16
    assert statuses == [408] * 16
    assert elapsed < HEAD_TIMEOUT + SLACK
    assert grew < 32 * 1024, f"server memory grew by {grew} KiB"


def test_slowloris_heads_and_bodies_get_408(server, player):
    """A head sent a byte at a time, and a body sent a byte at a time after a prompt head,
    are cut with 408 at their timeouts however steadily the bytes come."""

    def drip(first: bytes, rest: bytes) -> tuple[int, float]:
        sock = connect(server)
        sock.sendall(first)
        begin = time.monotonic()
        try:
            for byte in rest:
                sock.sendall(bytes([byte]))
                time.sleep(0.1)
                if time.monotonic() - begin > HEAD_TIMEOUT + BODY_TIMEOUT + SLACK:
                    break
        except (BrokenPipeError, ConnectionResetError):
            pass
        response = read_until_closed(sock)
        sock.close()
        return status_of(response), time.monotonic() - begin

    results: dict[str, tuple[int, float]] = {}
    head = b"GET /healthz HTTP/1.1\r\nHost: reelsmith\r\nX-Slow: " + b"e" * 200 + b"\r\n\r\n"
    body = b'{"external_ref": "' + b"f" * 500 + b'", "currency": "EUR"}'
    post = (
        b"POST /operator/players HTTP/1.1\r\nHost: reelsmith\r\nContent-Type: application/json"
        b"\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n"
    )
    step = (
        f"POST /api/games/{TSAR}/spin HTTP/1.1\r\nHost: reelsmith\r\n"
        f"Authorization: Bearer {player[1].token}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode()
    threads = [
        threading.Thread(target=lambda: results.__setitem__("head", drip(b"G", head[1:]))),
        threading.Thread(target=lambda: results.__setitem__("body", drip(post, body))),
        threading.Thread(target=lambda: results.__setitem__("step body", drip(step, body))),
    ]
    for thread in threads:
        thread.start()
    plays(player)  # served while they drip
    for thread in threads:
        thread.join(30)
    note(
        "a byte every 0.1 s: "
        + ", ".join(f"{name} {code} after {took:.1f} s" for name, (code, took) in results.items())
    )
    assert results["head"][0] == 408 and results["head"][1] < HEAD_TIMEOUT + SLACK
    for name in ("body", "step body"):
        assert results[name][0] == 408, results
        assert results[name][1] < BODY_TIMEOUT + SLACK, results


def test_idle_connections_are_closed(server, player):
    """Silent connections are closed at the header timeout, kept-alive ones after their
    idle timeout; the server answers a player meanwhile."""
    silent = [connect(server) for _ in range(30)]
    kept = connect(server)
    kept.sendall(b"GET /healthz HTTP/1.1\r\nHost: reelsmith\r\n\r\n")
    assert status_of(read_response(kept)) == 200
    begin = time.monotonic()
    plays(player)
    assert read_until_closed(kept) == b""
    kept_for = time.monotonic() - begin
    for sock in silent:
        assert read_until_closed(sock) == b""  # closed, nothing said
        sock.close()
    silent_for = time.monotonic() - begin
    kept.close()
    note(
        f"30 silent connections closed after {silent_for:.1f} s (header timeout "
        f"{HEAD_TIMEOUT} s), a kept-alive idle one after {kept_for:.1f} s (idle timeout "
        f"{KEEP_ALIVE} s)"
    )
    assert KEEP_ALIVE * 0.8 < kept_for < KEEP_ALIVE + SLACK
    assert silent_for < HEAD_TIMEOUT + SLACK


def test_bodies_past_the_limit_get_413(server, player):
    """A body that says it is too large is refused before it is read; a chunked one is
    refused as it passes the limit: on FastAPI's endpoints and on the round steps alike."""
    token = player[1].token
    paths = [
        ("/operator/players", "X-API-Key: reliability-operator-key"),
        (f"/operator/players/{player[1].player_id}/deposit", "X-API-Key: reliability-operator-key"),
        (f"/api/games/{TSAR}/autoplay", f"Authorization: Bearer {token}"),
        (f"/api/games/{TSAR}/spin", f"Authorization: Bearer {token}"),
    ]
    for path, auth in paths:
        head = (
            f"POST {path} HTTP/1.1\r\nHost: reelsmith\r\n{auth}\r\n"
            "Content-Type: application/json\r\nIdempotency-Key: k-413\r\n"
        ).encode()
        sock = connect(server)
        sock.sendall(head + f"Content-Length: {10 * 2**20}\r\n\r\n".encode())
        declared = status_of(read_until_closed(sock))
        sock.close()
        sock = connect(server)
        sent = 0
        try:
            sock.sendall(head + b"Transfer-Encoding: chunked\r\n\r\n")
            while sent < 4 * 2**20:
                sock.sendall(b"4000\r\n" + b" " * 0x4000 + b"\r\n")
                sent += 0x4000
            sock.sendall(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass
        chunked = status_of(read_until_closed(sock))
        sock.close()
        assert (declared, chunked) == (413, 413), path
    plays(player)
    note(f"bodies of 10 MiB declared and 4 MiB chunked on {len(paths)} endpoints: 413 each")


def test_connections_past_the_cap_get_503_and_the_open_ones_are_served(server, player):
    # the module's earlier connections are closed by now but the player's kept-alive one
    time.sleep(0.2)
    opened = [connect(server) for _ in range(MAX_CONNECTIONS + 4)]
    time.sleep(0.2)
    for sock in opened:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: reelsmith\r\n\r\n")
    responses = [read_response(sock) for sock in opened]
    statuses = [status_of(response) for response in responses]
    served = statuses.count(200)
    refused = [r for r, status in zip(responses, statuses, strict=True) if status == 503]
    assert served + len(refused) == len(opened), statuses
    assert MAX_CONNECTIONS - 2 <= served <= MAX_CONNECTIONS, statuses
    for response in refused:
        assert b"retry-after: 1" in response.lower() and b'"server_busy"' in response
    # the first connections were the ones served; the refused ones are closed
    assert statuses[:served] == [200] * served, statuses
    assert all(read_until_closed(sock) == b"" for sock in opened[served:])
    for sock in opened:
        sock.close()
    time.sleep(0.3)
    plays(player)  # room again
    note(
        f"{len(opened)} connections opened against a cap of {MAX_CONNECTIONS}:"
        f" {len(refused)} got 503 with Retry-After: 1 at once and were closed, the"
        f" {served} open ones were served, and new ones once they closed"
    )


def test_the_defaults_are_the_documented_limits():
    """The limits above run shortened; these are what ``reelsmith serve`` uses unconfigured
    (docs/deployment.md gives them)."""
    from reelsmith.server.settings import Settings

    settings = Settings.load(secret_key="s", operator_api_key="k")
    assert (
        settings.max_header_bytes,
        settings.header_timeout_seconds,
        settings.body_timeout_seconds,
        settings.keep_alive_timeout_seconds,
        settings.max_connections,
        settings.max_body_bytes,
    ) == (MAX_HEAD, 10.0, 10.0, 5.0, 1000, MAX_BODY)
    text = (Path(__file__).resolve().parents[2] / "docs" / "deployment.md").read_text()
    for figure in ("32 KiB", "10 s", "5 s", "1,000", "64 KiB"):
        assert figure in text, figure
