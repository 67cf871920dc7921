"""The free spins' table as other mechanics read it before the model's rules are built."""

from __future__ import annotations

from collections.abc import Mapping

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
