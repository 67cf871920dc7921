"""Tuning Days of the Tsar with the generic tuner: a new variant file in a copy of the title's
folder, within 0.01 percentage points of the target (and in the volatility class asked for),
verified by the exact analyzer, loadable, with its figures re-derivable."""

from __future__ import annotations

import json
import shutil
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from typer.testing import CliRunner

from reelsmith.analysis.catalogue_exact import analyze_full, analyze_rtp
from reelsmith.analysis.catalogue_exact import stored_figures as variant_figures
from reelsmith.analysis.tuning import tune
from reelsmith.cli import app
from reelsmith.engine.catalogue import mechanics
from reelsmith.engine.model import load_model
from reelsmith.games import game_folder

GAME = "days-of-the-tsar"
runner = CliRunner()


@pytest.fixture
def folder(tmp_path):
    copy = tmp_path / "days_of_the_tsar"
    shutil.copytree(game_folder(GAME), copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def package_variants():
    return sorted(p.name for p in (game_folder(GAME) / "variants").glob("*.toml"))


def check_written(folder, variant_id, target):
    model = load_model(folder)
    mechanics(model)  # the loader's checks: egg spacing, reveal table
    variant = model.variant(variant_id)
    analysis = analyze_full(model, variant_id)
    assert abs(analysis.rtp - Fraction(target) / 100) <= Fraction(1, 10_000)
    assert variant.figures == variant_figures(analysis)
    for reel_set in variant.reel_sets.values():
        for strip in reel_set.strips:
            eggs = np.flatnonzero(strip == model.scatter)
            n = len(strip)
            for a in eggs:
                for b in eggs:
                    assert a == b or (b - a) % n >= 3
    return model, analysis


def test_tune_without_volatility_changes_few_stops(tsar_model, folder):
    before = package_variants()
    result = tune(load_model(folder), folder, Decimal("95.50"))
    assert result.path == folder / "variants" / "95.50.toml"
    model, analysis = check_written(folder, "95.50", "95.50")
    start = tsar_model.variant("96.00")
    changed = sum(
        int((a != b).sum())
        for name, rs in model.variant("95.50").reel_sets.items()
        for a, b in zip(rs.strips, start.reel_sets[name].strips, strict=True)
    )
    assert changed == result.moves <= 10
    assert not [w for w in analysis.awards if w.below_gli_limit]
    assert package_variants() == before  # nothing written into the package


def test_tune_medium_volatility(folder):
    tune(load_model(folder), folder, Decimal("95.50"), volatility="medium")
    _, analysis = check_written(folder, "95.50", "95.50")
    assert analysis.volatility == "medium" and 4 <= analysis.std_dev < 5


@pytest.mark.slow
def test_tune_low_volatility(folder):
    tune(load_model(folder), folder, Decimal("95.50"), volatility="low")
    _, analysis = check_written(folder, "95.50", "95.50")
    assert analysis.volatility == "low" and analysis.std_dev < 4


@pytest.mark.slow
def test_tune_high_volatility(folder):
    tune(load_model(folder), folder, Decimal("95.50"), volatility="high")
    _, analysis = check_written(folder, "95.50", "95.50")
    assert analysis.volatility == "high" and analysis.std_dev >= 10


def test_shipped_variants_are_medium_high_volatility(tsar_model):
    for variant_id in ("96.00", "94.00"):
        analysis = analyze_full(tsar_model, variant_id)
        assert analysis.volatility == "medium-high" and 5 <= analysis.std_dev < 10


def test_tune_from_the_command_line(folder):
    before = package_variants()
    args = ["tune", GAME, "--target-rtp", "94.75", "--from", "94.00", "--game-dir", str(folder)]
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["variant"] == "94.75" and doc["from"] == "94.00"
    assert abs(doc["rtp"] - 0.9475) <= 0.0001
    check_written(folder, "94.75", "94.75")
    again = runner.invoke(app, args)
    assert again.exit_code == 2 and "exists already" in again.stderr
    assert package_variants() == before


def test_reveal_weights_close_a_gap_the_strips_leave(tsar_model):
    """The last resort of the search: refined reveal weights, moved one unit at a time."""
    from reelsmith.analysis.catalogue_tuning import REVEAL_AIM, StripState, _Catalogue

    start = tsar_model.variant("96.00")
    reveal = start.parameters["egg_reveal"]
    state = StripState(
        model=tsar_model,
        source=start,
        variant_id="tuned",
        strips={
            name: [[int(s) for s in strip] for strip in rs.strips]
            for name, rs in start.reel_sets.items()
        },
        weights=list(reveal["weights"]),
    )
    rtp_before = analyze_rtp(tsar_model, "96.00").rtp
    target = rtp_before + Fraction(3, 10_000)
    rtp = _Catalogue(state, mechanics(tsar_model)).refine(state, target)
    assert state.weights is not None
    assert sum(state.weights) == 10 * sum(reveal["weights"])
    assert state.weights != [10 * w for w in reveal["weights"]]
    assert abs(target - rtp) <= REVEAL_AIM
    assert rtp == analyze_rtp(state.tuned(), "tuned").rtp
    assert state.tuned().variant("tuned").parameters["egg_reveal"]["values"] == reveal["values"]
