"""The expanding symbol's live step.

When a spin starts the free spins (the free spins' part has put the round in its phase), one
``expanding_symbol`` draw by the table's weights picks the feature's special symbol; the round
keeps it (``Round.parts["expanding"]``) through every free spin and retrigger. Each free spin
is then paid by the paylines as usual, and this part pays the expansion beside them: the reels
showing the special symbol anywhere counted, and where that count has a line pay, the pay times
every payline played, the coins per line and the spin's line multiplier. A base spin pays no
expansion and draws nothing unless it starts the feature.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from reelsmith.engine.model import GameModel
from reelsmith.engine.round import Context, Part, Round, Spin, SpinSetup
from reelsmith.engine.rounds import replaced
from reelsmith.mechanics.expanding.rules import Expanding, expanding_rules, expansion_pay
from reelsmith.mechanics.free_spins.live import FREE_SPINS
from reelsmith.rng import RandomSource, weighted_index

#: The purpose of the special symbol's draw in a round's record.
PURPOSE = "expanding_symbol"
#: No special symbol drawn yet (the round's state before its free spins).
NONE = -1


def draw_symbol(rules: Expanding, rng: RandomSource) -> int:
    """The feature's special symbol: one draw by the table's weights."""
    return rules.symbols[weighted_index(rng, list(rules.weights), PURPOSE)]


def reels_showing(grid: npt.NDArray[np.int8], symbol: int) -> tuple[int, ...]:
    """The reels (from 0) whose window shows ``symbol`` at least once."""
    return tuple(int(r) for r in np.nonzero((grid == symbol).any(axis=0))[0])


@dataclass(frozen=True)
class Drawn:
    """The special symbol drawn on the spin that started the free spins."""

    symbol: str

    def to_json(self) -> dict[str, object]:
        return {"expanding_symbol": self.symbol}

    def events(self) -> list[dict[str, object]]:
        return [{"type": "expanding_symbol_drawn", "symbol": self.symbol}]


@dataclass(frozen=True)
class Expanded:
    """A free spin's expansion: the symbol, the reels it filled, the paylines it paid on and
    the coins it paid (coins per line and multiplier included)."""

    symbol: str
    reels: tuple[int, ...]
    lines: int
    coins: int

    def to_json(self) -> dict[str, object]:
        return {
            "expanded": {
                "symbol": self.symbol,
                "reels": list(self.reels),
                "lines": self.lines,
                "coins": self.coins,
            }
        }

    def events(self) -> list[dict[str, object]]:
        return [
            {
                "type": "symbol_expanded",
                "symbol": self.symbol,
                "reels": list(self.reels),
                "lines": self.lines,
                "coins": self.coins,
            }
        ]


class ExpandingPart(Part):
    name = "expanding"
    # after the free spins' part (50), whose after_spin starts the feature this one draws for;
    # its evaluate pays beside the paylines'
    stage = 55

    def __init__(self, model: GameModel, rules: Expanding) -> None:
        self.model = model
        self.rules = rules

    def prepare(self, ctx: Context, round_: Round) -> Round:
        return round_.with_part(self.name, NONE)

    def evaluate(
        self, ctx: Context, round_: Round, setup: SpinSetup, grid: npt.NDArray[np.int8]
    ) -> tuple[Expanded, int] | None:
        symbol: int = round_.part(self.name)
        if setup.kind != "free" or symbol == NONE:
            return None
        reels = reels_showing(grid, symbol)
        pay = expansion_pay(setup.line_pays, symbol, len(reels))
        if not pay:
            return None
        stake = round_.stake
        coins = pay * stake.lines * stake.coins_per_line * setup.line_multiplier
        return Expanded(self.model.symbol_id(symbol), reels, stake.lines, coins), coins

    def after_spin(self, ctx: Context, round_: Round, spin: Spin, rng: RandomSource) -> Round:
        if round_.phase != FREE_SPINS or round_.part(self.name) != NONE:
            return round_
        symbol = draw_symbol(self.rules, rng)
        drawn = Drawn(self.model.symbol_id(symbol))
        spins = (*round_.spins[:-1], spin.with_record(self.name, drawn))
        return replaced(round_, spins=spins, parts={**round_.parts, self.name: symbol})

    def round_json(self, ctx: Context, round_: Round) -> dict[str, object]:
        symbol = round_.part(self.name)
        found = None if symbol is None or symbol == NONE else self.model.symbol_id(symbol)
        return {"expanding_symbol": found}


def part(model: GameModel) -> ExpandingPart:
    return ExpandingPart(model, expanding_rules(model))
