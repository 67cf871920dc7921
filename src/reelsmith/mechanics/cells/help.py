"""The drawn cells' sentences of the rules page (``[cells]`` in the help files, English and
German): that every position is drawn on its own, and each symbol's chance on one position, in
the base game and in free spins (per reel where the reels' tables differ)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from reelsmith.engine.catalogue import mechanics
from reelsmith.engine.model import Cells, GameModel
from reelsmith.help import Phrases


def _chances(p: Phrases, table: tuple[tuple[int, int], ...]) -> str:
    total = sum(w for _, w in table)
    return p.join(
        [
            p("cells.chance", symbol=p.symbol_at(s), percent=p.number(Decimal(100 * w) / total, 2))
            for s, w in table
            if w
        ],
        "or",
    )


def _tables(p: Phrases, cells: Cells, free: bool) -> list[str]:
    prefix = "cells.free_" if free else "cells."
    if all(table == cells[0] for table in cells):
        return [p(f"{prefix}every_reel", list=_chances(p, cells[0]))]
    return [
        p(f"{prefix}reel", reel=reel, list=_chances(p, table))
        for reel, table in enumerate(cells, start=1)
    ]


def rules(
    p: Phrases, model: GameModel, variant_id: str | None = None, terms: Any = None
) -> list[str]:
    variant = model.variant(variant_id)
    base = variant.reel_sets["base"].cells
    if base is None:
        raise ValueError(f"{model.id}: reel set base draws no cells")
    text = [p("cells.drawn"), *_tables(p, base, free=False)]
    free = mechanics(model).free_spins
    if free is not None:
        cells = variant.reel_sets[free.reel_set].cells
        if cells is not None and cells != base:
            text += _tables(p, cells, free=True)
    return text
