"""Who may call: the operator's key, the metrics scraper's token, a player's session token
(and the player's rate limit). Wrong operator keys are throttled per client address."""

from __future__ import annotations

import hashlib
import hmac
from contextvars import ContextVar
from typing import Annotated, Any

from fastapi import Depends, Header, Request

from reelsmith.server import tokens
from reelsmith.server.errors import UnauthenticatedError
from reelsmith.server.guard import too_many

# The operator credential acting in this request (its key id, `key_id`), for the audit
# entries the request writes; None outside an operator's request.
_ACTING_KEY_ID: ContextVar[str | None] = ContextVar("reelsmith_operator_key_id", default=None)


def key_id(key: str) -> str:
    """A credential's id as the audit log records it: ``sha256:`` and the first 16 hex digits
    of the key's SHA-256. It tells keys apart (which one acted, across a rotation) and
    cannot be turned back into the key."""
    return "sha256:" + hashlib.sha256(key.encode()).hexdigest()[:16]


def acting_operator() -> dict[str, Any]:
    """The audit payload's fields naming the operator credential acting in this request
    (``operator_key_id``), or none outside an operator's request."""
    acting = _ACTING_KEY_ID.get()
    return {} if acting is None else {"operator_key_id": acting}


def _same(given: str | None, expected: str) -> bool:
    # bytes: a header may carry non-ASCII characters, which compare_digest refuses in a str
    return bool(given) and hmac.compare_digest(str(given).encode(), expected.encode())


def _throttled(request: Request) -> str:
    """The client's address, after refusing it (429) while its wrong keys are throttled."""
    address = request.client.host if request.client else "unknown"
    wait = request.app.state.operator_failures.wait_ms(address)
    if wait:
        raise too_many(
            "too_many_failures",
            "too many requests with a wrong key from this address; wait before trying again",
            wait,
        )
    return address


async def operator_key(request: Request, x_api_key: Annotated[str | None, Header()] = None) -> None:
    address = _throttled(request)
    if not _same(x_api_key, request.app.state.settings.operator_api_key):
        request.app.state.operator_failures.take(address)
        raise UnauthenticatedError(
            "invalid_api_key", "operator endpoints need a valid X-API-Key header"
        )
    _ACTING_KEY_ID.set(request.app.state.operator_key_id)


async def metrics_access(
    request: Request,
    x_api_key: Annotated[str | None, Header()] = None,
    authorization: Annotated[str | None, Header()] = None,
) -> None:
    """``/metrics``: the operator key, or the ``metrics_token`` setting as a bearer token (a
    scraper need not hold the operator key); wrong ones are throttled alike."""
    settings = request.app.state.settings
    address = _throttled(request)
    if _same(x_api_key, settings.operator_api_key):
        return
    bearer = authorization[7:].strip() if authorization and authorization[:7] == "Bearer " else ""
    if settings.metrics_token and _same(bearer, settings.metrics_token):
        return
    request.app.state.operator_failures.take(address)
    raise UnauthenticatedError(
        "invalid_api_key",
        "metrics need the operator's X-API-Key header or 'Authorization: Bearer <metrics token>'",
    )


async def player_claims(
    request: Request, authorization: Annotated[str | None, Header()] = None
) -> tokens.Claims:
    state = request.app.state
    if not authorization or not authorization.startswith("Bearer "):
        raise UnauthenticatedError(
            "missing_token", "send the session token as 'Authorization: Bearer <token>'"
        )
    try:
        claims = tokens.verify(
            state.settings.secret_key,
            authorization[7:].strip(),
            state.clock.now_ms(),
            state.settings.token_ttl_seconds * 1000,
        )
    except tokens.TokenError as exc:
        raise UnauthenticatedError(exc.code, exc.message) from None
    state.sessions.check(claims.player_id, claims.session_id)
    if not state.limiter.take(claims.player_id):
        raise too_many(
            "rate_limited",
            "too many requests; slow down",
            state.limiter.wait_ms(claims.player_id),
        )
    return claims


PlayerClaims = Annotated[tokens.Claims, Depends(player_claims)]
