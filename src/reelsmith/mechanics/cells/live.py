"""The drawn cells' live step: the strips' step, whose draw (:func:`reelsmith.engine.stops.
draw_stops`) makes one recorded ``cell`` draw per cell of a reel set of drawn cells, each reel's
rows top to bottom; the spin records each reel's position (the window its cells make)."""

from __future__ import annotations

from reelsmith.engine.model import GameModel
from reelsmith.mechanics.strips.live import StripsPart


class CellsPart(StripsPart):
    name = "cells"


def part(model: GameModel) -> CellsPart:
    return CellsPart()


def problems(model: GameModel) -> list[str]:
    """``[cells]`` takes no keys: the tables are the variants' reel sets (``cells``)."""
    raw = model.raw.get("cells")
    where = f"{model.source or model.id}: cells"
    if not isinstance(raw, dict):
        return [f"{where} must be a table (it takes no keys: each reel set gives its cells)"]
    return [
        f"{where}: unknown key {key!r}: [cells] takes no keys; each reel set of the variants "
        "gives 'cells = { symbol = weight, ... }'"
        for key in sorted(raw)
    ]
