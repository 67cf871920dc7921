"""The sticky wilds' event."""

from reelsmith.mechanics.event_fields import POSITIONS, SYMBOL

SCHEMAS = {
    "wilds_stuck": {
        "description": "A free spin with sticky wilds: the stuck cells show the wild on the "
        "screen paid (never over the scatter or the trigger symbol), and the wilds that landed "
        "on a sticking reel stay for the rest of the feature (retriggers keep them).",
        "properties": {
            "symbol": SYMBOL,
            "shown": {
                **POSITIONS,
                "description": "the stuck cells that turned into the wild on this screen",
            },
            "landed": {**POSITIONS, "description": "the cells whose wild stuck on this spin"},
            "cells": {**POSITIONS, "description": "every stuck cell after this spin"},
        },
    },
}
