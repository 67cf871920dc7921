"""Player session tokens: signed (HMAC-SHA256 with the server's secret) and expiring.

A token is ``base64url(json claims) + "." + base64url(signature)``. The claims name the player,
the session and the expiry in epoch milliseconds. A token whose signature does not match, that
cannot be read, or whose expiry has passed is refused.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import hmac
import json
from dataclasses import dataclass


class TokenError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Claims:
    player_id: str
    session_id: str
    expires_ms: int


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    """Strict: only the URL-safe alphabet, no padding, and the one encoding `_b64` writes
    (the standard decoder skips any other character and ignores stray trailing bits, so
    many texts read as one token)."""
    if not text.isascii():
        raise ValueError("not base64url")
    data = base64.b64decode(text + "=" * (-len(text) % 4), altchars=b"-_", validate=True)
    if _b64(data) != text:
        raise ValueError("not the canonical base64url encoding")
    return data


def sign(secret: str, claims: Claims) -> str:
    body = json.dumps(
        {"sub": claims.player_id, "sid": claims.session_id, "exp": claims.expires_ms},
        separators=(",", ":"),
        sort_keys=True,
    ).encode("utf-8")
    signature = hmac.new(secret.encode("utf-8"), body, hashlib.sha256).digest()
    return f"{_b64(body)}.{_b64(signature)}"


# How far a token's expiry may lie beyond a session's lifetime from now: the clocks of the
# hosts that issue and check tokens may differ by this much (docs/deployment.md, Clocks).
CLOCK_TOLERANCE_MS = 60_000


def verify(secret: str, token: str, now_ms: int, lifetime_ms: int | None = None) -> Claims:
    """The claims of a valid token at ``now_ms``. With ``lifetime_ms`` (a session's
    lifetime), a token whose expiry lies further ahead than a token issued now could have
    (by more than ``CLOCK_TOLERANCE_MS``) is refused too: only a clock ahead of this one can
    have issued it, and it would outlive its lifetime by the clocks' difference."""
    claims = _signed_claims(secret, token)
    if now_ms >= claims.expires_ms:
        raise TokenError("session_expired", "the session has expired; start a new session")
    if lifetime_ms is not None and claims.expires_ms - now_ms > lifetime_ms + CLOCK_TOLERANCE_MS:
        raise TokenError(
            "session_expired",
            "the session token expires later than a session lasts (a clock ahead of the"
            " server's issued it); start a new session",
        )
    return claims


@functools.lru_cache(maxsize=16384)
def _signed_claims(secret: str, token: str) -> Claims:
    """The claims of a token whose signature matches. A player sends the same token with
    every request: its signature is checked, and its claims read, once (a refusal is not
    kept: it is checked again each time). The expiry is checked on every use."""
    try:
        body_text, signature_text = token.split(".")
        body = _unb64(body_text)
        signature = _unb64(signature_text)
    except (ValueError, base64.binascii.Error):  # type: ignore[attr-defined]
        raise TokenError("invalid_token", "the session token is malformed") from None
    expected = hmac.new(secret.encode("utf-8"), body, hashlib.sha256).digest()
    if not hmac.compare_digest(expected, signature):
        raise TokenError("invalid_token", "the session token's signature is not valid")
    try:
        data = json.loads(body)
        return Claims(str(data["sub"]), str(data["sid"]), int(data["exp"]))
    except (ValueError, KeyError, TypeError):
        raise TokenError("invalid_token", "the session token is malformed") from None
