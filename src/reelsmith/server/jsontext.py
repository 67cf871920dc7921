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
    idempotency key are the ones sent (and sent again on a retry). A fresh answer is made
    from the bytes orjson wrote, which go to the socket and the database as they are (a spin's
    answer holds the market's currency sign, so its text is not plain ASCII and encoding it
    costs); an answer read back as text is encoded once, here."""

    __slots__ = ("body",)

    def __init__(self, data: dict[str, Any], written: bytes | str) -> None:
        super().__init__(data)
        #: The JSON as UTF-8, as it goes to the client.
        self.body = written if isinstance(written, bytes) else written.encode()
