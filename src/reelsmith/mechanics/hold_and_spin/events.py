"""The hold-and-spin's events: the feature starts with the window's coins, each respin lands
coins (or none) and says the respins left, and the feature ends with what it pays."""

from reelsmith.mechanics.event_fields import COUNT

_COIN = {
    "type": "object",
    "properties": {
        "position": {
            "type": "array",
            "prefixItems": [COUNT, COUNT],
            "minItems": 2,
            "maxItems": 2,
            "description": "the cell, [row, reel] counted from 0",
        },
        "value": {
            "type": "string",
            "description": "the coin's value in total bets, or the jackpot tier it carries",
        },
        "bets": {**COUNT, "description": "what the coin pays, in total bets"},
    },
    "required": ["position", "value", "bets"],
    "additionalProperties": False,
}
_COINS = {"type": "array", "items": _COIN}
_TIERS = {"type": "array", "items": {"type": "string", "minLength": 1}}

SCHEMAS = {
    "hold_and_spin_start": {
        "description": "The window's coins trigger the hold-and-spin: they stick with their "
        "values, and the respins begin.",
        "properties": {
            "held": _COINS,
            "respins": {**COUNT, "description": "the respins, reset to this on every new coin"},
        },
    },
    "hold_and_spin_respin": {
        "description": "One respin of the empty cells: the coins it landed (none: one respin "
        "used up) and the respins left.",
        "properties": {
            "respin": {"type": "integer", "minimum": 1},
            "landed": _COINS,
            "respins_left": COUNT,
        },
    },
    "hold_and_spin_end": {
        "description": "The hold-and-spin is over: the coins held, the jackpot tiers won (a "
        "full grid's last) and the feature's pay, added to the spin's win.",
        "properties": {
            "coins_held": COUNT,
            "jackpots": _TIERS,
            "total_bets": {**COUNT, "description": "the pay in total bets"},
            "win_coins": COUNT,
        },
    },
}
