"""The paylines' live step: every payline the bet plays, paid by the one line rule
(:func:`reelsmith.engine.lines.line_award`, through :func:`~reelsmith.engine.lines.evaluate_lines`)
on the spin's pay table, times the coins per line and the spin's line multiplier."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
import numpy.typing as npt

from reelsmith.engine.evaluation import LineWin, paid_lines
from reelsmith.engine.model import GameModel
from reelsmith.engine.round import Context, Part, Round, SpinSetup


@dataclass(frozen=True)
class LineWins:
    """A spin's line wins (coins as paid: coins per line and multiplier included)."""

    wins: tuple[LineWin, ...]

    @property
    def coins(self) -> int:
        return sum(w.coins for w in self.wins)

    def to_json(self) -> dict[str, object]:
        return {"line_wins": self._json}

    def events(self) -> list[dict[str, object]]:
        return [{"type": "line_win", **win} for win in self._json]

    @cached_property
    def _json(self) -> list[dict[str, object]]:
        return [{**w.to_json(), "positions": [list(p) for p in w.positions]} for w in self.wins]


def line_wins(
    model: GameModel,
    grid: npt.NDArray[np.int8],
    lines: int,
    coins_per_line: int,
    line_pays: npt.NDArray[np.int64],
    multiplier: int = 1,
) -> LineWins:
    """The wins of the first ``lines`` paylines of ``grid``."""
    return LineWins(paid_lines(model, grid, lines, coins_per_line, line_pays, multiplier))


class PaylinesPart(Part):
    name = "paylines"
    stage = 30

    def evaluate(
        self, ctx: Context, round_: Round, setup: SpinSetup, grid: npt.NDArray[np.int8]
    ) -> tuple[LineWins, int]:
        stake = round_.stake
        found = line_wins(
            ctx.model,
            grid,
            stake.lines,
            stake.coins_per_line,
            setup.line_pays,
            setup.line_multiplier,
        )
        return found, found.coins


def part(model: GameModel) -> PaylinesPart:
    return PaylinesPart()
