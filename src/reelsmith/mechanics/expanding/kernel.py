"""The expanding symbol's kernel steps, as live play makes them.

The chain kernel (:mod:`reelsmith.mechanics.cascade.kernel`, which plays a spin whole) calls
:func:`draw_symbol` once a base spin has awarded free spins: one draw below the table's total
weight, the symbol picked as :func:`reelsmith.rng.weighted_index` does, logged as the kind
:data:`DRAW_EXPANDING` (its purpose ``expanding_symbol``), so a kernel round replays through
live play draw for draw. On each free spin it calls :func:`expansion` on the screen as it
landed: the reels showing the symbol counted and the pay of that count per payline
(:func:`.rules.expansion_pay`'s rule), times the paylines.
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
from reelsmith.mechanics.expanding.rules import expanding_rules

#: The kind of the expanding symbol's draw in a chain kernel's log (0 a reel stop, 1 a
#: mystery's reveal).
DRAW_EXPANDING = 2


@dataclass(frozen=True, eq=False)
class ExpandingTables:
    """The kernel's view of the mechanic: the table's symbols and cumulative weights (an empty
    table, ``symbols`` of length 0, where the model declares none)."""

    symbols: npt.NDArray[np.int64]
    cumulative: npt.NDArray[np.int64]


def tables(model: GameModel) -> ExpandingTables:
    """The model's :class:`ExpandingTables`."""
    if "expanding" not in model.raw:
        return ExpandingTables(np.zeros(0, dtype=np.int64), np.ones(1, dtype=np.int64))
    rules = expanding_rules(model)
    return ExpandingTables(
        np.asarray(rules.symbols, dtype=np.int64),
        np.cumsum(np.asarray(rules.weights, dtype=np.int64)),
    )


@njit(cache=True, nogil=True, inline="always")
def draw_symbol(
    symbols: npt.NDArray[np.int64],
    cumulative: npt.NDArray[np.int64],
    stream: Any,
    record: bool,
    log: npt.NDArray[np.int64],
    log_at: int,
) -> tuple[Any, int, int]:
    """The feature's special symbol drawn by weight (-1 and no draw where the model has no
    table); returns the stream, the symbol and the log's end."""
    if symbols.shape[0] == 0:
        return stream, -1, log_at
    total = cumulative[cumulative.shape[0] - 1]
    stream, value = stream_bounded(stream, total)
    symbol = symbols[_pick(cumulative, value)]
    if record:
        log[log_at, 0] = DRAW_EXPANDING
        log[log_at, 1] = total
        log[log_at, 2] = value
        log_at += 1
    return stream, symbol, log_at


@njit(cache=True, nogil=True, inline="always")
def expansion(
    screen: npt.NDArray[np.int8], symbol: int, line_pays: npt.NDArray[np.int64], lines: int
) -> int:
    """What the special symbol's expansion pays on ``screen`` at one coin per payline (0: it
    shows on too few reels to pay, or there is no symbol)."""
    if symbol < 0:
        return 0
    rows, reels = screen.shape
    shown = 0
    for reel in range(reels):
        for row in range(rows):
            if screen[row, reel] == symbol:
                shown += 1
                break
    if shown >= line_pays.shape[1]:
        return 0
    return int(line_pays[symbol, shown] * lines)
