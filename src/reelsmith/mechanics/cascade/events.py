"""The cascade's event."""

from reelsmith.mechanics.event_fields import POSITIONS, SCREEN

SCHEMAS = {
    "cascade": {
        "description": "The cells of the screen's wins were removed, the symbols above fell and "
        "the strips refilled: the step (the chain's second screen is 2), the cells removed from "
        "the screen before, the new screen and its multiplier. Its wins follow.",
        "properties": {
            "step": {"type": "integer", "minimum": 2},
            "removed": POSITIONS,
            "screen": SCREEN,
            "multiplier": {"type": "integer", "minimum": 1},
        },
    },
}
