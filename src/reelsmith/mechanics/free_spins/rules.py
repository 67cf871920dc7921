"""The free spins' table as other mechanics read it before the model's rules are built."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reelsmith.engine.model import GameModel


def trigger_symbol(model: GameModel) -> int:
    """The symbol that starts the free spins: ``[free_spins] symbol`` (the scatter by
    default); -1 without free spins or where the table names no symbol of the model (its own
    check says so)."""
    raw = model.raw.get("free_spins")
    if not isinstance(raw, Mapping):
        return -1
    name = raw.get("symbol")
    if isinstance(name, str):
        try:
            return model.symbol_index(name)
        except KeyError:
            return -1
    return model.scatter


def unplayed_options(free: Mapping[str, Any], where: str, subject: str) -> list[str]:
    """The options of the ``[free_spins]`` table ``free`` that a free-spin mechanic
    (``subject``: "the expanding symbol is") is not played with, one line each: an award
    revealed per symbol (the chain kernel does not play it) and multipliers set by the
    trigger's count (the mechanic's exact law is not written with them)."""
    found = []
    if "reveal" in free:
        found.append(
            f"{where}: free_spins.reveal: {subject} played with a spins table, not an award "
            "revealed per symbol (the kernel does not play both)"
        )
    if "multipliers" in free:
        found.append(
            f"{where}: free_spins.multipliers: {subject} not played with multipliers set by "
            "the trigger's count (the exact law is not written)"
        )
    return found
