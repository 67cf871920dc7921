"""``reelsmith validate PATH``: every problem of a title folder, one line each.

The loader stops at the first problem (a model that cannot load cannot be played); a game
designer wants them all. This module checks each part of the files on its own, so one bad
table does not hide the next: the TOML of every file, the top-level keys, the symbols, the
paylines, the paytable (a pay for an undeclared symbol), the ladder and its local pots (a pot
on a reel the grid lacks, a multiplier list whose length is not the level count, a meter fed
by an undeclared symbol, ...), each variant's strips (a strip holding an undeclared symbol),
the ``[plugin]`` table (its keys, its module and the plug-in's check of its parameters: one
line per problem), and then, if the parts are sound, the whole model as the engine loads it and
the checks of the mechanics it declares (:func:`reelsmith.mechanics.problems`: mechanics that do
not compose are a problem, named): for the free spins their tables and, for each variant,
whether they end on average; for the ladder and the pots their rules under every rules version
(a ladder always ends: it has a last level).

``validate`` is the lab's gate: a model it passes loads, and ``rules``, ``analyze``,
``simulate``, ``tune`` and ``play`` take it. So it also refuses what only one of them would
refuse: more paylines than the exact analyzer enumerates (:data:`MAX_LINES`), a variant that
states no RTP, and a variant whose stated RTP (the figure the rules page tells players) is more
than a tolerance away from the exact RTP of its strips, checked beside the other problems
wherever the engine still builds the model (a warning says why where it cannot be). What the
engine plays but a designer most likely did not mean is a warning, not a problem: a pay table
that stops short of a count the strips can show (such a count pays nothing), a title no market
offers (the server would refuse its every spin) and an id a shipped title already has
(``serve --titles`` would refuse the folder).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

import numpy as np

from reelsmith.analysis.enumeration import MAX_LINES, BeyondEnumerationError
from reelsmith.engine.model import (
    MAX_REELS,
    MAX_ROWS,
    MIN_REELS,
    MIN_ROWS,
    GameModel,
    ModelError,
)
from reelsmith.mechanics import declared, each_face, own_rtp
from reelsmith.mechanics.base import face

#: How far, in percentage points, a variant's stated RTP may lie from the exact RTP of its
#: strips: one unit of the two decimals the rules page prints it with.
RTP_TOLERANCE = Decimal("0.01")


@dataclass(frozen=True)
class Findings:
    """What ``validate`` found: ``problems`` some command refuses the model for (exit status
    1), ``warnings`` for what every command takes but a designer most likely did not mean."""

    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def _read(path: Path, problems: list[str]) -> dict[str, Any] | None:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        problems.append(f"{path}: no such file")
    except UnicodeDecodeError:
        problems.append(f"{path}: not UTF-8 text")
    except tomllib.TOMLDecodeError as exc:
        problems.append(f"{path}: not valid TOML: {exc}")
    return None


def _parts(path: Path, raw: dict[str, Any], problems: list[str]) -> set[str]:
    """Checks of model.toml's parts, each on its own; returns the declared symbol ids."""
    where = str(path)
    required = ("id", "name", "reels", "rows", "default_variant", "symbols")
    # a model with no evaluator of its own pays by paylines, which it must then list
    evaluated = any(m.role == "evaluator" for m in declared(raw))
    for key in (*required, *(() if evaluated else ("paylines",))):
        if key not in raw:
            problems.append(f"{where}: missing key {key!r}")
    reels, rows = raw.get("reels"), raw.get("rows")
    if isinstance(reels, int) and not MIN_REELS <= reels <= MAX_REELS:
        problems.append(f"{where}: reels must be {MIN_REELS}..{MAX_REELS}, got {reels}")
    if isinstance(rows, int) and not MIN_ROWS <= rows <= MAX_ROWS:
        problems.append(f"{where}: rows must be {MIN_ROWS}..{MAX_ROWS}, got {rows}")
    symbols: set[str] = set()
    for number, entry in enumerate(raw.get("symbols") or [], start=1):
        if isinstance(entry, dict) and isinstance(entry.get("id"), str):
            if entry["id"] in symbols:
                problems.append(f"{where}: symbol {entry['id']!r} is declared twice")
            symbols.add(entry["id"])
        else:
            problems.append(f"{where}: symbols[{number}] needs an id")
    for table in ("line_pays", "ways_pays", "anywhere_pays"):
        for symbol in sorted(set(raw.get(table) or {}) - symbols):
            problems.append(f"{where}: {table}.{symbol}: {symbol!r} is not a declared symbol")
    for table in ("scatter", "wild", "free_spins"):
        named = (raw.get(table) or {}).get("symbol") if isinstance(raw.get(table), dict) else None
        if isinstance(named, str) and named not in symbols:
            problems.append(f"{where}: {table}.symbol: {named!r} is not a declared symbol")
    lines = raw.get("paylines")
    if isinstance(lines, list) and len(lines) > MAX_LINES:
        problems.append(
            f"{where}: {len(lines)} paylines: the exact analysis (analyze, tune) takes at most "
            f"{MAX_LINES}"
        )
    if isinstance(reels, int) and MIN_REELS <= reels <= MAX_REELS:
        _pay_tables(where, raw, reels, rows, problems)
    if isinstance(lines, list) and isinstance(reels, int) and isinstance(rows, int):
        first: dict[tuple[int, ...], int] = {}
        for number, line in enumerate(lines, start=1):
            if (
                not isinstance(line, list)
                or len(line) != reels
                or any(not isinstance(r, int) or not 0 <= r < rows for r in line)
            ):
                problems.append(
                    f"{where}: payline {number} must list {reels} row indices 0..{rows - 1}"
                )
            elif tuple(line) in first:
                problems.append(f"{where}: payline {number} repeats payline {first[tuple(line)]}")
            else:
                first[tuple(line)] = number
    if isinstance(reels, int) and isinstance(rows, int):
        for mechanic in declared(raw):
            if mechanic.table_problems is not None:
                problems.extend(face(mechanic.table_problems)(raw, reels, rows, where))
    return symbols


