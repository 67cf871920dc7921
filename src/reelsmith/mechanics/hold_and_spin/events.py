"""The hold-and-spin's events: the feature starts with the window's coins, each respin lands
coins (or none) and says the respins left, and the feature ends with what it pays. A collector
or multiplier coin says its ``kind`` (and a multiplier its factor); the end of a title that has
them says what each collector collected and the grid's multiplier. A title without them sends
none of these fields."""

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
            "description": "the coin's value in total bets, the jackpot tier it carries, "
            '"collect" (a collector) or "x" and its factor (a multiplier: "x2")',
        },
        "bets": {
            **COUNT,
            "description": "what the coin pays on its own, in total bets (0: a collector or a "
            "multiplier)",
        },
        "kind": {
            "enum": ["collect", "multiplier"],
            "description": "only on a collector or a multiplier coin: which it is",
        },
        "multiplier": {
            "type": "integer",
            "minimum": 2,
            "description": "only on a multiplier coin: its factor",
        },
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
            "collected": {
                **COUNT,
                "description": "only for a title with collector coins: what each collector "
                "collected, in total bets (the plain values times the multiplier)",
            },
            "multiplier": {
                "type": "integer",
                "minimum": 1,
                "description": "only for a title with multiplier coins: the grid's multiplier "
                "(1: none on the grid)",
            },
        },
        "optional": ("collected", "multiplier"),
    },
}
