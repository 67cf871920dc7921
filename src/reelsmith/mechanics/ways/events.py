"""The ways' events."""

from reelsmith.mechanics.event_fields import COUNT, POSITIONS, SYMBOL

SCHEMAS = {
    "wild_weights_drawn": {
        "description": "A screen whose wilds count by weights drawn per spin: each reel's "
        "weight, reel 1 first.",
        "properties": {"weights": {"type": "array", "items": COUNT}},
    },
    "way_win": {
        "description": "A symbol pays by ways: its run in reels from reel 1, the number of "
        "ways (the product of its cells per reel, a wild by its weight), the coins paid and "
        "every cell of the run.",
        "properties": {
            "symbol": SYMBOL,
            "count": {"type": "integer", "minimum": 1},
            "ways": {"type": "integer", "minimum": 1},
            "coins": COUNT,
            "positions": POSITIONS,
        },
    },
}
