"""Game models as data: a title's symbols, paytable, paylines and reel sets, read from TOML.

A title lives in ``games/<title>/`` as ``model.toml`` (what never changes between RTP variants)
plus ``variants/<id>.toml`` (reel strips, reveal weights and the figures computed for them).
Loading turns symbol ids into small integers and paylines and strips into numpy arrays, which
is what the evaluation kernels work on. Every problem in a model file is reported as a
:class:`ModelError` naming the file and the key at fault.
"""

from __future__ import annotations

import hashlib
import json
import math
import tomllib
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

#: Roles a symbol can have. ``regular`` symbols pay on lines and are substituted by the wild;
#: every other role is left to the title's feature rules and interrupts a line.
SYMBOL_ROLES = ("regular", "wild", "scatter", "bonus", "gem")


#: Keys of ``model.toml`` the generic engine reads; every other table is a feature parameter.
_GENERIC_KEYS = frozenset(
    {"id", "name", "reels", "rows", "symbols", "paylines", "line_pays", "scatter", "bet"}
    | {"ways", "ways_pays", "anywhere", "anywhere_pays"}
    | {"default_variant", "description", "line_pay_unit", "wild", "mechanics"}
)

#: The grid sizes the engine, the kernels and the exact analysis support.
MIN_REELS, MAX_REELS = 3, 7
MIN_ROWS, MAX_ROWS = 1, 8

#: What a cell shows below a reel's drawn height (variable rows): no symbol.
BLANK = -1

#: Per reel, the window heights it may show and each one's weight.
Heights = tuple[tuple[tuple[int, int], ...], ...]

#: Per reel, the symbols one of its cells may show and each one's weight (``[cells]``: every
#: cell of the window drawn on its own).
Cells = tuple[tuple[tuple[int, int], ...], ...]

#: The most windows a reel whose cells are drawn may show (its symbols to the power of the
#: rows): the tables live play, the kernel and the exact analysis share hold one entry each.
CELL_WINDOW_LIMIT = 1 << 17

#: A drawn-cells reel's windows weigh the product of their cells' weights; that product stays
#: below this, so the reel's total weight is an exact 64-bit integer.
CELL_TOTAL_LIMIT = 1 << 62

#: Keys of the ``[wild]`` and ``[scatter]`` tables.
_WILD_KEYS = frozenset({"symbol", "substitutes", "multiplier", "ties", "reels"})
_SCATTER_KEYS = frozenset(
    {"symbol", "pays", "reels", "pays_in_free_spins", "max_per_reel", "pays_per"}
)


#: Keys of a ``[reel_sets.<name>]`` table.
_REEL_SET_KEYS = frozenset({"strips", "stop_weights", "cells"})

#: A reel's stop weights total below this: its stop draw is one draw below the total, and the
#: simulation kernel's bounded draw (numpy's) takes bounds below 2^32.
REEL_WEIGHT_LIMIT = 1 << 32


class ModelError(ValueError):
    """A model file is missing something or contradicts itself."""


@dataclass(frozen=True, slots=True)
class Symbol:
    index: int
    id: str
    name: str
    role: str


