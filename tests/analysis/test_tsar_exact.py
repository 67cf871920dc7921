"""The generic exact analysis on Days of the Tsar: against brute force and seeded live play
(the stored figures and the simulated 99% intervals are in tests/contract/test_figures.py)."""

from __future__ import annotations

import dataclasses
import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

from reelsmith.analysis.catalogue_exact import analyze_rtp
from reelsmith.analysis.exact import analyze_line, scatter_count_ways
from reelsmith.engine.evaluation import evaluate_screen
from reelsmith.engine.model import ReelSet, Variant
from reelsmith.engine.screen import window
from reelsmith.rng import SeededSource
from tests import catalogue_rounds as tsar
from tests.conftest import PrefixedSource, stops_with_eggs

TINY_BASE = [
    "tsar ace egg king queen",
    "ace tsar king egg",
    "tsarina ace tsar egg nine ten",
    "ace king egg queen tsar",
    "egg ace tsar king",
]
# One egg in 20 stops: 0.15 eggs shown per reel, 0.75 per free spin.
FREE_FILL = "ace tsar king queen nine ten jack statue cathedral tsarina"
TINY_FREE = [f"egg {FREE_FILL} {FREE_FILL.rsplit(' ', 1)[0]}"] * 5


@pytest.fixture(scope="module")
def tiny(tsar_model):
    def reel_set(name, strips):
        arrays = [
            np.array([tsar_model.symbol_index(s) for s in strip.split()], dtype=np.int8)
            for strip in strips
        ]
        return ReelSet.build(name, arrays, tsar_model.rows)

    variant = Variant(
        id="tiny",
        description="a tiny model for brute force",
        reel_sets={
            "base": reel_set("base", TINY_BASE),
            "free_spins": reel_set("free_spins", TINY_FREE),
        },
        parameters={"egg_reveal": {"values": [1, 2], "weights": [3, 1]}},
        figures={},
    )
    return dataclasses.replace(tsar_model, variants={"tiny": variant}, default_variant="tiny")


def brute_force(model, reel_set, lines=25):
    """Every stop combination through the live evaluator: line pay and egg counts."""
    line_total = 0
    egg_ways: dict[int, int] = {}
    for stops in itertools.product(*(range(int(n)) for n in reel_set.lengths)):
        grid = window(reel_set, stops, model.rows)
        wins = evaluate_screen(model, grid, lines, 1, lines)
        line_total += wins.line_coins
        egg_ways[wins.scatter_count] = egg_ways.get(wins.scatter_count, 0) + 1
    return line_total, egg_ways


def test_line_rtp_equals_brute_force(tiny):
    reel_set = tiny.variant().reel_sets["base"]
    line_total, _ = brute_force(tiny, reel_set)
    analysis = analyze_line(tiny, reel_set)
    assert analysis.rtp == Fraction(line_total, 25 * reel_set.cycle)


def test_scatter_distribution_equals_brute_force(tiny):
    reel_set = tiny.variant().reel_sets["base"]
    _, egg_ways = brute_force(tiny, reel_set)
    ways = scatter_count_ways(tiny, reel_set, tiny.scatter)
    assert {k: w for k, w in enumerate(ways) if w} == egg_ways


def test_free_spin_count_follows_walds_identity(tiny):
    """Wald: E[free spins] = E[initial] / (1 - expected eggs per free spin). Checked against a
    seeded simulation of the tiny model's free spins, each started by a forced three-egg spin."""
    figures = analyze_rtp(tiny)
    base = tiny.variant().reel_sets["base"]
    trigger_stops = stops_with_eggs(tiny, base, (0, 1, 2))
    source = SeededSource(2024)
    bet = tsar.bet_options(tiny).default
    n, initial, played = 4000, 0, 0
    for _ in range(n):
        forced = PrefixedSource(trigger_stops, source)
        round_ = tsar.start_round(tiny, bet, forced, variant="tiny")
        initial += round_.free_spins_awarded
        played += len(tsar.finish(tiny, round_, source).free_spins)
    reveal = tiny.variant().parameters["egg_reveal"]
    reveal_mean = Fraction(
        sum(v * w for v, w in zip(reveal["values"], reveal["weights"], strict=True)),
        sum(reveal["weights"]),
    )
    mean_initial = 3 * reveal_mean
    assert initial / n == pytest.approx(float(mean_initial), rel=0.03)
    expected = mean_initial / (1 - figures.added_per_free_spin)
    assert played / n == pytest.approx(float(expected), rel=0.05)


def test_base_game_components_agree_with_simulation(tsar_model):
    """Seeded live spins of the base game: line RTP, scatter RTP and trigger frequency each
    within 4.5 standard errors of the exact value."""
    figures = analyze_rtp(tsar_model)
    model = tsar_model
    reel_set = model.variant().reel_sets["base"]
    rng = np.random.default_rng(99)
    n = 60_000
    line = np.empty(n)
    scatter = np.empty(n)
    triggers = np.empty(n)
    stops_all = np.stack([rng.integers(0, int(length), n) for length in reel_set.lengths], axis=1)
    for i in range(n):
        grid = window(reel_set, stops_all[i], model.rows)
        wins = evaluate_screen(model, grid, 25, 1, 25)
        line[i] = wins.line_coins / 25
        scatter[i] = (wins.scatter_win.coins if wins.scatter_win else 0) / 25
        triggers[i] = wins.scatter_count >= 3
    for sample, exact_value in (
        (line, figures.line_rtp),
        (scatter, figures.scatter_rtp),
        (triggers, figures.trigger_probability),
    ):
        se = sample.std(ddof=1) / math.sqrt(n)
        assert abs(sample.mean() - float(exact_value)) < 4.5 * se, (
            sample.mean(),
            float(exact_value),
            se,
        )


def test_whole_game_agrees_with_simulation(tsar_model):
    """Seeded live rounds (free spins played out, no gamble): RTP within 4.5 standard errors."""
    figures = analyze_rtp(tsar_model)
    bet = tsar.bet_options(tsar_model).default
    source = SeededSource(7)
    n = 20_000
    returns = np.empty(n)
    options = tsar.RoundOptions(gamble_allowed=False)
    for i in range(n):
        round_ = tsar.finish(
            tsar_model, tsar.start_round(tsar_model, bet, source, options=options), source
        )
        returns[i] = round_.paid_coins / bet.total_coins
    se = returns.std(ddof=1) / math.sqrt(n)
    assert abs(returns.mean() - float(figures.rtp)) < 4.5 * se
