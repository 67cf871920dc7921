"""The pots' events."""

from reelsmith.mechanics.event_fields import COUNT

SCHEMAS = {
    "gem_revealed": {
        "description": "A gem raised its reel's pot and revealed a symbol, a wild reel or "
        "the pot: its reel (from 1) and row, the pot's name and size after it (in bets), "
        "what it revealed and the pot won (in bets, 0 unless the pot).",
        "properties": {
            "reel": {"type": "integer", "minimum": 1},
            "row": COUNT,
            "jackpot": {"type": "string"},
            "pot_after": COUNT,
            "reveal": {"type": "string", "minLength": 1},
            "jackpot_bets": COUNT,
        },
    },
    "pot_won": {
        "description": "The screen won pots: the coins paid (never multiplied) and every pot "
        "after it.",
        "properties": {"coins": COUNT, "pots_after": {"type": "array", "items": COUNT}},
    },
}
