"""JSON Schema fragments the mechanics' event schemas share (see :mod:`reelsmith.engine.events`)."""

from __future__ import annotations

from typing import Any

#: A non-negative whole number (coins, counts).
COUNT: dict[str, Any] = {"type": "integer", "minimum": 0}
#: A symbol's id, as the model names it.
SYMBOL: dict[str, Any] = {"type": "string", "minLength": 1}
#: Cells of the screen, each ``[row, reel]`` counted from 0 (row 0 the top row).
POSITIONS: dict[str, Any] = {
    "type": "array",
    "items": {
        "type": "array",
        "prefixItems": [COUNT, COUNT],
        "minItems": 2,
        "maxItems": 2,
    },
}
#: A screen: its rows top to bottom, each the symbols' ids reel by reel.
SCREEN: dict[str, Any] = {
    "type": "array",
    "items": {"type": "array", "items": SYMBOL},
}
