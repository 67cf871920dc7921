"""The ways' live step: the ways rule (:func:`reelsmith.mechanics.ways.rules.ways_pay`) on the
spin's screen and pay table, times the coins per unit and the spin's multiplier; in a free
spin of a model that draws its wild weights, one ``wild_weight`` draw per listed reel (before
the screen is paid, after any window modifier)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
import numpy.typing as npt

from reelsmith.engine.evaluation import Position
from reelsmith.engine.model import GameModel
from reelsmith.engine.round import Context, Part, Round, SpinSetup
from reelsmith.mechanics.ways.rules import WaysRules, ways_pay, ways_rules
from reelsmith.rng import RandomSource, weighted_index

WEIGHTS = "ways_weights"


@dataclass(frozen=True, slots=True)
class WayWin:
    symbol: str
    count: int  # the run, in reels from reel 1
    ways: int
    coins: int
    positions: tuple[Position, ...]

    def to_json(self) -> dict[str, object]:
        return {
            "symbol": self.symbol,
            "count": self.count,
            "ways": self.ways,
            "coins": self.coins,
            "positions": [list(p) for p in self.positions],
        }


@dataclass(frozen=True)
class WayWins:
    wins: tuple[WayWin, ...]
    weights: tuple[int, ...] | None  # the wild weights drawn for this spin (None: fixed)

    @property
    def coins(self) -> int:
        return sum(w.coins for w in self.wins)

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"way_wins": self._json}
        if self.weights is not None:
            out["wild_weights"] = list(self.weights)
        return out

    @cached_property
    def _json(self) -> list[dict[str, object]]:
        return [w.to_json() for w in self.wins]

    def events(self) -> list[dict[str, object]]:
        found: list[dict[str, object]] = []
        if self.weights is not None:
            found.append({"type": "wild_weights_drawn", "weights": list(self.weights)})
        found.extend({"type": "way_win", **win} for win in self._json)
        return found


def way_wins(
    model: GameModel,
    rules: WaysRules,
    grid: npt.NDArray[np.int8],
    coins_per_unit: int,
    pays: npt.NDArray[np.int64],
    weights: npt.NDArray[np.int64],
    multiplier: int = 1,
    drawn: tuple[int, ...] | None = None,
) -> WayWins:
    slots = rules.paying.shape[0] + 1
    out_run = np.zeros(slots, dtype=np.int64)
    out_ways = np.zeros(slots, dtype=np.int64)
    out_pay = np.zeros(slots, dtype=np.int64)
    ways_pay(
        grid,
        pays,
        rules.paying,
        model.wild,
        model.substitutable,
        weights,
        rules.min_run,
        rules.pure_wild,
        out_run,
        out_ways,
        out_pay,
    )
    symbols = [*(int(s) for s in rules.paying), model.wild]
    wins = []
    for i, symbol in enumerate(symbols):
        if out_pay[i] <= 0:
            continue
        run = int(out_run[i])
        stands_in = model.wild >= 0 and bool(model.substitutable[symbol])
        shown = (symbol, model.wild) if i < len(symbols) - 1 and stands_in else (symbol,)
        positions = tuple(
            (row, reel)
            for reel in range(run)
            for row in range(model.rows)
            if int(grid[row, reel]) in shown
        )
        wins.append(
            WayWin(
                model.symbols[symbol].id,
                run,
                int(out_ways[i]),
                int(out_pay[i]) * coins_per_unit * multiplier,
                positions,
            )
        )
    return WayWins(tuple(wins), drawn)


class WaysPart(Part):
    name = "ways"
    stage = 30

    def __init__(self, model: GameModel) -> None:
        self.model = model
        self.rules = ways_rules(model)

    def modify_window(
        self,
        ctx: Context,
        round_: Round,
        setup: SpinSetup,
        grid: npt.NDArray[np.int8],
        rng: RandomSource,
    ) -> tuple[Round, npt.NDArray[np.int8], None, int] | None:
        """A free spin's wild weights, drawn reel by reel where the model draws them."""
        if setup.kind != "free" or not self.rules.free_weights:
            return None
        weights = self.rules.weights.copy()
        for reel in sorted(self.rules.free_weights):
            values, odds = self.rules.free_weights[reel]
            weights[reel] = values[weighted_index(rng, list(odds), "wild_weight")]
        return round_.with_part(WEIGHTS, tuple(int(w) for w in weights)), grid, None, 0

    def evaluate(
        self, ctx: Context, round_: Round, setup: SpinSetup, grid: npt.NDArray[np.int8]
    ) -> tuple[WayWins, int]:
        drawn = None
        weights = self.rules.weights
        if setup.kind == "free" and self.rules.free_weights:
            drawn = round_.part(WEIGHTS)
            weights = np.array(drawn, dtype=np.int64)
        found = way_wins(
            self.model,
            self.rules,
            grid,
            round_.stake.coins_per_line,
            setup.line_pays,
            weights,
            setup.line_multiplier,
            drawn,
        )
        return found, found.coins


def part(model: GameModel) -> WaysPart:
    return WaysPart(model)
