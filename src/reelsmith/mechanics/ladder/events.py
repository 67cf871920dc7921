"""The ladder's event."""

from reelsmith.mechanics.event_fields import COUNT

SCHEMAS = {
    "ladder_step": {
        "description": "The screen's place on the ladder: its level (0: the main game) and "
        "line multiplier, its line win (multiplied), the bonus symbols it landed and the "
        "meter after them.",
        "properties": {
            "level": COUNT,
            "multiplier": {"type": "integer", "minimum": 1},
            "line_coins": COUNT,
            "bonus": COUNT,
            "meter_after": COUNT,
        },
    },
}
