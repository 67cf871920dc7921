"""The mystery symbols' live step: a window modifier. On a screen that shows the mystery symbol
it makes one ``mystery`` draw by the spin's table (the free spins' in a free spin) and returns
the screen with every mystery cell replaced by the symbol drawn; a screen that shows none draws
nothing. The draw is recorded with the round's others, so replaying them replays the reveal."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from reelsmith.engine.model import GameModel
from reelsmith.engine.round import Context, Part, Round, SpinSetup
from reelsmith.mechanics.mystery.rules import Mystery, mystery_rules
from reelsmith.rng import RandomSource, weighted_index

#: The purpose of the reveal's draw in a round's record.
PURPOSE = "mystery"


def reveal(
    rules: Mystery, kind: str, grid: npt.NDArray[np.int8], rng: RandomSource
) -> tuple[npt.NDArray[np.int8], int]:
    """The screen ``grid`` with its mysteries revealed and the symbol they became (-1: the
    screen shows none, and no draw is made)."""
    shown = grid == rules.symbol
    if not shown.any():
        return grid, -1
    table = rules.table(kind)
    symbol = table.symbols[weighted_index(rng, list(table.weights), PURPOSE)]
    return np.where(shown, np.int8(symbol), grid).astype(np.int8), symbol


@dataclass(frozen=True)
class Revealed:
    """What the mysteries of a screen became: the symbol and its cells (``[row, reel]``)."""

    symbol: str
    cells: tuple[tuple[int, int], ...]

    def to_json(self) -> dict[str, object]:
        return {"mystery": self.symbol, "mystery_cells": [list(c) for c in self.cells]}

    def events(self) -> list[dict[str, object]]:
        return [
            {
                "type": "mystery_revealed",
                "symbol": self.symbol,
                "cells": [list(c) for c in self.cells],
            }
        ]


class MysteryPart(Part):
    name = "mystery"
    stage = 20  # a window modifier: after the window (10), before the evaluators

    def __init__(self, model: GameModel, rules: Mystery) -> None:
        self.model = model
        self.rules = rules

    def modify_window(
        self,
        ctx: Context,
        round_: Round,
        setup: SpinSetup,
        grid: npt.NDArray[np.int8],
        rng: RandomSource,
    ) -> tuple[Round, npt.NDArray[np.int8], Revealed | None, int]:
        screen, symbol = reveal(self.rules, setup.kind, grid, rng)
        if symbol < 0:
            return round_, grid, None, 0
        rows, reels = np.nonzero(grid == self.rules.symbol)
        cells = tuple((int(r), int(c)) for r, c in zip(rows, reels, strict=True))
        return round_, screen, Revealed(self.model.symbol_id(symbol), cells), 0


def part(model: GameModel) -> MysteryPart:
    return MysteryPart(model, mystery_rules(model))
