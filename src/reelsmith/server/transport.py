"""What one HTTP client may hold of the server: bytes of a request's head, time to send its
head and its body, time idle between requests, and a place among a bounded number of
connections.

``reelsmith serve`` runs uvicorn with :class:`LimitedHttpToolsProtocol`, its httptools
protocol with these limits added. uvicorn's own protocol reads a request's head without any
bound (a 32 MiB header is read and answered), waits for a new connection's first byte, for the
rest of a head and for a body forever, and its ``limit_concurrency`` answers 503 only once a
request's head has arrived. Here:

- a request line and headers above ``max_header_bytes`` are answered ``431`` and the
  connection closed, checked as the bytes arrive (a connection holds at most that much of an
  unfinished head, plus one read of the socket);
- a connection must send a complete head within ``header_timeout_seconds`` of opening, and a
  keep-alive connection within that time of its next request's first byte: else ``408``
  (or, when it sent nothing at all, the connection is closed);
- a body must arrive within ``body_timeout_seconds`` of its head: else ``408``;
- a keep-alive connection idle for ``keep_alive_timeout_seconds`` after a response is closed
  (uvicorn's ``timeout_keep_alive``);
- past ``max_connections`` open connections in the process, a new connection is answered
  ``503`` with ``Retry-After: 1`` at once and closed once its request has arrived (or after a
  second): the connections already open keep being served.

Every refusal is a JSON ``{code, message}`` body with ``Connection: close``, as the API's.

Two costs of uvicorn's protocol are cut, the behaviour kept: a response's status line and
headers go to the socket in one write with its body (uvicorn writes them apart: two system
calls and two TCP segments where one does, see :class:`OneWrite`), and the head and body
timers are armed only when a request's head or body is still incomplete once the bytes read
have been handled (a request that arrives whole, the usual case, arms and cancels none).
"""

from __future__ import annotations

import asyncio
import json
import logging
import resource
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

log = logging.getLogger("reelsmith.server")

# How long a connection refused past the cap is kept to read its request before closing: a
# socket closed with a request unread is reset, and a reset can lose the 503 on its way.
REFUSED_LINGER_SECONDS = 1.0
# File descriptors a process keeps beyond its connections (database, log, listening socket).
SPARE_DESCRIPTORS = 64


@dataclass(frozen=True)
class Limits:
    max_header_bytes: int = 32_768
    header_timeout_seconds: float = 10.0
    body_timeout_seconds: float = 10.0
    keep_alive_timeout_seconds: float = 5.0
    max_connections: int = 1000

    @classmethod
    def from_settings(cls, settings: Any) -> Limits:
        return cls(
            max_header_bytes=settings.max_header_bytes,
            header_timeout_seconds=settings.header_timeout_seconds,
            body_timeout_seconds=settings.body_timeout_seconds,
            keep_alive_timeout_seconds=settings.keep_alive_timeout_seconds,
            max_connections=settings.max_connections,
        )


def refusal(status: int, reason: str, code: str, message: str, *extra: bytes) -> bytes:
    """A complete HTTP/1.1 response closing its connection, with a JSON ``{code, message}``."""
    body = json.dumps({"code": code, "message": message}).encode()
    head = [
        f"HTTP/1.1 {status} {reason}".encode(),
        b"content-type: application/json",
        b"content-length: " + str(len(body)).encode(),
        b"connection: close",
        b"x-content-type-options: nosniff",
        *extra,
    ]
    return b"\r\n".join(head) + b"\r\n\r\n" + body


