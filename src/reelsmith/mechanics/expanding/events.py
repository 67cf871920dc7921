"""The expanding symbol's events."""

from reelsmith.mechanics.event_fields import COUNT, SYMBOL

SCHEMAS = {
    "expanding_symbol_drawn": {
        "description": "The spin started the free spins and the feature's expanding symbol "
        "was drawn: it expands on every free spin where it would pay (retriggers keep it).",
        "properties": {"symbol": SYMBOL},
    },
    "symbol_expanded": {
        "description": "A free spin showed the expanding symbol on enough reels to pay: it "
        "filled those reels and paid on every payline played, beside the spin's other wins.",
        "properties": {
            "symbol": SYMBOL,
            "reels": {
                "type": "array",
                "items": COUNT,
                "description": "the reels it filled, counted from 0",
            },
            "lines": {**COUNT, "description": "the paylines it paid on"},
            "coins": {**COUNT, "description": "what it paid, in coins"},
        },
    },
}
