"""A request must carry exactly one Host header: one with none or two is refused 400
``invalid_host`` by the real application, through the server's own HTTP protocol, and the
connection is closed."""

from __future__ import annotations

import asyncio
import json

import pytest
from uvicorn.config import Config
from uvicorn.server import ServerState

from reelsmith.server.app import create_app
from reelsmith.server.clock import ManualClock
from reelsmith.server.settings import Settings
from reelsmith.server.transport import LimitedHttpToolsProtocol
from reelsmith.store.db import Database
from tests.server.conftest import OPERATOR_KEY, SECRET
from tests.server.test_transport_writes import RecordingTransport


@pytest.fixture
def app(tmp_path):
    db = Database(f"sqlite:///{tmp_path}/server.db")
    settings = Settings.load(secret_key=SECRET, operator_api_key=OPERATOR_KEY)
    yield create_app(settings, clock=ManualClock(), database=db, run_resolver=False)
    db.dispose()


def exchange(app, request: bytes) -> bytes:
    async def run() -> bytes:
        config = Config(app=app, lifespan="off", access_log=False, proxy_headers=False)
        protocol = LimitedHttpToolsProtocol(config, ServerState(), {})
        transport = RecordingTransport()
        protocol.connection_made(transport)
        protocol.data_received(request)
        for _ in range(50):
            await asyncio.sleep(0.01)
            if transport.writes:
                break
        return b"".join(transport.writes)

    return asyncio.run(run())


def refusal(written: bytes) -> dict:
    head, _, body = written.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400 "), written
    assert b"connection: close" in head.lower()
    return json.loads(body)


def test_one_host_is_served(app):
    written = exchange(app, b"GET /healthz HTTP/1.1\r\nHost: casino.example\r\n\r\n")
    assert written.startswith(b"HTTP/1.1 200 "), written


def test_no_host_is_refused(app):
    body = refusal(exchange(app, b"GET /healthz HTTP/1.1\r\n\r\n"))
    assert body["code"] == "invalid_host" and "no Host header" in body["message"]


def test_no_host_in_http_1_0_is_refused_too(app):
    body = refusal(exchange(app, b"GET /healthz HTTP/1.0\r\n\r\n"))
    assert body["code"] == "invalid_host"


def test_two_hosts_are_refused(app):
    written = exchange(
        app, b"GET /healthz HTTP/1.1\r\nHost: casino.example\r\nHost: evil.example\r\n\r\n"
    )
    body = refusal(written)
    assert body["code"] == "invalid_host" and "2 Host headers" in body["message"]
