"""JSON text as the server writes it: compact, and once per response."""

from __future__ import annotations

import json
from typing import Any

import orjson


def json_text(data: Any, sort_keys: bool) -> str:
    """Compact JSON text. orjson writes it, except for what only the standard library can
    (integers beyond 64 bits, which a client may send): the same text either way."""
    option = orjson.OPT_NON_STR_KEYS | (orjson.OPT_SORT_KEYS if sort_keys else 0)
    try:
        return orjson.dumps(data, option=option).decode()
    except TypeError:
        return json.dumps(data, separators=(",", ":"), sort_keys=sort_keys, ensure_ascii=False)


def dumps(data: Any) -> str:
    """Compact JSON with sorted keys (rounds' records and views, bets, carried state)."""
    return json_text(data, sort_keys=True)


class Rendered(dict[str, Any]):
    """A response with its JSON text, written once: the text stored with the request's
    idempotency key is the one sent (and sent again on a retry)."""

    __slots__ = ("text",)

    def __init__(self, data: dict[str, Any], text: str) -> None:
        super().__init__(data)
        self.text = text
