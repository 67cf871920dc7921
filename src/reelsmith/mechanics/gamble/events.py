"""The gamble's event."""

from reelsmith.mechanics.event_fields import COUNT

SCHEMAS = {
    "gamble_card": {
        "scope": "round",
        "description": "A gamble: the player's choice, the card turned and its colour, the "
        "coins staked, whether it won and the coins the win stands at after it.",
        "properties": {
            "choice": {"type": "string", "minLength": 1},
            "card": {"type": "string", "minLength": 1},
            "card_colour": {"type": "string", "minLength": 1},
            "stake_coins": COUNT,
            "won": {"type": "boolean"},
            "result_coins": COUNT,
        },
    },
}
