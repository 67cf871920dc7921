"""Reading what a client sends: JSON bodies and decimal amounts, strictly.

Every JSON body the server reads (and the ``bet`` query of ``/api/games/{game}/state``) goes
through `read_json`, which refuses, with a 4xx naming the problem, what the standard parser
would accept but the server must not take on trust:

- text that is not UTF-8, or JSON that is not well formed, or a constant (``NaN``,
  ``Infinity``) that JSON does not have;
- an object with the same key twice (parsers disagree on which one wins, so a proxy and the
  server could read two different requests from one body);
- nesting deeper than `MAX_DEPTH` (no request needs more than three levels; a deep one only
  costs stack and time);
- integers beyond 64 bits (no count or draw is that large; longer digit strings cost time);
- a lone UTF-16 surrogate (``"\\ud800"``: not a character, which neither the request hash nor
  PostgreSQL can encode) or the NUL character (PostgreSQL text cannot hold it) in any string.

Amounts and bet sizes are decimal strings in the syntax `DECIMAL` allows: ASCII digits, an
optional point and fraction; no sign, exponent, ``_`` separator, space or non-ASCII digit.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from decimal import Decimal
from typing import Any

from reelsmith.server.errors import InvalidInputError, UnsupportedMediaError

MAX_DEPTH = 16
INT_LIMIT = 2**63
DECIMAL = re.compile(r"[0-9]{1,20}(\.[0-9]{1,20})?")
MEDIA_TYPE_REFUSED = "send the body as JSON with the header 'Content-Type: application/json'"


def invalid(message: str) -> InvalidInputError:
    return InvalidInputError("invalid_request", message)


def is_json_media_type(content_type: str | None) -> bool:
    """``application/json`` or an ``application/...+json`` type, any parameters after it."""
    if not content_type:
        return False
    media = content_type.split(";", 1)[0].strip().lower()
    return media == "application/json" or (
        media.startswith("application/") and media.endswith("+json")
    )


def check_media_type(content_type: str | None, body: bytes) -> None:
    """A body that is not declared JSON is refused (415), not read as JSON anyway: a form a
    browser may send across sites (``text/plain``) must not act as an API call."""
    if body and not is_json_media_type(content_type):
        raise UnsupportedMediaError("unsupported_media_type", MEDIA_TYPE_REFUSED)


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        seen: set[str] = set()
        for key, _value in pairs:
            if key in seen:
                raise invalid(f"the key {key!r} appears twice in one object")
            seen.add(key)
    return result


def _integer(text: str) -> int:
    if len(text.lstrip("-")) > 19 or not -INT_LIMIT <= (value := int(text)) < INT_LIMIT:
        raise invalid(f"the integer {text[:24]}{'...' if len(text) > 24 else ''} is beyond 64 bits")
    return value


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise invalid(f"the number {text[:24]} is out of range")
    return value


def _constant(name: str) -> Any:
    raise invalid(f"{name} is not a JSON value")


# one parser for every body: ``json.loads`` with hooks would build a new one per call
_DECODER = json.JSONDecoder(
    object_pairs_hook=_pairs, parse_int=_integer, parse_float=_float, parse_constant=_constant
)


def read_json(raw: bytes | str) -> Any:
    """The JSON value in ``raw``, or a 400 ``invalid_request`` naming what is wrong."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise invalid("the body is not UTF-8 text") from None
    try:
        value = _DECODER.decode(raw)
    except RecursionError:
        raise invalid(f"the JSON is nested deeper than {MAX_DEPTH} levels") from None
    except ValueError as exc:  # JSONDecodeError is one
        raise invalid(f"the body is not valid JSON: {exc}") from None
    check_value(value)
    return value


def check_value(value: Any) -> None:
    """Refuse deep nesting, NUL and lone surrogates anywhere in a parsed JSON value; walked
    with a stack of its own, so no depth of input can exhaust Python's."""
    stack: list[tuple[Any, str, int]] = [(value, "body", 1)]
    while stack:
        item, where, depth = stack.pop()
        if isinstance(item, str):
            _check_text(item, where)
            continue
        if isinstance(item, dict | list):
            if depth > MAX_DEPTH:
                raise invalid(f"the JSON is nested deeper than {MAX_DEPTH} levels")
            if isinstance(item, dict):
                for key, inner in item.items():
                    _check_text(key, f"a key of {where}")
                    stack.append((inner, key if where == "body" else f"{where}.{key}", depth + 1))
            else:
                stack.extend((inner, f"{where}[{i}]", depth + 1) for i, inner in enumerate(item))


def _check_text(text: str, where: str) -> None:
    if "\x00" in text:
        raise invalid(f"{where} must not contain the NUL character")
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise invalid(
                f"{where} holds a lone UTF-16 surrogate, which is not a character"
            ) from None


def decimal_text(value: Any, what: str) -> Decimal:
    """A decimal given as a string in the documented syntax (``"25.00"``), as a Decimal.

    A JSON number is refused by name, float or integer alike: a float cannot hold most
    decimal amounts exactly, and one syntax for every amount keeps client and server agreed
    on what was sent."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        raise DecimalSyntaxError(
            f'{what} must be a decimal string such as "1.00", not a JSON number'
        )
    if not isinstance(value, str):
        raise DecimalSyntaxError(f'{what} must be a decimal string such as "1.00"')
    if not DECIMAL.fullmatch(value):
        raise DecimalSyntaxError(
            f"{what} {value[:40]!r} is not a decimal in the form 123.45 "
            "(ASCII digits and one point; no sign, exponent, separator or space)"
        )
    return Decimal(value)


class DecimalSyntaxError(ValueError):
    """A decimal that is not a string in the documented syntax; the message names it."""


# Unicode categories an operator's player reference may not hold: control characters (a
# newline, a tab, a terminal escape), format characters (the bidirectional overrides and
# isolates, zero-width joiners), line and paragraph separators, lone surrogates. A reference is
# shown in logs, terminals and the back office: each of these can forge or hide text there.
REFUSED_IN_REFERENCES = {
    "Cc": "a control character",
    "Cf": "a format character (such as a bidirectional override)",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
    "Cs": "a lone surrogate",
}
MAX_REFERENCE_CHARS = 128


def external_ref(value: str) -> str:
    """An operator's player reference as stored: in Unicode normal form C (so that the two
    spellings of "café", with a composed é or an e and a combining accent, are one
    player), 1 to 128 characters, none of `REFUSED_IN_REFERENCES` (the error names the first
    such character and its position)."""
    normal = unicodedata.normalize("NFC", value)
    if not 1 <= len(normal) <= MAX_REFERENCE_CHARS:
        raise InvalidInputError(
            "invalid_external_ref",
            f"external_ref must be 1 to {MAX_REFERENCE_CHARS} characters (in Unicode normal"
            f" form C), not {len(normal)}",
        )
    for position, char in enumerate(normal):
        kind = REFUSED_IN_REFERENCES.get(unicodedata.category(char))
        if kind is not None:
            name = unicodedata.name(char, "unnamed")
            raise InvalidInputError(
                "invalid_external_ref",
                f"external_ref holds {kind}, U+{ord(char):04X} ({name}), at position"
                f" {position + 1}: control, format and separator characters are refused",
            )
    return normal
