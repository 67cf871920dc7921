"""The hold-and-spin's live step: after the base spin, a window showing the trigger count of
coins or more plays the whole feature at once, and its pay is added to that spin's win.

The draws, in order (each recorded with the round, so a replay plays the feature again): one
``hold_and_spin_value`` draw for every coin of the window, cell by cell (rows top to bottom,
each left to right); then each respin: one ``hold_and_spin_cell`` draw per empty cell in the
same order (coin or blank, by ``land``), each coin landed followed by its value draw. The
respin's new state is :func:`reelsmith.mechanics.hold_and_spin.chain.after_respin`, the rule
the exact chain solves. The pay, in coins, is the grid's pay by the compiled rule the kernel
pays by (:func:`reelsmith.mechanics.hold_and_spin.chain.pay_of`: the plain values times the
multiplier, once more for each collector, plus the jackpots and the full-grid tier) times the
round's total bet.
"""

from __future__ import annotations

from dataclasses import dataclass

from reelsmith.engine.model import GameModel
from reelsmith.engine.round import Context, Part, Round, Spin
from reelsmith.engine.rounds import replaced
from reelsmith.mechanics.hold_and_spin.chain import after_respin, is_over, pay_of
from reelsmith.mechanics.hold_and_spin.rules import CoinValue, HoldAndSpin, hold_and_spin_rules
from reelsmith.rng import RandomSource, weighted_index

Cell = tuple[int, int]  # (row, reel)


@dataclass(frozen=True)
class Respin:
    """One respin: the coins it landed (cell and value entry) and the respins left after it."""

    landed: tuple[tuple[Cell, CoinValue], ...]
    left: int


@dataclass(frozen=True)
class HoldAndSpinRecord:
    """The feature as played on the spin that triggered it."""

    start: tuple[tuple[Cell, CoinValue], ...]
    respins: tuple[Respin, ...]
    full_grid: str | None  # the tier a full grid won (None: the grid was not full)
    full_grid_amount: int
    total_bets: int  # the whole pay in total bets
    win_coins: int
    respins_full: int
    #: What each collector collected, in total bets (None: the title has no collectors).
    collected: int | None = None
    #: The grid's multiplier (None: the title has no multiplier coins). Not named
    #: ``multiplier``: the paylines' terminal reads a record's ``multiplier`` as its wins'.
    grid_multiplier: int | None = None

    @property
    def coins(self) -> tuple[tuple[Cell, CoinValue], ...]:
        return self.start + tuple(c for r in self.respins for c in r.landed)

    def jackpots(self) -> list[str]:
        """The tiers won, in order (a full grid's last)."""
        won = [v.tier for _, v in self.coins if v.tier is not None]
        return won + ([self.full_grid] if self.full_grid is not None else [])

    def _extras(self) -> dict[str, object]:
        """The collectors' and the multiplier's figures, for a title that has them."""
        out: dict[str, object] = {}
        if self.collected is not None:
            out["collected"] = self.collected
        if self.grid_multiplier is not None:
            out["multiplier"] = self.grid_multiplier
        return out

    def to_json(self) -> dict[str, object]:
        return {
            "hold_and_spin": {
                "coins": [[list(cell), value.label, value.amount] for cell, value in self.coins],
                "respins": len(self.respins),
                "jackpots": self.jackpots(),
                "total_bets": self.total_bets,
                "win_coins": self.win_coins,
                **self._extras(),
            }
        }

    def events(self) -> list[dict[str, object]]:
        def coins(found: tuple[tuple[Cell, CoinValue], ...]) -> list[dict[str, object]]:
            listed = []
            for cell, value in found:
                coin: dict[str, object] = {
                    "position": list(cell),
                    "value": value.label,
                    "bets": value.amount,
                }
                if value.kind_name is not None:
                    coin["kind"] = value.kind_name
                if value.factor:
                    coin["multiplier"] = value.factor
                listed.append(coin)
            return listed

        out: list[dict[str, object]] = [
            {
                "type": "hold_and_spin_start",
                "held": coins(self.start),
                "respins": self.respins_full,
            }
        ]
        for index, respin in enumerate(self.respins, start=1):
            out.append(
                {
                    "type": "hold_and_spin_respin",
                    "respin": index,
                    "landed": coins(respin.landed),
                    "respins_left": respin.left,
                }
            )
        out.append(
            {
                "type": "hold_and_spin_end",
                "coins_held": len(self.coins),
                "jackpots": self.jackpots(),
                "total_bets": self.total_bets,
                "win_coins": self.win_coins,
                **self._extras(),
            }
        )
        return out


def _value(rules: HoldAndSpin, rng: RandomSource) -> CoinValue:
    return rules.values[weighted_index(rng, rules.value_weights, "hold_and_spin_value")]


def play_feature(
    rules: HoldAndSpin, coins: list[Cell], empty: list[Cell], total_coins: int, rng: RandomSource
) -> HoldAndSpinRecord:
    """The feature started by the window's ``coins`` (the other cells ``empty``, both in
    reading order), its draws from ``rng``, paid at a total bet of ``total_coins``."""
    start = tuple((cell, _value(rules, rng)) for cell in coins)
    held, left = len(start), rules.respins
    respins = []
    while not is_over(rules, held, left):
        landed = []
        for cell in empty:
            if weighted_index(rng, rules.land_weights, "hold_and_spin_cell") == 0:
                landed.append((cell, _value(rules, rng)))
        taken = {cell for cell, _ in landed}
        empty = [cell for cell in empty if cell not in taken]
        held, left = after_respin(rules, held, left, len(landed))
        respins.append(Respin(tuple(landed), left))
    full = rules.full_grid if held >= rules.cells else None
    full_amount = rules.full_grid_amount if full is not None else 0
    grid = [v for _, v in start] + [v for r in respins for _, v in r.landed]
    pay = pay_of(rules, grid, full is not None)
    return HoldAndSpinRecord(
        start,
        tuple(respins),
        full,
        full_amount,
        pay.total,
        pay.total * total_coins,
        rules.respins,
        collected=pay.collected if rules.collectors else None,
        grid_multiplier=pay.multiplier if rules.multipliers else None,
    )


class HoldAndSpinPart(Part):
    name = "hold_and_spin"
    stage = 50  # the spin feature's stage: after the evaluators, before a round limit

    def __init__(self, rules: HoldAndSpin) -> None:
        self.rules = rules

    def after_spin(self, ctx: Context, round_: Round, spin: Spin, rng: RandomSource) -> Round:
        if spin.kind != "base" or spin.grid is None:
            return round_
        rules = self.rules
        rows, reels = spin.grid.shape
        cells = [(row, reel) for row in range(rows) for reel in range(reels)]
        coins = [c for c in cells if int(spin.grid[c]) == rules.symbol]
        if len(coins) < rules.trigger:
            return round_
        empty = [c for c in cells if int(spin.grid[c]) != rules.symbol]
        record = play_feature(rules, coins, empty, round_.stake.total_coins, rng)
        paid = replaced(spin, win_coins=spin.win_coins + record.win_coins)
        paid = paid.with_record(self.name, record)
        return replaced(round_, spins=(*round_.spins[:-1], paid))


def part(model: GameModel) -> HoldAndSpinPart:
    return HoldAndSpinPart(hold_and_spin_rules(model))
