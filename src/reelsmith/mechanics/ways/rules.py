"""The ways' tables, read and checked, and the ways rule itself (numba), written once for live
play and the exact analysis.

``[ways]``::

    [ways]
    cost = 25                    # coins one spin costs at one coin per unit (the bet's "lines")
    min_run = 3                  # the least run that pays (default: the least count any pays)
    wild_weights = [1, 1, 1, 1, 1]   # per reel, how many ways one wild counts for (default 1)
    pure_wild_ways = "every_symbol"  # ways made of wilds alone: "every_symbol", "none", "wild"
    [ways.free_spins_wild_weights]   # drawn per free spin for each reel listed (weight = odds)
    2 = { 2 = 1, 3 = 1 }
    [ways_pays]                  # per way, in coins per coin unit, by run length
    giraffe = { 3 = 4, 4 = 20, 5 = 100 }

The rule, for each paying symbol ``s`` (a symbol with a pay the wild substitutes for, or any
paying symbol for its own count): ``A_r = count of s on reel r + weight_r x wilds on reel r``;
the run ``n`` is the number of consecutive reels from reel 1 with ``A_r > 0``; the ways are
``W = A_1 x ... x A_n``, and the win ``ways_pays[s][n] x W`` per coin unit where ``n`` is at
least ``min_run``. Ways made of wilds alone (``B_r = weight_r x wilds``, ``W_0 = B_1 x ... x
B_n``) count for every symbol (``"every_symbol"``: the plain product), for none
(``"none"``: ``W - W_0``), or once, on the wild's own row (``"wild"``: ``W - W_0`` for each
symbol, and the wild's run of ``m`` reels with wilds pays ``ways_pays[wild][m] x B_1 x ... x
B_m``). Several symbols pay on one spin; nothing pays right to left.
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

WAYS_KEYS = frozenset(
    {"cost", "min_run", "wild_weights", "pure_wild_ways", "free_spins_wild_weights"}
)
PURE_WILD = {"every_symbol": 0, "none": 1, "wild": 2}
EVERY_SYMBOL, NO_PURE_WILD, PURE_WILD_AS_WILD = 0, 1, 2


@dataclass(frozen=True, eq=False)
class WaysRules:
    cost: int
    min_run: int
    weights: npt.NDArray[np.int64]  # [reel]: fixed wild weights
    pure_wild: int
    #: Per reel, the weights a free spin draws its wild weight from: (values, odds); a reel
    #: not listed keeps its fixed weight.
    free_weights: Mapping[int, tuple[tuple[int, ...], tuple[int, ...]]]
    paying: npt.NDArray[np.int64]  # the symbols that pay per way (not the wild's own row)


def whole(value: Any, where: str, low: int) -> int:
    """``value`` as a whole number of at least ``low``; ModelError naming ``where`` else."""
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise ModelError(f"{where} must be a whole number >= {low}, got {value!r}")
    return value


def read(model: GameModel) -> WaysRules:
    where = f"{model.source or model.id}: ways"
    raw = model.raw.get("ways")
    if not isinstance(raw, Mapping):
        raise ModelError(f"{where} must be a table")
    unknown = sorted(set(raw) - WAYS_KEYS)
    if unknown:
        raise ModelError(
            f"{where}: unknown key {unknown[0]!r}; the keys are: {', '.join(sorted(WAYS_KEYS))}"
        )
    cost = whole(raw.get("cost"), f"{where}.cost", 1)
    pays = model.line_pays
    counts = [n for n in range(1, model.reels + 1) if pays[:, n].any()]
    if not counts:
        raise ModelError(f"{model.source or model.id}: ways_pays pays nothing")
    min_run = whole(raw.get("min_run", counts[0]), f"{where}.min_run", 1)
    if min_run > model.reels:
        raise ModelError(f"{where}.min_run {min_run} is more than the {model.reels} reels")
    weights_raw = raw.get("wild_weights", [1] * model.reels)
    if not isinstance(weights_raw, list) or len(weights_raw) != model.reels:
        raise ModelError(f"{where}.wild_weights must list {model.reels} weights, one per reel")
    weights = np.array(
        [whole(w, f"{where}.wild_weights[{r}]", 1) for r, w in enumerate(weights_raw)],
        dtype=np.int64,
    )
    mode = raw.get("pure_wild_ways", "every_symbol")
    if mode not in PURE_WILD:
        raise ModelError(
            f"{where}.pure_wild_ways must be one of {', '.join(PURE_WILD)}, got {mode!r}"
        )
    if mode == "wild" and (model.wild < 0 or not pays[model.wild].any()):
        raise ModelError(f'{where}.pure_wild_ways = "wild" needs ways_pays for the wild')
    free_raw = raw.get("free_spins_wild_weights", {})
    if not isinstance(free_raw, Mapping):
        raise ModelError(f"{where}.free_spins_wild_weights must be a table of reel = {{...}}")
    free: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {}
    for reel_text, law in free_raw.items():
        at = f"{where}.free_spins_wild_weights.{reel_text}"
        try:
            reel = int(reel_text)
        except ValueError:
            raise ModelError(f"{at}: {reel_text!r} is not a reel number") from None
        if not 1 <= reel <= model.reels:
            raise ModelError(f"{at}: reel {reel} is outside 1..{model.reels}")
        if not isinstance(law, Mapping) or not law:
            raise ModelError(f"{at} must be a table of weight = odds")
        values = tuple(whole(int(v) if str(v).isdigit() else v, at, 1) for v in law)
        odds = tuple(whole(o, f"{at}.{v}", 0) for v, o in law.items())
        if not sum(odds):
            raise ModelError(f"{at}: the odds are all 0")
        free[reel - 1] = (values, odds)
    if model.bet.get("lines") not in (None, {"min": cost, "max": cost}):
        raise ModelError(
            f"{model.source or model.id}: bet.lines of a ways game is its cost: "
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
    return WaysRules(cost, min_run, weights, PURE_WILD[mode], free, paying)


@cache
def ways_rules(model: GameModel) -> WaysRules:
    return read(model)


def problems(model: GameModel) -> list[str]:
    try:
        ways_rules(model)
    except ModelError as exc:
        return [str(exc)]
    return []


@njit(cache=True, nogil=True)
def ways_pay(
    grid: npt.NDArray[np.int8],
    pays: npt.NDArray[np.int64],
    paying: npt.NDArray[np.int64],
    wild: int,
    substitutable: npt.NDArray[np.bool_],
    weights: npt.NDArray[np.int64],
    min_run: int,
    pure_wild: int,
    out_run: npt.NDArray[np.int64],
    out_ways: npt.NDArray[np.int64],
    out_pay: npt.NDArray[np.int64],
) -> int:
    """The ways rule (see the module) on ``grid`` with the reels' wild ``weights``: for each
    paying symbol ``paying[i]`` its run, ways and pay per coin unit into ``out_*[i]`` (the
    wild's own row, under ``pure_wild = 2``, into the last slot); returns the total pay. The
    grid's counts are read into one stop per reel and paid by :func:`ways_pay_counts`."""
    rows, reels = grid.shape
    counts = np.zeros((reels, 1, paying.shape[0]), dtype=np.int64)
    wilds = np.zeros((reels, 1), dtype=np.int64)
    for reel in range(reels):
        for row in range(rows):
            cell = grid[row, reel]
            if cell == wild:
                wilds[reel, 0] += 1
            for i in range(paying.shape[0]):
                if cell == paying[i]:
                    counts[reel, 0, i] += 1
    stops = np.zeros(reels, dtype=np.int64)
    return ways_pay_counts(
        counts,
        wilds,
        stops,
        pays,
        paying,
        wild,
        substitutable,
        weights,
        min_run,
        pure_wild,
        out_run,
        out_ways,
        out_pay,
    )


@njit(cache=True, nogil=True)
def ways_pay_counts(
    counts: npt.NDArray[np.int64],
    wilds: npt.NDArray[np.int64],
    stops: npt.NDArray[np.int64],
    pays: npt.NDArray[np.int64],
    paying: npt.NDArray[np.int64],
    wild: int,
    substitutable: npt.NDArray[np.bool_],
    weights: npt.NDArray[np.int64],
    min_run: int,
    pure_wild: int,
    out_run: npt.NDArray[np.int64],
    out_ways: npt.NDArray[np.int64],
    out_pay: npt.NDArray[np.int64],
) -> int:
    """The ways rule on a screen given by its counts: reel ``r`` stopped at ``stops[r]`` shows
    ``counts[r, stops[r], i]`` of ``paying[i]`` and ``wilds[r, stops[r]]`` wilds. Live play
    reads a grid into one stop per reel (:func:`ways_pay`); the kernel reads a reel set's
    tables of every stop once and pays each screen by its stops. Outputs as :func:`ways_pay`."""
    reels = counts.shape[0]
    total = 0
    for i in range(paying.shape[0]):
        s = paying[i]
        sub_ok = wild >= 0 and substitutable[s]
        ways = 1
        only_wild = 1
        run = 0
        for reel in range(reels):
            stop = stops[reel]
            sub = weights[reel] * wilds[reel, stop] if sub_ok else 0
            shown = counts[reel, stop, i] + sub
            if shown == 0:
                break
            ways *= shown
            only_wild *= sub
            run += 1
        if pure_wild != 0:
            ways -= only_wild
        pay = 0
        if run >= min_run and ways > 0:
            pay = pays[s, run] * ways
        out_run[i] = run
        out_ways[i] = ways if pay > 0 else 0
        out_pay[i] = pay
        total += pay
    if pure_wild == 2:
        run = 0
        ways = 1
        for reel in range(reels):
            shown = wilds[reel, stops[reel]]
            if shown == 0:
                break
            ways *= weights[reel] * shown
            run += 1
        last = out_pay.shape[0] - 1
        pay = pays[wild, run] * ways if run >= min_run and run > 0 else 0
        out_run[last] = run
        out_ways[last] = ways if pay > 0 else 0
        out_pay[last] = pay
        total += pay
    return total


@njit(cache=True, nogil=True, inline="always")
def ways_pay_alive(
    counts: npt.NDArray[np.int64],
    wilds: npt.NDArray[np.int64],
    weights: npt.NDArray[np.int64],
    reel_set: int,
    stops: npt.NDArray[np.int64],
    alive: int,
    pays: npt.NDArray[np.int64],
    paying: npt.NDArray[np.int64],
    wild: int,
    substitutable: npt.NDArray[np.bool_],
    min_run: int,
    pure_wild: int,
) -> int:
    """:func:`ways_pay_counts`' total on the kernel's stacked tables (``counts[reel_set]``,
    ``wilds[reel_set]``, ``weights[reel_set]``, ``pays[reel_set]``), walking only the symbols
    set in ``alive``: bit ``i`` for ``paying[i]``, bit ``len(paying)`` for the wild's own row,
    set when that symbol (or a wild standing in for it) shows on each of the first
    ``min_run`` reels. Any other symbol's run is shorter than ``min_run`` and pays nothing, so
    the total is the same; no per-symbol outputs are written. Inlined into the round loop
    (a call would reference-count each array it is handed, which costs more than the rule)."""
    reels = counts.shape[1]
    n = paying.shape[0]
    total = 0
    bits = alive & ((np.int64(1) << n) - 1)
    i = 0
    while bits != 0:
        if bits & 1:
            s = paying[i]
            sub_ok = wild >= 0 and substitutable[s]
            ways = 1
            only_wild = 1
            run = 0
            for reel in range(reels):
                stop = stops[reel]
                sub = weights[reel_set, reel] * wilds[reel_set, reel, stop] if sub_ok else 0
                shown = counts[reel_set, reel, stop, i] + sub
                if shown == 0:
                    break
                ways *= shown
                only_wild *= sub
                run += 1
            if pure_wild != 0:
                ways -= only_wild
            if run >= min_run and ways > 0:
                total += pays[reel_set, s, run] * ways
        bits >>= 1
        i += 1
    if pure_wild == 2 and (alive >> n) & 1:
        run = 0
        ways = 1
        for reel in range(reels):
            shown = wilds[reel_set, reel, stops[reel]]
            if shown == 0:
                break
            ways *= weights[reel_set, reel] * shown
            run += 1
        if run >= min_run and run > 0:
            total += pays[reel_set, wild, run] * ways
    return total


def symbol_bits(
    n_symbols: int, paying: npt.NDArray[np.int64], wild: int, substitutable: npt.NDArray[np.bool_]
) -> npt.NDArray[np.int64]:
    """For each symbol the bits of the paying symbols it counts for on a reel, as
    :func:`ways_pay_marking` reads them: bit ``i`` for ``paying[i]`` itself, and on the wild
    every paying symbol it stands in for plus bit ``len(paying)``, the wild's own row."""
    n = paying.shape[0]
    if n > 62:
        raise ModelError(f"ways: {n} paying symbols; the ways rule takes at most 62")
    bits = np.zeros(n_symbols, dtype=np.int64)
    for i in range(n):
        bits[paying[i]] |= np.int64(1) << i
        if wild >= 0 and substitutable[paying[i]]:
            bits[wild] |= np.int64(1) << i
    if wild >= 0:
        bits[wild] |= np.int64(1) << n
    return bits


@njit(cache=True, nogil=True, inline="always")
def ways_pay_marking(
    grid: npt.NDArray[np.int8],
    pays: npt.NDArray[np.int64],
    paying: npt.NDArray[np.int64],
    bits: npt.NDArray[np.int64],
    wild: int,
    substitutable: npt.NDArray[np.bool_],
    weights: npt.NDArray[np.int64],
    min_run: int,
    pure_wild: int,
    removed: npt.NDArray[np.bool_],
) -> int:
    """:func:`ways_pay`'s total on ``grid`` (the same rule as :func:`ways_pay_counts`), marking
    in ``removed`` the cells of every paying way: a paying symbol's and the wilds standing in
    for it on the reels of its run (the wild's own row: its wilds). ``bits``: the symbols'
    :func:`symbol_bits`. A symbol that does not show (itself or by a wild) on each of the
    first ``min_run`` reels pays nothing and is not walked. Nothing is allocated and no
    per-symbol output is written: the cascade's chain calls this on every screen, inlined
    (a call would reference-count each array it is handed, which costs more than the rule)."""
    alive = np.int64(-1)
    for reel in range(min(min_run, grid.shape[1])):
        shown = np.int64(0)
        for row in range(grid.shape[0]):
            shown |= bits[grid[row, reel]]
        alive &= shown
    if alive == 0:
        return 0
    return ways_walk(
        grid, pays, paying, alive, wild, substitutable, weights, min_run, pure_wild, removed
    )


@njit(cache=True, nogil=True, inline="always")
def ways_walk(
    grid: npt.NDArray[np.int8],
    pays: npt.NDArray[np.int64],
    paying: npt.NDArray[np.int64],
    alive: int | np.int64,
    wild: int,
    substitutable: npt.NDArray[np.bool_],
    weights: npt.NDArray[np.int64],
    min_run: int,
    pure_wild: int,
    removed: npt.NDArray[np.bool_],
) -> int:
    """:func:`ways_pay_marking` once its ``alive`` bits are read (bit ``i``: ``paying[i]``
    shows, itself or by a wild, on each of the first ``min_run`` reels; bit ``len(paying)``:
    the wild's own row): the pay of each such symbol's ways, their cells marked."""
    rows, reels = grid.shape
    n = paying.shape[0]
    total = 0
    for i in range(n + 1):
        if not (alive >> i) & 1:
            continue
        own_row = i == n
        if own_row and pure_wild != 2:
            continue
        s = wild if own_row else paying[i]
        sub_ok = (not own_row) and wild >= 0 and substitutable[s]
        ways = 1
        only_wild = 1
        run = 0
        for reel in range(reels):
            own = 0
            wilds = 0
            for row in range(rows):
                cell = grid[row, reel]
                if cell == s:
                    own += 1
                elif cell == wild:
                    wilds += 1
            sub = weights[reel] * wilds if sub_ok else 0
            shown_here = weights[reel] * own if own_row else own + sub
            if shown_here == 0:
                break
            ways *= shown_here
            only_wild *= sub
            run += 1
        if pure_wild != 0 and not own_row:
            ways -= only_wild
        if run < min_run or ways <= 0 or (own_row and run == 0):
            continue
        pay = pays[s, run] * ways
        if pay <= 0:
            continue
        total += pay
        for reel in range(run):
            for row in range(rows):
                cell = grid[row, reel]
                if cell == s or (sub_ok and cell == wild):
                    removed[row, reel] = True
    return total
