"""The ``[hold_and_spin]`` table, read and checked::

    [hold_and_spin]
    symbol = "coin"        # the coin symbol on the reels (a symbol with role "bonus")
    trigger = 6            # coins anywhere on the window that start the feature
    respins = 3            # respins, reset to this count whenever a new coin lands
    land = { coin = 1, blank = 11 }   # each empty cell's draw on each respin
    values = { 1 = 50, 2 = 30, 5 = 12, 10 = 5, mini = 2, minor = 1 }
    full_grid = "grand"    # optional: the jackpot tier a grid filled with coins also wins
    jackpots = { mini = 20, minor = 50, major = 250, grand = 1000 }

Every coin, those of the triggering window and every one a respin lands, carries a value drawn
independently from ``values`` by weight: a key that is a whole number is that many total bets,
a key naming a tier of ``jackpots`` is that tier's fixed multiple of the total bet. During the
respins only the empty cells spin, each one independently landing a coin with probability
``coin / (coin + blank)``: the chain of the feature then depends only on how many coins are
held and how many respins are left (:mod:`reelsmith.mechanics.hold_and_spin.chain`). The
feature pays the sum of the values on the grid, plus the ``full_grid`` tier when every cell
holds a coin.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from reelsmith.engine.model import GameModel, ModelError

KEYS = frozenset({"symbol", "trigger", "respins", "land", "values", "full_grid", "jackpots"})
REQUIRED = ("symbol", "trigger", "respins", "land", "values")
LAND_KEYS = ("coin", "blank")


@dataclass(frozen=True)
class CoinValue:
    """One entry of the value table: ``amount`` total bets, won as the jackpot ``tier`` where
    it names one (None: a plain coin value)."""

    amount: int
    weight: int
    tier: str | None = None

    @property
    def label(self) -> str:
        return self.tier if self.tier is not None else str(self.amount)


@dataclass(frozen=True)
class HoldAndSpin:
    """The feature's rules, read from the model (see the module's account)."""

    symbol: int
    cells: int
    trigger: int
    respins: int
    coin_weight: int
    blank_weight: int
    values: tuple[CoinValue, ...]
    jackpots: Mapping[str, int]
    full_grid: str | None

    @property
    def land_weights(self) -> list[int]:
        """The weights of one empty cell's draw: index 0 a coin, 1 a blank."""
        return [self.coin_weight, self.blank_weight]

    @property
    def value_weights(self) -> list[int]:
        return [v.weight for v in self.values]

    @property
    def full_grid_amount(self) -> int:
        """What a full grid adds, in total bets (0: no ``full_grid`` tier)."""
        return 0 if self.full_grid is None else self.jackpots[self.full_grid]


def _whole(value: Any, where: str, least: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < least:
        raise ModelError(f"{where} must be a whole number of at least {least}, got {value!r}")
    return value


def _table(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping) or not value:
        raise ModelError(f"{where} must be a non-empty table, got {value!r}")
    return value


def read(model: GameModel) -> HoldAndSpin:
    """The model's hold-and-spin rules; ModelError naming the key on the first problem."""
    where = f"{model.source or model.id}: hold_and_spin"
    raw = model.raw.get("hold_and_spin")
    if not isinstance(raw, Mapping):
        raise ModelError(f"{where} must be a table (symbol, trigger, respins, land, values)")
    unknown = sorted(set(raw) - KEYS)
    if unknown:
        raise ModelError(
            f"{where}: unknown key {unknown[0]!r}; the keys are: {', '.join(sorted(KEYS))}"
        )
    for key in REQUIRED:
        if key not in raw:
            raise ModelError(f"{where}.{key} is required")
    symbol_id = raw["symbol"]
    try:
        symbol = model.symbol_index(str(symbol_id))
    except (KeyError, ModelError):
        raise ModelError(f"{where}.symbol = {symbol_id!r} is not a symbol of the model") from None
    if model.symbols[symbol].role != "bonus":
        raise ModelError(
            f"{where}.symbol = {symbol_id!r} must be a symbol with role 'bonus' (a coin pays "
            f"through the feature, not on lines), not {model.symbols[symbol].role!r}"
        )
    cells = model.reels * model.rows
    trigger = raw["trigger"]
    if not isinstance(trigger, int) or isinstance(trigger, bool) or not 1 <= trigger <= cells:
        raise ModelError(
            f"{where}.trigger must be a whole number of coins from 1 to the window's {cells} "
            f"cells, got {trigger!r}"
        )
    respins = _whole(raw["respins"], f"{where}.respins", 1)
    land = _table(raw["land"], f"{where}.land")
    if set(land) != set(LAND_KEYS):
        raise ModelError(
            f"{where}.land must have exactly the keys coin and blank (weights), got "
            f"{', '.join(sorted(land))}"
        )
    coin = _whole(land["coin"], f"{where}.land.coin", 0)
    blank = _whole(land["blank"], f"{where}.land.blank", 0)
    if coin + blank == 0:
        raise ModelError(f"{where}.land: the weights of coin and blank add up to 0")
    jackpots_raw = raw.get("jackpots", {})
    if not isinstance(jackpots_raw, Mapping):
        raise ModelError(f"{where}.jackpots must be a table of tier = total bets")
    jackpots: dict[str, int] = {}
    for tier, amount in jackpots_raw.items():
        if not isinstance(amount, int) or isinstance(amount, bool) or amount < 1:
            raise ModelError(
                f"{where}.jackpots.{tier}: a jackpot tier needs a value of at least 1 total "
                f"bet, got {amount!r}"
            )
        if str(tier).isdigit():
            raise ModelError(f"{where}.jackpots.{tier}: a tier is named by a word, not a number")
        jackpots[str(tier)] = amount
    values_raw = _table(raw["values"], f"{where}.values")
    values = []
    for key, weight in values_raw.items():
        at = f"{where}.values.{key}"
        weight = _whole(weight, at, 0)
        text = str(key)
        if text.isdigit():
            amount = int(text)
            if amount < 1:
                raise ModelError(f"{at}: a coin value is a whole number of total bets from 1")
            values.append(CoinValue(amount, weight))
        elif text in jackpots:
            values.append(CoinValue(jackpots[text], weight, text))
        else:
            raise ModelError(
                f"{at}: jackpot tier {text!r} has no value: give it one in "
                f"{where}.jackpots (or write a coin value as a whole number of total bets)"
            )
    if sum(v.weight for v in values) == 0:
        raise ModelError(f"{where}.values: the weights add up to 0; a coin must get a value")
    full_grid = raw.get("full_grid")
    if full_grid is not None and (not isinstance(full_grid, str) or full_grid not in jackpots):
        raise ModelError(
            f"{where}.full_grid = {full_grid!r}: jackpot tier without a value; the tiers "
            f"of {where}.jackpots are: {', '.join(jackpots) or 'none'}"
        )
    return HoldAndSpin(
        symbol=symbol,
        cells=cells,
        trigger=trigger,
        respins=respins,
        coin_weight=coin,
        blank_weight=blank,
        values=tuple(values),
        jackpots=jackpots,
        full_grid=full_grid,
    )


@cache
def hold_and_spin_rules(model: GameModel) -> HoldAndSpin:
    """:func:`read`, once per loaded model."""
    return read(model)


def problems(model: GameModel) -> list[str]:
    try:
        read(model)
    except ModelError as exc:
        return [str(exc)]
    return []
