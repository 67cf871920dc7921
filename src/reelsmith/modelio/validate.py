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
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from reelsmith.engine.features.ladder_tables import read_tables, symbol_roles
from reelsmith.engine.model import (
    MAX_REELS,
    MAX_ROWS,
    MIN_REELS,
    MIN_ROWS,
    GameModel,
    ModelError,
)


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
    for key in (*required, *(() if "ways" in raw else ("paylines",))):
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
    for table in ("line_pays", "ways_pays"):
        for symbol in sorted(set(raw.get(table) or {}) - symbols):
            problems.append(f"{where}: {table}.{symbol}: {symbol!r} is not a declared symbol")
    for table in ("scatter", "wild", "free_spins"):
        named = (raw.get(table) or {}).get("symbol") if isinstance(raw.get(table), dict) else None
        if isinstance(named, str) and named not in symbols:
            problems.append(f"{where}: {table}.symbol: {named!r} is not a declared symbol")
    lines = raw.get("paylines")
    if isinstance(lines, list) and isinstance(reels, int) and isinstance(rows, int):
        for number, line in enumerate(lines, start=1):
            if (
                not isinstance(line, list)
                or len(line) != reels
                or any(not isinstance(r, int) or not 0 <= r < rows for r in line)
            ):
                problems.append(
                    f"{where}: payline {number} must list {reels} row indices 0..{rows - 1}"
                )
    if "ladder" in raw and isinstance(reels, int) and isinstance(rows, int):
        roles = symbol_roles(raw.get("symbols") or [])
        problems.extend(read_tables(raw, raw.get("bet", {}), roles, reels, rows, where)[2])
    return symbols


def _strips(path: Path, raw: dict[str, Any], symbols: set[str], problems: list[str]) -> None:
    for name, table in (raw.get("reel_sets") or {}).items():
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
    problems: list[str] = []
    model_path = folder / "model.toml"
    if not folder.is_dir():
        return [f"{folder}: no such folder"]
    raw = _read(model_path, problems)
    if raw is None:
        return problems
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
            _strips(path, variant_raw, symbols, problems)
    if problems:
        return problems
    # The parts are sound: load the model as the engine does, then its mechanics and figures.
    from reelsmith.engine.model import load_model

    try:
        model = load_model(folder)
    except ModelError as exc:
        return [str(exc)]
    from reelsmith.mechanics import problems as mechanics_problems

    unstated = []
    for variant in model.variants.values():
        try:
            variant.rtp_percent()
        except ModelError as exc:
            unstated.append(str(exc))
    return unstated + mechanics_problems(model)


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
    if "cascade" in model.raw:
        # a cascade's law is its reel sets' full cycles, minutes each: analyze derives it
        return problems
    for variant_id in model.variants:
        try:
            analyze_rtp(model, variant_id)
        except ModelError as exc:
            problems.append(str(exc))
    return problems