def _pay_tables(
    where: str, raw: dict[str, Any], reels: int, rows: Any, problems: list[str]
) -> None:
    """Each line, ways and scatter pay table read as the loader reads it, one problem each (the
    loader stops at the first)."""
    from reelsmith.engine.model import _pay_row

    for table in ("line_pays", "ways_pays"):
        pays = raw.get(table)
        if not isinstance(pays, dict):
            continue
        for symbol, row in pays.items():
            if isinstance(row, dict):
                try:
                    _pay_row(row, f"{where}: {table}.{symbol}", reels)
                except ModelError as exc:
                    problems.append(str(exc))
    scatter = raw.get("scatter")
    if (
        isinstance(scatter, dict)
        and isinstance(scatter.get("pays"), dict)
        and isinstance(rows, int)
    ):
        try:
            _pay_row(scatter["pays"], f"{where}: scatter.pays", reels * rows)
        except ModelError as exc:
            problems.append(str(exc))


def _strips(
    path: Path,
    raw: dict[str, Any],
    symbols: set[str],
    problems: list[str],
    model_raw: dict[str, Any],
) -> None:
    from reelsmith.engine.model import cells_problems

    reels, rows = model_raw.get("reels"), model_raw.get("rows")
    drawn = "cells" in model_raw
    for name, table in (raw.get("reel_sets") or {}).items():
        if isinstance(table, dict) and (drawn or "cells" in table):
            if isinstance(reels, int) and isinstance(rows, int):
                where = f"{path}: reel_sets.{name}"
                problems.extend(cells_problems(table, where, reels, rows, symbols, drawn))
            continue
        strips = table.get("strips") if isinstance(table, dict) else None
        if not isinstance(strips, list):
            if isinstance(table, dict) and "stop_weights" in table:
                problems.append(
                    f"{path}: reel_sets.{name}.stop_weights weighs a reel set that does not "
                    f"exist: reel_sets.{name} has no strips"
                )
                continue
            problems.append(f"{path}: reel_sets.{name} has no strips list")
            continue
        _stop_weights(path, name, table, strips, problems)
        for reel, strip in enumerate(strips, start=1):
            if not isinstance(strip, list):
                problems.append(f"{path}: reel_sets.{name} reel {reel} is not a list")
                continue
            for stop, symbol in enumerate(strip):
                if symbol not in symbols:
                    problems.append(
                        f"{path}: reel_sets.{name} reel {reel} stop {stop} holds {symbol!r}, "
                        "not a declared symbol"
                    )


def _stop_weights(
    path: Path, name: str, table: dict[str, Any], strips: list[Any], problems: list[str]
) -> None:
    """Each problem of a reel set's ``stop_weights`` (the loader's checks, all of them)."""
    from reelsmith.engine.model import stop_weight_problems

    if "stop_weights" in table:
        lengths = [len(s) if isinstance(s, list) else 0 for s in strips]
        problems.extend(
            stop_weight_problems(table["stop_weights"], f"{path}: reel_sets.{name}", lengths)
        )


