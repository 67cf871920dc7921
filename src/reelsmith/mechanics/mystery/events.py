"""The mystery symbols' event."""

from reelsmith.mechanics.event_fields import POSITIONS, SYMBOL

SCHEMAS = {
    "mystery_revealed": {
        "description": "The screen's mystery symbols all became one symbol, drawn for the "
        "spin, before the screen was paid: the symbol and the cells that showed a mystery.",
        "properties": {"symbol": SYMBOL, "cells": POSITIONS},
    },
}
