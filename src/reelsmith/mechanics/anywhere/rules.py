"""The pay-anywhere tables, read and checked, and the count rule itself (numba), written once
for live play, the cascade's enumeration and the exact analysis.

``[anywhere]``::

    [anywhere]
    cost = 40                        # coins one spin costs at one coin per unit (the bet's "lines")
    pure_wild_counts = "every_symbol"  # wilds alone count for every symbol, or "none"
    [anywhere_pays]                  # coins per coin unit, by count on the whole window
    cherry = { 5 = 10, 6 = 20, "7+" = 100 }
    heart = { "8-9" = 40, "10-11" = 100, "12+" = 500 }
    wild = { "5+" = 2000 }           # the wild's own count, where it pays on its own

A count key is a number (``5``), a range (``"8-9"``) or a count and every higher one
(``"12+"``); a count no key covers pays nothing. The rule, for each paying symbol ``s``:
``n = count of s + count of wilds`` (the wilds only where the wild stands in for ``s``; with
``pure_wild_counts = "none"`` a symbol the window does not show counts 0, however many wilds it
shows) pays ``anywhere_pays[s][n]``; the wild's own row pays by the count of wilds. Several
symbols pay on one screen, and one wild counts for every symbol it stands in for. In a
cascade a symbol's win removes every cell of the symbol and every wild counted with it; the
wild's own win every wild.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from reelsmith.engine.model import GameModel, ModelError
from reelsmith.mechanics.ways.rules import whole

ANYWHERE_KEYS = frozenset({"cost", "pure_wild_counts"})
PURE_WILD = {"every_symbol": 0, "none": 1}
EVERY_SYMBOL, NO_PURE_WILD = 0, 1


@dataclass(frozen=True, eq=False)
class AnywhereRules:
    cost: int
    pure_wild: int
    #: ``pays[symbol, count]`` in coins per coin unit, count 0..every cell of the window.
    pays: npt.NDArray[np.int64]
    paying: npt.NDArray[np.int64]  # the symbols that pay by count (not the wild's own row)
    wild_pays: bool  # whether the wild pays on its own count

    @property
    def least(self) -> int:
        """The least count any row pays."""
        return int(np.flatnonzero(self.pays.any(axis=0))[0])


def count_range(key: str, where: str, cells: int) -> range:
    """The counts a pay-table key covers: ``"5"``, ``"8-9"`` or ``"12+"`` (up to ``cells``)."""
    text = str(key).strip()
    try:
        if text.endswith("+"):
            low, high = int(text[:-1]), cells
        elif "-" in text:
            first, _, last = text.partition("-")
            low, high = int(first), int(last)
        else:
            low = high = int(text)
    except ValueError:
        raise ModelError(
            f'{where}: count {key!r} is not a count ("5"), a range ("8-9") or a count and '
            'above ("12+")'
        ) from None
    if not 1 <= low <= cells or (not text.endswith("+") and not low <= high <= cells):
        raise ModelError(f"{where}: count {key!r} is outside 1..{cells} (the window's cells)")
    return range(low, high + 1)


def _pay_row(table: Any, where: str, cells: int) -> npt.NDArray[np.int64]:
    if not isinstance(table, Mapping) or not table:
        raise ModelError(f'{where} must be a table of count = coins, e.g. {{ 5 = 10, "6+" = 20 }}')
    row = np.zeros(cells + 1, dtype=np.int64)
    covered: dict[int, str] = {}
    for key, pay in table.items():
        if not isinstance(pay, int) or isinstance(pay, bool) or pay < 0:
            raise ModelError(f"{where}.{key}: the pay must be a whole number >= 0, got {pay!r}")
        for count in count_range(key, where, cells):
            if count in covered:
                raise ModelError(
                    f"{where}: counts {covered[count]!r} and {key!r} both cover {count}"
                )
            covered[count] = str(key)
            row[count] = pay
    return row


def read(model: GameModel) -> AnywhereRules:
    where = f"{model.source or model.id}: anywhere"
    raw = model.raw.get("anywhere")
    if not isinstance(raw, Mapping):
        raise ModelError(f"{where} must be a table")
    unknown = sorted(set(raw) - ANYWHERE_KEYS)
    if unknown:
        raise ModelError(
            f"{where}: unknown key {unknown[0]!r}; the keys are: {', '.join(sorted(ANYWHERE_KEYS))}"
        )
    cost = whole(raw.get("cost"), f"{where}.cost", 1)
    mode = raw.get("pure_wild_counts", "every_symbol")
    if mode not in PURE_WILD:
        raise ModelError(
            f"{where}.pure_wild_counts must be one of {', '.join(PURE_WILD)}, got {mode!r}"
        )
    cells = model.reels * model.rows
    table = model.raw.get("anywhere_pays")
    at = f"{model.source or model.id}: anywhere_pays"
    if not isinstance(table, Mapping) or not table:
        raise ModelError(f"{at} must be a table of symbol = {{ count = coins }}")
    index = {s.id: s for s in model.symbols}
    pays = np.zeros((len(model.symbols), cells + 1), dtype=np.int64)
    for symbol_id, row in table.items():
        symbol = index.get(symbol_id)
        if symbol is None:
            raise ModelError(f"{at}.{symbol_id}: {symbol_id!r} is not a symbol id")
        if symbol.role not in ("regular", "wild"):
            raise ModelError(
                f"{at}.{symbol_id}: a {symbol.role} symbol does not pay by count here "
                "(a scatter pays by [scatter])"
            )
        pays[symbol.index] = _pay_row(row, f"{at}.{symbol_id}", cells)
    if not pays.any():
        raise ModelError(f"{at} pays nothing")
    if model.bet.get("lines") not in (None, {"min": cost, "max": cost}):
        raise ModelError(
            f"{model.source or model.id}: bet.lines of a pay-anywhere game is its cost: "
            f"{{ min = {cost}, max = {cost} }}"
        )
    paying = np.array(
        [
            s.index
            for s in model.symbols
            if s.role == "regular" and pays[s.index].any() and s.index != model.wild
        ],
        dtype=np.int64,
    )
    wild_pays = model.wild >= 0 and bool(pays[model.wild].any())
    return AnywhereRules(cost, PURE_WILD[mode], pays, paying, wild_pays)


@cache
def anywhere_rules(model: GameModel) -> AnywhereRules:
    return read(model)


def screen_pays(model: GameModel, free: bool) -> npt.NDArray[np.int64]:
    """The count pays of a base (``free`` False) or free spin: a free spin's are the table
    times the free spins' multiplier."""
    rules = anywhere_rules(model)
    if not free or "free_spins" not in model.raw:
        return rules.pays
    from reelsmith.engine.catalogue import mechanics

    spins = mechanics(model).free_spins
    return rules.pays if spins is None else rules.pays * spins.multiplier


