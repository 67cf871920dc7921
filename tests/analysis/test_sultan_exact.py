"""Exact analysis of Sultan Spins: brute force on a tiny model, stored figures, simulation."""

from __future__ import annotations

import dataclasses
import itertools
import math

import numpy as np
import pytest

from reelsmith.analysis import sultan_spins as exact
from reelsmith.engine.evaluation import evaluate_screen
from reelsmith.engine.model import ReelSet, Variant
from reelsmith.engine.screen import window
from reelsmith.games.sultan_spins import rules as sultan
from reelsmith.rng import SeededSource
from tests.conftest import PrefixedSource, find_stop

TINY_BASE = [
    "ace gem king wild queen",
    "king ace queen jack ace",
    "gem ace wild king jack",
    "ace king ace queen ten",
    "queen ace king ten jack",
]
TINY_REVEAL = {"outcomes": ["ace", "wild", "wild_reel"], "weights": [2, 1, 1]}


@pytest.fixture(scope="module")
def tiny(sultan_model):
    def reel_set(name, strips):
        arrays = [
            np.array([sultan_model.symbol_index(s) for s in strip.split()], dtype=np.int8)
            for strip in strips
        ]
        return ReelSet.build(name, arrays, sultan_model.rows)

    base = reel_set("base", TINY_BASE)
    variant = Variant(
        id="tiny",
        description="tiny",
        reel_sets={"base": base, "free_spins": base},
        parameters={"gem_reveal": TINY_REVEAL},
        figures={},
    )
    model = dataclasses.replace(sultan_model, variants={"tiny": variant}, default_variant="tiny")
    return model


def test_line_value_equals_brute_force_over_stops_and_reveals(tiny):
    """Every stop combination and every reveal of every gem (jackpot included, with its
    long-run probability), evaluated by the live line evaluator."""
    rules = sultan.sultan_rules(tiny)
    rs = tiny.variant().reel_sets["base"]
    weights = dict(zip(TINY_REVEAL["outcomes"], TINY_REVEAL["weights"], strict=True))
    total_weight = sum(weights.values())
    expected = 0.0
    for stops in itertools.product(*(range(int(n)) for n in rs.lengths)):
        grid = window(rs, stops, tiny.rows)
        gems = [
            (row, reel) for reel in range(5) for row in range(4) if grid[row, reel] == rules.gem
        ]
        options = []
        for _row, reel in gems:
            j = rules.jackpots[reel]
            q = exact.jackpot_hit_probability(j.seed, j.cap)
            options.append(
                [("jackpot", q)] + [(o, (1 - q) * w / total_weight) for o, w in weights.items()]
            )
        for choice in itertools.product(*options) if options else [()]:
            p = math.prod(prob for _, prob in choice)
            revealed = grid.copy()
            for (row, reel), (outcome, _) in zip(gems, choice, strict=True):
                if outcome == "wild_reel":
                    revealed[:, reel] = tiny.wild
                elif outcome != "jackpot":
                    revealed[row, reel] = tiny.symbol_index(outcome)
            wins = evaluate_screen(tiny, revealed, 40, 1, 40)
            expected += p * wins.line_coins
    expected /= rs.cycle * 40
    value, _ = exact.line_value(rules, exact.cell_distributions(rules, rs, weights))
    assert value == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("variant_id", ["94.00", "96.10"])
def test_stored_figures_are_re_derived(sultan_model, variant_id):
    stored = sultan_model.variant(variant_id).figures
    derived = exact.variant_figures(sultan_model, variant_id)
    assert set(stored) == set(derived)
    for key, value in derived.items():
        assert stored[key] == pytest.approx(value, abs=1e-9), key


@pytest.mark.parametrize("variant_id", ["94.00", "96.10"])
def test_variant_rtp_is_its_name(sultan_model, variant_id):
    """Seed: 'The theoretical RTP (return to player) in this game is 94.00%.'"""
    rtp = exact.analyze(sultan_model, variant_id).rtp
    assert abs(rtp * 100 - float(variant_id)) <= 0.01


