"""The paytable and rules page, rendered from the model (the same data the engine pays from).

:func:`rules_document` builds a plain dict (the ``--json`` output and what the web client
renders); :func:`render_rules` draws it for the terminal, paylines included. The rules of the
features come from the help module of the model's round (:func:`reelsmith.mechanics.round_face`):
the paylines' page, written from the tables of every mechanic it plays, or the ladder's.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from babel import Locale
from babel.numbers import format_decimal, format_percent
from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from reelsmith.engine.model import GameModel
from reelsmith.help import Phrases, Terms
from reelsmith.mechanics import window_help


def _pays(row: Any, reels: int) -> dict[str, int]:
    return {str(k): int(row[k]) for k in range(1, reels + 1) if int(row[k]) > 0}


def _pay_counts(paytable: list[dict[str, Any]], reels: int) -> list[str]:
    """The paytable's columns, in count order: the least run any symbol pays (a column no
    symbol pays would be dashes alone) to the reel count, or a pay-anywhere paytable's tiers."""
    keys = {key for entry in paytable for key in entry["pays"]}
    if all(key.isdigit() and int(key) <= reels for key in keys):
        least = min((int(key) for key in keys), default=1)
        return [str(c) for c in range(least, reels + 1)]
    return sorted(keys, key=lambda key: int(key.rstrip("+").split("-")[0]))


def _reel_symbols(model: GameModel, strip: Any) -> list[str]:
    """The ids of the symbols on ``strip`` (a reel's stops as symbol indices), in model order."""
    on = {int(s) for s in strip}
    return [s.id for s in model.symbols if s.index in on]


def check_help(model: GameModel) -> None:
    """Refuse (ModelError) a title whose rules page cannot be written: worked examples its page
    cannot show."""
    from reelsmith.engine.catalogue_help import examples_of
    from reelsmith.engine.model import ModelError
    from reelsmith.help import HelpError

    try:
        examples_of(model)
    except HelpError as exc:
        raise ModelError(str(exc)) from None


def rules_document(
    model: GameModel,
    variant_id: str | None = None,
    *,
    language: str = "en",
    locale: str | None = None,
    terms: Terms | None = None,
) -> dict[str, Any]:
    """The page in ``language`` (numbers formatted for ``locale``, by default the language's
    own); ``terms``: the player's market and the server's settings (None: the model alone)."""
    variant = model.variant(variant_id)
    from reelsmith.mechanics import round_face
    from reelsmith.mechanics.base import face

    help_module = face(round_face(model, "help"))  # refuses mechanics that do not compose
    p = Phrases(model, language, locale)
    paytable = [
        {
            "symbol": s.id,
            "name": p.symbol(s.id),
            "role": s.role,
            "pays": _pays(model.line_pays[s.index], model.reels),
        }
        for s in model.symbols
        if s.role in ("regular", "wild") and int(model.line_pays[s.index].sum()) > 0
    ]
    # an evaluator that pays the whole window gives its own pay unit, section and, where it
    # pays by count rather than by run, its own paytable
    window = window_help(model)
    own: dict[str, Any] = window.page(model, p) if window is not None else {}
    paytable = own.get("paytable", paytable)
    unit_label = own.get("unit_label", "labels.line_pay_unit")
    unit_key = "title.line_pay_unit"
    document: dict[str, Any] = {
        "game": model.id,
        "name": p.name(),
        "language": p.language,
        "locale": p.locale,
        "description": p.description(),
        "variant": variant.id,
        "rtp_percent": str(variant.rtp_percent()),
        "reels": model.reels,
        "rows": model.rows,
        "line_pay_unit": p(unit_key)
        if p.has(unit_key)
        else str(model.raw.get("line_pay_unit", p(unit_label))),
        "symbols": [{"id": s.id, "name": p.symbol(s.id), "role": s.role} for s in model.symbols],
        "paytable": paytable,
        "pay_counts": _pay_counts(paytable, model.reels),
        "paylines": model.paylines.tolist(),
        # per reel set of the variant, the symbols each reel can show (model order, no
        # stops or weights): what a spinning reel may be drawn running through
        "reel_symbols": {
            name: [_reel_symbols(model, strip) for strip in reel_set.strips]
            for name, reel_set in variant.reel_sets.items()
        },
        # the paytable's column heading: a run's length ("5 in a row"), or a count ("12 on
        # the screen") where the evaluator pays by count
        "pay_column": own.get("pay_column", "in_a_row"),
    }
    document.update(own.get("sections", {}))
    if model.scatter >= 0:
        document["scatter"] = {
            "symbol": model.symbols[model.scatter].id,
            "name": p.symbol_at(model.scatter),
            "pays_times_total_bet": _pays(model.scatter_pays, model.reels),
            "pays_per": "coin" if model.scatter_pays_per_coin else "total_bet",
        }
    document["rules"] = help_module.feature_rules(model, variant.id, p, terms)
    document["labels"] = _labels(p, document)
    return document


