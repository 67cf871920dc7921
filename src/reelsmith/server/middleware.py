"""The HTTP middleware, one job each: request bodies above the limit refused, paths holding
NUL refused, requests without exactly one Host header refused, every request timed and
logged, every unexpected error answered and logged as one JSON line."""

from __future__ import annotations

import logging
import time

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from reelsmith.server import logs
from reelsmith.server.errors import BodyTooLargeError, FaultError, InvalidInputError
from reelsmith.server.http_errors import busy_response, send_refusal
from reelsmith.server.metrics import Metrics
from reelsmith.store.db import busy

log = logging.getLogger("reelsmith.server")
_INTERNAL = FaultError("internal_error", "an internal error occurred; the request was not applied")


class BodyLimit:
    """Refuse request bodies above ``limit`` bytes with 413 on every endpoint, whether or not
    they say their size.

    A body that says its size (``Content-Length``) is refused before it is read. A chunked
    one, which does not, is read here first, up to one byte past the limit (it is held in
    memory either way: every endpoint that takes a body reads it whole), and refused as it
    passes the limit, before any endpoint sees it, so an endpoint that ignores bodies
    refuses it too. The connection is closed after a 413: the rest is not read."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        chunked = False
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    too_big = int(value) > self.limit
                except ValueError:
                    too_big = True
                if too_big:
                    await self._refuse(send)
                    return
            elif name == b"transfer-encoding":
                chunked = True
        if not chunked:
            await self.app(scope, receive, send)
            return
        parts: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client left
                return
            part = message.get("body", b"")
            seen += len(part)
            if seen > self.limit:
                await self._refuse(send)
                return
            parts.append(part)
            if not message.get("more_body", False):
                break
        replayed = False

        async def read_once() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": b"".join(parts), "more_body": False}

        await self.app(scope, read_once, send)

    async def _refuse(self, send: Send) -> None:
        too_large = BodyTooLargeError(
            "body_too_large", f"the request body is above {self.limit} bytes"
        )
        await send_refusal(send, too_large, close=True)


class RefuseNulPath:
    """Refuse a path holding the NUL character (``%00``) before any route sees it: ids from
    the path are looked up in the database, and PostgreSQL text cannot hold NUL."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and "\x00" in scope.get("path", ""):
            nul = InvalidInputError("invalid_request", "the path must not contain NUL")
            await send_refusal(send, nul)
            return
        await self.app(scope, receive, send)


class OneHost:
    """Refuse (400) a request without a ``Host`` header or with more than one, before any
    route sees it. HTTP/1.1 requires exactly one (RFC 9112, 3.2); where two reach the server,
    a proxy in front may have routed or checked the request by the other one, and the links
    the server builds (redirects) would name a host the client did not ask for."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            hosts = sum(1 for name, _value in scope.get("headers", ()) if name == b"host")
            if hosts != 1:
                problem = "no Host header" if hosts == 0 else f"{hosts} Host headers"
                refusal = InvalidInputError(
                    "invalid_host", f"the request has {problem}: send exactly one"
                )
                await send_refusal(send, refusal, close=True)
                return
        await self.app(scope, receive, send)


class Observe:
    """Request latency into the metrics and one structured log line per request."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status = 500

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            elapsed = time.perf_counter() - start
            route = getattr(scope.get("route"), "path", "unmatched")
            self.metrics.child(self.metrics.latency, route, scope["method"]).observe(elapsed)
            if log.isEnabledFor(logging.INFO):
                log.handle(
                    logs.request_record(
                        log,
                        {
                            "method": scope["method"],
                            "route": route,
                            "status": status,
                            "ms": round(elapsed * 1000, 2),
                        },
                    )
                )


class CatchAll:
    """Answer any error the application raised: a statement the database was too busy for
    (`store.db.busy`) with 503 and Retry-After, anything else with a 500 ``internal_error``
    body, its traceback logged on the server's logger (one JSON line with ``log_json``).

    Nothing is raised further: the HTTP server would log the error a second time, as plain
    text lines, and close the connection. An error after the response began is logged; the
    response is cut short (its length was sent)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def sending(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except Exception as exc:
            if busy(exc):
                log.warning(
                    "%s %s: the database was busy: %s",
                    scope["method"],
                    scope.get("path", ""),
                    getattr(exc, "orig", exc),
                )
                if not started:
                    app = scope.get("app")
                    response = busy_response()
                    if app is not None:
                        app.state.service.context.metrics.database_busy.inc()
                    await response(scope, receive, send)
                return
            log.error(
                "internal error: %s %s",
                scope["method"],
                scope.get("path", ""),
                exc_info=exc,
                extra={"fields": {"event": "internal_error", "error": type(exc).__name__}},
            )
            if not started:
                await send_refusal(send, _INTERNAL, close=False)
