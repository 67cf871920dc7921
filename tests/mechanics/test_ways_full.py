"""The ways' full cycle (:mod:`reelsmith.mechanics.ways.full`): the joint law of a screen's ways
win and its scatter count, and each award's figures, against every stop (or position, with
variable rows) played through live play; the full analysis of a ways title against its
simulation; a full cycle beyond enumeration refused by name, and ``analyze`` then saying so on
its first line and simulating the rest."""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from reelsmith.analysis.catalogue_exact import analyze_full, analyze_rtp
from reelsmith.analysis.enumeration import BeyondEnumerationError
from reelsmith.analysis.simulation import simulate
from reelsmith.cli import app
from reelsmith.engine.model import load_model
from reelsmith.engine.screen import window
from reelsmith.mechanics.ways.full import screen_distribution
from reelsmith.mechanics.ways.live import way_wins
from reelsmith.mechanics.ways.rules import ways_rules
from tests.mechanics.heights_title import tiny_heights, tumble_heights, tumble_ways
from tests.mechanics.test_ways import tiny


def brute(model, reel_set, free):  # type: ignore[no-untyped-def]
    """Every position combination (and free wild weight) through the live rule: the
    weighted histogram of (scatter count, ways win), and per award (symbol id, run) the
    weighted screens paying it and what they pay."""
    rules = ways_rules(model)
    laws = [[(int(w), 1)] for w in rules.weights]
    if free:
        for reel, (values, odds) in rules.free_weights.items():
            laws[reel] = list(zip(values, odds, strict=True))
    weights = [reel_set.position_weights(r) for r in range(model.reels)]
    hist: Counter[tuple[int, int]] = Counter()
    shown: Counter[tuple[str, int]] = Counter()
    paid: Counter[tuple[str, int]] = Counter()
    for positions in itertools.product(*(range(int(n)) for n in reel_set.position_counts)):
        grid = window(reel_set, positions, model.rows)
        stops = math.prod(int(weights[r][p]) for r, p in enumerate(positions))
        k = int((grid == model.scatter).sum())
        for drawn in itertools.product(*laws):
            weight = stops * math.prod(o for _, o in drawn)
            values = np.array([w for w, _ in drawn], dtype=np.int64)
            found = way_wins(model, rules, grid, 1, model.line_pays, values)
            hist[(k, found.coins)] += weight
            for win in found.wins:
                shown[(win.symbol, win.count)] += weight
                paid[(win.symbol, win.count)] += weight * win.coins
    return hist, shown, paid


def walked(model, reel_set, free):  # type: ignore[no-untyped-def]
    d = screen_distribution(
        model, reel_set, model.line_pays, free, model.scatter, np.ones(model.reels, dtype=bool)
    )
    hist = Counter({(k, w): n for k, row in enumerate(d.by_count) for w, n in row.items() if n})
    ids = model.symbol_ids
    shown = Counter({(ids[s], n): int(d.award_ways[a].sum()) for a, (s, n) in enumerate(d.awards)})
    paid = Counter({(ids[s], n): int(d.award_pays[a]) for a, (s, n) in enumerate(d.awards)})
    return d, hist, +shown, +paid


@pytest.mark.parametrize("pure", ["every_symbol", "none", "wild"])
@pytest.mark.parametrize("free", [False, True])
def test_the_walk_is_every_screen_through_live_play(tmp_path: Path, pure: str, free: bool) -> None:
    model = load_model(tiny(tmp_path / "t", pure))
    reel_set = model.variant().reel_sets["base"]
    d, hist, shown, paid = walked(model, reel_set, free)
    assert (hist, shown, paid) == brute(model, reel_set, free)
    assert d.cycle == sum(hist.values()) and len(shown) >= 3


@pytest.mark.parametrize("free", [False, True])
def test_the_walk_of_variable_rows_is_every_position(tmp_path: Path, free: bool) -> None:
    model = load_model(tiny_heights(tmp_path / "t"))
    reel_set = model.variant().reel_sets["base"]
    d, hist, shown, paid = walked(model, reel_set, free)
    assert (hist, shown, paid) == brute(model, reel_set, free)
    assert d.cycle == reel_set.cycle * (2 if free else 1)


def test_the_full_analysis_of_a_ways_title_holds_its_simulation(tmp_path: Path) -> None:
    """The exact hit frequency and standard deviation against 1,000,000 simulated rounds, the
    base spin's enumerated mean equal to the RTP route's (analyze_full checks it), and the
    awards' returns adding up to the RTP."""
    model = load_model(tumble_ways(tmp_path / "w"))
    a = analyze_full(model)
    assert a.rtp == analyze_rtp(model).rtp
    assert sum(w.rtp for w in a.awards) == a.rtp
    result = simulate(model, 1_000_000, 7, workers=1)
    p = float(a.hit_frequency)
    spread = 3.29 * math.sqrt(p * (1 - p) / result.rounds)
    assert abs(result.hit_frequency - p) < spread, (result.hit_frequency, p)
    assert result.std_dev == pytest.approx(a.std_dev, rel=0.05)
    assert a.base.max_win > 0 and a.base.cycle == 190_135_296


def test_a_walk_beyond_its_budget_is_refused_by_name(tmp_path: Path) -> None:
    model = load_model(tumble_ways(tmp_path / "w"))
    reel_set = model.variant().reel_sets["base"]
    with pytest.raises(BeyondEnumerationError, match="needs more than 1,000 steps"):
        screen_distribution(
            model, reel_set, model.line_pays, False, model.scatter, model.scatter_mask, 1_000
        )


def test_analyze_says_when_the_full_cycle_is_beyond_enumeration(tmp_path: Path) -> None:
    """Variable rows of 2 to 7 on six reels: the RTP is exact, the rest simulated, and both
    the first line and the JSON say so."""
    folder = tumble_heights(tmp_path / "h")
    model = load_model(folder)
    with pytest.raises(BeyondEnumerationError, match="beyond the exact sums' 64-bit integers"):
        analyze_full(model)
    runner = CliRunner()
    shown = runner.invoke(app, ["analyze", str(folder)])
    assert shown.exit_code == 0, shown.output
    first = shown.output.splitlines()[0]
    assert first.startswith("not exact beyond the RTP: tumble-heights: the full cycle")
    assert "10,000,000 simulated rounds, seed 2026" in shown.output
    data = json.loads(runner.invoke(app, ["analyze", str(folder), "--json"]).output)
    assert data["full_analysis"] == "beyond enumeration"
    assert data["exact"]["rtp"] == pytest.approx(float(analyze_rtp(model).rtp))
    assert data["simulated"]["rounds"] == 10_000_000
