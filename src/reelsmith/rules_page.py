"""The paytable and rules page, rendered from the model (the same data the engine pays from).

:func:`rules_document` builds a plain dict (the ``--json`` output and what the web client
renders); :func:`render_rules` draws it for the terminal, paylines included.
"""

from __future__ import annotations

import importlib
from typing import Any

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from reelsmith.engine.model import GameModel
from reelsmith.games import TITLE_FOLDERS


def _pays(row: Any, reels: int) -> dict[str, int]:
    return {str(k): int(row[k]) for k in range(1, reels + 1) if int(row[k]) > 0}


def _help_module(model: GameModel) -> Any:
    """A shipped title's own help module if it has one; else, for a catalogue title, the
    rules written from its tables."""
    if model.id in TITLE_FOLDERS:
        name = f"reelsmith.games.{TITLE_FOLDERS[model.id]}.help"
        try:
            return importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
    return importlib.import_module("reelsmith.engine.catalogue_help")


def rules_document(model: GameModel, variant_id: str | None = None) -> dict[str, Any]:
    variant = model.variant(variant_id)
    help_module = _help_module(model)
    paytable = [
        {
            "symbol": s.id,
            "name": s.name,
            "role": s.role,
            "pays": _pays(model.line_pays[s.index], model.reels),
        }
        for s in model.symbols
        if s.role in ("regular", "wild") and int(model.line_pays[s.index].sum()) > 0
    ]
    document: dict[str, Any] = {
        "game": model.id,
        "name": model.name,
        "description": str(model.raw.get("description", "")),
        "variant": variant.id,
        "rtp_percent": variant.id,
        "reels": model.reels,
        "rows": model.rows,
        "line_pay_unit": str(model.raw.get("line_pay_unit", "coins per line")),
        "symbols": [{"id": s.id, "name": s.name, "role": s.role} for s in model.symbols],
        "paytable": paytable,
        "paylines": model.paylines.tolist(),
    }
    if model.scatter >= 0:
        document["scatter"] = {
            "symbol": model.symbols[model.scatter].id,
            "name": model.symbols[model.scatter].name,
            "pays_times_total_bet": _pays(model.scatter_pays, model.reels),
        }
    document["rules"] = help_module.feature_rules(model, variant.id)
    return document


def payline_drawing(line: list[int], rows: int) -> Text:
    """A payline as a small grid: ``■`` on the line's cell in each reel, ``·`` elsewhere."""
    text = Text()
    for row in range(rows):
        for reel, line_row in enumerate(line):
            if reel:
                text.append(" ")
            text.append(
                "■" if line_row == row else "·", style="bold yellow" if line_row == row else "dim"
            )
        if row < rows - 1:
            text.append("\n")
    return text


def _bullets(lines: list[str]) -> Text:
    return Text("\n".join(f"• {line}" for line in lines))


SECTION_TITLES = {
    "general": "General",
    "substitute": "Substitute symbol",
    "wild": "Wild",
    "scatter": "Scatter",
    "jackpots": "Local jackpots",
    "free_spins": "Free spins",
    "gamble": "Gamble bonus game",
    "bets": "Bets",
}
TABLE_TITLES = {
    "reveal_distribution": "Each egg reveals",
    "gem_reveals": "A gem that does not hit its pot reveals",
    "pots": "Pots",
    "levels": "Levels",
}


def _title(key: str, titles: dict[str, str]) -> str:
    return titles.get(key, key.replace("_", " ").capitalize())


def _table(key: str, rows: list[dict[str, Any]]) -> Table:
    table = Table(title=_title(key, TABLE_TITLES), title_justify="left")
    columns = list(rows[0])
    for column in columns:
        table.add_column(column.replace("_", " "), justify="right")
    for row in rows:
        table.add_row(*(f"{row[c]:.2%}" if c == "probability" else f"{row[c]}" for c in columns))
    return table


def _section(key: str, value: Any) -> RenderableType:
    parts: list[RenderableType] = []
    if isinstance(value, list):
        parts.append(_bullets(value))
    else:
        parts.append(_bullets(value.get("text", [])))
        for name, item in value.items():
            if isinstance(item, list) and item and isinstance(item[0], dict):
                parts.append(_table(name, item))
    return Panel(Group(*parts), title=_title(key, SECTION_TITLES), title_align="left")


def render_rules(document: dict[str, Any]) -> RenderableType:
    reels = document["reels"]
    paytable = Table(title=f"Paytable ({document['line_pay_unit']})", title_justify="left")
    paytable.add_column("Symbol")
    for count in range(2, reels + 1):
        paytable.add_column(f"{count} in a row", justify="right")
    for entry in document["paytable"]:
        name = entry["name"]
        if entry["role"] == "wild" and "wild" not in name.lower():
            name += " (wild)"
        pays = entry["pays"]
        paytable.add_row(
            name, *[f"{pays[str(c)]:,}" if str(c) in pays else "-" for c in range(2, reels + 1)]
        )
    parts: list[RenderableType] = [
        Text(f"{document['name']} — RTP {document['rtp_percent']}%", style="bold"),
        Text(document["description"]),
        paytable,
    ]
    scatter = document.get("scatter")
    if scatter:
        table = Table(title=f"{scatter['name']} scatter (x total bet)", title_justify="left")
        table.add_column("On screen")
        table.add_column("Pays", justify="right")
        for count, pay in scatter["pays_times_total_bet"].items():
            table.add_row(count, f"x{pay}")
        parts.append(table)
    for key, value in document["rules"].items():
        parts.append(_section(key, value))
    drawings = [
        Panel(payline_drawing(line, document["rows"]), title=f"{number}", expand=False)
        for number, line in enumerate(document["paylines"], start=1)
    ]
    parts.append(Text("Paylines", style="bold"))
    parts.append(Columns(drawings))
    return Group(*parts)
