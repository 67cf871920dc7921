"""The ``[max_win]`` table, read and checked::

    [max_win]
    multiplier = 5000      # a round's total win is at most 5000 x its total bet

The cap must be a whole number above 0, and at least the largest pay of one payline (one way,
one count anywhere) in multiples of the smallest total bet that can win it: a cap below it
would cut a single combination of the paytable, which a paytable must never promise and not
pay.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from reelsmith.engine.model import GameModel, ModelError

KEYS = frozenset({"multiplier"})


@dataclass(frozen=True)
class MaxWin:
    """A round's cap: ``multiplier`` x its total bet."""

    multiplier: int

    def cap_coins(self, total_coins: int, market_multiplier: int | None = None) -> int:
        """The cap in coins of a round costing ``total_coins``: the model's multiple, or the
        market's where it is lower."""
        multiplier = self.multiplier
        if market_multiplier is not None:
            multiplier = min(multiplier, market_multiplier)
        return multiplier * total_coins


def largest_single_pay(model: GameModel) -> Fraction:
    """The largest pay of one payline (its wild multiplier included) or one way, in multiples
    of the smallest total bet that plays it: a payline pays ``pay x coins per line`` of a bet
    of at least ``min lines x coins per line``; a way ``pay x multiplier`` of ``cost x
    multiplier``."""
    pays = model.line_pays
    top = 0
    for symbol in model.symbols:
        row = int(pays[symbol.index].max()) if pays.shape[1] else 0
        if model.wild >= 0 and symbol.index != model.wild and model.substitutable[symbol.index]:
            row *= max(model.wild_multiplier, 1)
        top = max(top, row)
    if "anywhere" in model.raw:
        from reelsmith.mechanics.anywhere.rules import anywhere_rules

        counted = anywhere_rules(model)
        return Fraction(int(counted.pays.max()), counted.cost)
    if "ways" in model.raw:
        from reelsmith.mechanics.ways.rules import ways_rules

        return Fraction(top, ways_rules(model).cost)
    lines = model.bet.get("lines", {})
    least = lines.get("min", model.line_count) if isinstance(lines, Mapping) else 1
    return Fraction(top, max(int(least), 1))


def read(model: GameModel) -> MaxWin:
    """The model's cap; ModelError naming the key on the first problem."""
    where = f"{model.source or model.id}: max_win"
    raw = model.raw.get("max_win")
    if not isinstance(raw, Mapping):
        raise ModelError(f"{where} must be a table such as {{ multiplier = 5000 }}")
    unknown = sorted(set(raw) - KEYS)
    if unknown:
        raise ModelError(
            f"{where}: unknown key {unknown[0]!r}; the keys are: {', '.join(sorted(KEYS))}"
        )
    value = raw.get("multiplier")
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise ModelError(
            f"{where}.multiplier must be a whole number of total bets above 0, got {value!r}"
        )
    single = largest_single_pay(model)
    if value < single:
        raise ModelError(
            f"{where}.multiplier = {value} is below the largest single pay of the paytable, "
            f"{float(single):g} x the total bet: a cap must never cut one combination"
        )
    return MaxWin(value)


@cache
def max_win_rules(model: GameModel) -> MaxWin:
    """:func:`read`, once per loaded model."""
    return read(model)


def model_cap(model: GameModel) -> MaxWin | None:
    """The model's cap, None where it declares none."""
    return max_win_rules(model) if "max_win" in model.raw else None


def problems(model: GameModel) -> list[str]:
    try:
        read(model)
    except ModelError as exc:
        return [str(exc)]
    return []
