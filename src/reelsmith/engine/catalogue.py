"""The catalogue of mechanics: a title with standard mechanics is a model file and nothing else.

A model with ``mechanics = "catalogue"`` declares its game from the tables documented in
``docs/model-format.md``: the grid, strips and paylines, the line rule and its ``[wild]``, the
``[scatter]``, ``[free_spins]`` and ``[gamble]``. This module reads those tables once into
:class:`Mechanics` and holds the feature transitions, each written once:

* :func:`trigger_spins` - the spins a base-spin trigger starts the feature with, from the
  table by count or the sum of the symbols' reveals, cut at the cap;
* :func:`award_spins` - the spins a retrigger adds, from a table by count or a fixed number
  per symbol, cut at the cap on total spins;
* :func:`free_spin_pays` - the pay tables a free spin is paid from (the multiplier applied to
  line and scatter pays, with the model's exceptions);
* the line rule itself is :func:`reelsmith.engine.lines.line_award`;
* a mechanic the catalogue lacks comes as a plug-in module named in ``[plugin]``
  (:mod:`reelsmith.engine.plugins`): it acts on each spin's win after the lines and scatter.

The numba functions here are called by live play (:mod:`reelsmith.engine.round`),
by the simulation kernel (:mod:`reelsmith.analysis.kernel`) and by the exact analysis
(:mod:`reelsmith.analysis.catalogue_exact`) alike, so the three cannot disagree.

Free-spin pays
--------------
In free spins every line award pays its table value times the feature's ``multiplier`` (an
exception listed in ``exceptions`` pays its own multiplier instead), and the line takes the
larger of its candidate combinations as so paid. With ``multiplier_applies_to = "lines"`` the
scatter pays its plain table value; with ``"all"`` it is multiplied too; a scatter whose
``pays_in_free_spins`` is false pays nothing in free spins (it still counts for retriggers).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from reelsmith.engine.model import GameModel, ModelError, Variant, check_keys, weight_table
from reelsmith.engine.plugins import Plugin, model_plugin

_FREE_SPINS_KEYS = frozenset(
    {
        "symbol",
        "trigger",
        "spins",
        "reveal",
        "retrigger",
        "retrigger_spins",
        "spins_per_symbol",
        "max_spins",
        "multiplier",
        "multiplier_applies_to",
        "exceptions",
        "reel_set",
        "multipliers",
        "required_reels",
    }
)
_GAMBLE_KEYS = frozenset(
    {"max_gambles", "win_limit_credits", "colour_multiplier", "suit_multiplier"}
)
_BET_KEYS = frozenset({"lines", "coins_per_line", "coin_sizes", "max_total_coins", "default"})
#: Retrigger modes of ``[free_spins] retrigger``.
RETRIGGER_TABLE, RETRIGGER_PER_SYMBOL, RETRIGGER_NONE = 0, 1, 2
_RETRIGGER_MODES = {"table": RETRIGGER_TABLE, "per_symbol": RETRIGGER_PER_SYMBOL, "none": 2}


@dataclass(frozen=True, eq=False)
class FreeSpins:
    """``[free_spins]``, read and checked."""

    symbol: int  # the trigger symbol (the scatter unless the model names a bonus symbol)
    trigger: int  # the least count of it that starts the feature
    spins: npt.NDArray[np.int64]  # spins by count (a count past the end as the last entry)
    reveal: str | None  # a variant table: one draw per triggering symbol, summed
    retrigger: int  # RETRIGGER_TABLE, RETRIGGER_PER_SYMBOL or RETRIGGER_NONE
    retrigger_spins: npt.NDArray[np.int64]  # by count, for RETRIGGER_TABLE
    spins_per_symbol: int  # for RETRIGGER_PER_SYMBOL: spins added per symbol shown
    max_spins: int  # cap on the spins of one feature, 0 for none
    multiplier: int
    multiply_scatter: bool  # multiplier_applies_to = "all"
    exceptions: tuple[tuple[int, int, int], ...]  # (symbol, count, multiplier)
    reel_set: str
    #: By the trigger count: the multiplier on every line or way win of the free spins it
    #: starts (``multipliers``; all 1 when the model gives none).
    trigger_multipliers: npt.NDArray[np.int64] | None = None
    #: ``mask[reel]``: reels that must each show the trigger symbol for it to trigger (or
    #: retrigger); none but the count when the model lists none.
    required: npt.NDArray[np.bool_] | None = None

    def multiplier_for(self, count: int) -> int:
        """The multiplier a trigger of ``count`` symbols starts the free spins with."""
        table = self.trigger_multipliers
        return 1 if table is None else int(spins_by_count(table, count))

    def counted(self, grid: npt.NDArray[np.int8], mask: npt.NDArray[np.bool_]) -> int:
        """The trigger symbols ``grid`` shows on the reels of ``mask``: 0 when a required
        reel shows none (such a screen neither triggers nor retriggers)."""
        from reelsmith.engine.lines import count_symbol_on

        if self.required is not None:
            for reel in np.flatnonzero(self.required):
                if not (grid[:, reel] == self.symbol).any():
                    return 0
        return int(count_symbol_on(grid, self.symbol, mask))

    def reveal_table(self, variant: Variant) -> tuple[list[int], list[int]]:
        """The reveal values and their integer weights of ``variant``."""
        assert self.reveal is not None
        values, weights = weight_table(variant, self.reveal, "values")
        return [int(v) for v in values], [int(w) for w in weights]


@dataclass(frozen=True)
class Gamble:
    """``[gamble]``: colour and suit double-up after a win."""

    max_gambles: int
    win_limit_credits: str
    colour_multiplier: int
    suit_multiplier: int


@dataclass(frozen=True, eq=False)
class Mechanics:
    """What a catalogue title plays, beside the model's grid, lines and scatter."""

    model: GameModel
    free_spins: FreeSpins | None
    gamble: Gamble | None
    #: Pay tables of a free spin: ``[symbol, count]`` per line coin and by scatter count.
    free_line_pays: npt.NDArray[np.int64]
    free_scatter_pays: npt.NDArray[np.int64]
    #: ``mask[reel]`` of the reels the trigger symbol counts on.
    trigger_mask: npt.NDArray[np.bool_]
    #: The model's plug-in mechanic (``[plugin]``), acting on each spin's win.
    plugin: Plugin | None = None


