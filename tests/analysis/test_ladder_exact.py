"""Exact analysis of Sultan Spins: brute force over every stop and reveal of tiny models (one
spin), an independent full-state brute force of a micro model (whole rounds with the pots'
memory and the meter's stationary law), and the free spins against live play.

The stored figures, and the agreement with long simulations, are in the contract suite
(tests/contract/test_figures.py)."""

from __future__ import annotations

import collections
import dataclasses
import functools
import itertools
import math

import numpy as np
import pytest

from reelsmith.analysis import ladder as exact
from reelsmith.analysis.ladder_exact import analyze_full, stored_figures
from reelsmith.analysis.ladder_spin import line_patterns, spin_figures
from reelsmith.engine.evaluation import evaluate_screen
from reelsmith.engine.lines import evaluate_lines
from reelsmith.engine.model import GameModel, ReelSet, Variant
from reelsmith.engine.screen import window
from reelsmith.rng import SeededSource
from tests import ladder_rounds as sultan
from tests.conftest import PrefixedSource, find_stop

TINY_REVEAL = {"outcomes": ["ace", "wild", "wild_reel"], "weights": [2, 1, 1]}
# Bonus symbols and gems on most reels, short strips: every stop and reveal can be visited.
BONUS_BASE = [
    "ace gem king wild queen",
    "king bonus queen sultan ace",
    "gem ace wild bonus jack",
    "ace sultan ace queen bonus",
    "queen ace king gem jack",
]
# A micro model whose whole state (pots, trigger points, meter) a brute force can enumerate:
# gems on reels 1 and 2 only (pots with 2 and 3 trigger points), a two-level ladder of one
# spin each, two spots. Free spins follow most main spins and pots hit often, so the pots'
# memory within a round matters (it moves E[X^2] by about 4 in 4,257).
MICRO_BASE = [
    "ace gem king wild queen",
    "king bonus queen gem ace",
    "sultan ace bonus king queen wild",
    "bonus queen ace sultan king jack",
    "jack ace queen bonus king sultan",
]
MICRO_FREE = [
    "wild gem ace sultan king",
    "sultan ace gem bonus king",
    "ace bonus king wild queen sultan",
    "queen sultan bonus ace wild king",
    "bonus ace sultan queen king wild",
]
MICRO_POTS = [(2, 5), (5, 9), (3, 5), (1, 3), (10, 12)]  # (seed, cap) per reel: won before the cap


def reel_set(model: GameModel, name: str, strips: list[str]) -> ReelSet:
    arrays = [
        np.array([model.symbol_index(s) for s in strip.split()], dtype=np.int8) for strip in strips
    ]
    return ReelSet.build(name, arrays, model.rows)


def variant_model(model: GameModel, variant_id: str, base, free, reveal=TINY_REVEAL) -> GameModel:
    variant = Variant(
        id=variant_id,
        description=variant_id,
        reel_sets={
            "base": reel_set(model, "base", base),
            "free_spins": reel_set(model, "free_spins", free),
        },
        parameters={"rules": {"version": sultan.RULES_VERSION}, "gem_reveal": reveal},
        figures={},
    )
    return dataclasses.replace(model, variants={variant_id: variant}, default_variant=variant_id)


def micro_model(model: GameModel) -> GameModel:
    """The micro model: its own pots and a short ladder (the rules read them from the model)."""
    features = dict(model.features)
    features["jackpots"] = [
        dict(j, seed=seed, cap=cap)
        for j, (seed, cap) in zip(model.features["jackpots"], MICRO_POTS, strict=True)
    ]
    features["ladder"] = dict(
        model.features["ladder"], levels=2, spins_per_level=1, multipliers=[1, 3], spots=2
    )
    micro = variant_model(model, "micro", MICRO_BASE, MICRO_FREE)
    return dataclasses.replace(micro, features=features)


