"""The idempotency fingerprint's path is the request URL's path, read from the scope alone."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from starlette.requests import Request

from reelsmith.server.responses import url_path


def request_for(path: str) -> Request:
    return Request(
        {
            "type": "http",
            "method": "POST",
            "path": path,
            "query_string": b"a=1",
            "headers": [(b"host", b"example.test:8080")],
            "scheme": "http",
            "server": ("127.0.0.1", 8000),
        }
    )


@given(st.text(min_size=1).map(lambda s: "/" + s))
def test_url_path_is_the_path_starlette_s_url_gives(path: str) -> None:
    request = request_for(path)
    assert url_path(request) == request.url.path


def test_characters_a_url_would_split_on_are_escaped_as_the_url_escapes_them() -> None:
    for path in ("/api/games/x/spin?y", "/api/games/x#frag", "/a\\b", "/caf\u00e9 %41"):
        request = request_for(path)
        assert url_path(request) == request.url.path
