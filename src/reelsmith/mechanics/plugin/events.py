"""The plug-in's event."""

from reelsmith.mechanics.event_fields import COUNT

SCHEMAS = {
    "win_modified": {
        "description": "The title's plug-in acted on the screen's win: the outcome it drew "
        "(its own number) and the win after it.",
        "properties": {"outcome": {"type": "integer"}, "win_coins": COUNT},
    },
}
