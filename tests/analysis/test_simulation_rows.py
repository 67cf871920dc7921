"""``reelsmith simulate``'s table shows the parts of the RTP the title's round has: a scatter
row only for a title with a scatter symbol, the feature's rows (its RTP, frequency and spins
per trigger) only for a title with a spin feature; the JSON keeps every key whatever the
title."""

from __future__ import annotations

import io
import re
from pathlib import Path

from rich.console import Console

from reelsmith.analysis.simulation import simulate, simulation_report
from reelsmith.engine.model import GameModel, load_model
from tests.catalogue.test_kernel_parity import write_comet
from tests.mechanics.hold_title import MODEL, hold_title

ROUNDS = 20_000


def _report(model: GameModel) -> tuple[str, dict]:
    result = simulate(model, ROUNDS, 3, workers=1)
    report = simulation_report(model.name, result, result.exact)
    out = io.StringIO()
    report.render(Console(file=out, width=140))
    return out.getvalue(), report.to_json()


def _rows(text: str) -> list[str]:
    """The figure column of the table's rows."""
    return [m.group(1).strip() for m in re.finditer(r"^│ ([^│]+?)\s*│", text, re.MULTILINE)]


def test_a_scatter_title_with_free_spins_shows_every_row(tmp_path: Path) -> None:
    text, document = _report(load_model(write_comet(tmp_path / "comet")))
    rows = _rows(text)
    assert {"line wins", "scatter", "free spins"} <= set(rows), rows
    assert "free spins frequency" in rows and "free spins per trigger" in rows
    assert set(document["rtp_breakdown"]) == {"line_wins", "scatter", "free_spins"}


def test_a_hold_and_spin_title_without_a_scatter_has_no_scatter_row(tmp_path: Path) -> None:
    text, document = _report(load_model(hold_title(tmp_path / "hold")))
    rows = _rows(text)
    assert "scatter" not in rows and "hold-and-spin" in rows, rows
    assert "hold-and-spin frequency" in rows and "respins per trigger" in rows
    assert set(document["rtp_breakdown"]) == {"line_wins", "scatter", "free_spins"}
    assert document["rtp_breakdown"]["scatter"] == 0 == document["exact"]["scatter"]


def test_a_title_without_scatter_or_feature_shows_its_lines_only(tmp_path: Path) -> None:
    plain = MODEL.split("[hold_and_spin]")[0] + "[bet]" + MODEL.split("[bet]")[1]
    plain = plain.replace('name = "Coin"\nrole = "bonus"', 'name = "Coin"\nrole = "regular"')
    text, document = _report(load_model(hold_title(tmp_path / "plain", model=plain)))
    rows = _rows(text)
    assert "line wins" in rows and "scatter" not in rows, rows
    assert not [r for r in rows if "free spins" in r or "hold-and-spin" in r or "trigger" in r]
    assert document["rtp_breakdown"]["free_spins"] == 0 == document["free_spins_frequency"]