def validate_folder(folder: Path) -> list[str]:
    """Every problem found in the title folder ``folder``; empty when it is sound."""
    return check_folder(folder).problems


def check_folder(
    folder: Path, markets_dir: Path | None = None, rtp_tolerance: Decimal = RTP_TOLERANCE
) -> Findings:
    """Every problem and warning of the title folder ``folder``: its parts each on their own,
    then, when they are sound, the model as the engine loads it and its mechanics; then, in the
    same run whatever else was found, each variant's stated RTP against the exact RTP of its
    strips (within ``rtp_tolerance`` percentage points) wherever the engine builds the model
    and the exact analysis takes the variant, and a warning naming why where it does not; and,
    for a model with no problem, its pay tables against the counts its strips can show and the
    markets in ``markets_dir`` (the shipped ones by default) that offer it."""
    if not folder.is_dir():
        return Findings([f"{folder}: no such folder"])
    problems, model = _problems(folder)
    found = Findings(list(problems))
    if model is None and problems:
        # a problem of the parts need not stop the engine building the model (the payline
        # count, a repeated payline): then its variants' stated RTPs are checked in this run too
        model, reason = _loaded_anyway(folder)
        if model is None:
            if any((folder / "variants").glob("*.toml")):
                found.warnings.append(f"warning: {folder}: stated RTP not checked: {reason}")
            return found
    if model is None:
        return found
    found.problems.extend(
        _stated_rtp_problems(model, rtp_tolerance, found.warnings, flawed=bool(problems))
    )
    if problems:
        return found
    found.warnings.extend(_unpaid_counts(model))
    found.warnings.extend(_market_warnings(model, markets_dir))
    found.warnings.extend(_mode_warnings(model))
    return found


def _mode_warnings(model: GameModel) -> list[str]:
    """For a model with bet modes: per variant, a warning where the exact RTPs of the base game
    and its modes differ by more than ``[modes] rtp_tolerance``, or where the lab cannot give a
    mode's exact figures (naming why)."""
    if "modes" not in model.raw:
        return []
    from reelsmith.mechanics.modes.exact import all_figures, rtp_spread_warning

    out = []
    for variant_id in sorted(model.variants):
        try:
            found = all_figures(model, variant_id)
        except (ModelError, ValueError) as exc:
            out.append(f"warning: {model.source}: variant {variant_id}: modes not checked: {exc}")
            continue
        spread = rtp_spread_warning(model, variant_id, found)
        if spread is not None:
            out.append(spread)
    return out


def _problems(folder: Path) -> tuple[list[str], GameModel | None]:
    """The problems of the folder's parts, then of the model as loaded and its mechanics; the
    model when it loads."""
    problems: list[str] = []
    model_path = folder / "model.toml"
    raw = _read(model_path, problems)
    if raw is None:
        return problems, None
    # mechanics that do not compose are named first, as every face names them; the other
    # problems of the parts follow
    from reelsmith.mechanics import composition_problems

    problems.extend(composition_problems(raw, str(model_path)))
    symbols = _parts(model_path, raw, problems)
    if raw.get("mechanics") == "catalogue":
        from reelsmith.engine.plugins import plugin_problems

        problems.extend(plugin_problems(raw, folder, str(model_path)))
    variant_paths = sorted((folder / "variants").glob("*.toml"))
    if not variant_paths:
        problems.append(f"{folder / 'variants'}: no variant files")
    for path in variant_paths:
        variant_raw = _read(path, problems)
        if variant_raw is not None:
            _strips(path, variant_raw, symbols, problems, raw)
    if problems:
        return problems, None
    # The parts are sound: load the model as the engine does, then its mechanics and figures.
    from reelsmith.engine.model import load_model

    try:
        model = load_model(folder)
    except ModelError as exc:
        return [str(exc)], None
    from reelsmith.mechanics import problems as mechanics_problems

    unstated = []
    for variant in model.variants.values():
        try:
            variant.rtp_percent()
        except ModelError as exc:
            unstated.append(str(exc))
    return unstated + mechanics_problems(model), model


def _loaded_anyway(folder: Path) -> tuple[GameModel | None, str]:
    """The model as the engine loads it from a folder whose parts have problems, when it
    loads all the same (None otherwise), and the reason it does not load."""
    from reelsmith.engine.model import load_model

    try:
        return load_model(folder), ""
    except ModelError as exc:
        return None, f"the model does not load ({exc})"


