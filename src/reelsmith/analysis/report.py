"""Shared pieces of the lab's outputs: atomic file writes, plots as embedded images, HTML bits.

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
from collections.abc import Iterable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from reelsmith.analysis.exact import symbol_counts, symbol_weights
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


def table(headers: Sequence[str], rows: Iterable[Sequence[object]], classes: str = "") -> str:
    """An HTML table; cells are escaped (pass pre-formatted strings)."""
    head = "".join(f"<th>{esc(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>" for row in rows)
    cls = f' class="{esc(classes)}"' if classes else ""
    return f"<table{cls}><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


PAGE_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 70rem; color: #222; }
h1 { margin-bottom: 0.2rem; } h2 { margin-top: 2rem; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.8rem 0; font-size: 0.9rem; }
th, td { border: 1px solid #ccc; padding: 0.25rem 0.5rem; text-align: right; }
th { background: #f3f3f3; } td:first-child, th:first-child { text-align: left; }
table.text td, table.text th { text-align: left; }
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


def strip_rows(model: GameModel, variant_id: str, name: str) -> str:
    """A PAR sheet's view of one reel set: each strip, then the symbol counts per reel. A
    weighted reel set shows each stop of weight w as ``id*w`` (weight 1 as the id alone), each
    reel's total weight, and a second table of the weight each symbol carries per reel."""
    reel_set = model.variant(variant_id).reel_sets[name]
    weighted = reel_set.weighted
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
