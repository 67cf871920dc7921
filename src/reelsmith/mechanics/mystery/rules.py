"""The ``[mystery]`` table, read and checked::

    [mystery]
    symbol = "mystery"                          # the mystery symbol (a symbol with role "bonus")
    reveal = { ace = 10, king = 20, wild = 2 }  # what all the mysteries of a spin become
    free_spins_reveal = { wild = 1, ace = 3 }   # optional: the free spins' own table

Every cell of a screen showing the mystery symbol turns, before the screen is paid, into one
and the same symbol drawn once for the spin from ``reveal`` by weight (``free_spins_reveal`` in
a free spin, where given). A mystery reveals a paying symbol or the wild, never the scatter,
the free spins' trigger symbol or itself: the trigger law then does not depend on the draw,
which is what lets the exact analysis mix the spin's law over the reveal table
(:mod:`reelsmith.mechanics.mystery.exact`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from reelsmith.engine.model import GameModel, ModelError
from reelsmith.mechanics.free_spins.rules import trigger_symbol

KEYS = frozenset({"symbol", "reveal", "free_spins_reveal"})
#: The roles a mystery may reveal: a paying symbol or the wild.
REVEALABLE = frozenset({"regular", "wild"})


@dataclass(frozen=True)
class RevealTable:
    """A weighted table of the symbols the mysteries may become (symbol indices)."""

    symbols: tuple[int, ...]
    weights: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.weights)


@dataclass(frozen=True)
class Mystery:
    """The mechanic's rules: the mystery symbol and the base game's and free spins' tables
    (the same table where the model gives no ``free_spins_reveal``)."""

    symbol: int
    base: RevealTable
    free: RevealTable

    def table(self, kind: str) -> RevealTable:
        """The table of a spin of ``kind`` (``"base"`` or ``"free"``)."""
        return self.free if kind == "free" else self.base


def _table(model: GameModel, raw: Any, mystery: int, key: str, problems: list[str]) -> RevealTable:
    where = f"{model.source or model.id}: mystery.{key}"
    if not isinstance(raw, Mapping) or not raw:
        problems.append(f"{where} must be a table of symbol = weight, at least one entry")
        return RevealTable((), ())
    symbols: list[int] = []
    weights: list[int] = []
    trigger = trigger_symbol(model)
    for name, weight in raw.items():
        try:
            index = model.symbol_index(name)
        except KeyError as exc:
            problems.append(f"{where}.{name}: {exc.args[0]}")
            continue
        role = model.symbols[index].role
        if index == mystery:
            problems.append(f"{where}.{name}: the mystery symbol cannot reveal itself")
            continue
        if index == model.scatter or index == trigger:
            problems.append(
                f"{where}.{name}: a mystery never reveals the scatter or the free spins' trigger "
                "symbol (the trigger would then depend on the draw)"
            )
            continue
        if role not in REVEALABLE:
            problems.append(
                f"{where}.{name}: a mystery reveals a paying symbol or the wild, not a "
                f"{role} symbol"
            )
            continue
        if not isinstance(weight, int) or isinstance(weight, bool) or weight < 0:
            problems.append(f"{where}.{name}: the weight must be a whole number >= 0")
            continue
        symbols.append(index)
        weights.append(weight)
    if symbols and len(symbols) == len(raw) and not sum(weights):
        problems.append(f"{where}: the weights add up to 0; at least one must be above 0")
    return RevealTable(tuple(symbols), tuple(weights))


def read(model: GameModel) -> tuple[Mystery | None, list[str]]:
    """The rules and every problem of the table, one line each (rules None with problems)."""
    where = f"{model.source or model.id}: mystery"
    raw = model.raw.get("mystery")
    problems: list[str] = []
    if not isinstance(raw, Mapping):
        return None, [f"{where} must be a table with symbol and reveal"]
    for key in sorted(set(raw) - KEYS):
        problems.append(f"{where}: unknown key {key!r}; the keys are: {', '.join(sorted(KEYS))}")
    for key in ("symbol", "reveal"):
        if key not in raw:
            problems.append(f"{where}: missing key {key!r}")
    if problems:
        return None, problems
    name = raw["symbol"]
    try:
        symbol = model.symbol_index(name) if isinstance(name, str) else -1
    except KeyError as exc:
        return None, [f"{where}.symbol: {exc.args[0]}"]
    if symbol < 0:
        return None, [f"{where}.symbol must be a symbol's id"]
    if model.symbols[symbol].role != "bonus":
        problems.append(
            f'{where}.symbol: {name!r} must have role "bonus" (a mystery pays nothing as '
            f"itself), not {model.symbols[symbol].role!r}"
        )
    if symbol == trigger_symbol(model):
        problems.append(f"{where}.symbol: {name!r} is the free spins' trigger symbol")
    base = _table(model, raw["reveal"], symbol, "reveal", problems)
    free = base
    if "free_spins_reveal" in raw:
        if "free_spins" not in model.raw:
            problems.append(f"{where}.free_spins_reveal: the model has no [free_spins]")
        free = _table(model, raw["free_spins_reveal"], symbol, "free_spins_reveal", problems)
    problems += _kernel_problems(model, where)
    if problems:
        return None, problems
    return Mystery(symbol, base, free), []


def _kernel_problems(model: GameModel, where: str) -> list[str]:
    """The free-spin and ways options the simulation kernel of a mystery title does not play
    (it plays the spin whole, as a chain title's kernel does), each by name."""
    found = []
    free = model.raw.get("free_spins")
    if isinstance(free, Mapping):
        if "reveal" in free:
            found.append(
                f"{where}: free_spins.reveal: mystery symbols are played with a spins table, "
                "not an award revealed per symbol (the kernel does not play both)"
            )
        if "multipliers" in free:
            found.append(
                f"{where}: free_spins.multipliers: mystery symbols are not played with "
                "multipliers set by the trigger's count (the kernel does not play both)"
            )
    ways = model.raw.get("ways")
    if isinstance(ways, Mapping) and "free_spins_wild_weights" in ways:
        found.append(
            f"{where}: ways.free_spins_wild_weights: mystery symbols are played with fixed "
            "wild weights (the kernel does not draw both)"
        )
    return found


def problems(model: GameModel) -> list[str]:
    return read(model)[1]


@cache
def mystery_rules(model: GameModel) -> Mystery:
    """The model's mystery rules; ModelError naming every problem."""
    found, wrong = read(model)
    if found is None:
        raise ModelError("\n".join(wrong))
    return found
