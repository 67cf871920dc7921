"""The cap's live step: after every screen, a round whose total win has reached its cap pays
exactly the cap and ends at once.

The cap is the model's ``[max_win] multiplier`` x the round's total bet, or the market's lower
multiple (``RoundOptions.max_win_multiplier``, recorded with the round, so a replay caps as the
round did). The part comes after the spin feature (it sees each screen once the free spins
have counted its triggers) and before the gamble: the screen that reaches the cap keeps its
wins as read and has its ``win_coins`` cut to what brings the round to the cap; the round's
phase goes back to spinning, so the core closes it at once, and its closing completes it (no
gamble on a capped win; below the cap the gamble offers no choice that would pass it). The cap
makes no draw: the draws a screen made before the cap (a trigger's reveals) stay recorded.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from reelsmith.engine.model import GameModel
from reelsmith.engine.round import COMPLETE, SPINNING, Context, Part, Round, Spin
from reelsmith.engine.rounds import replaced
from reelsmith.mechanics.max_win.rules import MaxWin, max_win_rules
from reelsmith.rng import RandomSource

#: The round options' key (a coin bet's, given at the round's start).
OPTIONS = "options"


@dataclass(frozen=True)
class CapState:
    """The round's cap: its multiple of the total bet, in coins, and whether it was reached
    (with the total the screens paid before it)."""

    multiplier: int
    cap_coins: int
    reached: bool = False
    uncapped_coins: int = 0


@dataclass(frozen=True)
class CapRecord:
    """The record of the screen that reached the cap."""

    multiplier: int
    cap_coins: int
    uncapped_coins: int

    def to_json(self) -> dict[str, object]:
        return {
            "cap_reached": True,
            "max_win_multiplier": self.multiplier,
            "uncapped_win_coins": self.uncapped_coins,
        }

    def events(self) -> list[dict[str, object]]:
        return [
            {
                "type": "cap_reached",
                "multiplier": self.multiplier,
                "cap_coins": self.cap_coins,
                "uncapped_coins": self.uncapped_coins,
            }
        ]


class MaxWinPart(Part):
    name = "max_win"
    stage = 55  # after the spin feature (50), before the gamble (60)

    def __init__(self, rules: MaxWin) -> None:
        self.rules = rules

    def prepare(self, ctx: Context, round_: Round) -> Round:
        options = round_.part(OPTIONS)
        market = getattr(options, "max_win_multiplier", None)
        multiplier = self.rules.multiplier if market is None else min(self.rules.multiplier, market)
        cap = CapState(multiplier, multiplier * round_.stake.total_coins)
        return round_.with_part(self.name, cap)

    def after_spin(self, ctx: Context, round_: Round, spin: Spin, rng: RandomSource) -> Round:
        state: CapState = round_.part(self.name)
        total = round_.spin_win_coins
        if state.reached or total < state.cap_coins:
            return round_
        cut = total - state.cap_coins
        record = CapRecord(state.multiplier, state.cap_coins, total)
        capped = replaced(spin, win_coins=spin.win_coins - cut).with_record(self.name, record)
        return replaced(
            round_,
            spins=(*round_.spins[:-1], capped),
            phase=SPINNING,  # the feature's spins stop: the core closes the round now
            parts={**round_.parts, self.name: replace(state, reached=True, uncapped_coins=total)},
        )

    def close(self, ctx: Context, round_: Round) -> Round | None:
        state: CapState = round_.part(self.name)
        return replaced(round_, phase=COMPLETE) if state.reached else None

    def round_json(self, ctx: Context, round_: Round) -> dict[str, object]:
        state: CapState | None = round_.part(self.name)
        if state is None:
            return {}
        return {
            "max_win_multiplier": state.multiplier,
            "max_win_coins": state.cap_coins,
            "cap_reached": state.reached,
        }


def part(model: GameModel) -> MaxWinPart:
    return MaxWinPart(max_win_rules(model))