def _int(table: Mapping[str, Any], key: str, default: int | None, where: str, low: int) -> int:
    value = table.get(key, default)
    if value is None:
        raise ModelError(f"{where}: missing key {key!r}")
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise ModelError(f"{where}.{key} must be a whole number >= {low}, got {value!r}")
    return value


def _count_table(raw: Any, where: str, highest: int) -> npt.NDArray[np.int64]:
    """``{count = spins}`` as an array by count; counts above the last entry take its value."""
    if not isinstance(raw, dict) or not raw:
        raise ModelError(f"{where} must be a table of count = spins")
    row = np.zeros(highest + 1, dtype=np.int64)
    entries: dict[int, int] = {}
    for count_text, spins in raw.items():
        try:
            count = int(count_text)
        except ValueError:
            raise ModelError(f"{where}: count {count_text!r} is not a whole number") from None
        if not 1 <= count <= highest:
            raise ModelError(f"{where}: count {count} is outside 1..{highest}")
        if not isinstance(spins, int) or isinstance(spins, bool) or spins < 0:
            raise ModelError(f"{where}: spins for {count} must be a whole number >= 0")
        entries[count] = spins
    last = max(entries)
    for count in range(highest + 1):
        if count in entries:
            row[count] = entries[count]
        elif count > last:
            row[count] = entries[last]
    return row


