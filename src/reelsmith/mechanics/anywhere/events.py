"""The pay-anywhere events."""

from reelsmith.mechanics.event_fields import COUNT, POSITIONS, SYMBOL

SCHEMAS = {
    "count_win": {
        "description": "A symbol pays by its count anywhere on the screen: the count (its own "
        "cells and the wilds that stand in for it), the coins paid and every cell counted.",
        "properties": {
            "symbol": SYMBOL,
            "count": {"type": "integer", "minimum": 1},
            "coins": COUNT,
            "positions": POSITIONS,
        },
    },
}