def test_line_value_equals_brute_force_over_stops_and_reveals(bonus_model, bonus_brute):
    """The compact RTP route (per-cell laws, every symbol tuple of a line) against every stop
    combination and every reveal of every gem (the jackpot with its long-run probability),
    evaluated by the live line evaluator."""
    rules = sultan.ladder_rules(bonus_model)
    rs = bonus_model.variant().reel_sets["base"]
    weights = dict(zip(TINY_REVEAL["outcomes"], TINY_REVEAL["weights"], strict=True))
    value, _ = exact.line_value(rules, exact.cell_distributions(rules, rs, weights))
    assert value == pytest.approx(bonus_brute["line"].sum(), rel=1e-12)


def test_free_spins_chain_agrees_with_simulation(sultan_model):
    """Expected free spins and multiplier sum from a forced trigger with an empty meter:
    the Markov chain against 3,000 live free-spin rounds."""
    rules = sultan.ladder_rules(sultan_model)
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
        round_ = sultan.start_round(sultan_model, 5, start_state, PrefixedSource(trigger, source))
        round_ = sultan.finish(sultan_model, round_, source)
        state = round_.state
        spins[i] = len(round_.free_spins)
        multipliers[i] = sum(s.multiplier for s in round_.free_spins)
    for sample, value in ((spins, chain.spins[0]), (multipliers, chain.multiplier_sum[0])):
        se = sample.std(ddof=1) / math.sqrt(n)
        assert abs(sample.mean() - value) < 4.5 * se, (sample.mean(), value, se)


# ---------------------------------------------------------------------------------------
# One spin: every figure against every stop combination and gem outcome
# ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def bonus_model(sultan_model):
    return variant_model(sultan_model, "bonus", BONUS_BASE, BONUS_BASE)


@pytest.fixture(scope="module")
def bonus_brute(bonus_model):
    return brute_spin(bonus_model)


def brute_spin(model: GameModel, name: str = "base"):
    """Every stop combination and gem outcome of one spin through the live line evaluator,
    with the long-run law of each gem (hit with q, else a reveal by weight)."""
    rules = sultan.ladder_rules(model)
    rs = model.variant().reel_sets[name]
    reveal = rules.gem_reveal(model.variant())
    total = sum(reveal.weights)
    q = [exact.jackpot_hit_probability(j) for j in rules.jackpots]
    mean = [j.seed + (j.last_trigger - j.seed + 1) / 2 for j in rules.jackpots]
    square = [
        sum((j.seed + g) ** 2 for g in range(1, j.last_trigger - j.seed + 1))
        / (j.last_trigger - j.seed)
        for j in rules.jackpots
    ]
    awards = line_patterns(model).awards
    award_index = {award: a for a, award in enumerate(awards)}
    out = {
        key: np.zeros(6)
        for key in ("p", "line", "line_sq", "jackpot", "jackpot_sq", "line_jackpot", "no_win")
    }
    out["awards"] = np.zeros(len(awards))
    out["award_pairs"] = np.zeros(len(awards))
    out["award_any"] = np.zeros(len(awards))
    out["line_hit"] = np.zeros(5)
    out["line_miss"] = np.zeros(5)
    out["max_win"] = 0.0
    for stops in itertools.product(*(range(int(n)) for n in rs.lengths)):
        grid = window(rs, stops, model.rows)
        bonus = int((grid == rules.bonus).sum())
        gems = [(row, r) for r in range(5) for row in range(4) if grid[row, r] == rules.gem]
        options = [
            [("jackpot", q[r])]
            + [
                (o, (1 - q[r]) * w / total)
                for o, w in zip(reveal.outcomes, reveal.weights, strict=True)
            ]
            for _, r in gems
        ]
        for choice in itertools.product(*options):
            p = math.prod(x for _, x in choice) / rs.cycle
            revealed = grid.copy()
            hits = []
            for (row, r), (outcome, _) in zip(gems, choice, strict=True):
                if outcome == "wild_reel":
                    revealed[:, r] = model.wild
                elif outcome == "jackpot":
                    hits.append(r)
                else:
                    revealed[row, r] = model.symbol_index(outcome)
            wins = evaluate_screen(model, revealed, 40, 1, 40)
            line = wins.line_coins / 40
            jackpot = sum(mean[r] for r in hits)
            jackpot_sq = sum(square[r] for r in hits) + sum(
                mean[a] * mean[b] for a in hits for b in hits if a != b
            )
            out["p"][bonus] += p
            out["line"][bonus] += p * line
            out["line_sq"][bonus] += p * line * line
            out["jackpot"][bonus] += p * jackpot
            out["jackpot_sq"][bonus] += p * jackpot_sq
            out["line_jackpot"][bonus] += p * line * jackpot
            out["no_win"][bonus] += p * (line == 0 and not hits)
            for _, r in gems:
                key = "line_hit" if r in hits else "line_miss"
                out[key][r] += p * line
            shown = collections.Counter(
                award_index[(model.symbol_index(w.symbol), w.count)] for w in wins.line_wins
            )
            for a, n in shown.items():
                out["awards"][a] += p * n
                out["award_pairs"][a] += p * n * (n - 1)
                out["award_any"][a] += p
            biggest = line + sum(rules.jackpots[r].last_trigger for r in hits)
            out["max_win"] = max(out["max_win"], biggest)
    return out


