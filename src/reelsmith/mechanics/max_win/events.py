"""The cap's event."""

from reelsmith.mechanics.event_fields import COUNT

SCHEMAS = {
    "cap_reached": {
        "description": "The round's total win reached its maximum: the round pays the cap and "
        "ends here (any free spins left are not played). The screen's own win (spin_won) is "
        "what it adds up to the cap.",
        "properties": {
            "multiplier": {**COUNT, "description": "the cap in multiples of the total bet"},
            "cap_coins": COUNT,
            "uncapped_coins": {
                **COUNT,
                "description": "the round's total win as the screens paid it, before the cap",
            },
        },
    },
}