def room_for_connections(wanted: int) -> int:
    """Raise the process's open-file limit to fit ``wanted`` connections if the hard limit
    allows; the number of connections that fit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    needed = wanted + SPARE_DESCRIPTORS
    if soft != resource.RLIM_INFINITY and soft < needed:
        target = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    if soft == resource.RLIM_INFINITY:
        return wanted
    return max(1, min(wanted, soft - SPARE_DESCRIPTORS))


class OneWrite:
    """The socket as one response sees it: the status line and headers it writes first are
    held and written with its first body write, in one write (one system call, one TCP
    segment). If no body write follows in the same pass of the event loop (a HEAD request, a
    body still being produced), the headers are written on their own at the end of the pass,
    as uvicorn would have written them, so a client never waits for them on the app."""

    __slots__ = ("_held", "_started", "transport")

    def __init__(self, transport: asyncio.Transport) -> None:
        self.transport = transport
        self._held: bytes | None = None
        self._started = False

    def write(self, data: bytes) -> None:
        if not self._started:  # the status line and headers
            self._started = True
            self._held = data
            asyncio.get_running_loop().call_soon(self.flush)
            return
        held, self._held = self._held, None
        self.transport.write(data if held is None else held + data)

    def flush(self) -> None:
        held, self._held = self._held, None
        if held is not None and not self.transport.is_closing():
            self.transport.write(held)

    def close(self) -> None:
        self.flush()
        self.transport.close()

    def is_closing(self) -> bool:
        return self.transport.is_closing()

    def __getattr__(self, name: str) -> Any:  # the rest of the transport, unchanged
        return getattr(self.transport, name)


class LimitedHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with the limits of :class:`Limits` (see the module)."""

    # Set once per process, before the server listens (`configure`).
    limits: ClassVar[Limits] = Limits()

    @classmethod
    def configure(cls, limits: Limits) -> Limits:
        """Use ``limits`` for this process's connections; the connection cap is lowered to
        what the open-file limit allows (and said so in the log)."""
        fits = room_for_connections(limits.max_connections)
        if fits < limits.max_connections:
            log.warning(
                "max_connections %d is above what the open-file limit allows: %d",
                limits.max_connections,
                fits,
            )
            limits = replace(limits, max_connections=fits)
        cls.limits = limits
        return limits

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.timeout_keep_alive = self.limits.keep_alive_timeout_seconds  # type: ignore[assignment]
        self._in_head = True  # the bytes arriving are a request's head (or before one)
        self._head_bytes = 0  # of the current head, so far
        self._head_timer: asyncio.TimerHandle | None = None
        self._body_timer: asyncio.TimerHandle | None = None
        self._refused = False

    # -- the connection -------------------------------------------------------------------
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.limits.max_connections:
            self._refuse_busy()
            return
        self._head_timer = self.loop.call_later(
            self.limits.header_timeout_seconds, self._head_timed_out
        )

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_timers()
        super().connection_lost(exc)

    def _cancel_timers(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None
        if self._body_timer is not None:
            self._body_timer.cancel()
            self._body_timer = None

    def _close_with(self, response: bytes) -> None:
        """Write ``response`` (unless a response is being written) and close."""
        self._cancel_timers()
        if self.transport.is_closing():
            return
        if self.cycle is None or self.cycle.response_complete or not self.cycle.response_started:
            self.transport.write(response)
        self.transport.close()

    # -- reading --------------------------------------------------------------------------
    def data_received(self, data: bytes) -> None:
        if self._refused:  # its request has arrived: the 503 is read, close
            if not self.transport.is_closing():
                self.transport.close()
            return
        try:
            self._read(data)
        finally:
            self._arm_timers()

    def _read(self, data: bytes) -> None:
        limit = self.limits.max_header_bytes
        while data:
            if not self._in_head:
                super().data_received(data)
                return
            # feed no more than one byte past the limit: a head is refused before it grows
            room = limit + 1 - self._head_bytes
            if len(data) <= room:
                piece, data = data, b""
            else:
                piece, data = data[:room], data[room:]
            self._head_bytes += len(piece)
            super().data_received(piece)
            if self.transport.is_closing():
                return
            if self._in_head and self._head_bytes > limit:
                self._close_with(
                    refusal(
                        431,
                        "Request Header Fields Too Large",
                        "headers_too_large",
                        f"the request line and headers are above {limit} bytes",
                    )
                )
                return

    def _arm_timers(self) -> None:
        """After the bytes read are handled: a head begun and not complete has its timer (a
        keep-alive connection's next request: from its first byte), and so does a body not
        complete; a request that arrived whole needs neither."""
        if self._refused or self.transport.is_closing():
            return
        if self._in_head:
            if self._head_bytes and self._head_timer is None:
                self._head_timer = self.loop.call_later(
                    self.limits.header_timeout_seconds, self._head_timed_out
                )
        elif self._body_timer is None:
            self._body_timer = self.loop.call_later(
                self.limits.body_timeout_seconds, self._body_timed_out
            )

    def on_headers_complete(self) -> None:
        self._in_head = False
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None
        super().on_headers_complete()
        if self.cycle is not None:
            self.cycle.transport = OneWrite(self.transport)  # type: ignore[assignment]

    def on_message_complete(self) -> None:
        super().on_message_complete()
        if self._body_timer is not None:
            self._body_timer.cancel()
            self._body_timer = None
        self._in_head = True
        self._head_bytes = 0

    # -- limits passed ----------------------------------------------------------------------
    def _head_timed_out(self) -> None:
        self._head_timer = None
        if self._head_bytes == 0 and self.cycle is None:
            # a connection that never sent a byte: nothing to answer
            self._cancel_timers()
            if not self.transport.is_closing():
                self.transport.close()
            return
        self._close_with(
            refusal(
                408,
                "Request Timeout",
                "request_timeout",
                "the request line and headers did not arrive within "
                f"{self.limits.header_timeout_seconds:g} s",
            )
        )

    def _body_timed_out(self) -> None:
        self._body_timer = None
        self._close_with(
            refusal(
                408,
                "Request Timeout",
                "request_timeout",
                "the request body did not arrive within "
                f"{self.limits.body_timeout_seconds:g} s of its headers",
            )
        )

    def _refuse_busy(self) -> None:
        """Past the connection cap: a 503 now; closed once the request is read (or soon)."""
        self._refused = True
        self.transport.write(
            refusal(
                503,
                "Service Unavailable",
                "server_busy",
                f"the server holds its maximum of {self.limits.max_connections} connections;"
                " try again shortly",
                b"retry-after: 1",
            )
        )
        self._head_timer = self.loop.call_later(REFUSED_LINGER_SECONDS, self.transport.close)
