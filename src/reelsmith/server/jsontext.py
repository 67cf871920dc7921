"""JSON text as the server writes it: compact, and once per response."""

from __future__ import annotations

import json
from typing import Any

import orjson


def json_bytes(data: Any, sort_keys: bool) -> bytes:
    """Compact JSON as UTF-8. orjson writes it, except for what only the standard library can
    (integers beyond 64 bits, which a client may send): the same bytes either way."""
    option = orjson.OPT_NON_STR_KEYS | (orjson.OPT_SORT_KEYS if sort_keys else 0)
    try:
        return orjson.dumps(data, option=option)
    except TypeError:
        text = json.dumps(data, separators=(",", ":"), sort_keys=sort_keys, ensure_ascii=False)
        return text.encode()


def json_text(data: Any, sort_keys: bool) -> str:
    """Compact JSON text (`json_bytes`, decoded)."""
    return json_bytes(data, sort_keys).decode()


def dumps(data: Any) -> str:
    """Compact JSON with sorted keys (rounds' records and views, bets, carried state)."""
    return json_text(data, sort_keys=True)


class Rendered(dict[str, Any]):
    """A response with its JSON, written once: the bytes stored with the request's
    idempotency key are the ones sent (and sent again on a retry). Made from the bytes (a
    fresh answer: they go to the socket and the database as they are, where a text would be
    encoded for each; a spin's answer holds the market's currency sign, so its text is not
    plain ASCII and each encoding costs) or from the text (an answer read back)."""

    __slots__ = ("_body", "_text")

    def __init__(self, data: dict[str, Any], written: bytes | str) -> None:
        super().__init__(data)
        self._body: bytes | None = written if isinstance(written, bytes) else None
        self._text: str | None = written if isinstance(written, str) else None

    @property
    def body(self) -> bytes:
        """The JSON as UTF-8, as it goes to the client."""
        if self._body is None:
            assert self._text is not None
            self._body = self._text.encode()
        return self._body

    @property
    def text(self) -> str:
        """The JSON text."""
        if self._text is None:
            assert self._body is not None
            self._text = self._body.decode()
        return self._text
