"""The server's HTTP protocol writes a response's head and body to the socket in one write,
and arms its head and body timers only for requests still incomplete after a read
(`reelsmith.server.transport`), driven here over a transport that records its writes."""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.config import Config
from uvicorn.server import ServerState

from reelsmith.server.transport import LimitedHttpToolsProtocol, OneWrite

GET = b"GET /hello HTTP/1.1\r\nHost: test\r\n\r\n"


class RecordingTransport(asyncio.Transport):
    """What the protocol wrote, write by write."""

    def __init__(self) -> None:
        super().__init__()
        self.writes: list[bytes] = []
        self.closed = False

    def write(self, data: Any) -> None:
        self.writes.append(bytes(data))

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 50000), "sockname": ("127.0.0.1", 8000)}.get(
            name, default
        )

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass


async def answer(scope: Any, receive: Any, send: Any) -> None:
    """200 ``hello``; under ``/slow`` the body comes a moment after the head."""
    await receive()
    await send(
        {"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"5")]}
    )
    if scope["path"] == "/slow":
        await asyncio.sleep(0.05)
    await send({"type": "http.response.body", "body": b"hello"})


def connect() -> tuple[LimitedHttpToolsProtocol, RecordingTransport]:
    config = Config(app=answer, lifespan="off", access_log=False, proxy_headers=False)
    protocol = LimitedHttpToolsProtocol(config, ServerState(), {})
    transport = RecordingTransport()
    protocol.connection_made(transport)
    return protocol, transport


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def test_a_response_s_head_and_body_go_in_one_write() -> None:
    async def run() -> None:
        protocol, transport = connect()
        protocol.data_received(GET)
        await settle()
        assert len(transport.writes) == 1, transport.writes
        (written,) = transport.writes
        assert written.startswith(b"HTTP/1.1 200 OK\r\n")
        assert written.endswith(b"\r\n\r\nhello")
        protocol.data_received(GET)  # the next request on the kept-alive connection
        await settle()
        assert len(transport.writes) == 2
        assert transport.writes[1].startswith(b"HTTP/1.1 200 OK\r\n")
        assert transport.writes[1].endswith(b"\r\n\r\nhello")

    asyncio.run(run())


def test_a_head_whose_body_is_late_is_written_alone_at_once() -> None:
    async def run() -> None:
        protocol, transport = connect()
        protocol.data_received(b"GET /slow HTTP/1.1\r\nHost: test\r\n\r\n")
        await settle()
        assert len(transport.writes) == 1  # the head, not held until the body
        assert transport.writes[0].startswith(b"HTTP/1.1 200 OK\r\n")
        assert transport.writes[0].endswith(b"\r\n\r\n")
        await asyncio.sleep(0.1)
        assert transport.writes[1:] == [b"hello"]

    asyncio.run(run())


def test_one_write_holds_the_head_only_until_the_body_or_a_close() -> None:
    async def run() -> None:
        inner = RecordingTransport()
        one = OneWrite(inner)
        one.write(b"HEAD\r\n\r\n")
        assert inner.writes == []
        one.write(b"body")
        one.write(b"more")
        assert inner.writes == [b"HEAD\r\n\r\nbody", b"more"]
        closing = OneWrite(inner := RecordingTransport())
        closing.write(b"HEAD\r\n\r\n")
        closing.close()
        assert inner.writes == [b"HEAD\r\n\r\n"] and inner.closed
        await settle()
        assert inner.writes == [b"HEAD\r\n\r\n"]  # written once, not again at the pass's end

    asyncio.run(run())


def test_timers_are_armed_only_for_incomplete_requests() -> None:
    async def run() -> None:
        protocol, transport = connect()
        assert protocol._head_timer is not None  # a new connection must send its head in time
        protocol.data_received(GET)
        assert protocol._head_timer is None and protocol._body_timer is None
        await settle()
        protocol.data_received(b"GET /hello HTTP/1.1\r\nHo")  # a head begun
        assert protocol._head_timer is not None and protocol._body_timer is None
        protocol.data_received(b"st: test\r\n\r\n")
        assert protocol._head_timer is None and protocol._body_timer is None
        await settle()
        protocol.data_received(
            b"POST /hello HTTP/1.1\r\nHost: test\r\nContent-Length: 10\r\n\r\nabc"
        )  # a body begun
        assert protocol._head_timer is None and protocol._body_timer is not None
        protocol.data_received(b"defghij")
        assert protocol._head_timer is None and protocol._body_timer is None
        await settle()
        assert len(transport.writes) == 3
        protocol.connection_lost(None)

    asyncio.run(run())
