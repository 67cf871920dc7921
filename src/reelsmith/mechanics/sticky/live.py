"""The sticky wilds' live step: a window modifier of free spins.

The round keeps the stuck cells (``Round.parts["sticky"]``, ``(row, reel)`` pairs, empty at
the round's start). On each free spin the landed screen is copied and changed by the one rule
(:func:`.kernel.stick`): the stuck cells show the wild (never over the scatter or the trigger
symbol), and the cells where the wild landed on a sticking reel join them; the evaluators pay
that screen. A base spin is left as it landed (its wilds do not stick), a retrigger keeps the
stuck cells (the feature goes on), and the next round starts with none. The rule draws
nothing, so replaying a round's draws replays its stuck wilds.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from reelsmith.engine.model import GameModel
from reelsmith.engine.round import Context, Part, Round, SpinSetup
from reelsmith.mechanics.free_spins.live import FREE_SPINS
from reelsmith.mechanics.sticky.kernel import StickyTables, stick, tables
from reelsmith.rng import RandomSource

Cells = tuple[tuple[int, int], ...]


def cells_of(mask: npt.NDArray[np.bool_]) -> Cells:
    """The ``(row, reel)`` pairs of ``mask``, reel by reel."""
    rows, reels = np.nonzero(mask)
    return tuple(sorted(((int(r), int(c)) for r, c in zip(rows, reels, strict=True)), key=_order))


def _order(cell: tuple[int, int]) -> tuple[int, int]:
    return cell[1], cell[0]


@dataclass(frozen=True)
class Stuck:
    """A free spin's sticky wilds: the wild, the stuck cells that show it on the screen paid
    (``shown``: stuck before this spin), the cells whose wild landed and stuck on this spin
    (``landed``) and every cell stuck after it (``cells``)."""

    symbol: str
    shown: Cells
    landed: Cells
    cells: Cells

    def _fields(self) -> dict[str, object]:
        return {
            "symbol": self.symbol,
            "shown": [list(c) for c in self.shown],
            "landed": [list(c) for c in self.landed],
            "cells": [list(c) for c in self.cells],
        }

    def to_json(self) -> dict[str, object]:
        return {"sticky_wilds": self._fields()}

    def events(self) -> list[dict[str, object]]:
        return [{"type": "wilds_stuck", **self._fields()}]


class StickyPart(Part):
    name = "sticky"
    stage = 20  # a window modifier: after the window (10), before the evaluators

    def __init__(self, model: GameModel, found: StickyTables) -> None:
        self.model = model
        self.tables = found

    def prepare(self, ctx: Context, round_: Round) -> Round:
        return round_.with_part(self.name, ())

    def modify_window(
        self,
        ctx: Context,
        round_: Round,
        setup: SpinSetup,
        grid: npt.NDArray[np.int8],
        rng: RandomSource,
    ) -> tuple[Round, npt.NDArray[np.int8], Stuck | None, int] | None:
        if setup.kind != "free":
            return None
        before: Cells = round_.part(self.name) or ()
        stuck = np.zeros(grid.shape, dtype=np.bool_)
        for row, reel in before:
            stuck[row, reel] = True
        screen = grid.copy()
        stick(screen, stuck, *self.tables.args())
        after = cells_of(stuck)
        if not after:
            return None
        wild = self.tables.wild
        shown = tuple(c for c in before if grid[c] != wild and screen[c] == wild)
        landed = tuple(c for c in after if c not in before)
        record = Stuck(self.model.symbol_id(wild), shown, landed, after)
        return round_.with_part(self.name, after), screen, record, 0

    def round_json(self, ctx: Context, round_: Round) -> dict[str, object]:
        cells: Cells = round_.part(self.name) or ()
        live = round_.phase == FREE_SPINS
        return {"sticky_wilds": [list(c) for c in cells] if live else []}


def part(model: GameModel) -> StickyPart:
    return StickyPart(model, tables(model))
