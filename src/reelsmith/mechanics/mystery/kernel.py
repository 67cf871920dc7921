"""The mystery symbols' kernel step: the reveal of a drawn screen, as live play makes it.

The chain kernel (:mod:`reelsmith.mechanics.cascade.kernel`, which plays a spin whole) calls
:func:`reveal_screen` after a screen's stops are drawn and before it is paid: on a screen
showing the mystery it draws one value below the table's total weight, picks the symbol as
:func:`reelsmith.rng.weighted_index` does and writes it over every mystery cell, logging the draw
as the kind :data:`DRAW_MYSTERY` (its purpose ``mystery``), so a kernel round replays through
live play draw for draw.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from reelsmith.analysis.kernel.rounds import _pick
from reelsmith.analysis.pcg64 import stream_bounded
from reelsmith.engine.model import GameModel
from reelsmith.mechanics.mystery.rules import RevealTable, mystery_rules

#: The kind of a reveal's draw in a chain kernel's log (0 is a reel stop).
DRAW_MYSTERY = 1


@dataclass(frozen=True, eq=False)
class MysteryTables:
    """The kernel's view of the mechanic: the mystery symbol (-1: the model has none) and, per
    reel set (0 base, 1 free spins), the symbols of its table and their cumulative weights."""

    symbol: int
    values: npt.NDArray[np.int64]  # [set, entry]
    cumulative: npt.NDArray[np.int64]  # [set, entry]: a padded entry repeats the total


def _padded(tables: tuple[RevealTable, RevealTable]) -> tuple[Any, Any]:
    width = max(len(t.symbols) for t in tables)
    values = np.zeros((2, width), dtype=np.int64)
    cumulative = np.zeros((2, width), dtype=np.int64)
    for index, table in enumerate(tables):
        running = np.cumsum(np.asarray(table.weights, dtype=np.int64))
        values[index, : len(running)] = table.symbols
        values[index, len(running) :] = table.symbols[-1]
        cumulative[index, : len(running)] = running
        cumulative[index, len(running) :] = running[-1]
    return values, cumulative


def tables(model: GameModel) -> MysteryTables:
    """The model's :class:`MysteryTables` (an empty one where it declares no mysteries)."""
    if "mystery" not in model.raw:
        empty = np.ones((2, 1), dtype=np.int64)
        return MysteryTables(-1, empty * 0, empty)
    rules = mystery_rules(model)
    values, cumulative = _padded((rules.base, rules.free))
    return MysteryTables(rules.symbol, values, cumulative)


@njit(cache=True, nogil=True, inline="always")
def reveal_screen(
    screen: npt.NDArray[np.int8],
    symbol: int,
    values: npt.NDArray[np.int64],
    cumulative: npt.NDArray[np.int64],
    stream: Any,
    record: bool,
    log: npt.NDArray[np.int64],
    log_at: int,
) -> tuple[Any, int]:
    """Reveal the mysteries ``screen`` shows in place (``values``/``cumulative``: the spin's
    table); returns the stream and the log's end. No draw where the screen shows none."""
    if symbol < 0:
        return stream, log_at
    rows, reels = screen.shape
    shown = False
    for row in range(rows):
        for reel in range(reels):
            shown |= screen[row, reel] == symbol
    if not shown:
        return stream, log_at
    total = cumulative[cumulative.shape[0] - 1]
    stream, value = stream_bounded(stream, total)
    revealed = values[_pick(cumulative, value)]
    for row in range(rows):
        for reel in range(reels):
            if screen[row, reel] == symbol:
                screen[row, reel] = revealed
    if record:
        log[log_at, 0] = DRAW_MYSTERY
        log[log_at, 1] = total
        log[log_at, 2] = value
        log_at += 1
    return stream, log_at