def problems(model: GameModel) -> list[str]:
    try:
        rules = anywhere_rules(model)
    except ModelError as exc:
        return [str(exc)]
    found = []
    spins = model.raw.get("free_spins")
    if isinstance(spins, Mapping) and "exceptions" in spins:
        found.append(
            f"{model.source or model.id}: free_spins.exceptions name line counts; a "
            "pay-anywhere game's free spins multiply every count pay by free_spins.multiplier"
        )
    if "line_pays" in model.raw or "paylines" in model.raw:
        found.append(
            f"{model.source or model.id}: a pay-anywhere game's pays are [anywhere_pays], "
            "not paylines and [line_pays]"
        )
    if model.wild >= 0 and not rules.wild_pays and not model.substitutable[rules.paying].any():
        found.append(
            f"{model.source or model.id}: wild: the wild stands in for no paying symbol and "
            "has no [anywhere_pays] row of its own: it does nothing"
        )
    return found


@njit(cache=True, nogil=True, inline="always")
def counted(own: int, wilds: int, stands_in: bool, pure_wild: int) -> int:
    """A symbol's count: its own cells, and the wilds where the wild stands in for it (with
    ``pure_wild_counts = "none"`` only where the window shows the symbol itself)."""
    if stands_in and (own > 0 or pure_wild == EVERY_SYMBOL):
        return own + wilds
    return own


@njit(cache=True, nogil=True, inline="always")
def pays_nothing(
    prefix: npt.NDArray[np.int64],
    columns: npt.NDArray[np.int64],
    reel: int,
    stop: int,
    pays: npt.NDArray[np.int64],
    paying: npt.NDArray[np.int64],
    wild: int,
    substitutable: npt.NDArray[np.bool_],
    pure_wild: int,
    wild_pays: bool,
) -> bool:
    """Whether the count rule pays nothing on a window whose counts are ``prefix`` plus
    ``columns[reel, stop]`` (one slot per symbol: the enumeration's reels before the last, and
    the last reel's window at ``stop``), stopping at the first symbol that pays. Indexed, not
    sliced: the enumeration calls it once per stop combination."""
    top = pays.shape[1] - 1
    wilds = prefix[wild] + columns[reel, stop, wild] if wild >= 0 else 0
    for i in range(paying.shape[0]):
        s = paying[i]
        own = prefix[s] + columns[reel, stop, s]
        n = counted(own, wilds, wild >= 0 and substitutable[s], pure_wild)
        if pays[s, min(n, top)] > 0:
            return False
    return not (wild_pays and pays[wild, min(wilds, top)] > 0)