def _labels(p: Phrases, document: dict[str, Any]) -> dict[str, Any]:
    """The page's headings in its language: the chrome, and the title of every section, table
    and table column the document has."""
    sections = document["rules"]
    tables = {
        name: rows
        for value in sections.values()
        if isinstance(value, dict)
        for name, rows in value.items()
        if isinstance(rows, list) and rows and isinstance(rows[0], dict)
    }
    columns = {column for rows in tables.values() for column in rows[0] if column != "id"}

    def title(group: str, key: str) -> str:
        return (
            p(f"{group}.{key}") if p.has(f"{group}.{key}") else key.replace("_", " ").capitalize()
        )

    chrome = ("paytable", "rules", "paylines", "wild", "scatter", "symbol", "pays", "on_screen")
    return {
        **{key: p(f"labels.{key}") for key in chrome},
        "nav": p("labels.sections"),
        "paylines_lead": p("labels.paylines_lead", name=document["name"]),
        "rtp": p("labels.rtp", rtp=p.number(Decimal(document["rtp_percent"]), 2)),
        "unit": p("labels.unit", unit=document["line_pay_unit"]),
        "total_bet_times": p("labels.total_bet_times", times="{times}"),
        "in_a_row": p("labels.in_a_row", count="{count}"),
        "count_on_screen": p("labels.count_on_screen", count="{count}"),
        "scatter_table": p(
            "labels.scatter_table_per_coin"
            if document["scatter"]["pays_per"] == "coin"
            else "labels.scatter_table",
            scatter=document["scatter"]["name"],
        )
        if "scatter" in document
        else "",
        "sections": {key: title("sections", key) for key in sections},
        "tables": {key: title("tables", key) for key in tables},
        "columns": {key: title("columns", key) for key in sorted(columns)},
    }


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


def _cell(column: str, value: Any, locale: str) -> str:
    """A table cell for a reader of ``locale``: a probability as a percentage, a count with
    the locale's digit grouping, text as it is."""
    if column == "probability":
        pattern = Locale.parse(locale).percent_formats[None].pattern  # de: "#,##0 %"
        return format_percent(value, format=pattern.replace("#,##0", "#,##0.00", 1), locale=locale)
    if isinstance(value, int) and not isinstance(value, bool):
        return format_decimal(value, locale=locale)
    return f"{value}"


def _table(title: str, rows: list[dict[str, Any]], labels: dict[str, Any], locale: str) -> Table:
    table = Table(title=title, title_justify="left")
    columns = [c for c in rows[0] if c != "id"]  # an id names a row for programs, not people
    for column in columns:
        table.add_column(labels["columns"].get(column, column), justify="right")
    for row in rows:
        table.add_row(*(_cell(c, row[c], locale) for c in columns))
    return table


def _section(key: str, value: Any, labels: dict[str, Any], locale: str) -> RenderableType:
    parts: list[RenderableType] = []
    if isinstance(value, list):
        parts.append(_bullets(value))
    else:
        parts.append(_bullets(value.get("text", [])))
        for name, item in value.items():
            if isinstance(item, list) and item and isinstance(item[0], dict):
                parts.append(_table(labels["tables"][name], item, labels, locale))
    return Panel(Group(*parts), title=labels["sections"][key], title_align="left")


def render_rules(document: dict[str, Any]) -> RenderableType:
    labels = document["labels"]
    reels = document["reels"]
    locale = document["locale"]
    paytable = Table(
        title=f"{labels['paytable']} ({document['line_pay_unit']})", title_justify="left"
    )
    paytable.add_column(labels["symbol"])
    counts = [c for c in document.get("pay_counts", []) if c != "1"] or [
        str(c) for c in range(2, reels + 1)
    ]
    heading = labels[document.get("pay_column", "in_a_row")]
    for count in counts:
        paytable.add_column(heading.format(count=count), justify="right")
    for entry in document["paytable"]:
        name = entry["name"]
        if entry["role"] == "wild":
            name += f" ({labels['wild']})"
        pays = entry["pays"]
        paytable.add_row(
            name,
            *[format_decimal(pays[c], locale=locale) if c in pays else "-" for c in counts],
        )
    parts: list[RenderableType] = [
        Text(f"{document['name']} — {labels['rtp']}", style="bold"),
        Text(document["description"]),
        paytable,
    ]
    scatter = document.get("scatter")
    if scatter:
        table = Table(title=labels["scatter_table"], title_justify="left")
        table.add_column(labels["on_screen"])
        table.add_column(labels["pays"], justify="right")
        sign = "" if scatter["pays_per"] == "coin" else "x"
        for count, pay in scatter["pays_times_total_bet"].items():
            table.add_row(count, f"{sign}{format_decimal(pay, locale=locale)}")
        parts.append(table)
    for key, value in document["rules"].items():
        parts.append(_section(key, value, labels, locale))
    drawings = [
        Panel(payline_drawing(line, document["rows"]), title=f"{number}", expand=False)
        for number, line in enumerate(document["paylines"], start=1)
    ]
    if drawings:
        parts.append(Text(labels["paylines"], style="bold"))
        parts.append(Columns(drawings))
    return Group(*parts)
