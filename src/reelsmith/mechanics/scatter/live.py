"""The scatter's live step: its count on the reels it counts on, paid from the spin's scatter
table (a count past the table's end as its last entry) times the total bet in coins."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from reelsmith.engine.evaluation import Position, ScatterWin, symbol_positions
from reelsmith.engine.lines import count_symbol_on
from reelsmith.engine.model import GameModel
from reelsmith.engine.round import Context, Part, Round, SpinSetup


@dataclass(frozen=True)
class ScatterShown:
    win: ScatterWin | None
    count: int
    positions: tuple[Position, ...]

    @property
    def coins(self) -> int:
        return self.win.coins if self.win is not None else 0

    def to_json(self) -> dict[str, object]:
        return {
            "scatter_win": self.win.to_json() if self.win is not None else None,
            "scatters": self.count,
            "scatter_positions": [list(p) for p in self.positions],
        }

    def events(self) -> list[dict[str, object]]:
        if self.win is None:
            return []
        return [
            {
                "type": "scatter_win",
                "symbol": self.win.symbol,
                "count": self.win.count,
                "coins": self.win.coins,
                "positions": [list(p) for p in self.win.positions],
            }
        ]


def scatter_shown(
    model: GameModel,
    grid: npt.NDArray[np.int8],
    scatter_pays: npt.NDArray[np.int64],
    unit: int,
) -> ScatterShown:
    """The scatter on ``grid``: its count, its cells and its pay times ``unit`` coins (the
    total bet, or the coins per unit where the scatter pays per coin)."""
    count = int(count_symbol_on(grid, model.scatter, model.scatter_mask))
    positions = tuple(p for p in symbol_positions(grid, model.scatter) if model.scatter_mask[p[1]])
    pay = int(scatter_pays[min(count, len(scatter_pays) - 1)])
    win = ScatterWin(model.symbols[model.scatter].id, count, pay * unit, positions) if pay else None
    return ScatterShown(win, count, positions)


class ScatterPart(Part):
    name = "scatter"
    stage = 31

    def evaluate(
        self, ctx: Context, round_: Round, setup: SpinSetup, grid: npt.NDArray[np.int8]
    ) -> tuple[ScatterShown, int]:
        stake = round_.stake
        unit = stake.coins_per_line if ctx.model.scatter_pays_per_coin else stake.total_coins
        shown = scatter_shown(ctx.model, grid, setup.scatter_pays, unit)
        return shown, shown.coins


def part(model: GameModel) -> ScatterPart:
    return ScatterPart()