def _free_spins(model: GameModel, raw: Mapping[str, Any]) -> FreeSpins:
    where = f"{model.source or model.id}: free_spins"
    check_keys(raw, _FREE_SPINS_KEYS, where)
    default_symbol = model.symbol_id(model.scatter) if model.scatter >= 0 else None
    symbol_id = raw.get("symbol", default_symbol)
    if symbol_id is None:
        raise ModelError(
            f"{where}: 'symbol' must name the trigger symbol (the model has no scatter)"
        )
    try:
        symbol = model.symbol_index(symbol_id)
    except KeyError:
        raise ModelError(f"{where}.symbol: {symbol_id!r} is not a symbol of the model") from None
    if model.symbols[symbol].role not in ("scatter", "bonus"):
        raise ModelError(f"{where}.symbol: {symbol_id!r} must be a scatter or bonus symbol")
    highest = model.reels * model.rows
    trigger = _int(raw, "trigger", None, where, 1)
    if trigger > highest:
        raise ModelError(f"{where}.trigger: {trigger} is more than the {highest} cells")
    if ("spins" in raw) == ("reveal" in raw):
        raise ModelError(f"{where}: give either 'spins' (a table by count) or 'reveal'")
    spins = np.zeros(highest + 1, dtype=np.int64)
    reveal = None
    if "spins" in raw:
        spins = _count_table(raw["spins"], f"{where}.spins", highest)
        if any(spins[count] < 1 for count in range(trigger, highest + 1)):
            raise ModelError(f"{where}.spins: every triggering count must award at least 1 spin")
    else:
        reveal = raw["reveal"]
        if not isinstance(reveal, str):
            raise ModelError(f"{where}.reveal must name a table of the variants")
    mode_name = raw.get("retrigger", "table")
    if mode_name not in _RETRIGGER_MODES:
        raise ModelError(
            f"{where}.retrigger must be one of {', '.join(_RETRIGGER_MODES)}, got {mode_name!r}"
        )
    mode = _RETRIGGER_MODES[mode_name]
    if mode == RETRIGGER_TABLE and reveal is not None and "retrigger_spins" not in raw:
        raise ModelError(f"{where}: a revealed award needs 'retrigger_spins' to retrigger by table")
    retrigger_spins = (
        _count_table(raw["retrigger_spins"], f"{where}.retrigger_spins", highest)
        if "retrigger_spins" in raw
        else spins.copy()
    )
    if spins[:trigger].any():
        raise ModelError(f"{where}.spins: a count below the trigger ({trigger}) cannot award spins")
    per_symbol = _int(raw, "spins_per_symbol", 1 if mode == RETRIGGER_PER_SYMBOL else 0, where, 0)
    if mode == RETRIGGER_PER_SYMBOL and per_symbol < 1:
        raise ModelError(f"{where}.spins_per_symbol must be at least 1")
    multiplier = _int(raw, "multiplier", 1, where, 1)
    applies = raw.get("multiplier_applies_to", "all")
    if applies not in ("all", "lines"):
        raise ModelError(f'{where}.multiplier_applies_to must be "all" or "lines"')
    exceptions = []
    for number, entry in enumerate(raw.get("exceptions", []), start=1):
        at = f"{where}.exceptions[{number}]"
        if not isinstance(entry, dict) or set(entry) != {"symbol", "count", "multiplier"}:
            raise ModelError(f"{at} must be {{ symbol = ..., count = ..., multiplier = ... }}")
        try:
            exception_symbol = model.symbol_index(entry["symbol"])
        except KeyError:
            raise ModelError(f"{at}: {entry['symbol']!r} is not a symbol of the model") from None
        count = _int(entry, "count", None, at, 1)
        if count > model.reels or model.line_pays[exception_symbol, count] == 0:
            raise ModelError(
                f"{at}: {entry['symbol']} x{count} is not a line award of the paytable"
            )
        exceptions.append((exception_symbol, count, _int(entry, "multiplier", None, at, 0)))
    reel_set = raw.get("reel_set", "base")
    if not isinstance(reel_set, str):
        raise ModelError(f"{where}.reel_set must name a reel set")
    multipliers = None
    if "multipliers" in raw:
        multipliers = _count_table(raw["multipliers"], f"{where}.multipliers", highest)
        if any(multipliers[c] < 1 for c in range(trigger, highest + 1)):
            raise ModelError(f"{where}.multipliers: every triggering count needs a multiplier")
        multipliers[:trigger] = 1
    required = None
    if "required_reels" in raw:
        listed = raw["required_reels"]
        if (
            not isinstance(listed, list)
            or not listed
            or any(
                not isinstance(r, int) or isinstance(r, bool) or not 1 <= r <= model.reels
                for r in listed
            )
        ):
            raise ModelError(f"{where}.required_reels must list reel numbers 1..{model.reels}")
        required = np.zeros(model.reels, dtype=np.bool_)
        required[[r - 1 for r in listed]] = True
    rules = FreeSpins(
        symbol=symbol,
        trigger=trigger,
        spins=spins,
        reveal=reveal,
        retrigger=mode,
        retrigger_spins=retrigger_spins,
        spins_per_symbol=per_symbol,
        max_spins=_int(raw, "max_spins", 0, where, 0),
        multiplier=multiplier,
        multiply_scatter=applies == "all",
        exceptions=tuple(exceptions),
        reel_set=reel_set,
        trigger_multipliers=multipliers,
        required=required,
    )
    for variant in model.variants.values():
        vwhere = f"{variant.source or variant.id}"
        if reel_set not in variant.reel_sets:
            raise ModelError(f"{vwhere}: free spins play reel_sets.{reel_set}, which is missing")
        if reveal is not None:
            values, _weights = rules.reveal_table(variant)
            if any(v < 1 for v in values):
                raise ModelError(f"{vwhere}: {reveal} values must be whole numbers of spins >= 1")
    if rules.max_spins and rules.max_spins < int(spins[trigger:].max(initial=0)):
        raise ModelError(f"{where}.max_spins is below the spins a trigger awards")
    return rules


def _gamble(model: GameModel, raw: Mapping[str, Any]) -> Gamble:
    where = f"{model.source or model.id}: gamble"
    check_keys(raw, _GAMBLE_KEYS, where)
    limit = raw.get("win_limit_credits")
    if not isinstance(limit, str):
        raise ModelError(f"{where}.win_limit_credits must be a decimal string")
    return Gamble(
        max_gambles=_int(raw, "max_gambles", None, where, 1),
        win_limit_credits=limit,
        colour_multiplier=_int(raw, "colour_multiplier", 2, where, 2),
        suit_multiplier=_int(raw, "suit_multiplier", 4, where, 2),
    )