@dataclass(frozen=True, eq=False)
class ReelSet:
    """One set of reel strips (one strip per reel) as symbol indices.

    ``padded`` repeats the first ``rows - 1`` stops of each strip after its end, so the window
    shown for stop ``s`` is ``padded[reel, s : s + rows]`` without wrap-around arithmetic.

    ``weights`` (``stop_weights`` in the variant file) gives each stop of each strip an integer
    weight: a reel stops at ``s`` with probability ``weights[reel][s] / totals[reel]``. ``None``
    means every stop weighs 1, the reel set as it was before weights existed: its draws, records
    and figures do not change.

    ``heights`` (the model's ``[heights]``: variable rows per reel) gives each reel a weighted
    table of window heights, drawn with the stop: the reel then shows ``height`` consecutive
    stops from its stop and nothing (``BLANK``) below them. Such a reel's draw is over its
    *positions*: position ``k x length + s`` is height ``heights[reel][k]`` at stop ``s``,
    weighing the height's weight times the stop's. Everything that draws or sums over a reel's
    positions reads the ``positions`` view (``position_counts``, ``position_weights``,
    ``totals``, ``cumulative``, ``cycle``, :meth:`windows`), which is the strip's own stops
    when the reel set has no heights; ``lengths``, ``padded`` and ``stop_weights`` stay the
    strips'.

    ``cells`` (a reel set of a model with ``[cells]``) draws every cell of the window on its
    own from its reel's weighted symbol table. The reel's "strip" is then that table's symbols
    (``stop_weights`` their weights), and its positions are every window it can show: position
    ``p`` shows on row ``r`` the symbol of digit ``r`` of ``p`` written in base ``S`` (``S``
    the table's symbols, row 0 the most significant), weighing the product of its cells'
    weights. Live play and the kernel draw the cells one by one (``cell`` draws, rows top to
    bottom) and land on that position, so the exact analysis sums the same law.
    """

    name: str
    strips: tuple[npt.NDArray[np.int8], ...]
    lengths: npt.NDArray[np.int64]
    padded: npt.NDArray[np.int8]
    weights: tuple[npt.NDArray[np.int64], ...] | None = None
    #: Per reel, the window heights it may show and their weights (None: every reel shows
    #: every row).
    heights: Heights | None = None
    #: Per reel, the cell table every cell of its window is drawn from (None: strips).
    cells: Cells | None = None
    rows: int = 0

    @classmethod
    def build(
        cls,
        name: str,
        strips: Sequence[npt.NDArray[np.int8]],
        rows: int,
        weights: Sequence[npt.NDArray[np.int64]] | None = None,
        heights: Heights | None = None,
    ) -> ReelSet:
        lengths = np.array([len(s) for s in strips], dtype=np.int64)
        width = int(lengths.max()) + rows - 1
        padded = np.full((len(strips), width), -1, dtype=np.int8)
        for reel, strip in enumerate(strips):
            extended = np.concatenate([strip, strip[: rows - 1]])
            padded[reel, : len(extended)] = extended
        kept = None
        if weights is not None:
            kept = tuple(np.asarray(w, dtype=np.int64) for w in weights)
            if len(kept) != len(strips) or any(
                len(w) != len(s) or (w < 0).any() or not w.any()
                for w, s in zip(kept, strips, strict=True)
            ):
                raise ValueError(
                    f"reel set {name}: stop weights need one non-negative, not all zero "
                    "weight per stop of each strip"
                )
        if heights is not None and (
            len(heights) != len(strips)
            or any(not law or any(not 1 <= h <= rows or w < 0 for h, w in law) for law in heights)
            or any(not sum(w for _, w in law) for law in heights)
        ):
            raise ValueError(
                f"reel set {name}: heights need one table per reel of heights 1..{rows} with "
                "non-negative, not all zero weights"
            )
        return cls(name, tuple(strips), lengths, padded, kept, heights, rows=rows)

    @classmethod
    def drawn_cells(cls, name: str, cells: Cells, rows: int) -> ReelSet:
        """A reel set whose every cell is drawn on its own: per reel, its ``(symbol, weight)``
        table (whole weights >= 0, not all 0; at most ``CELL_WINDOW_LIMIT`` windows and a
        total weight below ``CELL_TOTAL_LIMIT``)."""
        problems = cell_table_problems(cells, rows, f"reel set {name}")
        if problems:
            raise ValueError(problems[0])
        strips = [np.array([s for s, _ in table], dtype=np.int8) for table in cells]
        weights = [np.array([w for _, w in table], dtype=np.int64) for table in cells]
        base = cls.build(name, strips, rows, weights)
        return cls(name, base.strips, base.lengths, base.padded, base.weights, None, cells, rows)

    @property
    def weighted(self) -> bool:
        """Whether a reel's draw is looked up in cumulative weights (stop weights, heights or
        drawn cells), rather than one draw below its length."""
        return self.weights is not None or self.heights is not None

    @property
    def tabulated(self) -> bool:
        """Whether a reel's positions are not its strip's stops (variable rows, drawn cells):
        its window is looked up in :meth:`window_table`."""
        return self.heights is not None or self.cells is not None

    @cached_property
    def position_counts(self) -> npt.NDArray[np.int64]:
        """Per reel, how many positions its draw picks from: its length, times the number of
        heights it may show (a reel of drawn cells: its symbols to the power of the rows)."""
        if self.cells is not None:
            return np.array([len(t) ** self.rows for t in self.cells], dtype=np.int64)
        if self.heights is None:
            return self.lengths
        return np.array(
            [int(n) * len(law) for n, law in zip(self.lengths, self.heights, strict=True)],
            dtype=np.int64,
        )

    def position_weights(self, reel: int) -> npt.NDArray[np.int64]:
        """Each position's weight on ``reel``: the stop's weight (times the height's; a drawn
        window's: the product of its cells')."""
        stops = self.stop_weights(reel)
        if self.cells is not None:
            out = np.ones(1, dtype=np.int64)
            for _ in range(self.rows):
                out = np.multiply.outer(out, stops).ravel()
            return out
        if self.heights is None:
            return stops
        return np.concatenate([w * stops for _, w in self.heights[reel]]).astype(np.int64)

    def position(self, reel: int, position: int) -> tuple[int, int]:
        """``(stop, height)`` of a position of ``reel`` (the height is the rows' count without
        heights)."""
        if self.cells is not None:
            return position, self.rows
        if self.heights is None:
            return position, self.padded.shape[1] - int(self.lengths.max()) + 1
        length = int(self.lengths[reel])
        return position % length, self.heights[reel][position // length][0]

    def windows(self, rows: int) -> npt.NDArray[np.int8]:
        """``windows[reel, position, row]``: the symbol each row shows when ``reel`` lands on
        ``position`` (``BLANK`` below a height, and past a short reel's last position)."""
        return self.window_table(rows).copy()

    @cached_property
    def _window_tables(self) -> dict[int, npt.NDArray[np.int8]]:
        return {}

    def window_table(self, rows: int) -> npt.NDArray[np.int8]:
        """The table of :meth:`windows`, made once per row count and shared: a caller reads
        it and never writes it (live play looks each spin's window up here)."""
        found = self._window_tables.get(rows)
        if found is None:
            found = self._window_tables[rows] = self._make_windows(rows)
        return found

    def _make_windows(self, rows: int) -> npt.NDArray[np.int8]:
        reels = len(self.strips)
        out = np.full((reels, int(self.position_counts.max()), rows), BLANK, dtype=np.int8)
        if self.cells is not None:
            for reel, strip in enumerate(self.strips):
                count = int(self.position_counts[reel])
                digits = np.arange(count, dtype=np.int64)
                for row in range(rows - 1, -1, -1):
                    out[reel, :count, row] = strip[digits % len(strip)]
                    digits //= len(strip)
            return out
        for reel, length in enumerate(int(n) for n in self.lengths):
            laws = self.heights[reel] if self.heights is not None else ((rows, 1),)
            for k, (height, _) in enumerate(laws):
                for row in range(height):
                    out[reel, k * length : (k + 1) * length, row] = self.padded[
                        reel, row : row + length
                    ]
        return out

    def stop_weights(self, reel: int) -> npt.NDArray[np.int64]:
        """Each stop's weight on ``reel`` (ones for an unweighted reel set; a reel of drawn
        cells: its cell table's weights)."""
        if self.weights is None:
            return np.ones(int(self.lengths[reel]), dtype=np.int64)
        return self.weights[reel]

    @cached_property
    def totals(self) -> npt.NDArray[np.int64]:
        """Per reel, the total weight of its positions: the bound of its draw (its length
        when the reel set is unweighted)."""
        if not self.weighted:
            return self.lengths
        return np.array(
            [int(self.position_weights(r).sum()) for r in range(len(self.strips))], dtype=np.int64
        )

    @cached_property
    def cumulative(self) -> npt.NDArray[np.int64]:
        """``cumulative[reel, s]``: the weights of stops 0..s of ``reel`` (past a short strip's
        end, its total), what a weighted stop draw is looked up in."""
        out = np.zeros((len(self.strips), int(self.position_counts.max())), dtype=np.int64)
        for reel in range(len(self.strips)):
            running = np.cumsum(self.position_weights(reel))
            out[reel, : len(running)] = running
            out[reel, len(running) :] = running[-1]
        return out

    def cell_draws(self, reel: int) -> tuple[int, npt.NDArray[np.int64]]:
        """A drawn-cells reel's cell draw: its bound (the table's total weight) and the
        cumulative weights a draw below it is looked up in (the symbol's place in the
        table)."""
        weights = self.stop_weights(reel)
        return int(weights.sum()), np.cumsum(weights)

    def cell_draw_tables(self, width: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """Every reel's :meth:`cell_draws` as the kernels read them: the bounds, and the
        cumulative weights padded to ``width`` with the reel's total (never passed by a draw
        below it)."""
        reels = len(self.strips)
        totals = np.zeros(reels, dtype=np.int64)
        cumulative = np.zeros((reels, width), dtype=np.int64)
        for reel in range(reels):
            total, running = self.cell_draws(reel)
            totals[reel] = total
            cumulative[reel] = total
            cumulative[reel, : len(running)] = running
        return totals, cumulative

    @property
    def cycle(self) -> int:
        """The weighted number of stop combinations: the product of the reels' total weights
        (of the strip lengths when unweighted). Exact figures are integer sums over the
        combinations, each counted with the product of its stops' weights, divided by this."""
        return math.prod(int(t) for t in self.totals)


@dataclass(frozen=True, eq=False)
class Variant:
    """An RTP variant: reel sets, feature weights and the figures computed for them."""

    id: str
    description: str
    reel_sets: Mapping[str, ReelSet]
    parameters: Mapping[str, Any]
    figures: Mapping[str, Any]
    source: Path | None = None

    @property
    def stated_rtp(self) -> Decimal | None:
        """The return to player in percent that the rules page states: the id when it is one
        (``96.00``, the convention), else ``[figures] rtp`` (a fraction, as ``reelsmith tune``
        writes it) to two decimals; None when the variant gives neither."""
        try:
            value = Decimal(self.id)
        except InvalidOperation:
            value = Decimal("NaN")
        if value.is_finite() and value > 0:
            return value
        rtp = self.figures.get("rtp")
        if isinstance(rtp, (int, float)) and not isinstance(rtp, bool) and rtp > 0:
            return (Decimal(str(rtp)) * 100).quantize(Decimal("0.01"))
        return None

    def rtp_percent(self) -> Decimal:
        """:attr:`stated_rtp`, or a :class:`ModelError` naming the variant that states none."""
        value = self.stated_rtp
        if value is None:
            raise ModelError(
                f"{self.source or self.id}: variant {self.id!r} states no RTP: name it by its "
                "return to player in percent (e.g. 96.00.toml) or give [figures] rtp"
            )
        return value


@dataclass(frozen=True, eq=False)
class GameModel:
    """Everything the rules need about a title, loaded and checked."""

    id: str
    name: str
    reels: int
    rows: int
    symbols: tuple[Symbol, ...]
    paylines: npt.NDArray[np.int8]
    line_pays: npt.NDArray[np.int64]
    scatter_pays: npt.NDArray[np.int64]
    wild: int
    scatter: int
    substitutable: npt.NDArray[np.bool_]
    bet: Mapping[str, Any]
    features: Mapping[str, Any]
    variants: Mapping[str, Variant]
    default_variant: str
    raw: Mapping[str, Any] = field(repr=False)
    source: Path | None = None
    #: The line rule's refinements (``[wild]``): the multiplier on a substituted run that holds
    #: a wild, and whether a tie between the wild run and the substituted run pays the wild's.
    wild_multiplier: int = 1
    ties_to_wild: bool = True
    #: 0-based reels the wild may stand on, and the reels the scatter is counted on (both:
    #: every reel unless the model lists them).
    wild_reels: tuple[int, ...] = ()
    scatter_reels: tuple[int, ...] = ()
    #: Whether the scatter pays during free spins (``[scatter] pays_in_free_spins``).
    scatter_pays_in_free_spins: bool = True
    #: ``[scatter] pays_per = "coin"``: the scatter's pays are per coin of a payline's (or a
    #: way's) bet, not times the total bet (the default, ``"total_bet"``).
    scatter_pays_per_coin: bool = False
    #: ``[heights]``: per reel, the window heights it draws each spin and their weights (None:
    #: every reel shows every row). Every reel set of the model carries it.
    heights: Heights | None = None

    # -- symbols -------------------------------------------------------------------------
    def symbol_index(self, symbol_id: str) -> int:
        for symbol in self.symbols:
            if symbol.id == symbol_id:
                return symbol.index
        known = " ".join(s.id for s in self.symbols)
        raise KeyError(f"unknown symbol {symbol_id!r}; the symbols are: {known}")

    def symbol_id(self, index: int) -> str:
        return self.symbols[index].id

    @property
    def symbol_ids(self) -> tuple[str, ...]:
        return tuple(s.id for s in self.symbols)

    def symbols_with_role(self, role: str) -> tuple[Symbol, ...]:
        return tuple(s for s in self.symbols if s.role == role)

    @property
    def variable_rows(self) -> bool:
        """Whether each reel draws its window's height per spin (``[heights]``): cells below
        it show ``BLANK``."""
        return self.heights is not None

    # -- variants ------------------------------------------------------------------------
    def variant(self, variant_id: str | None = None) -> Variant:
        key = self.default_variant if variant_id is None else variant_id
        try:
            return self.variants[key]
        except KeyError:
            known = ", ".join(sorted(self.variants))
            raise ModelError(
                f"{self.id} has no RTP variant {key!r}; the variants are: {known}"
            ) from None

    @property
    def line_count(self) -> int:
        return int(self.paylines.shape[0])

    @cached_property
    def scatter_mask(self) -> npt.NDArray[np.bool_]:
        """``mask[reel]``: whether a scatter on that reel counts."""
        mask = np.zeros(self.reels, dtype=np.bool_)
        mask[list(self.scatter_reels or range(self.reels))] = True
        return mask


# ---------------------------------------------------------------------------------------
# Loading
# ---------------------------------------------------------------------------------------


def _require(table: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in table:
        raise ModelError(f"{where}: missing key {key!r}")
    value = table[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and bool not in _as_tuple(kind)):
        names = " or ".join(t.__name__ for t in _as_tuple(kind))
        raise ModelError(f"{where}: {key!r} must be {names}, got {value!r}")
    return value


def _as_tuple(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


def _pay_row(
    pays: Mapping[str, Any], where: str, reels: int, minimum: int = 1
) -> npt.NDArray[np.int64]:
    """A ``{count: pay}`` table as an array indexed by count (0..reels)."""
    row = np.zeros(reels + 1, dtype=np.int64)
    for count_text, pay in pays.items():
        try:
            count = int(count_text)
        except ValueError:
            raise ModelError(f"{where}: count {count_text!r} is not a whole number") from None
        if not minimum <= count <= reels:
            raise ModelError(f"{where}: count {count} is outside {minimum}..{reels}")
        if not isinstance(pay, int) or isinstance(pay, bool) or pay < 0:
            raise ModelError(
                f"{where}: pay for {count} must be a non-negative integer, got {pay!r}"
            )
        row[count] = pay
    return row


def _symbols(raw: Mapping[str, Any], where: str) -> tuple[Symbol, ...]:
    entries = _require(raw, "symbols", list, where)
    if not entries:
        raise ModelError(f"{where}: 'symbols' is empty")
    if len(entries) > 127:
        raise ModelError(f"{where}: at most 127 symbols are supported, got {len(entries)}")
    symbols: list[Symbol] = []
    seen: set[str] = set()
    for index, entry in enumerate(entries):
        at = f"{where}: symbols[{index}]"
        if not isinstance(entry, dict):
            raise ModelError(f"{at} must be a table")
        symbol_id = _require(entry, "id", str, at)
        if symbol_id in seen:
            raise ModelError(f"{at}: symbol id {symbol_id!r} appears twice")
        if not symbol_id.replace("_", "").isalnum() or symbol_id != symbol_id.lower():
            raise ModelError(f"{at}: symbol id {symbol_id!r} must be a lower-case word")
        role = _require(entry, "role", str, at)
        if role not in SYMBOL_ROLES:
            raise ModelError(f"{at}: role {role!r} is not one of {', '.join(SYMBOL_ROLES)}")
        name = _require(entry, "name", str, at)
        seen.add(symbol_id)
        symbols.append(Symbol(index, symbol_id, name, role))
    return tuple(symbols)


def _strips(
    raw: Any, where: str, reels: int, rows: int, index_of: Mapping[str, int]
) -> list[npt.NDArray[np.int8]]:
    if not isinstance(raw, list) or len(raw) != reels:
        raise ModelError(f"{where}: 'strips' must list {reels} reel strips")
    strips = []
    for reel, strip in enumerate(raw):
        at = f"{where}: strips[{reel}] (reel {reel + 1})"
        if not isinstance(strip, list) or len(strip) < rows:
            raise ModelError(f"{at} must list at least {rows} symbol ids")
        indices = []
        for position, symbol_id in enumerate(strip):
            if symbol_id not in index_of:
                raise ModelError(f"{at}: stop {position} is {symbol_id!r}, not a symbol id")
            indices.append(index_of[symbol_id])
        strips.append(np.array(indices, dtype=np.int8))
    return strips


def _stop_weights(
    raw: Any, where: str, strips: Sequence[npt.NDArray[np.int8]]
) -> list[npt.NDArray[np.int64]]:
    """A reel set's ``stop_weights``: one list per reel, as long as its strip, of integers
    >= 0 that are not all 0 (the first problem found, as :func:`stop_weight_problems` names
    it)."""
    problems = stop_weight_problems(raw, where, [len(s) for s in strips])
    if problems:
        raise ModelError(problems[0])
    return [np.array(weights, dtype=np.int64) for weights in raw]


def stop_weight_problems(raw: Any, where: str, lengths: Sequence[int]) -> list[str]:
    """Every problem of a reel set's ``stop_weights`` given its strips' ``lengths``, one
    message each (``reelsmith validate`` prints them all; loading stops at the first)."""
    at = f"{where}.stop_weights"
    if not isinstance(raw, list) or len(raw) != len(lengths):
        return [f"{at} must list {len(lengths)} weight lists, one per reel"]
    problems = []
    for reel, (weights, length) in enumerate(zip(raw, lengths, strict=True), start=1):
        here = f"{at}[{reel - 1}] (reel {reel})"
        if not isinstance(weights, list):
            problems.append(f"{here} must be a list of {length} weights")
            continue
        if len(weights) != length:
            problems.append(f"{here} lists {len(weights)} weights; its strip has {length} stops")
        integers = True
        for stop, weight in enumerate(weights):
            if not isinstance(weight, int) or isinstance(weight, bool):
                problems.append(f"{here}: stop {stop} weight {weight!r} is not an integer")
                integers = False
            elif weight < 0:
                problems.append(f"{here}: stop {stop} weight {weight} is negative")
        if integers and weights and all(w == 0 for w in weights):
            problems.append(f"{here}: every weight is 0; a reel needs a stop it can stop at")
        elif integers and sum(weights) >= REEL_WEIGHT_LIMIT:
            problems.append(f"{here}: the weights total {sum(weights)}, not below 2^32")
    return problems


#: Keys of the ``[heights]`` table (variable rows per reel).
_HEIGHTS_KEYS = frozenset({"reels"})


def _heights(raw: Any, where: str, reels: int, rows: int) -> Heights:
    """The ``[heights]`` table: ``reels``, one table per reel of ``height = weight`` (heights
    1..rows, weights whole numbers >= 0, not all 0)."""
    if not isinstance(raw, dict):
        raise ModelError(f"{where} must be a table")
    check_keys(raw, _HEIGHTS_KEYS, where)
    tables = raw.get("reels")
    if not isinstance(tables, list) or len(tables) != reels:
        raise ModelError(f"{where}.reels must list {reels} tables of height = weight, one per reel")
    laws = []
    for reel, table in enumerate(tables, start=1):
        at = f"{where}.reels[{reel}]"
        if not isinstance(table, dict) or not table:
            raise ModelError(f"{at} must be a table of height = weight")
        law = []
        for key, weight in table.items():
            height = int(key) if key.isdigit() else None
            if height is None or not 1 <= height <= MAX_ROWS:
                raise ModelError(f"{at}: height {key!r} is outside {MIN_ROWS}..{MAX_ROWS}")
            if height > rows:
                raise ModelError(f"{at}: height {height} is more than the model's {rows} rows")
            if not isinstance(weight, int) or isinstance(weight, bool) or weight < 0:
                raise ModelError(f"{at}.{key} must be a whole number >= 0, got {weight!r}")
            law.append((height, weight))
        if not sum(w for _, w in law):
            raise ModelError(f"{at}: every weight is 0; a reel needs a height it can show")
        laws.append(tuple(sorted(law)))
    return tuple(laws)


def cell_table_problems(cells: Cells, rows: int, where: str) -> list[str]:
    """Every problem of a reel set's parsed cell tables (sizes and totals), one message
    each."""
    problems = []
    for reel, table in enumerate(cells, start=1):
        at = f"{where}: cells (reel {reel})"
        total = sum(w for _, w in table)
        if not table or total <= 0 or any(w < 0 for _, w in table):
            problems.append(f"{at}: the weights must be whole numbers >= 0, not all 0")
            continue
        windows = len(table) ** rows
        if windows > CELL_WINDOW_LIMIT:
            problems.append(
                f"{at}: {len(table)} symbols over {rows} rows make {windows:,} windows, above "
                f"the {CELL_WINDOW_LIMIT:,} a reel may show; list fewer symbols"
            )
        if total**rows >= CELL_TOTAL_LIMIT:
            problems.append(
                f"{at}: the weights total {total}, and {total}^{rows} is not below 2^62; "
                "use smaller weights"
            )
    return problems


def cells_problems(
    table: Mapping[str, Any],
    where: str,
    reels: int,
    rows: int,
    known: Collection[str],
    drawn: bool,
) -> list[str]:
    """Every problem of a reel set's ``cells`` (``drawn``: the model has ``[cells]``): one
    table of ``symbol = weight`` for every reel, or a list of ``reels`` such tables, each a
    declared symbol with a whole weight >= 0, not all 0; a reel set of a model with ``[cells]``
    gives nothing else, and one of a model without gives no ``cells``."""
    at = f"{where}.cells"
    if not drawn:
        return (
            [f"{at}: cells are drawn only in a model with a [cells] table"]
            if ("cells" in table)
            else []
        )
    if set(table) != {"cells"}:
        return [
            f"{where}: a model with [cells] draws every cell: its reel sets give 'cells' "
            "(symbol = weight) and no strips or stop_weights"
        ]
    raw = table["cells"]
    tables = [raw] * reels if isinstance(raw, dict) else raw
    if not isinstance(tables, list) or len(tables) != reels:
        return [
            f"{at} must be one table of symbol = weight (every reel) or a list of {reels}, "
            "one per reel"
        ]
    problems = []
    for reel, entries in enumerate(tables, start=1):
        here = at if isinstance(raw, dict) else f"{at}[{reel - 1}] (reel {reel})"
        if not isinstance(entries, dict) or not entries:
            problems.append(f"{here} must be a table of symbol = weight")
            continue
        for symbol_id, weight in entries.items():
            if symbol_id not in known:
                problems.append(f"{here}: {symbol_id!r} is not a declared symbol")
            if not isinstance(weight, int) or isinstance(weight, bool) or weight < 0:
                problems.append(f"{here}.{symbol_id} must be a whole number >= 0, got {weight!r}")
        if isinstance(raw, dict) and reel == 1 and problems:
            break  # one table for every reel: its problems once
    if problems:
        return problems
    cells = tuple(tuple((0, int(w)) for w in entries.values()) for entries in tables)
    limits = cell_table_problems(cells, rows, where)
    return limits[:1] if isinstance(raw, dict) else limits


def _cells(
    table: Mapping[str, Any], where: str, reels: int, rows: int, index_of: Mapping[str, int]
) -> Cells:
    """A reel set's ``cells`` (:func:`cells_problems` says what they must be; the first
    problem found is raised)."""
    problems = cells_problems(table, where, reels, rows, index_of, True)
    if problems:
        raise ModelError(problems[0])
    raw = table["cells"]
    tables = [raw] * reels if isinstance(raw, dict) else raw
    return tuple(
        tuple((index_of[symbol_id], int(weight)) for symbol_id, weight in entries.items())
        for entries in tables
    )


def load_variant(
    path: Path,
    model_id: str,
    reels: int,
    rows: int,
    index_of: Mapping[str, int],
    heights: Heights | None = None,
    drawn_cells: bool = False,
) -> Variant:
    where = str(path)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ModelError(f"{where}: not valid TOML: {exc}") from None
    variant_id = _require(raw, "id", str, where)
    if variant_id != path.stem:
        raise ModelError(f"{where}: id {variant_id!r} does not match the file name {path.stem!r}")
    reel_sets_raw = _require(raw, "reel_sets", dict, where)
    reel_sets = {}
    for name, table in reel_sets_raw.items():
        at = f"{where}: reel_sets.{name}"
        if not isinstance(table, dict):
            raise ModelError(f"{at} must be a table")
        check_keys(table, _REEL_SET_KEYS, at)
        if drawn_cells or "cells" in table:
            problems = cells_problems(table, at, reels, rows, index_of, drawn_cells)
            if problems:
                raise ModelError(problems[0])
            reel_sets[name] = ReelSet.drawn_cells(
                name, _cells(table, at, reels, rows, index_of), rows
            )
            continue
        strips = _strips(table.get("strips"), at, reels, rows, index_of)
        weights = (
            _stop_weights(table["stop_weights"], at, strips) if "stop_weights" in table else None
        )
        reel_sets[name] = ReelSet.build(name, strips, rows, weights, heights)
    parameters = {
        k: v for k, v in raw.items() if k not in {"id", "description", "reel_sets", "figures"}
    }
    return Variant(
        id=variant_id,
        description=str(raw.get("description", "")),
        reel_sets=reel_sets,
        parameters=parameters,
        figures=dict(raw.get("figures", {})),
        source=path,
    )


def load_model(folder: Path) -> GameModel:
    """Load ``folder/model.toml`` and every ``folder/variants/*.toml``."""
    path = folder / "model.toml"
    where = str(path)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ModelError(f"{where}: no such model file") from None
    except tomllib.TOMLDecodeError as exc:
        raise ModelError(f"{where}: not valid TOML: {exc}") from None

    model_id = _require(raw, "id", str, where)
    name = _require(raw, "name", str, where)
    reels = _require(raw, "reels", int, where)
    rows = _require(raw, "rows", int, where)
    if not MIN_REELS <= reels <= MAX_REELS:
        raise ModelError(f"{where}: reels must be {MIN_REELS}..{MAX_REELS}, got {reels}")
    if not MIN_ROWS <= rows <= MAX_ROWS:
        raise ModelError(f"{where}: rows must be {MIN_ROWS}..{MAX_ROWS}, got {rows}")
    symbols = _symbols(raw, where)
    index_of = {s.id: s.index for s in symbols}

    wilds = [s for s in symbols if s.role == "wild"]
    scatters = [s for s in symbols if s.role == "scatter"]
    if len(wilds) > 1 or len(scatters) > 1:
        raise ModelError(f"{where}: at most one wild and one scatter symbol are supported")

    # Paylines, where the model lists them: one row index per reel, 0 = top row. A model that
    # pays the whole window (by ways, by a count anywhere) lists none; that a model declares
    # one evaluator with its tables is the mechanics registry's check (composition_problems).
    lines_raw = _require(raw, "paylines", list, where) if "paylines" in raw else []
    if "paylines" in raw and not lines_raw:
        raise ModelError(f"{where}: 'paylines' is empty")
    seen_lines: dict[tuple[int, ...], int] = {}
    for number, line in enumerate(lines_raw, start=1):
        at = f"{where}: payline {number}"
        if not isinstance(line, list) or len(line) != reels:
            raise ModelError(f"{at} must list {reels} row indices")
        if any(not isinstance(r, int) or not 0 <= r < rows for r in line):
            raise ModelError(f"{at}: row indices must be 0..{rows - 1}, got {line}")
        if tuple(line) in seen_lines:
            raise ModelError(f"{at} repeats payline {seen_lines[tuple(line)]}")
        seen_lines[tuple(line)] = number
    paylines = np.array(lines_raw, dtype=np.int8).reshape(len(lines_raw), reels)

    # Line pays, indexed [symbol, count].
    line_pays = np.zeros((len(symbols), reels + 1), dtype=np.int64)
    # The pays of a run from reel 1, by symbol and count: per payline ([line_pays]) or per way
    # ([ways_pays]), read into the one table; a count anywhere has its own ([anywhere_pays]).
    if "line_pays" in raw and "ways_pays" in raw:
        raise ModelError(
            f"{where}: a run pays per payline ([line_pays]) or per way ([ways_pays]), not both"
        )
    table = "ways_pays" if "ways_pays" in raw else "line_pays"
    pays_raw = _require(raw, table, dict, where) if table in raw else {}
    for symbol_id, pays in pays_raw.items():
        at = f"{where}: {table}.{symbol_id}"
        if symbol_id not in index_of:
            raise ModelError(f"{at}: {symbol_id!r} is not a symbol id")
        symbol = symbols[index_of[symbol_id]]
        if symbol.role not in ("regular", "wild"):
            raise ModelError(f"{at}: a {symbol.role} symbol cannot pay on lines or ways")
        if not isinstance(pays, dict):
            raise ModelError(f"{at} must be a table of count = coins")
        line_pays[symbol.index] = _pay_row(pays, at, reels)

    # Scatter pays by count: a count the table does not list pays nothing, but one above both
    # the reel count and the highest listed count pays as the higher of the two.
    scatter_pays = np.zeros(reels + 1, dtype=np.int64)
    scatter_reels: tuple[int, ...] = tuple(range(reels))
    scatter_in_free_spins = True
    per_coin = False
    max_per_reel = rows
    if scatters:
        scatter_raw = _require(raw, "scatter", dict, where)
        at = f"{where}: scatter"
        check_keys(scatter_raw, _SCATTER_KEYS, at)
        if scatter_raw.get("symbol") != scatters[0].id:
            raise ModelError(f"{at}: 'symbol' must name the scatter symbol {scatters[0].id!r}")
        pays = _require(scatter_raw, "pays", dict, at)
        # Counts up to a full screen; the row ends at the higher of the reel count and the
        # table's highest count, and a count past its end pays as that last row entry.
        scatter_pays = _pay_row(pays, f"{at}.pays", reels * rows)
        highest = max(reels, *(int(c) for c in pays)) if pays else reels
        scatter_pays = scatter_pays[: highest + 1]
        if "reels" in scatter_raw:
            scatter_reels = _reel_list(scatter_raw["reels"], f"{at}.reels", reels)
        scatter_in_free_spins = _flag(scatter_raw, "pays_in_free_spins", True, at)
        pays_per = scatter_raw.get("pays_per", "total_bet")
        if pays_per not in ("total_bet", "coin"):
            raise ModelError(f'{at}.pays_per must be "total_bet" or "coin", got {pays_per!r}')
        per_coin = pays_per == "coin"
        max_per_reel = scatter_raw.get("max_per_reel", rows)
        if (
            not isinstance(max_per_reel, int)
            or isinstance(max_per_reel, bool)
            or not 1 <= max_per_reel <= rows
        ):
            raise ModelError(f"{at}.max_per_reel must be 1..{rows}, got {max_per_reel!r}")
    elif "scatter" in raw:
        raise ModelError(f"{where}: [scatter] is given but no symbol has the role 'scatter'")

    substitutable = np.array([s.role == "regular" for s in symbols], dtype=np.bool_)
    wild_multiplier, ties_to_wild = 1, True
    wild_reels: tuple[int, ...] = tuple(range(reels))
    if "wild" in raw:
        at = f"{where}: wild"
        wild_raw = _require(raw, "wild", dict, where)
        check_keys(wild_raw, _WILD_KEYS, at)
        if not wilds:
            raise ModelError(f"{at}: [wild] is given but no symbol has the role 'wild'")
        if wild_raw.get("symbol", wilds[0].id) != wilds[0].id:
            raise ModelError(f"{at}: 'symbol' must name the wild symbol {wilds[0].id!r}")
        substitutes = wild_raw.get("substitutes", "all")
        if substitutes != "all":
            if not isinstance(substitutes, list) or not substitutes:
                raise ModelError(f'{at}.substitutes must be "all" or a list of symbol ids')
            substitutable[:] = False
            for symbol_id in substitutes:
                if symbol_id not in index_of or symbols[index_of[symbol_id]].role != "regular":
                    raise ModelError(
                        f"{at}.substitutes: {symbol_id!r} is not a regular symbol of the model"
                    )
                substitutable[index_of[symbol_id]] = True
        wild_multiplier = wild_raw.get("multiplier", 1)
        if not isinstance(wild_multiplier, int) or isinstance(wild_multiplier, bool):
            raise ModelError(f"{at}.multiplier must be a whole number, got {wild_multiplier!r}")
        if not 1 <= wild_multiplier <= 100:
            raise ModelError(f"{at}.multiplier must be 1..100, got {wild_multiplier}")
        ties = wild_raw.get("ties", "wild")
        if ties not in ("wild", "symbol"):
            raise ModelError(f'{at}.ties must be "wild" or "symbol", got {ties!r}')
        ties_to_wild = ties == "wild"
        if "reels" in wild_raw:
            wild_reels = _reel_list(wild_raw["reels"], f"{at}.reels", reels)

    heights = (
        _heights(raw["heights"], f"{where}: heights", reels, rows) if "heights" in raw else None
    )
    variants: dict[str, Variant] = {}
    for variant_path in sorted((folder / "variants").glob("*.toml")):
        variant = load_variant(
            variant_path, model_id, reels, rows, index_of, heights, "cells" in raw
        )
        _check_weighted_mechanics(variant, raw.get("mechanics"))
        for kept, allowed, what in (
            (wilds, wild_reels, "wild.reels"),
            (scatters, scatter_reels, "scatter.reels"),
        ):
            if kept:
                _check_reels(variant, kept[0], allowed, what)
        if scatters and max_per_reel == 1 and rows > 1:
            _check_one_per_window(variant, scatters[0], rows)
        variants[variant.id] = variant
    default_variant = _require(raw, "default_variant", str, where)
    if default_variant not in variants:
        raise ModelError(
            f"{where}: default_variant {default_variant!r} has no file in {folder / 'variants'}"
        )

    return GameModel(
        id=model_id,
        name=name,
        reels=reels,
        rows=rows,
        symbols=symbols,
        paylines=paylines,
        line_pays=line_pays,
        scatter_pays=scatter_pays,
        wild=wilds[0].index if wilds else -1,
        scatter=scatters[0].index if scatters else -1,
        substitutable=substitutable,
        bet=dict(raw.get("bet", {})),
        features={k: v for k, v in raw.items() if k not in _GENERIC_KEYS},
        variants=variants,
        default_variant=default_variant,
        raw=raw,
        source=path,
        wild_multiplier=wild_multiplier,
        ties_to_wild=ties_to_wild,
        wild_reels=wild_reels,
        scatter_reels=scatter_reels,
        scatter_pays_in_free_spins=scatter_in_free_spins,
        scatter_pays_per_coin=per_coin,
        heights=heights,
    )


def check_keys(table: Mapping[str, Any], known: frozenset[str], where: str) -> None:
    unknown = sorted(set(table) - known)
    if unknown:
        raise ModelError(
            f"{where}: unknown key {unknown[0]!r}; the keys are: {', '.join(sorted(known))}"
        )


def _flag(table: Mapping[str, Any], key: str, default: bool, where: str) -> bool:
    value = table.get(key, default)
    if not isinstance(value, bool):
        raise ModelError(f"{where}.{key} must be true or false, got {value!r}")
    return value


def _reel_list(value: Any, where: str, reels: int) -> tuple[int, ...]:
    """A list of 1-based reel numbers as sorted 0-based indices."""
    if (
        not isinstance(value, list)
        or not value
        or any(not isinstance(r, int) or isinstance(r, bool) or not 1 <= r <= reels for r in value)
        or len(set(value)) != len(value)
    ):
        raise ModelError(f"{where} must list distinct reel numbers 1..{reels}, got {value!r}")
    return tuple(sorted(r - 1 for r in value))


def _check_weighted_mechanics(variant: Variant, declared: Any) -> None:
    """Refuse stop weights where the title's rules are not the catalogue's: only the
    catalogue's live play, kernel and exact analysis draw and count weighted stops."""
    if declared in (None, "catalogue"):  # the key is optional: the tables declare mechanics
        return
    for name, reel_set in variant.reel_sets.items():
        if reel_set.weighted:
            raise ModelError(
                f"{variant.source or variant.id}: reel_sets.{name}.stop_weights: weighted stops "
                'are a catalogue mechanic (mechanics = "catalogue"); this title has rules of '
                "its own"
            )


def _check_one_per_window(variant: Variant, symbol: Symbol, rows: int) -> None:
    """Refuse strips on which a reel could show ``symbol`` twice (``max_per_reel = 1``): two
    stops closer than the window height, counting round the end of the strip."""
    for name, reel_set in variant.reel_sets.items():
        for reel, strip in enumerate(reel_set.strips):
            stops = [int(i) for i in np.flatnonzero(strip == symbol.index)]
            n = len(strip)
            for a in stops:
                for b in stops:
                    if a != b and (b - a) % n < rows:
                        plural = symbol.id + ("es" if symbol.id.endswith("s") else "s")
                        raise ModelError(
                            f"{variant.source or variant.id}: reel_sets.{name} reel {reel + 1} "
                            f"has {symbol.id} at stops {a} and {b}, closer than {rows}: a reel "
                            f"would show two {plural} (scatter.max_per_reel = 1)"
                        )


def _check_reels(variant: Variant, symbol: Symbol, allowed: tuple[int, ...], what: str) -> None:
    """Refuse a strip that carries ``symbol`` on a reel the model does not allow it on."""
    for name, reel_set in variant.reel_sets.items():
        for reel, strip in enumerate(reel_set.strips):
            if reel not in allowed and bool((strip == symbol.index).any()):
                raise ModelError(
                    f"{variant.source or variant.id}: reel_sets.{name} reel {reel + 1} carries "
                    f"{symbol.id}, which {what} keeps to reels "
                    f"{', '.join(str(r + 1) for r in allowed)}"
                )


# ---------------------------------------------------------------------------------------
# Writing variants
# ---------------------------------------------------------------------------------------


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        escaped = value.replace("\\", "\\\\").replace('"', '\\"')
        return f'"{escaped}"'
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__} to a variant file")


def format_variant(
    variant_id: str,
    description: str,
    reel_sets: Mapping[str, Sequence[Sequence[str]]],
    parameters: Mapping[str, Mapping[str, Any]],
    figures: Mapping[str, Any],
    header: str = "",
) -> str:
    """The text of a ``variants/<id>.toml`` file: strips one symbol id list per reel."""
    out: list[str] = []
    if header:
        out.extend(f"# {line}".rstrip() for line in header.splitlines())
        out.append("")
    out.append(f"id = {_toml_value(variant_id)}")
    out.append(f"description = {_toml_value(description)}")
    for name, strips in reel_sets.items():
        out.append("")
        out.append(f"[reel_sets.{name}]")
        out.append("strips = [")
        for reel, strip in enumerate(strips, start=1):
            out.append(f"  # reel {reel}: {len(strip)} stops")
            out.append("  [")
            for start in range(0, len(strip), 10):
                out.append(
                    "    " + ", ".join(_toml_value(s) for s in strip[start : start + 10]) + ","
                )
            out.append("  ],")
        out.append("]")
    for name, table in parameters.items():
        out.append("")
        out.append(f"[{name}]")
        out.extend(f"{key} = {_toml_value(value)}" for key, value in table.items())
    out.append("")
    out.append("# Computed by the exact analyzer (reelsmith.analysis) from the strips above;")
    out.append("# a test re-derives them.")
    out.append("[figures]")
    out.extend(f"{key} = {_toml_value(value)}" for key, value in figures.items())
    return "\n".join(out) + "\n"


def replace_figures(path: Path, figures: Mapping[str, Any]) -> None:
    """Rewrite the trailing ``[figures]`` table of a variant file, leaving the rest as it is."""
    text = path.read_text(encoding="utf-8")
    marker = "\n[figures]\n"
    head = text.split(marker)[0] if marker in text else text.rstrip("\n") + "\n"
    body = "\n".join(f"{key} = {_toml_value(value)}" for key, value in figures.items())
    path.write_text(f"{head}{marker}{body}\n", encoding="utf-8")


def model_document(model: GameModel, variant_id: str | None = None) -> dict[str, Any]:
    """The complete model with one variant, symbol ids in place of indices (``model --json``)."""
    variant = model.variant(variant_id)
    symbol_ids = model.symbol_ids

    def pays(row: npt.NDArray[np.int64]) -> dict[str, int]:
        return {str(k): int(v) for k, v in enumerate(row) if v > 0}

    return {
        "id": model.id,
        "name": model.name,
        "reels": model.reels,
        "rows": model.rows,
        "symbols": [{"id": s.id, "name": s.name, "role": s.role} for s in model.symbols],
        "line_pays": {
            s.id: pays(model.line_pays[s.index])
            for s in model.symbols
            if model.line_pays[s.index].any()
        },
        "scatter": None
        if model.scatter < 0
        else {"symbol": symbol_ids[model.scatter], "pays": pays(model.scatter_pays)},
        "paylines": model.paylines.tolist(),
        "bet": dict(model.bet),
        "features": dict(model.features),
        "variants": sorted(model.variants),
        "default_variant": model.default_variant,
        "variant": {
            "id": variant.id,
            "description": variant.description,
            "reel_sets": {
                name: [[symbol_ids[int(s)] for s in strip] for strip in reel_set.strips]
                for name, reel_set in variant.reel_sets.items()
            },
            **(
                {
                    "stop_weights": {
                        name: [[int(w) for w in weights] for weights in reel_set.weights]
                        for name, reel_set in variant.reel_sets.items()
                        if reel_set.weights is not None
                    }
                }
                if any(rs.weights is not None for rs in variant.reel_sets.values())
                else {}
            ),
            **{k: v for k, v in variant.parameters.items()},
            "figures": dict(variant.figures),
        },
    }


# ---------------------------------------------------------------------------------------
# Checks the titles' feature rules share
# ---------------------------------------------------------------------------------------


def check_spacing(
    model: GameModel, variant: Variant, reel_sets: Sequence[str], symbols: Sequence[int]
) -> None:
    """Refuse strips on which a reel could show ``symbol`` twice (two stops closer than the
    window height, counting round the end of the strip)."""
    where = f"{variant.source or variant.id}"
    for name in reel_sets:
        if name not in variant.reel_sets:
            raise ModelError(f"{where}: missing reel_sets.{name}")
        for reel, strip in enumerate(variant.reel_sets[name].strips):
            n = len(strip)
            for symbol in symbols:
                stops = [i for i, s in enumerate(strip) if s == symbol]
                for a in stops:
                    for b in stops:
                        if a != b and (b - a) % n < model.rows:
                            symbol_id = model.symbol_id(symbol)
                            plural = symbol_id + ("es" if symbol_id.endswith("s") else "s")
                            raise ModelError(
                                f"{where}: reel_sets.{name} reel {reel + 1} has {symbol_id} at "
                                f"stops {a} and {b}, closer than {model.rows}: a reel would "
                                f"show two {plural}"
                            )


def weight_table(variant: Variant, table: str, keys: str) -> tuple[list[Any], list[int]]:
    """A variant's ``[table]`` of ``keys`` and integer ``weights``, checked."""
    where = f"{variant.source or variant.id}"
    raw = variant.parameters.get(table)
    if not isinstance(raw, dict):
        raise ModelError(f"{where}: missing [{table}] table")
    values, weights = raw.get(keys), raw.get("weights")
    if (
        not isinstance(values, list)
        or not isinstance(weights, list)
        or len(values) != len(weights)
        or not values
    ):
        raise ModelError(f"{where}: {table} needs equally long '{keys}' and 'weights' lists")
    if (
        any(not isinstance(w, int) or isinstance(w, bool) or w < 0 for w in weights)
        or sum(weights) <= 0
    ):
        raise ModelError(f"{where}: {table} weights must be non-negative integers, not all 0")
    return values, weights


# ---------------------------------------------------------------------------------------
# The identity of what a round is played on
# ---------------------------------------------------------------------------------------


def model_hash(model: GameModel, variant_id: str) -> str:
    """The SHA-256 (hex) of the model and one of its variants as loaded: the model file's every
    table (``raw``) and the variant's id, description, reel strips (symbol ids), stop weights,
    parameters and figures, as canonical JSON (keys sorted, no whitespace).

    Two loads of the same files give the same hash on any machine; any change to what the engine
    pays from (a pay, a strip, a weight, a feature's parameter) or to the figures stated for it
    gives another. A round stores it so that its report row and its replay name the exact
    version it was played on. Formatting and comments in the files do not count: they change
    nothing the engine reads."""
    variant = model.variant(variant_id)
    symbol_ids = model.symbol_ids
    document = {
        "model": model.raw,
        "variant": {
            "id": variant.id,
            "description": variant.description,
            "reel_sets": {
                name: {
                    "strips": [[symbol_ids[int(s)] for s in strip] for strip in reel_set.strips],
                    "weights": None
                    if reel_set.weights is None
                    else [[int(w) for w in weights] for weights in reel_set.weights],
                }
                for name, reel_set in variant.reel_sets.items()
            },
            "parameters": variant.parameters,
            "figures": variant.figures,
        },
    }
    # TOML may hold dates and times: their ISO text is their canonical form
    text = json.dumps(document, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
