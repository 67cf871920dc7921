"""Evaluating one screen: line wins on the enabled paylines plus the scatter win.

Pays are counted in coins: a line pays its table value times the coins bet per line; the
scatter pays its table value times the total coins bet, whatever paylines are enabled.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from reelsmith.engine.lines import NO_SYMBOL, count_symbol_on, evaluate_lines
from reelsmith.engine.model import GameModel

Position = tuple[int, int]  # (row, reel), both 0-based


@dataclass(frozen=True, slots=True)
class LineWin:
    line: int  # 1-based payline number
    symbol: str
    count: int
    coins: int
    positions: tuple[Position, ...]

    def to_json(self) -> dict[str, object]:
        return {"line": self.line, "symbol": self.symbol, "count": self.count, "coins": self.coins}


@dataclass(frozen=True, slots=True)
class ScatterWin:
    symbol: str
    count: int
    coins: int
    positions: tuple[Position, ...]

    def to_json(self) -> dict[str, object]:
        return {"count": self.count, "coins": self.coins}


@dataclass(frozen=True, slots=True)
class ScreenWins:
    line_wins: tuple[LineWin, ...]
    scatter_win: ScatterWin | None
    scatter_count: int
    scatter_positions: tuple[Position, ...]

    @property
    def line_coins(self) -> int:
        return sum(w.coins for w in self.line_wins)

    @property
    def total_coins(self) -> int:
        return self.line_coins + (self.scatter_win.coins if self.scatter_win else 0)


def symbol_positions(grid: npt.NDArray[np.int8], symbol: int) -> tuple[Position, ...]:
    """Cells showing ``symbol``, reel by reel from the left, top to bottom within a reel."""
    rows, reels = grid.shape
    return tuple(
        (row, reel) for reel in range(reels) for row in range(rows) if grid[row, reel] == symbol
    )


def paid_lines(
    model: GameModel,
    grid: npt.NDArray[np.int8],
    lines: int,
    coins_per_line: int,
    line_pays: npt.NDArray[np.int64],
    multiplier: int = 1,
) -> tuple[LineWin, ...]:
    """The wins of the first ``lines`` paylines of ``grid`` by the one line rule, each paying
    its table value times ``coins_per_line`` and ``multiplier``."""
    if not 1 <= lines <= model.line_count:
        raise ValueError(f"lines must be 1..{model.line_count}, got {lines}")
    out_symbol = np.empty(lines, dtype=np.int64)
    out_count = np.empty(lines, dtype=np.int64)
    out_pay = np.empty(lines, dtype=np.int64)
    evaluate_lines(
        grid,
        model.paylines,
        lines,
        line_pays,
        model.wild,
        model.substitutable,
        model.wild_multiplier,
        model.ties_to_wild,
        out_symbol,
        out_count,
        out_pay,
    )
    wins = []
    for line in range(lines):
        symbol = int(out_symbol[line])
        if symbol == NO_SYMBOL:
            continue
        count = int(out_count[line])
        wins.append(
            LineWin(
                line=line + 1,
                symbol=model.symbols[symbol].id,
                count=count,
                coins=int(out_pay[line]) * coins_per_line * multiplier,
                positions=tuple((int(model.paylines[line, r]), r) for r in range(count)),
            )
        )
    return tuple(wins)


def evaluate_screen(
    model: GameModel,
    grid: npt.NDArray[np.int8],
    lines: int,
    coins_per_line: int,
    total_bet_coins: int,
    *,
    line_pays: npt.NDArray[np.int64] | None = None,
    scatter_pays: npt.NDArray[np.int64] | None = None,
) -> ScreenWins:
    """All wins on ``grid`` with the first ``lines`` paylines enabled.

    ``line_pays`` and ``scatter_pays`` replace the model's tables where a feature pays
    otherwise (free spins with a multiplier: see :mod:`reelsmith.engine.catalogue`)."""
    line_pays = model.line_pays if line_pays is None else line_pays
    scatter_table = model.scatter_pays if scatter_pays is None else scatter_pays
    if grid.shape != (model.rows, model.reels):
        raise ValueError(f"a screen is {model.rows}x{model.reels}, got {grid.shape}")
    if not 1 <= lines <= model.line_count:
        raise ValueError(f"lines must be 1..{model.line_count}, got {lines}")
    line_wins = paid_lines(model, grid, lines, coins_per_line, line_pays)

    scatter_win = None
    scatter_count = 0
    scatter_positions: tuple[Position, ...] = ()
    if model.scatter >= 0:
        scatter_count = int(count_symbol_on(grid, model.scatter, model.scatter_mask))
        scatter_positions = tuple(
            p for p in symbol_positions(grid, model.scatter) if model.scatter_mask[p[1]]
        )
        pays = scatter_table
        pay = int(pays[min(scatter_count, len(pays) - 1)])
        if pay:
            scatter_win = ScatterWin(
                symbol=model.symbols[model.scatter].id,
                count=scatter_count,
                coins=pay * total_bet_coins,
                positions=scatter_positions,
            )
    return ScreenWins(line_wins, scatter_win, scatter_count, scatter_positions)
