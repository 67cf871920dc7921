"""The model tables of the free-spins ladder and its local must-hit-by pots, read and checked.

A model declares the mechanic with a ``[ladder]`` table (the levels, their spins and
multipliers, the collection meter and what feeds it) and one ``[[jackpots]]`` table per reel
(the local pots); ``docs/model-format.md`` documents every key. :func:`read_tables` reports
*every* problem it finds, one line each naming the key at fault, so ``reelsmith validate`` can
list them all; :func:`reelsmith.engine.ladder.ladder_rules` refuses a model on the first.

The bonus symbol (which starts the ladder and fills its meter) is named by ``[ladder] symbol``
or, without it, is the model's one symbol with role ``"bonus"``; the pots' symbol is the
model's one symbol with role ``"gem"``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

#: The model's top-level tables this mechanic adds to the catalogue's.
LADDER_TABLES = frozenset({"ladder", "jackpots"})
LADDER_KEYS = frozenset(
    {
        "symbol",
        "trigger",
        "reel_set",
        "levels",
        "spins_per_level",
        "multipliers",
        "spots",
        "meter_feed",
    }
)
POT_KEYS = frozenset({"name", "reel", "seed", "cap"})
#: ``[bet]`` of a ladder model: bet levels in stake units (read by
#: :class:`reelsmith.engine.bet_ladder.BetLevels`) and the price records written before bet
#: levels named their bets at.
BET_KEYS = frozenset({"levels", "default", "legacy_stake_unit"})


@dataclass(frozen=True)
class LadderTable:
    """``[ladder]`` as declared (symbol ids, counts in symbols, spins and spots)."""

    symbol: str  # the bonus symbol: trigger and meter
    trigger: int  # the least count of it in a main-game spin that starts level 1
    reel_set: str  # the reel set the free spins play
    spins_per_level: int
    multipliers: tuple[int, ...]  # one per level, on line wins
    spots: int  # the meter's spots: a full meter unlocks the next level
    meter_feed: int  # exactly this many bonus symbols in a main-game spin fill one spot


@dataclass(frozen=True)
class PotTable:
    """One ``[[jackpots]]`` entry as declared (in bets; ``reel`` 1-based)."""

    name: str
    reel: int
    seed: int
    cap: int


def _whole(table: Mapping[str, Any], key: str, where: str, low: int, problems: list[str]) -> int:
    """``table[key]`` as a whole number >= ``low``, or -1 after reporting the problem."""
    if key not in table:
        problems.append(f"{where}: missing key {key!r}")
        return -1
    value = table[key]
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        problems.append(f"{where}.{key} must be a whole number >= {low}, got {value!r}")
        return -1
    return value


def _unknown(table: Mapping[str, Any], known: frozenset[str], where: str) -> list[str]:
    return [
        f"{where}: unknown key {key!r}; the keys are: {', '.join(sorted(known))}"
        for key in sorted(set(table) - known)
    ]


def _one_with_role(roles: Mapping[str, str], role: str, where: str, problems: list[str]) -> str:
    found = [symbol for symbol, r in roles.items() if r == role]
    if len(found) != 1:
        problems.append(
            f"{where}: the mechanic needs exactly one symbol with role {role!r}, "
            f"the model has {len(found)}"
        )
        return ""
    return found[0]


def _ladder(
    raw: Any, roles: Mapping[str, str], cells: int, problems: list[str], where: str
) -> LadderTable | None:
    at = f"{where}: ladder"
    if not isinstance(raw, Mapping):
        problems.append(f"{at} must be a table")
        return None
    found = len(problems)
    problems.extend(_unknown(raw, LADDER_KEYS, at))
    if "symbol" in raw:
        symbol = raw["symbol"]
        if not isinstance(symbol, str) or symbol not in roles:
            problems.append(f"{at}.symbol: {symbol!r} is not a declared symbol")
        elif roles[symbol] != "bonus":
            problems.append(f"{at}.symbol: {symbol!r} must be a symbol with role 'bonus'")
    else:
        symbol = _one_with_role(roles, "bonus", f"{at}.symbol (not given)", problems)
    trigger = _whole(raw, "trigger", at, 1, problems)
    if trigger > cells:
        problems.append(f"{at}.trigger: {trigger} is more than the {cells} cells")
    reel_set = raw.get("reel_set", "base")
    if not isinstance(reel_set, str):
        problems.append(f"{at}.reel_set must name a reel set, got {reel_set!r}")
    spins = _whole(raw, "spins_per_level", at, 1, problems)
    spots = _whole(raw, "spots", at, 1, problems)
    multipliers = raw.get("multipliers")
    if (
        not isinstance(multipliers, list)
        or not multipliers
        or any(not isinstance(m, int) or isinstance(m, bool) or m < 1 for m in multipliers)
    ):
        problems.append(f"{at}.multipliers must be a list of whole numbers >= 1, one per level")
        multipliers = []
    if "levels" in raw:
        levels = _whole(raw, "levels", at, 1, problems)
        if levels > 0 and multipliers and len(multipliers) != levels:
            problems.append(
                f"{at}.multipliers lists {len(multipliers)} multipliers for {levels} levels"
            )
    feed = _whole(raw, "meter_feed", at, 1, problems)
    if feed > 0 and trigger > 0 and feed >= trigger:
        problems.append(
            f"{at}.meter_feed: {feed} bonus symbols start the free spins (trigger = {trigger}); "
            "the meter feed must be below the trigger"
        )
    if len(problems) > found:
        return None
    return LadderTable(symbol, trigger, str(reel_set), spins, tuple(multipliers), spots, feed)


def _pots(
    raw: Any, roles: Mapping[str, str], reels: int, problems: list[str], where: str
) -> tuple[PotTable, ...]:
    at = f"{where}: jackpots"
    if raw is None:
        problems.append(f"{at}: the ladder needs its pots, one [[jackpots]] table per reel")
        return ()
    if not isinstance(raw, list) or any(not isinstance(t, Mapping) for t in raw):
        problems.append(f"{at} must be a list of tables ([[jackpots]])")
        return ()
    _one_with_role(roles, "gem", at, problems)
    pots = []
    names: set[str] = set()
    for number, table in enumerate(raw, start=1):
        entry = f"{at}[{number}]"
        found = len(problems)
        problems.extend(_unknown(table, POT_KEYS, entry))
        name = table.get("name")
        if not isinstance(name, str) or not name.isidentifier():
            problems.append(f"{entry}.name must be a name (letters, digits, _), got {name!r}")
        elif name in names:
            problems.append(f"{entry}.name: {name!r} names another pot too")
        else:
            names.add(name)
        reel = _whole(table, "reel", entry, 1, problems)
        if reel > reels:
            problems.append(f"{entry}.reel: {reel} is not a reel of the grid (1 to {reels})")
        seed = _whole(table, "seed", entry, 1, problems)
        cap = _whole(table, "cap", entry, 1, problems)
        if seed > 0 and cap > 0 and seed + 1 >= cap:
            problems.append(
                f"{entry}: seed {seed} leaves no trigger point below the cap {cap} "
                "(the pot is drawn a point from seed + 1 to cap - 1)"
            )
        if len(problems) == found:
            pots.append(PotTable(str(name), reel, seed, cap))
    if len(pots) == len(raw) and [p.reel for p in pots] != list(range(1, reels + 1)):
        problems.append(f"{at}: needs one pot per reel, reels 1 to {reels} in order")
    return tuple(pots)


def _bet(raw: Any, problems: list[str], where: str) -> None:
    at = f"{where}: bet"
    if not isinstance(raw, Mapping):
        problems.append(f"{at} must be a table of levels and a default level")
        return
    problems.extend(_unknown(raw, BET_KEYS, at))
    if "legacy_stake_unit" in raw and legacy_unit(raw) is None:
        problems.append(
            f'{at}.legacy_stake_unit must be a decimal amount above 0 as a string ("0.20"), '
            f"got {raw['legacy_stake_unit']!r}"
        )


def legacy_unit(bet: Mapping[str, Any]) -> Decimal | None:
    """``[bet] legacy_stake_unit`` as a positive decimal (None: absent or not one)."""
    text = bet.get("legacy_stake_unit")
    if not isinstance(text, str):
        return None
    try:
        unit = Decimal(text)
    except InvalidOperation:
        return None
    return unit if unit.is_finite() and unit > 0 else None


def read_tables(
    tables: Mapping[str, Any],
    bet: Any,
    roles: Mapping[str, str],
    reels: int,
    rows: int,
    where: str,
) -> tuple[LadderTable | None, tuple[PotTable, ...], list[str]]:
    """``[ladder]`` and ``[[jackpots]]`` of ``tables`` (a model file's tables), the model's
    ``[bet]`` (``bet``) and ``roles`` (each declared symbol's role), with every problem found
    (empty when all are sound)."""
    problems: list[str] = []
    _bet(bet, problems, where)
    ladder = _ladder(tables.get("ladder"), roles, reels * rows, problems, where)
    pots = _pots(tables.get("jackpots"), roles, reels, problems, where)
    return ladder, pots, problems


def symbol_roles(symbols: Sequence[Any]) -> dict[str, str]:
    """``{id: role}`` of a model file's ``[[symbols]]`` (entries without an id are skipped;
    the loader reports those, and a missing role)."""
    return {
        s["id"]: str(s.get("role", ""))
        for s in symbols
        if isinstance(s, Mapping) and isinstance(s.get("id"), str)
    }
