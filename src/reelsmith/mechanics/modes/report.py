"""The modes' rows of ``reelsmith analyze``: the base game and each mode with its price, exact
RTP, hit frequency, standard deviation, volatility and largest single spin's win, per unit of
what it costs; in the text, the JSON (``modes``) and the PAR sheet (a "Bet modes" section)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from reelsmith.analysis.report import LabReport, Rows, Section, Sheet, pct, rows
from reelsmith.engine.model import GameModel
from reelsmith.mechanics.modes.exact import all_figures

HEADERS = ("mode", "kind", "price", "RTP", "hit freq", "std dev", "volatility", "max spin")


def _rows(model: GameModel, variant_id: str | None, analysis: Any) -> tuple[list[Any], Rows]:
    found = all_figures(model, variant_id, analysis)
    table = rows(
        HEADERS,
        [
            (
                f.name,
                f.kind if f.kind != "buy" else f"buy {f.triggers}",
                f"{float(f.price):g}",
                pct(f.rtp),
                pct(f.hit_frequency),
                f"{f.std_dev:.4f}",
                f.volatility,
                f"{float(f.max_spin_win):.4f}",
            )
            for f in found
        ],
        title=(
            "Bet modes, exact: price in bets; RTP, std dev and the largest single spin's win "
            "(max spin) per unit of the price x the bet; a buy's triggers beside it"
        ),
        left=2,
    )
    return found, table


def with_modes(report: LabReport, model: GameModel, variant_id: str | None) -> LabReport:
    """``report`` with the modes' rows added to its text, JSON and PAR sheet."""
    found, table = _rows(model, variant_id, report.source)
    document = {**report.document, "modes": [f.to_json() for f in found]}
    sheet = report.sheet
    if sheet is not None:
        made = sheet

        def sheet_with_modes() -> Sheet:
            base = made()
            return replace(base, sections=(*base.sections, Section("Bet modes", (table,))))

        sheet = sheet_with_modes
    return replace(report, document=document, text=(*report.text, table), sheet=sheet)
