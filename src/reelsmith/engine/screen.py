"""Screens: the symbols shown, as the kernels see them (``int8[rows, reels]``) and as people
read them (rows of symbol ids), plus parsing of typed grids for QA and the command line."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from reelsmith.engine.lines import fill_window
from reelsmith.engine.model import BLANK, GameModel, Heights, ReelSet

Screen = tuple[tuple[str, ...], ...]


class GridError(ValueError):
    """A typed grid is malformed: wrong shape or an unknown symbol."""


def window(reel_set: ReelSet, stops: Sequence[int], rows: int) -> npt.NDArray[np.int8]:
    """The screen shown when reel ``r`` stops at ``stops[r]`` (the top row's strip position;
    on a reel set of variable rows, the reel's position: :class:`ReelSet`)."""
    for reel, (stop, length) in enumerate(zip(stops, reel_set.position_counts, strict=True)):
        if not 0 <= stop < length:
            raise ValueError(f"reel {reel + 1}: stop {stop} is outside 0..{length - 1}")
    grid = np.empty((rows, len(reel_set.strips)), dtype=np.int8)
    if reel_set.tabulated:
        table = reel_set.window_table(rows)
        for reel, stop in enumerate(stops):
            grid[:, reel] = table[reel, stop]
        return grid
    fill_window(reel_set.padded, np.asarray(stops, dtype=np.int64), grid)
    return grid


#: How a screen shows a cell below a reel's drawn height (variable rows).
BLANK_ID = "-"


def to_screen(model: GameModel, grid: npt.NDArray[np.int8]) -> Screen:
    return tuple(
        tuple(model.symbols[int(s)].id if s != BLANK else BLANK_ID for s in row) for row in grid
    )


def from_screen(model: GameModel, screen: Sequence[Sequence[str]]) -> npt.NDArray[np.int8]:
    if len(screen) != model.rows:
        raise GridError(f"the grid has {len(screen)} rows; {model.name} shows {model.rows}")
    grid = np.empty((model.rows, model.reels), dtype=np.int8)
    for row, cells in enumerate(screen):
        if len(cells) != model.reels:
            raise GridError(
                f"row {row + 1} has {len(cells)} cells; {model.name} has {model.reels} reels"
            )
        for reel, symbol_id in enumerate(cells):
            if symbol_id == BLANK_ID and model.variable_rows:
                grid[row, reel] = BLANK
                continue
            try:
                grid[row, reel] = model.symbol_index(symbol_id)
            except KeyError as exc:
                raise GridError(f"row {row + 1}, reel {reel + 1}: {exc.args[0]}") from None
    if model.heights is not None:
        _check_heights(model.heights, grid)
    return grid


def _check_heights(heights: Heights, grid: npt.NDArray[np.int8]) -> None:
    """A screen of variable rows shows on each reel one of its heights' symbols from the top
    and blanks below: GridError naming the reel otherwise."""
    for reel, law in enumerate(heights):
        column = grid[:, reel]
        height = int((column != BLANK).sum())
        if (column[:height] == BLANK).any():
            raise GridError(
                f"reel {reel + 1}: a blank ({BLANK_ID}) above a symbol; a reel shows its "
                "symbols from the top and blanks below them"
            )
        shown = [h for h, w in law if w]
        if height not in shown:
            raise GridError(
                f"reel {reel + 1} shows {height} symbol{'' if height == 1 else 's'}; its "
                f"heights are {', '.join(map(str, shown))}"
            )


def parse_grid(model: GameModel, text: str) -> npt.NDArray[np.int8]:
    """Parse ``row/row/...`` with rows top to bottom and cells ``a,b,c,...`` left to right."""
    text = text.strip()
    if not text:
        raise GridError("the grid is empty")
    rows = [[cell.strip().lower() for cell in row.split(",")] for row in text.split("/")]
    for row_number, row in enumerate(rows, start=1):
        if any(cell == "" for cell in row):
            raise GridError(f"row {row_number} has an empty cell")
    return from_screen(model, rows)
