"""The heights' event."""

from reelsmith.mechanics.event_fields import COUNT

SCHEMAS = {
    "heights_drawn": {
        "description": "Each reel's window height drawn for this screen (variable rows): reel "
        "r shows heights[r] symbols from the top, its cells below them are empty ('-' in the "
        "screen), and stops[r] is the stop of its top symbol.",
        "properties": {
            "heights": {"type": "array", "items": COUNT},
            "stops": {"type": "array", "items": COUNT},
            "ways": COUNT,
        },
    },
}
