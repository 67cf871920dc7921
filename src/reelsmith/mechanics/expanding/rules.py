"""The ``[expanding]`` table, read and checked::

    [expanding]
    symbols = { bird = 3, fish = 5 }   # the free spins' special symbol, drawn by weight

When the free spins start, one ``expanding_symbol`` draw picks the feature's special symbol from
``symbols`` by weight; a retrigger keeps it. On each free spin, after the screen's line wins
are paid as usual, the reels that show the special symbol anywhere are counted (a wild does not
count as it); when that count ``n`` has a pay in the free spins' line table
(``line_pays[symbol][n]``, the free spins' multiplier included) the symbol expands to fill
those reels and pays ``line_pays[symbol][n]`` on every payline played, times the coins per
line, in addition to the spin's other wins. The reels need not be adjacent.

The special symbol is a regular paying symbol that pays on a line in free spins; it is never
the wild, the scatter or the trigger symbol, so the free spins' count law does not depend on
the draw, which is what makes the exact analysis a mixture over ``symbols``
(:mod:`reelsmith.mechanics.expanding.exact`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

import numpy as np

from reelsmith.engine.model import GameModel, ModelError
from reelsmith.mechanics.free_spins.rules import trigger_symbol, unplayed_options

KEYS = frozenset({"symbols"})


@dataclass(frozen=True)
class Expanding:
    """The mechanic's rules: the symbols the special symbol is drawn from (indices) and their
    weights."""

    symbols: tuple[int, ...]
    weights: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.weights)


def _free_line_pays(model: GameModel) -> np.ndarray | None:
    """The free spins' line pays (None where the model's free spins cannot be read: their own
    problems say why)."""
    from reelsmith.engine.catalogue import free_spin_pays, mechanics

    try:
        rules = mechanics(model)
    except ModelError:
        return None
    return free_spin_pays(model, rules.free_spins)[0]


def _free_spins_problems(model: GameModel, where: str) -> list[str]:
    """The free-spin options the expanding symbol is not played with, each by name."""
    free = model.raw.get("free_spins")
    if not isinstance(free, Mapping):
        return [f"{where}: the expanding symbol is drawn when free spins start: add [free_spins]"]
    return unplayed_options(free, where, "the expanding symbol is")


def read(model: GameModel) -> tuple[Expanding | None, list[str]]:
    """The rules and every problem of the table, one line each (rules None with problems)."""
    where = f"{model.source or model.id}: expanding"
    raw = model.raw.get("expanding")
    if not isinstance(raw, Mapping):
        return None, [f"{where} must be a table with symbols"]
    problems: list[str] = []
    for key in sorted(set(raw) - KEYS):
        problems.append(f"{where}: unknown key {key!r}; the keys are: {', '.join(sorted(KEYS))}")
    if "symbols" not in raw:
        problems.append(f"{where}: missing key 'symbols'")
    problems += _free_spins_problems(model, where)
    if problems:
        return None, problems
    table = raw["symbols"]
    at = f"{where}.symbols"
    if not isinstance(table, Mapping) or not table:
        return None, [f"{at} must be a table of symbol = weight, at least one entry"]
    pays = _free_line_pays(model)
    trigger = trigger_symbol(model)
    symbols: list[int] = []
    weights: list[int] = []
    for name, weight in table.items():
        try:
            index = model.symbol_index(name)
        except KeyError as exc:
            problems.append(f"{at}.{name}: {exc.args[0]}")
            continue
        role = model.symbols[index].role
        if role != "regular" or index in (model.wild, model.scatter, trigger):
            problems.append(
                f"{at}.{name}: the expanding symbol is a regular paying symbol, not a {role} "
                "symbol (nor the wild, the scatter or the trigger)"
            )
            continue
        if pays is not None and not (pays[index] > 0).any():
            problems.append(
                f"{at}.{name}: it pays nothing on a line in free spins, so it would never expand"
            )
            continue
        if not isinstance(weight, int) or isinstance(weight, bool) or weight < 0:
            problems.append(f"{at}.{name}: the weight must be a whole number >= 0")
            continue
        symbols.append(index)
        weights.append(weight)
    if symbols and len(symbols) == len(table) and not sum(weights):
        problems.append(f"{at}: the weights add up to 0; at least one must be above 0")
    if problems:
        return None, problems
    return Expanding(tuple(symbols), tuple(weights)), []


def problems(model: GameModel) -> list[str]:
    return read(model)[1]


@cache
def expanding_rules(model: GameModel) -> Expanding:
    """The model's expanding-symbol rules; ModelError naming every problem."""
    found, wrong = read(model)
    if found is None:
        raise ModelError("\n".join(wrong))
    return found


def expansion_pay(pays: np.ndarray, symbol: int, reels: int) -> int:
    """What the special symbol ``symbol`` pays per payline and coin when ``reels`` reels show it
    (``pays``: the spin's line table): its line pay for that count, 0 where it has none (it
    then does not expand)."""
    row = pays[symbol]
    return int(row[reels]) if reels < row.shape[0] else 0