def test_spin_figures_equal_brute_force(bonus_model, bonus_brute):
    """Line-pay moments jointly with the bonus count, jackpots, no-win, awards (expected
    paylines and pairs), the hit coefficients: from per-reel columns and payline patterns,
    against every screen."""
    rules = sultan.ladder_rules(bonus_model)
    variant = bonus_model.variant()
    reveal = rules.gem_reveal(variant)
    figures = spin_figures(
        rules, variant.reel_sets["base"], dict(zip(reveal.outcomes, reveal.weights, strict=True))
    )
    brute = bonus_brute
    q = [exact.jackpot_hit_probability(j) for j in rules.jackpots]
    for key, mine in (
        ("p", figures.probability),
        ("line", figures.line),
        ("line_sq", figures.line_sq),
        ("jackpot", figures.jackpot),
        ("jackpot_sq", figures.jackpot_sq),
        ("line_jackpot", figures.line_jackpot),
        ("awards", figures.awards.sum(axis=1)),
        ("award_pairs", figures.award_pairs.sum(axis=1)),
    ):
        assert mine == pytest.approx(brute[key], rel=1e-11, abs=1e-14), key
    no_win = np.zeros(6)
    for pattern in range(32):
        factor = math.prod(1 - q[r] for r in range(5) if pattern >> r & 1)
        no_win[: figures.no_win_non_hit.shape[1]] += figures.no_win_non_hit[pattern] * factor
    assert no_win == pytest.approx(brute["no_win"], rel=1e-12, abs=1e-15)
    for r in range(5):
        beta = brute["line_hit"][r] / q[r] - brute["line_miss"][r] / (1 - q[r])
        assert figures.beta[r].sum() == pytest.approx(beta, rel=1e-11, abs=1e-14)
    # P(an award on at least one payline) lies within the Bonferroni bounds
    n = figures.awards.sum(axis=1)
    pairs = figures.award_pairs.sum(axis=1)
    assert (n - pairs / 2 <= brute["award_any"] + 1e-15).all()
    assert (brute["award_any"] <= n + 1e-15).all()


#: The line rule's refinements a ladder model may declare ([wild] multiplier and ties), beside
#: the shipped plain rule: the one line rule pays them in the exact analysis too.
WILD_RULES = [(2, True), (3, False)]


