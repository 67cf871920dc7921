"""Tuning Sultan Spins: a new variant file in a copy of the title's folder, within 0.01
percentage points of the target, verified by the exact analyzer, loadable (gem and bonus
spacing), with its figures re-derivable; classes the jackpots put out of reach are refused."""

from __future__ import annotations

import json
import shutil
from decimal import Decimal

import numpy as np
import pytest
from typer.testing import CliRunner

from reelsmith.analysis import ladder as compact
from reelsmith.analysis.ladder_exact import analyze_full, rtp_parts
from reelsmith.analysis.ladder_exact import stored_figures as figures_from_analysis
from reelsmith.analysis.ladder_tuning import Search, Strips
from reelsmith.analysis.tuning import tune
from reelsmith.cli import app
from reelsmith.engine.ladder import ladder_rules
from reelsmith.engine.model import load_model
from reelsmith.games import game_folder

GAME = "sultan-spins"
runner = CliRunner()


@pytest.fixture
def folder(tmp_path):
    copy = tmp_path / "sultan_spins"
    shutil.copytree(game_folder(GAME), copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def package_variants():
    return sorted(p.name for p in (game_folder(GAME) / "variants").glob("*.toml"))


def check_written(folder, variant_id, target):
    model = load_model(folder)
    rules = ladder_rules(model)  # the loader's checks: gem and bonus spacing, reveal table
    variant = model.variant(variant_id)
    analysis = analyze_full(model, variant_id)
    assert abs(analysis.rtp - float(target) / 100) <= 1e-4
    assert variant.figures == figures_from_analysis(analysis)
    for reel_set in variant.reel_sets.values():
        for strip in reel_set.strips:
            for symbol in (rules.gem, rules.bonus):
                stops = np.flatnonzero(strip == symbol)
                n = len(strip)
                for a in stops:
                    for b in stops:
                        assert a == b or (b - a) % n >= 4
    return model, analysis


def strip_changes(model, variant_id, start):
    return sum(
        int((a != b).sum())
        for name, rs in model.variant(variant_id).reel_sets.items()
        for a, b in zip(rs.strips, start.reel_sets[name].strips, strict=True)
    )


def test_tune_without_volatility_changes_few_stops(sultan_model, folder):
    before = package_variants()
    result = tune(load_model(folder), folder, Decimal("95.50"))
    assert result.path == folder / "variants" / "95.50.toml"
    model, analysis = check_written(folder, "95.50", "95.50")
    start = sultan_model.variant("94.00")
    assert strip_changes(model, "95.50", start) == result.moves <= 20
    # gems, bonus symbols and pots do not move: jackpots and the ladder are unchanged
    reference = analyze_full(sultan_model, "94.00")
    assert analysis.jackpot_rtp == pytest.approx(reference.jackpot_rtp, rel=1e-12)
    assert analysis.free_spins_frequency == pytest.approx(reference.free_spins_frequency)
    assert analysis.volatility == "high"
    assert not [w for w in analysis.awards if w.gli != "no"]
    assert package_variants() == before  # nothing written into the package


def test_every_move_predicts_its_exact_effect(sultan_model):
    """The search's per-move RTP change is exact: apply moves on both reel sets and compare
    with the compact RTP route (per-cell laws, symbol tuples), independent of the patterns."""
    start = sultan_model.variant("94.00")
    rules = ladder_rules(sultan_model)
    reveal = rules.gem_reveal(start)
    state = Strips(
        reel_sets={
            name: [[int(s) for s in strip] for strip in rs.strips]
            for name, rs in start.reel_sets.items()
        },
        outcomes=list(reveal.outcomes),
        weights=list(reveal.weights),
    )
    search = Search(sultan_model, "t", state)
    before = compact.analyze(state.model(sultan_model, "t"), "t").rtp
    rtp = search.rtp(state)
    moves = search.candidates(state, rtp, rtp)
    free = [m for m in moves if m.reel_set == "free_spins"]
    for move in (max(moves, key=lambda m: m.delta), free[len(free) // 2]):
        trial = Strips({k: [list(s) for s in v] for k, v in state.reel_sets.items()},
                       state.outcomes, list(state.weights))  # fmt: skip
        trial.reel_sets[move.reel_set][move.reel][move.stop] = move.new
        after = compact.analyze(trial.model(sultan_model, "t"), "t").rtp
        assert after - before == pytest.approx(move.delta, rel=1e-9, abs=1e-14)


def test_classes_the_jackpots_put_out_of_reach_are_refused(sultan_model, folder):
    parts = rtp_parts(sultan_model, "94.00")
    a = analyze_full(sultan_model, "94.00")
    assert parts.rtp == pytest.approx(a.rtp, rel=1e-12)
    assert 10 < parts.std_dev_floor < a.std_dev  # the jackpots alone make it high volatility
    for volatility in ("medium", "medium-high"):
        with pytest.raises(ValueError, match=f"{volatility} volatility is out of reach"):
            tune(load_model(folder), folder, Decimal("95.50"), volatility=volatility)
    result = runner.invoke(
        app,
        ["tune", GAME, "--target-rtp", "95.50", "--volatility", "low", "--game-dir", str(folder)],
    )
    assert result.exit_code == 1
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "low volatility is out of reach" in lines[0]
    assert not (folder / "variants" / "95.50.toml").exists()


def test_tune_from_the_command_line(folder):
    before = package_variants()
    args = ["tune", GAME, "--target-rtp", "95.25", "--from", "96.10", "--volatility", "high"]
    args += ["--game-dir", str(folder)]
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["variant"] == "95.25" and doc["from"] == "96.10"
    assert abs(doc["rtp"] - 0.9525) <= 0.0001 and doc["volatility_class"] == "high"
    check_written(folder, "95.25", "95.25")
    again = runner.invoke(app, args)
    assert again.exit_code == 2 and "exists already" in again.stderr
    assert package_variants() == before
