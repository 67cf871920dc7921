"""The one report every title's figures are rendered by: JSON as given, text as lines and rich
tables, the PAR sheet as sections of escaped paragraphs, tables and plots."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from reelsmith.analysis.report import LabReport, Section, Sheet, band_text, rows


def sheet() -> Sheet:
    return Sheet(
        title="T <sheet>",
        heading="Heading & more",
        note="a <b>note</b>",
        sections=(
            Section(
                "Summary",
                (rows(("figure", "value"), [("RTP", "96%"), ("  line wins", "<50%>")]),),
            ),
            Section("Plots", ("<p>kept as given</p>",)),
        ),
        closing="Computed in 1.00 s.",
    )


def test_the_sheet_escapes_cells_and_indents_the_parts_of_a_figure() -> None:
    html = sheet().html()
    assert html.startswith("<!DOCTYPE html>") and "<title>T &lt;sheet&gt;</title>" in html
    assert "<h1>Heading &amp; more</h1>" in html and '<p class="note">a <b>note</b></p>' in html
    assert "<td>RTP</td>" in html
    assert '<td class="part">line wins</td><td>&lt;50%&gt;</td>' in html
    assert html.index("<h2>Summary</h2>") < html.index("<h2>Plots</h2>")
    assert "<p>kept as given</p>" in html and "Computed in 1.00 s." in html


def test_the_text_prints_lines_and_tables_in_order() -> None:
    report = LabReport(
        {"rtp": 0.96},
        (
            "first line",
            rows(("award", "pays"), [("3 x Ace", "15")], "paytable"),
            band_text([(0.5, 1.5)] * 6, "spins"),
            "last line",
        ),
    )
    out = io.StringIO()
    report.render(Console(file=out, width=100))
    text = out.getvalue()
    order = ["first line", "paytable", "3 x Ace", "RTP 95% band by spins", "1,000", "last line"]
    assert [text.index(part) for part in order] == sorted(text.index(part) for part in order)
    assert "50.00% - 150.00%" in text
    assert report.to_json() == {"rtp": 0.96}


def test_a_report_without_a_sheet_says_so() -> None:
    with pytest.raises(ValueError, match="no PAR sheet"):
        LabReport({}, ()).to_html()
    assert "<h2>Summary</h2>" in LabReport({}, (), sheet).to_html()