@pytest.mark.parametrize(("multiplier", "ties_to_wild"), WILD_RULES)
def test_spin_figures_follow_the_wild_rule(bonus_model, multiplier, ties_to_wild):
    """A wild that multiplies the wins it completes, and ties paid as the symbol's run: the
    payline patterns pay as the line rule does, against every screen."""
    model = dataclasses.replace(bonus_model, wild_multiplier=multiplier, ties_to_wild=ties_to_wild)
    brute = brute_spin(model)
    rules = sultan.ladder_rules(model)
    variant = model.variant()
    reveal = rules.gem_reveal(variant)
    weights = dict(zip(reveal.outcomes, reveal.weights, strict=True))
    figures = spin_figures(rules, variant.reel_sets["base"], weights)
    for key, mine in (
        ("line", figures.line),
        ("line_sq", figures.line_sq),
        ("line_jackpot", figures.line_jackpot),
        ("awards", figures.awards.sum(axis=1)),
        ("award_pairs", figures.award_pairs.sum(axis=1)),
    ):
        assert mine == pytest.approx(brute[key], rel=1e-11, abs=1e-14), key
    value, _ = exact.line_value(
        rules, exact.cell_distributions(rules, variant.reel_sets["base"], weights)
    )
    assert value == pytest.approx(brute["line"].sum(), rel=1e-11)
    # the case is not the plain rule's in disguise
    plain = brute_spin(bonus_model)
    assert brute["line"].sum() != pytest.approx(plain["line"].sum(), rel=1e-6)


def test_max_spin_win_equals_brute_force(bonus_model, bonus_brute):
    """The largest main-spin win (lines and jackpots at their caps) against every screen."""
    a = analyze_full(bonus_model)
    assert a.max_win["main_spin"]["with_jackpots_x_bet"] == pytest.approx(
        bonus_brute["max_win"], rel=1e-12
    )


def test_line_patterns_agree_with_the_cell_route(sultan_model):
    """Both routes to the expected line pay (payline patterns over columns, symbol tuples
    over per-cell laws) agree on the shipped strips."""
    rules = sultan.ladder_rules(sultan_model)
    for variant_id in ("94.00", "96.10"):
        variant = sultan_model.variant(variant_id)
        reveal = rules.gem_reveal(variant)
        weights = dict(zip(reveal.outcomes, reveal.weights, strict=True))
        for name in ("base", "free_spins"):
            rs = variant.reel_sets[name]
            value, _ = exact.line_value(rules, exact.cell_distributions(rules, rs, weights))
            mine = spin_figures(rules, rs, weights, second_moments=False).line.sum()
            assert mine == pytest.approx(value, rel=1e-12)


# ---------------------------------------------------------------------------------------
# Whole rounds: an independent brute force over the full state
# ---------------------------------------------------------------------------------------


