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


def rules_document(model: GameModel, variant_id: str | None = None) -> dict[str, Any]:
    variant = model.variant(variant_id)
    help_module = importlib.import_module(f"reelsmith.games.{TITLE_FOLDERS[model.id]}.help")
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


def render_rules(document: dict[str, Any]) -> RenderableType:
    reels = document["reels"]
    paytable = Table(title="Paytable (coins per coin bet on the payline)", title_justify="left")
    paytable.add_column("Symbol")
    for count in range(2, reels + 1):
        paytable.add_column(f"{count} in a row", justify="right")
    for entry in document["paytable"]:
        name = entry["name"] + (" (wild)" if entry["role"] == "wild" else "")
        paytable.add_row(
            name,
            *[
                f"{entry['pays'].get(str(c), 0):,}" if entry["pays"].get(str(c)) else "-"
                for c in range(2, reels + 1)
            ],
        )
    parts: list[RenderableType] = [
        Text(f"{document['name']} — RTP {document['rtp_percent']}%", style="bold"),
        Text(document["description"]),
        paytable,
    ]
    scatter = document.get("scatter")
    if scatter:
        table = Table(title=f"{scatter['name']} scatter (x total coins bet)", title_justify="left")
        table.add_column("On screen")
        table.add_column("Pays", justify="right")
        for count, pay in scatter["pays_times_total_bet"].items():
            table.add_row(count, f"x{pay}")
        parts.append(table)
    rules = document["rules"]
    for key, title in (
        ("general", "General"),
        ("substitute", "Substitute symbol"),
        ("scatter", "Scatter"),
    ):
        if key in rules:
            parts.append(Panel(_bullets(rules[key]), title=title, title_align="left"))
    free = rules.get("free_spins")
    if free:
        reveal = Table(title="Each egg reveals", title_justify="left")
        reveal.add_column("Free spins", justify="right")
        reveal.add_column("Probability", justify="right")
        for row in free["reveal_distribution"]:
            reveal.add_row(str(row["spins"]), f"{row['probability']:.2%}")
        parts.append(
            Panel(
                Group(_bullets(free["text"]), reveal),
                title="Free Spins bonus game",
                title_align="left",
            )
        )
    for key, title in (("gamble", "Gamble bonus game"), ("bets", "Bets")):
        if key in rules:
            parts.append(Panel(_bullets(rules[key]["text"]), title=title, title_align="left"))
    drawings = [
        Panel(payline_drawing(line, document["rows"]), title=f"{number}", expand=False)
        for number, line in enumerate(document["paylines"], start=1)
    ]
    parts.append(Text("Paylines", style="bold"))
    parts.append(Columns(drawings))
    return Group(*parts)
