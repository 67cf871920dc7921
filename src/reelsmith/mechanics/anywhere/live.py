"""The pay-anywhere live step: the count rule (:func:`reelsmith.mechanics.anywhere.rules.
anywhere_pay`) on the spin's screen, times the coins per unit and the spin's multiplier."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
import numpy.typing as npt

from reelsmith.engine.evaluation import Position
from reelsmith.engine.model import GameModel
from reelsmith.engine.round import Context, Part, Round, SpinSetup
from reelsmith.mechanics.anywhere.rules import (
    AnywhereRules,
    anywhere_pay,
    anywhere_rules,
    screen_pays,
)


@dataclass(frozen=True, slots=True)
class CountWin:
    symbol: str
    count: int  # the symbol's cells and the wilds counted for it
    coins: int
    positions: tuple[Position, ...]

    def to_json(self) -> dict[str, object]:
        return {
            "symbol": self.symbol,
            "count": self.count,
            "coins": self.coins,
            "positions": [list(p) for p in self.positions],
        }


@dataclass(frozen=True)
class CountWins:
    wins: tuple[CountWin, ...]

    @property
    def coins(self) -> int:
        return sum(w.coins for w in self.wins)

    def to_json(self) -> dict[str, object]:
        return {"count_wins": self._json}

    @cached_property
    def _json(self) -> list[dict[str, object]]:
        return [w.to_json() for w in self.wins]

    def events(self) -> list[dict[str, object]]:
        return [{"type": "count_win", **win} for win in self._json]


def count_wins(
    model: GameModel,
    rules: AnywhereRules,
    grid: npt.NDArray[np.int8],
    coins_per_unit: int,
    pays: npt.NDArray[np.int64] | None = None,
    multiplier: int = 1,
) -> CountWins:
    """The screen's count wins; ``pays`` replaces the model's table where a feature pays by
    another (free spins' multiplied pays)."""
    table = rules.pays if pays is None else pays
    slots = rules.paying.shape[0] + 1
    out_count = np.zeros(slots, dtype=np.int64)
    out_pay = np.zeros(slots, dtype=np.int64)
    anywhere_pay(
        grid,
        np.zeros(len(model.symbols), dtype=np.int64),
        table,
        rules.paying,
        model.wild,
        model.substitutable,
        rules.pure_wild,
        rules.wild_pays,
        out_count,
        out_pay,
    )
    symbols = [*(int(s) for s in rules.paying), model.wild]
    wins = []
    for i, symbol in enumerate(symbols):
        if out_pay[i] <= 0:
            continue
        own = i == len(symbols) - 1
        with_wild = model.wild >= 0 and (own or bool(model.substitutable[symbol]))
        positions = tuple(
            (row, reel)
            for row in range(model.rows)
            for reel in range(model.reels)
            if int(grid[row, reel]) == symbol or (with_wild and int(grid[row, reel]) == model.wild)
        )
        wins.append(
            CountWin(
                model.symbols[symbol].id,
                int(out_count[i]),
                int(out_pay[i]) * coins_per_unit * multiplier,
                positions,
            )
        )
    return CountWins(tuple(wins))


class AnywherePart(Part):
    name = "anywhere"
    stage = 30

    def __init__(self, model: GameModel) -> None:
        self.model = model
        self.rules = anywhere_rules(model)

    def evaluate(
        self, ctx: Context, round_: Round, setup: SpinSetup, grid: npt.NDArray[np.int8]
    ) -> tuple[CountWins, int]:
        found = count_wins(
            self.model,
            self.rules,
            grid,
            round_.stake.coins_per_line,
            screen_pays(self.model, setup.kind == "free"),
            setup.line_multiplier,
        )
        return found, found.coins


def part(model: GameModel) -> AnywherePart:
    return AnywherePart(model)
