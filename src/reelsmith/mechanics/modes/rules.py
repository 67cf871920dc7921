"""The ``[modes]`` table, read and checked::

    [modes]
    rtp_tolerance = 0.5        # percentage points: validate warns when modes' RTPs differ more

    [modes.ante]
    kind = "ante"
    price = 1.25               # in total bets
    reel_set = "ante"          # the variant reel set its base spins spin

    [modes.buy]
    kind = "buy"
    price = 100
    triggers = 4               # the feature starts as if 4 trigger symbols had landed

A mode is sold beside the base game at ``price`` total bets. An *ante* plays the base game on
its own reel set (present in every variant; more trigger symbols on it make the feature more
frequent). A *buy* plays no base spin: the round starts the free spins as a base spin showing
``triggers`` trigger symbols would (the award table or one reveal per symbol, the trigger's
multiplier), and the feature plays as usual. Prices are exact decimals with at most two places
(a price is a multiple of the bet, and money is never a float).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from functools import cache
from typing import Any

from reelsmith.engine.model import GameModel, ModelError

KINDS = ("ante", "buy")
#: Keys of ``[modes]`` itself (every other key is a mode's table).
SETTINGS = frozenset({"rtp_tolerance"})
KEYS = {
    "ante": frozenset({"kind", "price", "reel_set"}),
    "buy": frozenset({"kind", "price", "triggers"}),
}
#: The tolerance between modes' RTPs where the model sets none, in percentage points.
DEFAULT_TOLERANCE = Decimal("0.5")
_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
#: The round's part key naming the mode a round is played in (absent: the base game).
MODE = "mode"


@dataclass(frozen=True)
class Mode:
    """One mode: its name, kind, price in total bets and what it changes."""

    name: str
    kind: str
    price: Fraction
    reel_set: str | None = None  # an ante's base reel set
    triggers: int = 0  # a buy's trigger count

    @property
    def price_text(self) -> str:
        """The price as the model writes it (``1.25``, ``100``)."""
        value = Decimal(self.price.numerator) / Decimal(self.price.denominator)
        return format(value.normalize(), "f")


@dataclass(frozen=True)
class Modes:
    """A model's modes by name, in the order the model lists them, and the tolerance between
    their RTPs (percentage points)."""

    modes: Mapping[str, Mode]
    rtp_tolerance: Decimal

    def get(self, name: str) -> Mode:
        found = self.modes.get(name)
        if found is None:
            known = ", ".join(self.modes) or "none"
            raise ModelError(f"no mode {name!r}; the modes are: {known}")
        return found


def _price(value: Any) -> Fraction | None:
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return None
    try:
        exact = Decimal(str(value))
    except InvalidOperation:
        return None
    if not exact.is_finite() or exact <= 0 or exact.as_tuple().exponent < -2:  # type: ignore[operator]
        return None
    return Fraction(exact)


def table_problems(raw: Mapping[str, Any], where: str) -> list[str]:
    """Every problem of ``raw['modes']`` that needs no loaded model, one line each naming the
    key."""
    table = raw.get("modes")
    if not isinstance(table, dict):
        return [f"{where}: modes must be a table of modes ([modes.<name>])"]
    problems: list[str] = []
    tolerance = table.get("rtp_tolerance", DEFAULT_TOLERANCE)
    if (
        isinstance(tolerance, bool)
        or not isinstance(tolerance, (int, float, Decimal))
        or tolerance < 0
    ):
        problems.append(
            f"{where}: modes.rtp_tolerance must be a number of percentage points >= 0, "
            f"got {tolerance!r}"
        )
    named = {k: v for k, v in table.items() if k not in SETTINGS}
    if not named:
        problems.append(f"{where}: modes: no mode is declared ([modes.<name>] with a kind)")
    for name, mode in named.items():
        at = f"{where}: modes.{name}"
        if not isinstance(mode, dict):
            problems.append(f"{at} must be a table (kind, price, ...)")
            continue
        if not _NAME.match(name):
            problems.append(f"{at}: a mode's name is a lower-case word (a-z, digits, _)")
        kind = mode.get("kind")
        if kind not in KINDS:
            problems.append(f"{at}.kind must be one of {', '.join(KINDS)}, got {kind!r}")
            continue
        for key in sorted(set(mode) - KEYS[kind]):
            problems.append(
                f"{at}: unknown key {key!r}; the keys of a {kind} are: "
                f"{', '.join(sorted(KEYS[kind]))}"
            )
        if "price" not in mode:
            problems.append(f"{at}: missing key 'price': a mode is sold at a price in total bets")
        elif _price(mode["price"]) is None:
            problems.append(
                f"{at}.price must be a number of total bets above 0 with at most two decimals, "
                f"got {mode['price']!r}"
            )
        if kind == "ante":
            if not isinstance(mode.get("reel_set"), str):
                problems.append(
                    f"{at}: missing key 'reel_set': an ante names the reel set its base spins spin"
                )
        else:
            triggers = mode.get("triggers")
            free = raw.get("free_spins")
            if not isinstance(free, dict):
                problems.append(
                    f"{at}: a bought feature needs free spins ([free_spins]); this model has none"
                )
            elif (
                not isinstance(triggers, int)
                or isinstance(triggers, bool)
                or not isinstance(free.get("trigger"), int)
                or not free["trigger"]
                <= triggers
                <= int(raw.get("reels", 0)) * int(raw.get("rows", 0))
            ):
                problems.append(
                    f"{at}.triggers must be a whole count from free_spins.trigger "
                    f"({free.get('trigger')!r}) to the window's cells, got {triggers!r}"
                )
    return problems


def problems(model: GameModel) -> list[str]:
    """The modes' problems against the loaded model: an ante's reel set in every variant."""
    where = str(model.source or model.id)
    found = table_problems(model.raw, where)
    if found:
        return found
    for mode in modes_of(model).modes.values():
        if mode.kind != "ante":
            continue
        for variant in model.variants.values():
            if mode.reel_set not in variant.reel_sets:
                found.append(
                    f"{variant.source or variant.id}: modes.{mode.name}.reel_set "
                    f"{mode.reel_set!r} is not a reel set of this variant; the reel sets are: "
                    f"{', '.join(sorted(variant.reel_sets))}"
                )
    return found


@cache
def modes_of(model: GameModel) -> Modes:
    """The model's modes (none where it has no ``[modes]``); ModelError with the first
    problem's line where the table is wrong."""
    table = model.raw.get("modes")
    if table is None:
        return Modes({}, DEFAULT_TOLERANCE)
    found = table_problems(model.raw, str(model.source or model.id))
    if found:
        raise ModelError(found[0])
    out: dict[str, Mode] = {}
    for name, mode in table.items():
        if name in SETTINGS:
            continue
        price = _price(mode["price"])
        assert price is not None
        out[name] = Mode(
            name=name,
            kind=mode["kind"],
            price=price,
            reel_set=mode.get("reel_set"),
            triggers=int(mode.get("triggers", 0)),
        )
    tolerance = Decimal(str(table.get("rtp_tolerance", DEFAULT_TOLERANCE)))
    return Modes(out, tolerance)