def full_state_brute_force(model: GameModel) -> dict[str, object]:
    """E[X], E[X^2], P(X > 0), P(main spin wins), P(trigger) under the exact stationary law
    of the full state (each pot and its trigger point, the meter), found as the stationary
    vector of the chain of rounds. A round is enumerated over every stop, gem outcome and new
    trigger point, with the pots carried from spin to spin exactly as the rules say: no
    renewal theory, no independence assumed."""
    rules = sultan.ladder_rules(model)
    variant = model.variant()
    reveal = rules.gem_reveal(variant)
    total = sum(reveal.weights)
    lines = model.line_count
    sym, cnt, pay = (np.empty(lines, np.int64) for _ in range(3))

    def screens(name):
        rs = variant.reel_sets[name]
        grouped: dict[tuple, float] = {}
        for stops in itertools.product(*(range(int(n)) for n in rs.lengths)):
            grid = window(rs, stops, model.rows)
            gems = tuple(
                (r, row) for r in range(5) for row in range(4) if grid[row, r] == rules.gem
            )
            pays = []
            for choice in itertools.product(*[("jackpot", *reveal.outcomes)] * len(gems)):
                g = grid.copy()
                for (r, row), outcome in zip(gems, choice, strict=True):
                    if outcome == "wild_reel":
                        g[:, r] = model.wild
                    elif outcome != "jackpot":
                        g[row, r] = model.symbol_index(outcome)
                evaluate_lines(g, model.paylines, lines, model.line_pays, model.wild,
                               model.substitutable, 1, True, sym, cnt, pay)  # fmt: skip
                pays.append((choice, int(pay.sum())))
            key = (tuple(r for r, _ in gems), int((grid == rules.bonus).sum()), tuple(pays))
            grouped[key] = grouped.get(key, 0.0) + 1.0 / rs.cycle
        return grouped

    kinds = {"base": screens("base"), "free": screens(rules.free_reel_set)}

    @functools.cache
    def spin(kind, pots):
        """((line pay, jackpot, bonus, pots after), probability) from the pots' state."""
        out: dict[tuple, float] = {}
        for (gem_reels, bonus, pays), p in kinds[kind].items():
            table = dict(pays)
            branches = [(p, (), 0, pots)]
            for r in gem_reels:
                j = rules.jackpots[r]
                grown = []
                for prob, chosen, won, state in branches:
                    pot, trigger = state[r]
                    if pot + 1 >= trigger:  # the jackpot spin: reset, draw a new trigger point
                        for t in range(j.seed + 1, j.last_trigger + 1):
                            new = (*state[:r], (j.seed, t), *state[r + 1 :])
                            grown.append(
                                (
                                    prob / (j.last_trigger - j.seed),
                                    (*chosen, "jackpot"),
                                    won + pot + 1,
                                    new,
                                )
                            )
                    else:
                        new = (*state[:r], (pot + 1, trigger), *state[r + 1 :])
                        for o, w in zip(reveal.outcomes, reveal.weights, strict=True):
                            grown.append((prob * w / total, (*chosen, o), won, new))
                branches = grown
            for prob, chosen, won, state in branches:
                key = (table[chosen] / lines, won, bonus, state)
                out[key] = out.get(key, 0.0) + prob
        return tuple(out.items())

    spots, levels = rules.spots, rules.levels
    pairs = [
        [(pot, t) for t in range(j.seed + 1, j.last_trigger + 1) for pot in range(j.seed, t)]
        for j in rules.jackpots
    ]
    states = [(pots, m) for pots in itertools.product(*pairs) for m in range(spots + 1)]
    index = {s: i for i, s in enumerate(states)}
    n = len(states)

    @functools.cache
    def free(pots, level, left, meter, unlocked):
        """(E[F], E[F^2], P(F = 0), law of the next round's state) from a ladder state."""
        e1 = e2 = zero = 0.0
        ends = np.zeros(n)
        for (line, won, bonus, after), p in spin("free", pots):
            t = rules.multipliers[level - 1] * line + won
            m, u = meter + bonus, unlocked
            while m >= spots and u < levels:
                u, m = u + 1, m - spots
            m = min(m, spots)
            if left == 1 and u <= level:
                e1, e2, zero = e1 + p * t, e2 + p * t * t, zero + p * (t == 0)
                ends[index[(after, m)]] += p
                continue
            nxt = (level + 1, rules.spins_per_level) if left == 1 else (level, left - 1)
            f1, f2, f0, fe = free(after, *nxt, m, u)
            e1 += p * (t + f1)
            e2 += p * (t * t + 2 * t * f1 + f2)
            zero += p * f0 * (t == 0)
            ends += p * fe
        return e1, e2, zero, ends

    chain = np.zeros((n, n))
    e1, e2, zero, main, trig = (np.zeros(n) for _ in range(5))
    for i, (pots, meter) in enumerate(states):
        for (line, won, bonus, after), p in spin("base", pots):
            t = line + won
            main[i] += p * (t > 0)
            if bonus >= rules.trigger_count:
                trig[i] += p
                start = (1, rules.spins_per_level) + (
                    (meter - spots, 2) if meter >= spots else (meter, 1)
                )
                f1, f2, f0, fe = free(after, *start)
                e1[i] += p * (t + f1)
                e2[i] += p * (t * t + 2 * t * f1 + f2)
                zero[i] += p * f0 * (t == 0)
                chain[i] += p * fe
            else:
                m = min(meter + 1, spots) if bonus == rules.main_game_bonus_per_spot else meter
                e1[i] += p * t
                e2[i] += p * t * t
                zero[i] += p * (t == 0)
                chain[i, index[(after, m)]] += p
    a = np.vstack([(chain - np.eye(n)).T, np.ones(n)])
    b = np.zeros(n + 1)
    b[-1] = 1.0
    pi = np.linalg.lstsq(a, b, rcond=None)[0]
    meter_law = np.zeros(spots + 1)
    for (_, m), w in zip(states, pi, strict=True):
        meter_law[m] += w
    return {
        "rtp": pi @ e1,
        "second": pi @ e2,
        "round_hit": 1 - pi @ zero,
        "main_hit": pi @ main,
        "trigger": pi @ trig,
        "meter": meter_law,
    }


