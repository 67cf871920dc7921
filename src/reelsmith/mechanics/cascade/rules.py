"""The cascade's table, read and checked, and the fall itself (numba), written once for live
play and the exact analysis.

``[cascade]``::

    [cascade]
    limit = 20                                # the most screens one spin reads (>= 1)
    multipliers = [1, 2, 3, 4, 5, 5, ...]     # screen k's win multiplier, one per screen
    free_multipliers = [3, 6, 9, ...]         # in free spins (default: multipliers)
    refill = "strip"                          # the symbols above the window fall in, or
                                              # "cells": each new cell drawn from its table
    scatter = "every"                         # or "final": where the scatter counts

A spin's first screen is read as usual. While a screen pays (or its scatter triggers the free
spins), every cell of each of its wins is removed (a line's counted run, a way's every cell,
every scatter where the scatter pays or triggers; a cell in several wins once); in each reel the
cells left fall to the bottom in their order, and the top ``n`` cells of a reel that lost ``n``
are the ``n`` symbols directly above its window on the same strip (the reel's strip position
moves up by ``n``), so the whole chain is decided by the spin's stops. On a title of drawn
cells (``[cells]``) the refill is ``"cells"``: each new cell is drawn on its own from its reel's
cell table (the spin's reel set), reels left to right, each reel's new cells top to bottom, one
recorded ``cell`` draw each, as the screen's own cells were. The next screen is read
with its own multiplier, on the line and way wins (never the scatter's); the chain ends at the
first screen that pays nothing or at the ``limit``-th screen. With ``scatter = "final"`` the
scatter stays on the screens, pays nothing and starts nothing until the chain's final screen,
where it is counted once.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from reelsmith.engine.model import GameModel, ModelError

CASCADE_KEYS = frozenset({"limit", "multipliers", "free_multipliers", "refill", "scatter"})
#: Where the scatter (its pay and the free spins' trigger) is counted: on every screen of a
#: chain, or on its final screen alone.
SCATTER_COUNTED = ("every", "final")
#: The refills the cascade plays: the strip above the window, or cells drawn one by one from
#: the reel set's cell tables (a title of drawn cells, ``[cells]``).
REFILLS = ("strip", "cells")
#: The most screens a spin may read (a table of a hundred multipliers is already unread).
MAX_LIMIT = 100


@dataclass(frozen=True, eq=False)
class CascadeRules:
    limit: int
    multipliers: npt.NDArray[np.int64]  # [screen - 1]
    free_multipliers: npt.NDArray[np.int64]
    scatter_final: bool = False  # the scatter counted on the chain's final screen alone
    refill_cells: bool = False  # each new cell drawn from its reel's cell table

    def multiplier(self, free: bool, screen: int) -> int:
        """Screen ``screen``'s (from 1) multiplier."""
        table = self.free_multipliers if free else self.multipliers
        return int(table[screen - 1])


def least_paid(table: Any) -> int:
    """The least count a count table pays (0: it pays none): a screen's scatter disappears in
    a cascade from that count on (a higher count the table pays nothing for included)."""
    paying = np.flatnonzero(np.asarray(table) > 0)
    return int(paying[0]) if len(paying) else 0


def _table(value: Any, where: str, limit: int) -> npt.NDArray[np.int64]:
    if (
        not isinstance(value, list)
        or not value
        or any(not isinstance(v, int) or isinstance(v, bool) or v < 1 for v in value)
    ):
        raise ModelError(f"{where} must be a list of whole numbers >= 1, one per screen")
    if len(value) != limit:
        raise ModelError(
            f"{where} has {len(value)} entries for a limit of {limit} screens: give one "
            "multiplier per screen up to the limit"
        )
    return np.array(value, dtype=np.int64)