@njit(cache=True, nogil=True, inline="always")
def anywhere_pay_counts(
    counts: npt.NDArray[np.int64],
    pays: npt.NDArray[np.int64],
    paying: npt.NDArray[np.int64],
    wild: int,
    substitutable: npt.NDArray[np.bool_],
    pure_wild: int,
    wild_pays: bool,
    out_count: npt.NDArray[np.int64],
    out_pay: npt.NDArray[np.int64],
) -> int:
    """The count rule (see the module) on a window that shows ``counts[symbol]`` of each
    symbol: each paying symbol ``paying[i]``'s count and pay per coin unit into ``out_*[i]``
    (the wild's own row into the last slot); returns the total pay."""
    wilds = counts[wild] if wild >= 0 else 0
    top = pays.shape[1] - 1
    total = 0
    for i in range(paying.shape[0]):
        s = paying[i]
        n = counted(counts[s], wilds, wild >= 0 and substitutable[s], pure_wild)
        pay = pays[s, min(n, top)]
        out_count[i] = n
        out_pay[i] = pay
        total += pay
    last = out_pay.shape[0] - 1
    out_count[last] = wilds
    out_pay[last] = 0
    if wild_pays:
        out_pay[last] = pays[wild, min(wilds, top)]
        total += out_pay[last]
    return total


@njit(cache=True, nogil=True, inline="always")
def anywhere_pay(
    grid: npt.NDArray[np.int8],
    counts: npt.NDArray[np.int64],
    pays: npt.NDArray[np.int64],
    paying: npt.NDArray[np.int64],
    wild: int,
    substitutable: npt.NDArray[np.bool_],
    pure_wild: int,
    wild_pays: bool,
    out_count: npt.NDArray[np.int64],
    out_pay: npt.NDArray[np.int64],
) -> int:
    """The count rule on ``grid``: its counts read into ``counts`` (one slot per symbol, a
    buffer the caller keeps), then :func:`anywhere_pay_counts`."""
    rows, reels = grid.shape
    counts[:] = 0
    for reel in range(reels):
        for row in range(rows):
            counts[grid[row, reel]] += 1
    return anywhere_pay_counts(
        counts, pays, paying, wild, substitutable, pure_wild, wild_pays, out_count, out_pay
    )


@njit(cache=True, nogil=True, inline="always")
def mark_removed(
    grid: npt.NDArray[np.int8],
    paying: npt.NDArray[np.int64],
    wild: int,
    substitutable: npt.NDArray[np.bool_],
    out_pay: npt.NDArray[np.int64],
    removed: npt.NDArray[np.bool_],
) -> None:
    """Mark in ``removed`` the cells the screen's count wins take away (``out_pay`` as
    :func:`anywhere_pay_counts` left it): a paying symbol's every cell and the wilds that
    counted for it; the wild's own win every wild."""
    rows, reels = grid.shape
    n = paying.shape[0]
    for i in range(n + 1):
        if out_pay[i] <= 0:
            continue
        symbol = paying[i] if i < n else wild
        with_wild = i == n or (wild >= 0 and substitutable[symbol])
        for reel in range(reels):
            for row in range(rows):
                cell = grid[row, reel]
                if cell == symbol or (with_wild and cell == wild):
                    removed[row, reel] = True


def warnings(model: GameModel, where: str) -> list[str]:
    """A count the pay table leaves out between its first entry and the window's cells: such
    a count pays nothing, which a designer rarely means."""
    from reelsmith.modelio.validate import _or

    rules = anywhere_rules(model)
    found = []
    for symbol_id in model.raw.get("anywhere_pays") or {}:
        row = rules.pays[next(s.index for s in model.symbols if s.id == symbol_id)]
        first = int(np.flatnonzero(row)[0]) if row.any() else len(row)
        missing = [c for c in range(first, len(row)) if row[c] == 0]
        if missing:
            found.append(
                f"warning: {where}: anywhere_pays.{symbol_id} lists no pay for "
                f'{_or(missing)}: such a count pays nothing (write "{first}+" for a count '
                "and every higher one)"
            )
    return found
