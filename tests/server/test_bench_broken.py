"""The bench goes on when a connection breaks: the request counts as an error, the client
opens a new connection, and the run says why (`bench_server.attempt`); the server's own
complaints are read from its log (`bench_server.server_trouble`)."""

from __future__ import annotations

import asyncio
import socket
import struct
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import bench_server  # the bench's own clients

OK = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"


async def _serve_resetting_the_first(connections: list[int]) -> asyncio.Server:
    """A server answering every request 200, except the first connection's first request,
    which it answers with a reset (the socket closed with linger 0)."""

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        connections.append(1)
        first = len(connections) == 1
        try:
            while True:
                await reader.readuntil(b"\r\n\r\n")
                if first:
                    sock = writer.get_extra_info("socket")
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                    writer.transport.abort()
                    return
                writer.write(OK)
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            writer.close()

    return await asyncio.start_server(handle, "127.0.0.1", 0)


def test_a_reset_connection_is_an_error_and_the_client_goes_on():
    async def play() -> tuple[list[float], list[int], int]:
        connections: list[int] = []
        server = await _serve_resetting_the_first(connections)
        port = server.sockets[0].getsockname()[1]
        latencies: list[float] = []
        errors: list[int] = []
        stop = time.perf_counter() + 0.3
        await bench_server.health_client(f"http://127.0.0.1:{port}", stop, latencies, errors)
        server.close()
        await server.wait_closed()
        return latencies, errors, len(connections)

    bench_server.BROKEN_BY.clear()
    latencies, errors, connections = asyncio.run(play())
    assert errors == [bench_server.BROKEN]
    assert connections == 2  # the broken one, then one that served the rest
    assert len(latencies) > 10  # the client went on
    assert len(bench_server.BROKEN_BY) == 1
    assert "ConnectionResetError" in bench_server.BROKEN_BY[0]


def test_the_server_s_complaints_are_its_log_lines_above_info(tmp_path):
    log = tmp_path / "server.log"
    log.write_text(
        "reelsmith serving on http://127.0.0.1:8000/ (database sqlite:///x.db)\n"
        "INFO:     Started server process [1]\n"
        '{"ts":"t","level":"info","message":"request","status":200}\n'
        '{"ts":"t","level":"warning","message":"worker 2 died: restarting"}\n'
        "Traceback (most recent call last):\n"
        '{"ts":"t","level":"error","message":"spin failed"}\n'
    )
    assert bench_server.server_trouble(log) == [
        '{"ts":"t","level":"warning","message":"worker 2 died: restarting"}',
        "Traceback (most recent call last):",
        '{"ts":"t","level":"error","message":"spin failed"}',
    ]
    assert len(bench_server.server_trouble(log, limit=1)) == 1
