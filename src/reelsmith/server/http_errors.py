"""Refusals to HTTP, in one place: the status of each kind of refusal, and the application's
exception handlers. Every refusal is a JSON body ``{code, message, ...}``; an unexpected
error is a 500 with the same shape and no trace."""

from __future__ import annotations

import json
import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import Send

from reelsmith.server.errors import (
    BodyTooLargeError,
    ConflictError,
    DomainError,
    FaultError,
    InsufficientBalanceError,
    InvalidInputError,
    NotAllowedError,
    NotFoundError,
    RetryLaterError,
    UnauthenticatedError,
    UnsupportedMediaError,
    WalletUnavailableError,
)
from reelsmith.store.db import busy

log = logging.getLogger("reelsmith.server")

# The most specific kind first: a refusal answers with the status of the first kind it is.
STATUS: tuple[tuple[type[DomainError], int], ...] = (
    (UnsupportedMediaError, 415),
    (InvalidInputError, 400),
    (BodyTooLargeError, 413),
    (UnauthenticatedError, 401),
    (InsufficientBalanceError, 402),
    (NotAllowedError, 403),
    (NotFoundError, 404),
    (ConflictError, 409),
    (WalletUnavailableError, 503),
    (RetryLaterError, 429),
    (FaultError, 500),
)


def status_of(refusal: DomainError) -> int:
    for kind, status in STATUS:
        if isinstance(refusal, kind):
            return status
    raise TypeError(f"no HTTP status for the refusal {type(refusal).__name__}")


async def refusal_response(_request: Request, exc: Exception) -> Response:
    assert isinstance(exc, DomainError)
    headers = {}
    if isinstance(exc, RetryLaterError):
        headers["Retry-After"] = str(max(1, exc.retry_after_ms // 1000))
    return JSONResponse(exc.body(), status_code=status_of(exc), headers=headers)


async def send_refusal(send: Send, refusal: DomainError, close: bool = False) -> None:
    """Answer with ``refusal`` on the ASGI ``send`` itself, for the middleware that refuses a
    request before the application (and its handlers) sees it; ``close``: the connection is
    closed after the answer (the rest of the request is not read)."""
    body = json.dumps(refusal.body()).encode()
    headers = [(b"content-type", b"application/json")]
    if close:
        headers += [(b"content-length", str(len(body)).encode()), (b"connection", b"close")]
    await send({"type": "http.response.start", "status": status_of(refusal), "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def validation_response(_request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestValidationError)
    problems = []
    for error in exc.errors()[:5]:
        where = ".".join(str(p) for p in error.get("loc", ()) if p != "body")
        problems.append(f"{where or 'body'}: {error.get('msg', 'invalid')}")
    return JSONResponse(
        {"code": "invalid_request", "message": "; ".join(problems)}, status_code=400
    )


async def http_response(_request: Request, exc: Exception) -> Response:
    assert isinstance(exc, StarletteHTTPException)
    code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
    return JSONResponse({"code": code, "message": str(exc.detail)}, status_code=exc.status_code)


# Retry-After of a request the database was too busy for (seconds): its lock timeout is
# well under a second, so a retry a second later finds the lock released unless a session
# holds it for long (and then it fails again, alone, as fast).
BUSY_RETRY_AFTER_SECONDS = 1


def busy_response() -> Response:
    """503 for a request whose statement waited for a lock, or ran, past the database's
    timeout (`store.db.busy`): nothing of it was applied, and the same request (with its
    idempotency key) may be sent again."""
    return JSONResponse(
        {
            "code": "database_busy",
            "message": "the database is busy (a lock another session holds, or a statement"
            " past its time limit); nothing was applied: send the request again",
        },
        status_code=503,
        headers={"Retry-After": str(BUSY_RETRY_AFTER_SECONDS)},
    )


async def internal_response(request: Request, exc: Exception) -> Response:
    if busy(exc):
        request.app.state.service.context.metrics.database_busy.inc()
        return busy_response()
    log.error("internal error", exc_info=exc)
    return JSONResponse(
        {
            "code": "internal_error",
            "message": "an internal error occurred; the request was not applied",
        },
        status_code=500,
    )


def install(app: FastAPI) -> None:
    """The application's handlers: refusals, invalid bodies, routing misses, the rest."""
    app.add_exception_handler(DomainError, refusal_response)
    app.add_exception_handler(RequestValidationError, validation_response)
    app.add_exception_handler(StarletteHTTPException, http_response)
    app.add_exception_handler(Exception, internal_response)
