"""The scatter's event."""

from reelsmith.mechanics.event_fields import COUNT, POSITIONS, SYMBOL

SCHEMAS = {
    "scatter_win": {
        "description": "The scatter pays: the symbol, how many show, the coins paid and "
        "their cells.",
        "properties": {
            "symbol": SYMBOL,
            "count": {"type": "integer", "minimum": 1},
            "coins": COUNT,
            "positions": POSITIONS,
        },
    },
}