def free_spin_pays(
    model: GameModel, rules: FreeSpins | None
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The line and scatter pay tables of a free spin (see the module's account)."""
    if rules is None:
        return model.line_pays.copy(), model.scatter_pays.copy()
    line_pays = model.line_pays * rules.multiplier
    for symbol, count, multiplier in rules.exceptions:
        line_pays[symbol, count] = model.line_pays[symbol, count] * multiplier
    if not model.scatter_pays_in_free_spins:
        scatter_pays = np.zeros_like(model.scatter_pays)
    elif rules.multiply_scatter:
        scatter_pays = model.scatter_pays * rules.multiplier
    else:
        scatter_pays = model.scatter_pays.copy()
    return line_pays, scatter_pays


@cache
def mechanics(model: GameModel) -> Mechanics:
    """The catalogue title's mechanics, checked (one per loaded model)."""
    where = f"{model.source or model.id}"
    # the model's keys and how its mechanics compose are the registry's to check
    # (reelsmith.mechanics); the bet's keys are the coin bet's
    check_keys(model.bet, _BET_KEYS, f"{where}: bet")
    if any(s.role == "gem" for s in model.symbols):
        raise ModelError(
            f"{where}: gem symbols raise the ladder's local pots; declare [ladder] and "
            "[[jackpots]] (or give the symbols another role)"
        )
    raw_free = model.raw.get("free_spins")
    free = _free_spins(model, raw_free) if isinstance(raw_free, dict) else None
    if raw_free is not None and not isinstance(raw_free, dict):
        raise ModelError(f"{where}: free_spins must be a table")
    raw_gamble = model.raw.get("gamble")
    gamble = _gamble(model, raw_gamble) if isinstance(raw_gamble, dict) else None
    free_line_pays, free_scatter_pays = free_spin_pays(model, free)
    trigger_mask = np.ones(model.reels, dtype=np.bool_)
    if free is not None and free.symbol == model.scatter:
        trigger_mask = model.scatter_mask.copy()
    plugin = model_plugin(model)
    return Mechanics(model, free, gamble, free_line_pays, free_scatter_pays, trigger_mask, plugin)


# ---------------------------------------------------------------------------------------
# Transitions, written once (numba: live play, the kernel and the analysis call them)
# ---------------------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def spins_by_count(table: npt.NDArray[np.int64], count: int) -> int:
    """``table[count]``, a count past the table's end paying as its last entry."""
    return int(table[min(count, table.shape[0] - 1)])


@njit(cache=True, nogil=True)
def trigger_spins(table: npt.NDArray[np.int64], count: int, revealed: int, max_spins: int) -> int:
    """Spins a base spin showing ``count`` trigger symbols (at least the trigger) starts the
    feature with: ``revealed``, the sum of the symbols' reveals, where the award is revealed
    (``revealed >= 0``), else the table's spins by count; cut at ``max_spins`` (0: no cap)."""
    awarded = revealed if revealed >= 0 else spins_by_count(table, count)
    if max_spins > 0 and awarded > max_spins:
        awarded = max_spins
    return awarded


@njit(cache=True, nogil=True)
def award_spins(
    mode: int,
    table: npt.NDArray[np.int64],
    per_symbol: int,
    count: int,
    awarded: int,
    max_spins: int,
) -> int:
    """Spins a free spin showing ``count`` trigger symbols adds, after ``awarded`` spins of the
    feature so far, cut so the feature's spins never pass ``max_spins`` (0: no cap)."""
    if mode == RETRIGGER_TABLE:
        added = spins_by_count(table, count)
    elif mode == RETRIGGER_PER_SYMBOL:
        added = count * per_symbol
    else:
        added = 0
    if max_spins > 0 and awarded + added > max_spins:
        added = max(0, max_spins - awarded)
    return added


def check_screen(model: GameModel, grid: npt.NDArray[np.int8]) -> None:
    """Refuse a screen the reels cannot show: more scatters on one reel than the model's
    ``scatter.max_per_reel`` allows (the strips are checked to keep them apart)."""
    from reelsmith.engine.screen import GridError

    if model.scatter < 0:
        return
    most = int(model.raw.get("scatter", {}).get("max_per_reel", model.rows))
    symbol = model.symbols[model.scatter].id
    for reel in range(model.reels):
        shown = int((grid[:, reel] == model.scatter).sum())
        if shown > most:
            plural = symbol + ("es" if symbol.endswith("s") else "s")
            limit = f"one {symbol}" if most == 1 else f"{most} {plural}"
            raise GridError(
                f"reel {reel + 1} shows {shown} {plural}; the reels never show more than "
                f"{limit} per reel"
            )