def test_round_moments_equal_full_state_brute_force(sultan_model):
    """RTP, second moment (so the standard deviation), hit frequencies, trigger frequency and
    the meter's law of the micro model: the exact analyzer (renewal theory, Hoeffding terms of
    the pots' memory, the ladder and meter chains) against the full-state brute force."""
    model = micro_model(sultan_model)
    a = analyze_full(model)
    brute = full_state_brute_force(model)
    assert a.memory < -1.0  # the pots' memory is large here, and the brute force sees it
    assert a.memory_bound == 0.0  # gems on two reels only: no omitted terms
    assert a.rtp == pytest.approx(brute["rtp"], rel=1e-12)
    assert a.second_moment == pytest.approx(brute["second"], rel=1e-12)
    assert a.round_hit_frequency == pytest.approx(brute["round_hit"], rel=1e-12)
    assert a.hit_frequency == pytest.approx(brute["main_hit"], rel=1e-12)
    assert a.free_spins_frequency == pytest.approx(brute["trigger"], rel=1e-12)
    assert a.meter == pytest.approx(brute["meter"], abs=1e-12)


@pytest.mark.parametrize("variant_id", ["94.00", "96.10"])
def test_shipped_variants_are_high_volatility(sultan_model, variant_id):
    a = analyze_full(sultan_model, variant_id)
    assert a.volatility == "high" and a.std_dev >= 10
    assert a.rtp == pytest.approx(exact.analyze(sultan_model, variant_id).rtp, rel=1e-12)
    # the omitted memory terms and no-win excess are far below the printed digits
    assert a.memory_bound < 1e-9 * a.second_moment and a.no_win_bound < 1e-20
    assert 0 < a.hit_frequency < a.round_hit_frequency < 1
    assert all(w.gli == "no" and w.round_low <= w.round_high for w in a.awards)
    assert sum(a.level_reached) == pytest.approx(
        a.free_spins_per_trigger / sultan.ladder_rules(sultan_model).spins_per_level
    )


@pytest.mark.parametrize("variant_id", ["94.00", "96.10"])
def test_the_strips_kept_for_rules_version_1_re_derive_their_figures_under_it(
    sultan_model, variant_id
):
    """The strips rounds of version 1 replay on are the ones their figures were computed from:
    analysed under version 1 (trigger points up to the cap) they give the stored figures."""
    kept = sultan.ladder_rules(sultan_model, 1).variant(variant_id)
    assert kept.source.parent.name == "rules-1"
    derived = stored_figures(analyze_full(sultan_model, variant_id, rules_version=1))
    assert set(derived) == set(kept.figures)
    for key, value in derived.items():
        assert abs(value - kept.figures[key]) <= 1e-10, key
    assert abs(derived["rtp"] - sultan_model.variant(variant_id).figures["rtp"]) > 1e-5