#: The largest reel set (stop combinations) of a cascade whose stated RTP ``validate`` checks
#: by enumerating it (about a second); a larger one is left to ``reelsmith analyze``.
CASCADE_CHECKED_CYCLE = 2_000_000


def _exact_rtp(model: GameModel, variant_id: str) -> Decimal:
    """The exact RTP in percent of a variant's strips: the catalogue's own RTP analysis where
    the model's round is analysed by it (the figure its free-spin check has computed already),
    the whole analysis otherwise; a ModelError or ValueError where there is no exact route."""
    from reelsmith.analysis.analyzer import analyze
    from reelsmith.analysis.simulation import rtp_route

    if own_rtp(model) is not None and "cells" not in model.raw:
        # (drawn cells: the chain's law is its counts', not its cycle enumerated)
        cycles = [rs.cycle for rs in model.variant(variant_id).reel_sets.values()]
        if max(cycles) > CASCADE_CHECKED_CYCLE:
            raise ModelError(
                f"a cascade's exact RTP enumerates its full cycle ({max(cycles):,} stop "
                f"combinations, minutes of work): reelsmith analyze gives it"
            )
    analyze_rtp = rtp_route(model)
    rtp: Any = (analyze_rtp or analyze)(model, variant_id).rtp
    return Decimal(str(float(rtp) * 100))


def _stated_rtp_problems(
    model: GameModel, tolerance: Decimal, warnings: list[str], flawed: bool = False
) -> list[str]:
    """A variant whose stated RTP lies more than ``tolerance`` points from the exact RTP of its
    strips is a problem (the rules page would tell players a return the reels do not give);
    one within it that prints as another figure at two decimals is a warning, and so is one the
    exact analysis cannot check (its simulation is the only figure). ``flawed``: the model has
    problems found already, so the exact analysis may fail on them in any way (a plug-in whose
    parameters its check refused): such a failure is a warning naming it, the problems being
    named already."""
    problems = []
    for variant in model.variants.values():
        stated = variant.stated_rtp
        where = variant.source or variant.id
        if stated is None:
            continue  # named by _problems
        try:
            exact = _exact_rtp(model, variant.id)
        except (ModelError, ValueError) as exc:
            warnings.append(f"warning: {where}: stated RTP not checked: {exc}")
            if isinstance(exc, BeyondEnumerationError) and _retriggers(model):
                warnings.append(
                    f"warning: {where}: free_spins.retrigger: without an exact law nothing "
                    "shows that the free spins end on average; a feature that retriggers "
                    "more than it spends never ends in simulate or in play"
                )
            continue
        except Exception as exc:
            if not flawed:
                raise
            warnings.append(
                f"warning: {where}: stated RTP not checked: the exact analysis fails on the "
                f"problems above ({type(exc).__name__}: {exc})"
            )
            continue
        difference = abs(exact - stated)
        text = (
            f"{where}: variant {variant.id!r} states an RTP of {stated}% but its strips give "
            f"{exact:.6f}% exactly"
        )
        if difference > tolerance:
            problems.append(
                f"{text} ({difference:.4f} points apart, more than the tolerance of "
                f"{tolerance}): re-tune it (reelsmith tune) or state the RTP it gives"
            )
        elif exact.quantize(Decimal("0.01")) != stated.quantize(Decimal("0.01")):
            warnings.append(f"warning: {text}, which prints as {exact:.2f}%")
    return problems


def _retriggers(model: GameModel) -> bool:
    """Whether the model's free spins may add spins while they run."""
    free = model.raw.get("free_spins")
    return isinstance(free, dict) and free.get("retrigger", "none") != "none"


def _most_shown(model: GameModel, reel_set: Any, symbol: int) -> int:
    """The most cells showing ``symbol`` on one screen of ``reel_set``, on the reels the
    scatter counts on (a stop weighing 0 is never the stop a reel lands on)."""
    most = 0
    for reel in range(model.reels):
        if not model.scatter_mask[reel]:
            continue
        length = int(reel_set.lengths[reel])
        padded = reel_set.padded[reel]
        weights = reel_set.weights[reel] if reel_set.weights is not None else None
        best = 0
        for stop in range(length):
            if weights is not None and int(weights[stop]) == 0:
                continue
            best = max(best, int(np.count_nonzero(padded[stop : stop + model.rows] == symbol)))
        most += best
    return most


def _or(counts: list[int]) -> str:
    """``4``, ``4 or 5``, ``3, 4 or 5``."""
    text = [str(c) for c in counts]
    return text[0] if len(text) == 1 else ", ".join(text[:-1]) + " or " + text[-1]


