"""The bought feature's event."""

from reelsmith.mechanics.event_fields import COUNT

SCHEMAS = {
    "feature_bought": {
        "description": "The round is a bought feature: no base spin is played, the free spins "
        "start as if the stated number of trigger symbols had landed (screen 0 is the first "
        "free spin).",
        "scope": "round",
        "properties": {
            "mode": {"type": "string", "description": "the mode's name in the model"},
            "triggers": {**COUNT, "description": "the trigger symbols the start counts as"},
            "spins": {**COUNT, "description": "the free spins awarded"},
            "reveals": {
                "type": "array",
                "items": COUNT,
                "description": "each symbol's revealed spins (empty: awarded by the table)",
            },
        },
    },
}
