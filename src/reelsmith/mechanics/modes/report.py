"""The modes' rows of ``reelsmith analyze``: the base game and each mode with its price, exact
RTP, hit frequency, how often a round starts the feature, standard deviation, volatility and
largest single spin's win, per unit of what it costs; in the text, the JSON (``modes``) and the
PAR sheet (a "Bet modes" section)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

from reelsmith.analysis.report import LabReport, Rows, Section, Sheet, one_in, pct, rows
from reelsmith.engine.model import GameModel
from reelsmith.mechanics.modes.exact import ModeFigures, all_figures

#: The figures of each mode, in the order the tables give them ("{feature}": the title's).
FIGURES = (
    "kind",
    "price",
    "RTP",
    "hit freq",
    "{feature} freq",
    "std dev",
    "volatility",
    "max spin",
)


def frequency(p: Fraction) -> str:
    """How often a round starts the feature: "every round" for a bought one, else "1 in N"."""
    return "every round" if p == 1 else one_in(float(p))


def _cells(f: ModeFigures) -> tuple[str, ...]:
    """Mode ``f``'s figures as the tables print them, in :data:`FIGURES` order."""
    return (
        f.kind if f.kind != "buy" else f"buy {f.triggers}",
        f"{float(f.price):g}",
        pct(f.rtp),
        pct(f.hit_frequency),
        frequency(f.feature_frequency),
        f"{f.std_dev:.4f}",
        f.volatility,
        f"{float(f.max_spin_win):.4f}",
    )


def _rows(
    model: GameModel, variant_id: str | None, analysis: Any
) -> tuple[list[ModeFigures], tuple[Rows, str], Rows]:
    """The modes' figures, the text's table (a column per mode, so that it fits a terminal
    whatever the number of figures) with the line saying what it shows, and the PAR sheet's
    table (a row per mode)."""
    found = all_figures(model, variant_id, analysis)
    feature = found[0].feature if found else "feature"
    labels = [label.format(feature=feature) for label in FIGURES]
    note = (
        "price in bets; RTP, std dev and the largest single spin's win (max spin) per unit of "
        f"the price x the bet; {feature} freq: how often a round of the mode starts the "
        f"{feature}; a buy's triggers beside its kind"
    )
    cells = [_cells(f) for f in found]
    text = rows(
        ("mode", *(f.name for f in found)),
        [(label, *(c[i] for c in cells)) for i, label in enumerate(labels)],
        title="Bet modes, exact",
    )
    sheet = rows(
        ("mode", *labels),
        [(f.name, *c) for f, c in zip(found, cells, strict=True)],
        f"Bet modes, exact: {note}",
        left=2,
    )
    return found, (text, note), sheet


def with_modes(report: LabReport, model: GameModel, variant_id: str | None) -> LabReport:
    """``report`` with the modes' rows added to its text, JSON and PAR sheet."""
    found, text, table = _rows(model, variant_id, report.source)
    document = {**report.document, "modes": [f.to_json() for f in found]}
    sheet = report.sheet
    if sheet is not None:
        made = sheet

        def sheet_with_modes() -> Sheet:
            base = made()
            return replace(base, sections=(*base.sections, Section("Bet modes", (table,))))

        sheet = sheet_with_modes
    return replace(report, document=document, text=(*report.text, *text), sheet=sheet)