def _unpaid_counts(model: GameModel) -> list[str]:
    """Counts a pay table does not list but the reels can show, past its first entry: the
    engine pays such a count nothing, which a designer rarely means."""
    where = str(model.source or model.id)
    warnings = []
    for table in ("line_pays", "ways_pays"):
        for symbol_id, row in (model.raw.get(table) or {}).items():
            counts = sorted(int(c) for c in row)
            missing = [c for c in range(counts[0], model.reels + 1) if c not in counts]
            if counts and missing:
                shown = _or(missing)
                warnings.append(
                    f"warning: {where}: {table}.{symbol_id} lists no pay for {shown} in a row: "
                    "such a run pays nothing (a count a pay table does not list pays nothing)"
                )
    for _mechanic, warn in each_face(model, "warnings"):
        warnings.extend(warn(model, where))
    if model.scatter < 0 or not (model.raw.get("scatter") or {}).get("pays"):
        return warnings
    pays = model.scatter_pays
    listed = sorted(int(c) for c in model.raw["scatter"]["pays"])
    name = model.symbols[model.scatter].name
    for variant in model.variants.values():
        most = max(_most_shown(model, rs, model.scatter) for rs in variant.reel_sets.values())
        unpaid = [c for c in range(listed[0], most + 1) if pays[min(c, len(pays) - 1)] == 0]
        if unpaid:
            shown = _or(unpaid)
            warnings.append(
                f"warning: {where}: scatter.pays lists no pay for {shown} {name} symbols: "
                f"variant {variant.id}'s reels can show {most}, and a count a pay table does not "
                "list pays nothing"
            )
    return warnings


def _market_warnings(model: GameModel, markets_dir: Path | None) -> list[str]:
    """An id a shipped title has (``serve --titles`` refuses the folder) and a title no market
    offers (the server refuses its every spin with game_not_offered)."""
    from reelsmith.games import TITLE_FOLDERS, game_folder
    from reelsmith.server.markets import MARKETS_DIR, MarketError, load_markets, shipped_models

    where = str(model.source or model.id)
    source = Path(str(model.source)).resolve() if model.source else None
    if model.id in TITLE_FOLDERS and (
        source is None or game_folder(model.id).resolve() not in (source, source.parent)
    ):
        return [
            f"warning: {where}: the id {model.id!r} is a shipped title's: `reelsmith serve "
            "--titles` refuses this folder; give the title an id of its own"
        ]
    folder = markets_dir or MARKETS_DIR
    named = f"market in {markets_dir}" if markets_dir else "shipped market"
    try:
        markets = load_markets(folder, {**shipped_models(), model.id: model})
    except MarketError as exc:
        return [f"warning: the markets do not load: {exc}"]
    if any(model.id in market.games for market in markets.values()):
        return []
    return [
        f"warning: {where}: no {named} offers {model.id!r}: the server would refuse its every "
        "spin (game_not_offered); list it in a market file and serve with --markets DIR "
        "(docs/operator-guide.md)"
    ]


def ladder_problems(model: GameModel) -> list[str]:
    """The ladder's and the pots' checks: their rules read under every rules version a stored
    round may have been played under."""
    from reelsmith.engine.ladder import RULES_VERSIONS, ladder_rules

    problems = []
    for version in RULES_VERSIONS:
        try:
            ladder_rules(model, version)
        except ModelError as exc:
            problems.append(str(exc))
    return problems


def catalogue_problems(model: GameModel) -> list[str]:
    """The free spins' and the gamble's checks: their tables, and for each variant whether the
    free spins end on average (the exact RTP is finite)."""
    from reelsmith.analysis.catalogue_exact import analyze_rtp
    from reelsmith.engine.catalogue import mechanics

    try:
        mechanics(model)
    except ModelError as exc:
        return [str(exc)]
    problems: list[str] = []
    for variant_id, variant in model.variants.items():
        cycle = max(rs.cycle for rs in variant.reel_sets.values())
        if (
            own_rtp(model) is not None
            and "cells" not in model.raw
            and cycle > CASCADE_CHECKED_CYCLE
        ):
            # a law of the reel sets' full cycles (a cascade's chains), minutes for a reel set
            # this size: reelsmith analyze derives it, and says so if the spins never end
            continue
        try:
            analyze_rtp(model, variant_id)
        except BeyondEnumerationError:
            continue  # no exact RTP: the lab simulates it, and the stated RTP check says so
        except ModelError as exc:
            problems.append(str(exc))
    return problems
