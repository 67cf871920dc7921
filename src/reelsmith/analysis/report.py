"""The lab's outputs for every title: one report that renders a family-neutral figures object
as JSON, rich text and the PAR sheet, plus the pieces they share (atomic file writes, plots as
embedded images, HTML bits).

A mechanic family (the catalogue's, the ladder with its pots) does not write a report of its
own: it states its figures as data (:class:`LabReport`: the JSON document, the text as lines and
tables, the PAR sheet as sections of paragraphs, tables and plots) and this module renders
them, so every title's sheet has the same layout and a section a family adds (levels, pots,
meter) is one more :class:`Section`.

A report or variant file is written to a temporary file in the same folder and renamed over
the target, so a reader never sees half a file and a failure leaves the old one in place.
Plots are drawn with matplotlib's Agg backend (no display needed) and embedded in the HTML as
base64 PNG, so a PAR sheet is one self-contained file.
"""

from __future__ import annotations

import base64
import html
import io
import os
import tempfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from reelsmith.analysis.exact import symbol_counts, symbol_weights
from reelsmith.analysis.volatility import CONFIDENCE_SPINS
from reelsmith.engine.model import GameModel


def write_text_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` via a temporary file in the same folder and a rename."""
    folder = path.parent if str(path.parent) else Path(".")
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def figure_png(figure: Any) -> str:
    """A matplotlib figure as an ``<img>`` tag with the PNG inline (base64)."""
    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=110, bbox_inches="tight")
    plt.close(figure)
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    return f'<img alt="plot" src="data:image/png;base64,{data}">'


def new_figure(width: float = 7.0, height: float = 3.4) -> tuple[Any, Any]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(width, height))
    return figure, axes


def esc(value: object) -> str:
    return html.escape(str(value))


def _cell(value: object) -> str:
    """A table cell, escaped; a text indented by spaces (a part of the row above it, such as
    an RTP's share) is indented on the page too, where HTML would collapse the spaces."""
    text = str(value)
    if text.startswith("  ") and text.strip():
        return f'<td class="part">{esc(text.strip())}</td>'
    return f"<td>{esc(text)}</td>"


def table(headers: Sequence[str], rows: Iterable[Sequence[object]], classes: str = "") -> str:
    """An HTML table; cells are escaped (pass pre-formatted strings)."""
    head = "".join(f"<th>{esc(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(_cell(c) for c in row) + "</tr>" for row in rows)
    cls = f' class="{esc(classes)}"' if classes else ""
    return f"<table{cls}><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


PAGE_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 70rem; color: #222; }
h1 { margin-bottom: 0.2rem; } h2 { margin-top: 2rem; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.8rem 0; font-size: 0.9rem; }
th, td { border: 1px solid #ccc; padding: 0.25rem 0.5rem; text-align: right; }
th { background: #f3f3f3; } td:first-child, th:first-child { text-align: left; }
table.text td, table.text th { text-align: left; }
td.part { padding-left: 1.5rem; }
table.strips td { font-family: monospace; font-size: 0.8rem; }
.flag { color: #b00; font-weight: bold; } .note { color: #555; font-size: 0.9rem; }
img { max-width: 100%; }
"""


def page(title: str, body: str) -> str:
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{esc(title)}</title><style>{PAGE_STYLE}</style></head>"
        f"<body>{body}</body></html>\n"
    )


def pct(value: Fraction | float, digits: int = 5) -> str:
    """A share as a percentage with ``digits`` decimals."""
    return f"{float(value) * 100:.{digits}f}%"


def one_in(p: float) -> str:
    """A probability as "1 in N" (two decimals below 100)."""
    if p <= 0:
        return "never"
    return f"1 in {1 / p:,.2f}" if 1 / p < 100 else f"1 in {1 / p:,.0f}"


def _cell_rows(model: GameModel, name: str, reel_set: Any) -> str:
    """A reel set of drawn cells: each symbol's weight and chance on one cell of each reel."""
    headers = ("symbol", *(f"reel {r + 1}" for r in range(model.reels)))
    tables = [dict(table) for table in reel_set.cells]
    totals = [sum(t.values()) for t in tables]
    shown = [s for s in range(len(model.symbols)) if any(s in t for t in tables)]
    body = [
        (
            model.symbols[s].name,
            *(
                f"{t.get(s, 0)} ({100 * t.get(s, 0) / total:.2f}%)"
                for t, total in zip(tables, totals, strict=True)
            ),
        )
        for s in shown
    ]
    body.append(("total", *(f"{total:,}" for total in totals)))
    return (
        f"<h3>{esc(name)} (every cell drawn on its own: {reel_set.cycle:,} weighted screens)</h3>"
        + table(headers, body)
    )


def strip_rows(model: GameModel, variant_id: str, name: str) -> str:
    """A PAR sheet's view of one reel set: each strip, then the symbol counts per reel. A
    weighted reel set shows each stop of weight w as ``id*w`` (weight 1 as the id alone), each
    reel's total weight, and a second table of the weight each symbol carries per reel."""
    reel_set = model.variant(variant_id).reel_sets[name]
    if reel_set.cells is not None:
        return _cell_rows(model, name, reel_set)
    weighted = reel_set.weights is not None
    rows = []
    for reel, strip in enumerate(reel_set.strips):
        weights = reel_set.stop_weights(reel)
        cells = [
            model.symbol_id(int(s)) if not weighted or w == 1 else f"{model.symbol_id(int(s))}*{w}"
            for s, w in zip(strip, weights, strict=True)
        ]
        label = f"reel {reel + 1} ({len(strip)} stops"
        label += f", total weight {int(reel_set.totals[reel]):,})" if weighted else ")"
        rows.append((label, " ".join(cells)))
    counts = symbol_counts(model, reel_set)
    count_rows = [
        (model.symbols[s].name, *(str(int(counts[r, s])) for r in range(model.reels)))
        for s in range(len(model.symbols))
    ]
    reel_headers = ("symbol", *(f"reel {r + 1}" for r in range(model.reels)))
    if not weighted:
        return (
            f"<h3>{esc(name)} ({reel_set.cycle:,} stop combinations)</h3>"
            + table(("reel", "strip (top row = stop)"), rows, "strips text")
            + table(reel_headers, count_rows)
        )
    carried = symbol_weights(model, reel_set)
    weight_rows = [
        (model.symbols[s].name, *(str(int(carried[r, s])) for r in range(model.reels)))
        for s in range(len(model.symbols))
    ]
    return (
        f"<h3>{esc(name)} (weighted stops: {reel_set.cycle:,} weighted stop combinations, the "
        "product of the reels' total weights)</h3>"
        + table(("reel", "strip (top row = stop; id*w: stop weight w)"), rows, "strips text")
        + "<p>Stops per symbol:</p>"
        + table(reel_headers, count_rows)
        + "<p>Stop weight per symbol (a reel stops on a symbol with its weight over the "
        "reel's total weight):</p>" + table(reel_headers, weight_rows)
    )


@dataclass(frozen=True)
class Rows:
    """A table of pre-formatted cells: in text a rich table (``title`` above it, the first
    column left-aligned, the others right), on the PAR sheet an HTML table (``classes``: its CSS
    classes)."""

    headers: tuple[str, ...]
    rows: tuple[tuple[object, ...], ...]
    title: str | None = None
    classes: str = ""
    left: int = 1  # how many leading columns the text aligns left

    def html(self) -> str:
        return table(self.headers, self.rows, self.classes)

    def rich(self) -> Table:
        out = Table(title=self.title, title_justify="left", show_header=True)
        for i, header in enumerate(self.headers):
            out.add_column(header, justify="left" if i < self.left else "right")
        for row in self.rows:
            out.add_row(*(str(cell) for cell in row))
        return out


def rows(
    headers: Sequence[str],
    cells: Iterable[Sequence[object]],
    title: str | None = None,
    classes: str = "",
    left: int = 1,
) -> Rows:
    """:class:`Rows` from any sequences (kept as tuples, so a report is immutable)."""
    return Rows(tuple(headers), tuple(tuple(row) for row in cells), title, classes, left)


#: A PAR-sheet block: a table, or HTML already escaped (a paragraph, a plot, a sub-heading).
Block = Rows | str
#: A text block: a table, or one line of rich markup.
TextBlock = Rows | str


@dataclass(frozen=True)
class Section:
    """One ``<h2>`` section of a PAR sheet: its blocks in order."""

    heading: str
    blocks: tuple[Block, ...]

    def html(self) -> str:
        parts = (b.html() if isinstance(b, Rows) else b for b in self.blocks)
        return f"<h2>{esc(self.heading)}</h2>" + "".join(parts)


def strips_section(model: GameModel, variant_id: str) -> Section:
    """The PAR sheet's last section: every reel set of the variant (:func:`strip_rows`)."""
    names = model.variant(variant_id).reel_sets
    drawn = any(r.cells is not None for r in names.values())
    title = "Cell tables" if drawn else "Reel strips"
    return Section(title, tuple(strip_rows(model, variant_id, name) for name in names))


@dataclass(frozen=True)
class Sheet:
    """A PAR sheet: its page title, heading, the note under the heading (escaped HTML), its
    sections and the closing note."""

    title: str
    heading: str
    note: str
    sections: tuple[Section, ...]
    closing: str

    def html(self) -> str:
        body = (
            f"<h1>{esc(self.heading)}</h1>"
            f'<p class="note">{self.note}</p>'
            + "".join(s.html() for s in self.sections)
            + f'<p class="note">{esc(self.closing)}</p>'
        )
        return page(self.title, body)


@dataclass(frozen=True)
class LabReport:
    """What ``analyze``, ``simulate`` and ``tune`` return for any title: ``document`` is the
    JSON, ``text`` the lines and tables printed for people, ``sheet`` builds the PAR sheet
    (only when asked for: its plots need matplotlib and take time); ``source`` is the analysis
    or simulation the figures were read from, for callers that want more than the report."""

    document: dict[str, Any]
    text: tuple[TextBlock, ...]
    sheet: Callable[[], Sheet] | None = None
    source: Any = field(default=None, compare=False)

    def to_json(self) -> dict[str, Any]:
        return self.document

    def render(self, console: Console) -> None:
        for block in self.text:
            console.print(block.rich() if isinstance(block, Rows) else block)

    def to_html(self) -> str:
        if self.sheet is None:
            raise ValueError("this report has no PAR sheet")
        return self.sheet().html()


def band_text(bands: Sequence[tuple[float, float]], noun: str, note: str = "") -> Rows:
    """The text table of the RTP's 95% band after each of :data:`CONFIDENCE_SPINS` rounds
    (``bands``: the (low, high) RTP after each; ``noun``: what a round is called)."""
    return rows(
        (noun, "RTP range"),
        (
            (f"{n:,}", f"{low * 100:.2f}% - {high * 100:.2f}%")
            for n, (low, high) in zip(CONFIDENCE_SPINS, bands, strict=True)
        ),
        f"RTP 95% band by {noun}{note}",
        left=0,
    )


def speed_line(run: Any, noun: str) -> str:
    """How long a simulation took and how fast it ran (``run``: a
    :class:`reelsmith.analysis.chunks.KernelRun`; ``noun``: what its rounds are called)."""
    return (
        f"{run.seconds:.2f} s, {run.rounds_per_second:,.0f} {noun} per second; the kernel alone "
        f"{run.rounds_per_second_per_core:,.0f} per core"
    )


def confidence_plot(
    rtp: float, half: Any, spans: Any, label: str, spread: float, naive: Any = None
) -> str:
    """The RTP's 95% band against the rounds played (``half``: the band's half-width in percent
    points at each of ``spans``; ``naive``: the half-width were rounds independent, drawn
    dashed when given)."""
    figure, axes = new_figure()
    axes.fill_between(spans, rtp - half, rtp + half, color="#3b6ea5", alpha=0.25, label="95% band")
    if naive is not None:
        axes.plot(
            spans, rtp + naive, color="#888", linestyle="--", label="if rounds were independent"
        )
        axes.plot(spans, rtp - naive, color="#888", linestyle="--")
    axes.axhline(rtp, color="#3b6ea5", label=f"RTP {rtp:.3f}%")
    axes.set_xscale("log")
    axes.set_xlabel(f"{label} played")
    axes.set_ylabel("observed RTP (%)")
    axes.set_ylim(rtp - spread, rtp + spread)
    axes.legend()
    axes.set_title(f"RTP confidence band by number of {label}")
    return figure_png(figure)


def bands_plot(
    labels: Sequence[str], probabilities: Sequence[float], xlabel: str, title: str
) -> str:
    """A log-scale bar chart of a win distribution (a band that never happens gets no bar: a
    log scale has no zero)."""
    import numpy as np

    figure, axes = new_figure()
    short = [label.replace("over ", "") for label in labels]
    axes.bar(short, [p if p > 0 else np.nan for p in probabilities], color="#3b6ea5")
    axes.set_yscale("log")
    axes.set_ylabel("probability")
    axes.set_xlabel(xlabel)
    axes.set_title(title)
    axes.tick_params(axis="x", rotation=35)
    return figure_png(figure)
