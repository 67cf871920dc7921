"""The free spins' events."""

from reelsmith.mechanics.event_fields import COUNT

SCHEMAS = {
    "free_spins_awarded": {
        "description": "The screen's trigger symbols award free spins: how many showed, each "
        "one's revealed award (none where the award is a table's), the spins added and the "
        "spins left to play.",
        "properties": {
            "triggers": COUNT,
            "reveals": {"type": "array", "items": COUNT},
            "spins": {"type": "integer", "minimum": 1},
            "remaining": COUNT,
        },
    },
    "free_spin": {
        "description": "The screen is a free spin: the free spins left after it.",
        "properties": {"remaining": COUNT},
    },
}