@cache
def cascade_rules(model: GameModel) -> CascadeRules:
    """``[cascade]`` of ``model``, checked (ModelError naming the key otherwise)."""
    where = f"{model.source or model.id}: cascade"
    raw = model.raw.get("cascade")
    if not isinstance(raw, dict):
        raise ModelError(f"{where} must be a table")
    unknown = sorted(set(raw) - CASCADE_KEYS)
    if unknown:
        raise ModelError(
            f"{where}: unknown key {unknown[0]!r}; the keys are {', '.join(sorted(CASCADE_KEYS))}"
        )
    limit = raw.get("limit")
    if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= MAX_LIMIT:
        raise ModelError(f"{where}.limit must be a whole number of screens from 1 to {MAX_LIMIT}")
    refill = raw.get("refill", "strip")
    if refill not in REFILLS:
        raise ModelError(
            f"{where}.refill = {refill!r}: the cascade refills from the strip above the window "
            '("strip") or draws each new cell from its cell table ("cells")'
        )
    if (refill == "cells") != ("cells" in model.raw):
        raise ModelError(
            f'{where}.refill = "cells" draws each new cell from the reel sets\' cell tables: the '
            "model declares no [cells]"
            if refill == "cells"
            else f"{where}.refill: the model's cells are drawn one by one ([cells]) and have no "
            'strip above the window: set refill = "cells"'
        )
    base = _table(raw.get("multipliers"), f"{where}.multipliers", limit)
    free = (
        _table(raw["free_multipliers"], f"{where}.free_multipliers", limit)
        if "free_multipliers" in raw
        else base
    )
    scatter = raw.get("scatter", "every")
    if scatter not in SCATTER_COUNTED:
        raise ModelError(
            f'{where}.scatter = {scatter!r}: the scatter is counted on "every" screen of a '
            'chain or on the "final" one'
        )
    return CascadeRules(
        limit=limit,
        multipliers=base,
        free_multipliers=free,
        scatter_final=scatter == "final",
        refill_cells=refill == "cells",
    )


def problems(model: GameModel) -> list[str]:
    """Every problem of ``[cascade]`` and of what it is played with, one line each: its table,
    and the options of the free spins and reel sets the chain's exact law does not carry."""
    where = f"{model.source or model.id}: cascade"
    found = []
    try:
        cascade_rules(model)
    except ModelError as exc:
        found.append(str(exc))
    free = model.raw.get("free_spins")
    if isinstance(free, dict):
        for key, why in (
            ("reveal", "an award revealed per symbol"),
            ("max_spins", "a cap on the feature's spins"),
            ("multipliers", "multipliers set by the trigger's count"),
        ):
            if key in free:
                found.append(
                    f"{where}: free_spins.{key} ({why}) is not played with cascades: a chain "
                    "may trigger on several screens"
                )
        if free.get("retrigger") == "per_symbol":
            found.append(
                f'{where}: free_spins.retrigger = "per_symbol" is not played with cascades (a '
                'symbol left on the screen would count again): use "table" or "none"'
            )
    ways = model.raw.get("ways")
    if isinstance(ways, dict) and "free_spins_wild_weights" in ways:
        found.append(
            f"{where}: ways.free_spins_wild_weights (wild weights drawn per free spin) is not "
            "played with cascades: the cascade's exact law takes fixed weights"
        )
    for variant in model.variants.values():
        for name, reel_set in variant.reel_sets.items():
            if reel_set.weights is not None and reel_set.cells is None:
                found.append(
                    f"{where}: variant {variant.id} reel set {name} has stop_weights: the "
                    "cascade's exact law counts every stop of a strip once"
                )
    return found


@njit(cache=True, nogil=True, inline="always")
def drop(grid: npt.NDArray[np.int8], removed: npt.NDArray[np.bool_], reel: int) -> int:
    """Remove ``removed``'s cells of ``grid``'s ``reel``, in place: the cells left drop to the
    bottom in their order; returns how many top rows are empty (the refill's cells)."""
    write = grid.shape[0] - 1
    for row in range(grid.shape[0] - 1, -1, -1):
        if not removed[row, reel]:
            grid[write, reel] = grid[row, reel]
            write -= 1
    return int(write + 1)


@njit(cache=True, nogil=True, inline="always")
def fall(
    grid: npt.NDArray[np.int8],
    removed: npt.NDArray[np.bool_],
    strips: npt.NDArray[np.int8],
    lengths: npt.NDArray[np.int64],
    tops: npt.NDArray[np.int64],
) -> None:
    """Remove ``removed``'s cells of ``grid`` and refill from the strips, in place: in each
    reel the cells left drop to the bottom in their order (:func:`drop`) and the top ``n`` rows
    become ``strip[(top - n + r) mod length]``, ``r = 0..n-1``; ``tops[reel]`` (the strip
    position shown on row 0) moves up by ``n``."""
    for reel in range(grid.shape[1]):
        n = drop(grid, removed, reel)
        if n == 0:
            continue
        length = lengths[reel]
        top = (tops[reel] - n) % length
        for r in range(n):
            grid[r, reel] = strips[reel, (top + r) % length]
        tops[reel] = top