def test_free_spins_chain_agrees_with_simulation(sultan_model):
    """Expected free spins and multiplier sum from a forced trigger with an empty meter:
    the Markov chain against 3,000 live free-spin rounds."""
    rules = sultan.sultan_rules(sultan_model)
    variant = sultan_model.variant()
    free = variant.reel_sets["free_spins"]
    per_reel = exact.symbol_shown(sultan_model, free, rules.bonus)
    chain = exact.free_spins_chain(rules, exact.count_distribution(per_reel))
    base = variant.reel_sets["base"]
    trigger = [
        find_stop(
            base,
            reel,
            4,
            lambda w, reel=reel: (rules.bonus in w) == (reel < 3) and rules.gem not in w,
        )
        for reel in range(5)
    ]
    source = SeededSource(31)
    state = sultan.new_bet_state(sultan_model, source)
    n = 3000
    spins = np.empty(n)
    multipliers = np.empty(n)
    for i in range(n):
        start_state = dataclasses.replace(state, meter=0)
        round_ = sultan.start_round(
            sultan_model, "1.00", start_state, PrefixedSource(trigger, source)
        )
        round_ = sultan.finish(sultan_model, round_, source)
        state = round_.state
        spins[i] = len(round_.free_spins)
        multipliers[i] = sum(s.multiplier for s in round_.free_spins)
    for sample, value in ((spins, chain.spins[0]), (multipliers, chain.multiplier_sum[0])):
        se = sample.std(ddof=1) / math.sqrt(n)
        assert abs(sample.mean() - value) < 4.5 * se, (sample.mean(), value, se)


def test_main_game_agrees_with_simulation(sultan_model):
    """60,000 live main-game spins carrying the pots: line pay, gem rate per reel and
    free-spins frequency each within 4.5 standard errors of the exact figures."""
    figures = exact.analyze(sultan_model)
    rules = sultan.sultan_rules(sultan_model)
    base = sultan_model.variant().reel_sets["base"]
    gem_rates = exact.symbol_shown(sultan_model, base, rules.gem)
    source = SeededSource(5)
    state = None
    n = 60_000
    line = np.empty(n)
    triggers = np.empty(n)
    gems = np.zeros((n, 5))
    for i in range(n):
        round_ = sultan.start_round(sultan_model, "1.00", state, source)
        spin = round_.spins[0]
        state = dataclasses.replace(round_.state, meter=0)
        line[i] = spin.wins.line_coins / 40
        triggers[i] = round_.phase is sultan.Phase.FREE_SPINS
        for gem in spin.gems:
            gems[i, gem.reel] += 1
    checks = [(line, figures.base_line_rtp), (triggers, figures.free_spins_frequency)]
    checks += [(gems[:, reel], gem_rates[reel]) for reel in range(5)]
    for sample, value in checks:
        se = sample.std(ddof=1) / math.sqrt(n)
        assert abs(sample.mean() - value) < 4.5 * se, (sample.mean(), value, se)


def test_whole_game_agrees_with_simulation(sultan_model):
    """40,000 live rounds carrying pots and meter: line return (main game and free spins, the
    carried meter's stationary law included) and the teal and blue jackpot hit rates, each
    within 4.5 standard errors of the exact long-run figures."""
    figures = exact.analyze(sultan_model)
    source = SeededSource(11)
    state = None
    n = 40_000
    lines = np.empty(n)
    teal = np.zeros(n)
    blue = np.zeros(n)
    for i in range(n):
        round_ = sultan.finish(
            sultan_model, sultan.start_round(sultan_model, "1.00", state, source), source
        )
        state = round_.state
        lines[i] = round_.line_coins / 40
        for spin in round_.spins:
            for gem in spin.gems:
                if gem.jackpot_bets and gem.reel == 0:
                    teal[i] += 1
                elif gem.jackpot_bets and gem.reel == 1:
                    blue[i] += 1
    line_rtp = figures.base_line_rtp + figures.free_spins_line_rtp
    for sample, value in (
        (lines, line_rtp),
        (teal, figures.jackpot_hits_per_round["teal"]),
        (blue, figures.jackpot_hits_per_round["blue"]),
    ):
        se = sample.std(ddof=1) / math.sqrt(n)
        assert abs(sample.mean() - value) < 4.5 * se, (sample.mean(), value, se)
