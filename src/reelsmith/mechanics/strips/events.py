"""The reel strips' event."""

from reelsmith.mechanics.event_fields import COUNT, SCREEN

SCHEMAS = {
    "spin_stopped": {
        "description": "The reels stopped: a base or free screen, each reel's stop and the "
        "screen as it landed (before any reveal).",
        "properties": {
            "kind": {"enum": ["base", "free"]},
            "stops": {"type": "array", "items": COUNT},
            "screen": SCREEN,
        },
    },
}
