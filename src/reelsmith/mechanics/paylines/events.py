"""The paylines' event."""

from reelsmith.mechanics.event_fields import COUNT, POSITIONS, SYMBOL

SCHEMAS = {
    "line_win": {
        "description": "A payline pays: its number (from 1), the symbol, the run's length from "
        "reel 1, the coins paid (coins per line and multipliers included) and the run's cells.",
        "properties": {
            "line": {"type": "integer", "minimum": 1},
            "symbol": SYMBOL,
            "count": {"type": "integer", "minimum": 1},
            "coins": COUNT,
            "positions": POSITIONS,
        },
    },
}
