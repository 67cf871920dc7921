"""The ``[hold_and_spin]`` table, read and checked::

    [hold_and_spin]
    symbol = "coin"        # the coin symbol on the reels (a symbol with role "bonus")
    trigger = 6            # coins anywhere on the window that start the feature
    respins = 3            # respins, reset to this count whenever a new coin lands
    land = { coin = 1, blank = 11 }   # each empty cell's draw on each respin
    values = { 1 = 50, 2 = 30, 5 = 12, 10 = 5, mini = 2, minor = 1 }
    full_grid = "grand"    # optional: the jackpot tier a grid filled with coins also wins
    jackpots = { mini = 20, minor = 50, major = 250, grand = 1000 }
    multipliers = "product"  # optional: several multiplier coins multiply ("sum": add up)

Every coin, those of the triggering window and every one a respin lands, carries a value drawn
independently from ``values`` by weight: a key that is a whole number is that many total bets,
a key naming a tier of ``jackpots`` is that tier's fixed multiple of the total bet. During the
respins only the empty cells spin, each one independently landing a coin with probability
``coin / (coin + blank)``: the chain of the feature then depends only on how many coins are
held and how many respins are left (:mod:`reelsmith.mechanics.hold_and_spin.chain`). The
feature pays the sum of the values on the grid, plus the ``full_grid`` tier when every cell
holds a coin.

Two more kinds of coin may stand in ``values``, each drawn by its weight like any other entry:

* ``collect``: a collector coin. It carries no value of its own; when the feature ends each
  collector on the grid collects the sum of the plain values on the grid (the coins worth
  whole total bets), so ``C`` collectors pay that sum ``C`` more times.
* ``x2``, ``x3``, ...: a multiplier coin (``x`` and a whole number of at least 2). It carries
  no value of its own; when the feature ends the plain values on the grid, and what the
  collectors collect, are multiplied by the grid's multiplier: the factors of its multiplier
  coins multiplied together (``multipliers = "product"``, the default) or added up
  (``multipliers = "sum"``), 1 when none is on the grid.

Jackpot tiers are fixed prizes: a tier coin is neither collected nor multiplied, and neither is
the full-grid tier. With ``S`` the sum of the plain values on the grid, ``C`` its collectors,
``M`` its multiplier, ``J`` its tier coins' jackpots and ``G`` the full-grid tier on a full grid
the feature pays ``(1 + C) M S + J + G`` (:func:`reelsmith.mechanics.hold_and_spin.chain.grid_pay`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from reelsmith.engine.model import GameModel, ModelError

KEYS = frozenset(
    {"symbol", "trigger", "respins", "land", "values", "full_grid", "jackpots", "multipliers"}
)
REQUIRED = ("symbol", "trigger", "respins", "land", "values")
LAND_KEYS = ("coin", "blank")
#: The ways several multiplier coins on the grid combine.
MULTIPLIER_MODES = ("product", "sum")
#: The key of a collector coin in ``values``.
COLLECT = "collect"
_MULTIPLIER_KEY = re.compile(r"x(.*)")
#: The kinds of coin, as the compiled pay rule numbers them.
KIND_PLAIN = 0
KIND_JACKPOT = 1
KIND_COLLECT = 2
KIND_MULTIPLIER = 3
#: The largest pay of a feature, in total bets, the kernel's 64-bit counts can hold at any bet.
MAX_PAY = 2**52


@dataclass(frozen=True)
class CoinValue:
    """One entry of the value table: ``amount`` total bets, won as the jackpot ``tier`` where
    it names one (None: a plain coin value); or a collector coin (``collects``, amount 0) or a
    multiplier coin of ``factor`` (amount 0), neither worth anything on its own."""

    amount: int
    weight: int
    tier: str | None = None
    factor: int = 0
    collects: bool = False

    @property
    def kind(self) -> int:
        """The coin's kind (``KIND_*``), as the compiled pay rule reads it."""
        if self.collects:
            return KIND_COLLECT
        if self.factor:
            return KIND_MULTIPLIER
        return KIND_PLAIN if self.tier is None else KIND_JACKPOT

    @property
    def rule_amount(self) -> int:
        """What the pay rule reads beside the kind: a multiplier's factor, else the amount."""
        return self.factor if self.factor else self.amount

    @property
    def label(self) -> str:
        if self.collects:
            return COLLECT
        if self.factor:
            return f"x{self.factor}"
        return self.tier if self.tier is not None else str(self.amount)

    @property
    def kind_name(self) -> str | None:
        """``"collect"`` or ``"multiplier"`` for those coins (None: a value or a jackpot)."""
        return {KIND_COLLECT: "collect", KIND_MULTIPLIER: "multiplier"}.get(self.kind)


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
    multiply_sum: bool = False  # several multiplier coins add up (False: multiply together)

    @property
    def land_weights(self) -> list[int]:
        """The weights of one empty cell's draw: index 0 a coin, 1 a blank."""
        return [self.coin_weight, self.blank_weight]

    @property
    def value_weights(self) -> list[int]:
        return [v.weight for v in self.values]

    @property
    def collectors(self) -> bool:
        """Whether a coin can be a collector."""
        return any(v.collects and v.weight for v in self.values)

    @property
    def multipliers(self) -> bool:
        """Whether a coin can carry a multiplier."""
        return any(v.factor and v.weight for v in self.values)

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
        if str(tier) == COLLECT or _MULTIPLIER_KEY.fullmatch(str(tier)):
            raise ModelError(
                f"{where}.jackpots.{tier}: the name is kept for a collector (collect) or a "
                f"multiplier coin (x2, x3, ...) in {where}.values; name the tier otherwise"
            )
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
        elif text == COLLECT:
            values.append(CoinValue(0, weight, collects=True))
        elif (written := _MULTIPLIER_KEY.fullmatch(text)) is not None:
            factor = written.group(1)
            if not factor.isdigit() or int(factor) < 2:
                raise ModelError(
                    f"{at}: a multiplier coin is written x and a whole number of at least 2 "
                    f"(x2, x3, ...), got {text!r}"
                )
            values.append(CoinValue(0, weight, factor=int(factor)))
        else:
            raise ModelError(
                f"{at}: jackpot tier {text!r} has no value: give it one in "
                f"{where}.jackpots (or write a coin value as a whole number of total bets)"
            )
    if sum(v.weight for v in values) == 0:
        raise ModelError(f"{where}.values: the weights add up to 0; a coin must get a value")
    plain = any(v.kind == KIND_PLAIN and v.weight for v in values)
    for special in values:
        if special.kind in (KIND_COLLECT, KIND_MULTIPLIER) and special.weight and not plain:
            raise ModelError(
                f"{where}.values.{special.label}: a {special.kind_name} coin needs a plain coin "
                f"value (a whole number of total bets with a weight above 0) to act on"
            )
    mode = raw.get("multipliers", "product")
    if mode not in MULTIPLIER_MODES:
        raise ModelError(
            f"{where}.multipliers = {mode!r}: several multiplier coins combine by "
            f'"product" (multiplied together) or "sum" (added up)'
        )
    full_grid = raw.get("full_grid")
    if full_grid is not None and (not isinstance(full_grid, str) or full_grid not in jackpots):
        raise ModelError(
            f"{where}.full_grid = {full_grid!r}: jackpot tier without a value; the tiers "
            f"of {where}.jackpots are: {', '.join(jackpots) or 'none'}"
        )
    found = HoldAndSpin(
        symbol=symbol,
        cells=cells,
        trigger=trigger,
        respins=respins,
        coin_weight=coin,
        blank_weight=blank,
        values=tuple(values),
        jackpots=jackpots,
        full_grid=full_grid,
        multiply_sum=mode == "sum",
    )
    if found.collectors or found.multipliers:
        top = max_pay(found)
        if top > MAX_PAY:
            raise ModelError(
                f"{where}.values: the largest pay a grid can make, {top:,} total bets, is "
                f"beyond {MAX_PAY:,}; give the multiplier coins smaller factors"
            )
    return found


def max_pay(rules: HoldAndSpin) -> int:
    """The largest pay of a feature in total bets: every way of splitting the grid's cells
    between plain coins, collectors, multipliers and jackpots, each at its largest."""
    drawn = [v for v in rules.values if v.weight]
    plain = max((v.amount for v in drawn if v.kind == KIND_PLAIN), default=0)
    tier = max((v.amount for v in drawn if v.kind == KIND_JACKPOT), default=0)
    factor = max((v.factor for v in drawn if v.kind == KIND_MULTIPLIER), default=0)
    cells = rules.cells
    top = 0
    for collectors in range(cells + 1 if rules.collectors else 1):
        for multipliers in range(cells - collectors + 1 if factor else 1):
            rest = cells - collectors - multipliers
            m = (factor * multipliers if rules.multiply_sum else factor**multipliers) or 1
            for plains in range(rest + 1 if plain else 1):
                pay = (1 + collectors) * m * plains * plain + (rest - plains) * tier
                top = max(top, pay)
    return top + rules.full_grid_amount


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
