"""Security headers on every HTTP response: the web client's pages and files, the API's JSON,
the refusals of the middleware, whatever serves them (compressed or cached files included).

- ``Content-Security-Policy``: the web client loads its own scripts, styles and art alone
  (``'self'``), talks to its own server alone, and sets style attributes on elements it
  builds (``style-src-attr 'unsafe-inline'``: the reels' grid size); no inline script, no
  ``eval``, no plug-ins, no ``<base>``. FastAPI's API explorers (``/docs``, ``/redoc``) load
  their scripts from a CDN with an inline start-up script, and get a policy of their own.
- ``frame-ancestors`` (and ``X-Frame-Options``): who may show the pages in a frame. Nobody by
  default (``'none'``, ``DENY``); an operator that embeds the game in its own site names its
  origins in the ``frame_ancestors`` setting (``X-Frame-Options``, which cannot name other
  origins, is then left out: browsers follow ``frame-ancestors``).
- ``X-Content-Type-Options: nosniff`` and ``Referrer-Policy: no-referrer``.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

CLIENT_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; style-src-attr 'unsafe-inline'; "
    "img-src 'self'; font-src 'self'; connect-src 'self'; manifest-src 'self'; "
    "base-uri 'none'; form-action 'self'; object-src 'none'"
)
# FastAPI's Swagger UI and ReDoc pages: scripts and styles from jsDelivr, an inline script
EXPLORER_POLICY = (
    "default-src 'none'; script-src 'self' https://cdn.jsdelivr.net 'unsafe-inline'; "
    "style-src 'self' https://cdn.jsdelivr.net https://fonts.googleapis.com 'unsafe-inline'; "
    "img-src 'self' data: https://fastapi.tiangolo.com https://cdn.redoc.ly; "
    "font-src https://fonts.gstatic.com; connect-src 'self'; worker-src blob:; "
    "base-uri 'none'; form-action 'self'; object-src 'none'"
)
EXPLORER_PATHS = frozenset({"/docs", "/docs/oauth2-redirect", "/redoc"})


def header_list(policy: str, frame_ancestors: str) -> list[tuple[bytes, bytes]]:
    headers = [
        (b"content-security-policy", f"{policy}; frame-ancestors {frame_ancestors}".encode()),
        (b"x-content-type-options", b"nosniff"),
        (b"referrer-policy", b"no-referrer"),
    ]
    frame_option = {"'none'": b"DENY", "'self'": b"SAMEORIGIN"}.get(frame_ancestors.strip())
    if frame_option is not None:
        headers.append((b"x-frame-options", frame_option))
    return headers


class SecurityHeaders:
    """Add the security headers to every response that does not set them itself."""

    def __init__(self, app: ASGIApp, frame_ancestors: str = "'none'") -> None:
        self.app = app
        self.headers = header_list(CLIENT_POLICY, frame_ancestors)
        self.explorer_headers = header_list(EXPLORER_POLICY, frame_ancestors)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = self.explorer_headers if scope["path"] in EXPLORER_PATHS else self.headers

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                present = {name.lower() for name, _value in headers}
                headers.extend(h for h in extra if h[0] not in present)
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, sending)
