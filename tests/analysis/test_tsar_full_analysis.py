"""The generic complete exact analysis against independent routes on a small Days of the Tsar
model.

The base and free-spin screens are brute-forced through the live evaluator; the free spins are
then solved as a Markov chain over "spins remaining" (linear systems, no branching argument,
no Wald), which must agree with the closed forms of ``reelsmith.analysis.compound``.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from reelsmith.analysis.analysis_report import analysis_document
from reelsmith.analysis.catalogue_awards import AwardFigures
from reelsmith.analysis.catalogue_exact import analyze_full
from tests.analysis.conftest import SMALL_REVEAL, brute_screens

CAP = 400  # spins remaining beyond this are unreachable in double precision


def chain_moments(spin_joint, extra=1):
    """E[F | r] and E[F^2 | r] for r spins remaining, by solving the chain's linear systems.

    ``spin_joint`` maps (win per unit bet, eggs) of one free spin to its probability."""
    prob_e: dict[int, float] = {}
    win_e: dict[int, float] = {}
    win_sq = 0.0
    for (win, eggs), p in spin_joint.items():
        prob_e[eggs * extra] = prob_e.get(eggs * extra, 0.0) + p
        win_e[eggs * extra] = win_e.get(eggs * extra, 0.0) + p * win
        win_sq += p * win * win
    mean_win = sum(win_e.values())
    size = CAP + 1
    transition = np.zeros((size, size))
    for r in range(1, size):
        for added, p in prob_e.items():
            following = r - 1 + added
            if following < size:
                transition[r, following] += p
    transition[0, :] = 0
    system = np.eye(size) - transition
    first_rhs = np.full(size, mean_win)
    first_rhs[0] = 0
    first = np.linalg.solve(system, first_rhs)
    second_rhs = np.full(size, win_sq)
    for r in range(1, size):
        for added, w in win_e.items():
            following = r - 1 + added
            if following < size:
                second_rhs[r] += 2 * w * first[following]
    second_rhs[0] = 0
    second = np.linalg.solve(system, second_rhs)
    return first, second


def chain_miss(no_award_by_added):
    """P(award never shows | r spins remaining): z_r = sum_e q_e z_(r-1+e), z_0 = 1."""
    size = CAP + 1
    system = np.eye(size)
    rhs = np.zeros(size)
    rhs[0] = 1
    for r in range(1, size):
        for added, q in no_award_by_added.items():
            if r - 1 + added < size:
                system[r, r - 1 + added] -= q
    return np.linalg.solve(system, rhs)


def initial_distribution(k):
    values, weights = SMALL_REVEAL["values"], SMALL_REVEAL["weights"]
    dist = {0: 1.0}
    for _ in range(k):
        following: dict[int, float] = {}
        for n, p in dist.items():
            for v, w in zip(values, weights, strict=True):
                following[n + v] = following.get(n + v, 0.0) + p * w / sum(weights)
        dist = following
    return dist


@pytest.fixture(scope="module")
def brute(small):
    base = brute_screens(small, small.variant().reel_sets["base"])
    free = brute_screens(small, small.variant().reel_sets["free_spins"])
    return base, free


def test_hit_frequency_and_base_moments(small, brute):
    analysis = analyze_full(small)
    (_, _, base_wins), _ = brute
    n = len(base_wins)
    assert analysis.hit_frequency == Fraction(sum(1 for w, _ in base_wins if w > 0), n)
    assert analysis.base.mean == Fraction(sum(w for w, _ in base_wins), 25 * n)
    assert analysis.base.second == Fraction(sum(w * w for w, _ in base_wins), 625 * n)
    assert analysis.base.max_win == max(w for w, _ in base_wins)


def test_std_dev_equals_markov_chain(small, brute):
    analysis = analyze_full(small)
    (_, _, base_wins), (_, _, free_wins) = brute
    spin_joint: dict[tuple[float, int], float] = {}
    for win, eggs in free_wins:
        key = (win / 25, eggs)
        spin_joint[key] = spin_joint.get(key, 0.0) + 1 / len(free_wins)
    first, second = chain_moments(spin_joint)

    mean = second_moment = 0.0
    n = len(base_wins)
    for win, eggs in base_wins:
        b = win / 25
        f1 = f2 = 0.0
        if eggs >= 3:
            for n0, p in initial_distribution(eggs).items():
                f1 += p * first[n0]
                f2 += p * second[n0]
        mean += (b + f1) / n
        second_moment += (b * b + 2 * b * f1 + f2) / n
    assert float(analysis.rtp) == pytest.approx(mean, rel=1e-9)
    assert analysis.std_dev == pytest.approx(math.sqrt(second_moment - mean * mean), rel=1e-9)
    assert float(analysis.second_moment) == pytest.approx(second_moment, rel=1e-9)


def test_award_probabilities_per_game_equal_markov_chain(small, brute):
    analysis = analyze_full(small)
    (_, base_awards, base_wins), (_, free_awards, free_wins) = brute
    n_base, n_free = len(base_wins), len(free_wins)
    base_k = {k: sum(1 for _, e in base_wins if e == k) for k in range(6)}
    free_k = {k: sum(1 for _, e in free_wins if e == k) for k in range(6)}
    checked = 0
    for award in analysis.awards:
        if award.kind == "line":
            key = (award.symbol, award.count)
            base_present = {k: base_awards.get((k, key), 0) for k in range(6)}
            free_present = {k: free_awards.get((k, key), 0) for k in range(6)}
        else:
            base_present = {k: base_k[k] if k == award.count else 0 for k in range(6)}
            free_present = {k: free_k[k] if k == award.count else 0 for k in range(6)}
        z = chain_miss({k: (free_k[k] - free_present[k]) / n_free for k in range(6)})
        game = sum(base_present.values()) / n_base
        for k in range(3, 6):
            absent = (base_k[k] - base_present[k]) / n_base
            miss = sum(p * z[n0] for n0, p in initial_distribution(k).items())
            game += absent * (1 - miss)
        assert award.per_base_spin == pytest.approx(sum(base_present.values()) / n_base)
        assert award.per_free_spin == pytest.approx(sum(free_present.values()) / n_free)
        assert award.per_game == pytest.approx(game, rel=1e-7, abs=1e-15), award
        checked += 1
    assert checked == len(analysis.awards) > 10


def test_spins_per_trigger_distribution(small):
    analysis = analyze_full(small)
    dist = analysis.spins_per_trigger
    assert dist.sum() == pytest.approx(1, abs=1e-10)
    mean = float((np.arange(len(dist)) * dist).sum())
    assert mean == pytest.approx(float(analysis.figures.expected_free_spins), rel=1e-9)


@pytest.mark.parametrize("variant_id", ["96.00", "94.00"])
def test_shipped_variants_are_consistent_and_documented(tsar_model, variant_id):
    analysis = analyze_full(tsar_model, variant_id)
    doc = analysis_document(analysis)
    for key in (
        "rtp",
        "rtp_breakdown",
        "hit_frequency",
        "std_dev",
        "volatility_index",
        "free_spins_frequency",
        "max_win",
        "method",
    ):
        assert key in doc
    assert doc["rtp"] == pytest.approx(float(analysis.figures.rtp), abs=1e-10)
    assert sum(a.rtp for a in analysis.awards) == analysis.rtp  # exact, to the last digit
    assert doc["volatility_index"]["95"] == pytest.approx(1.959964 * analysis.std_dev, rel=1e-6)
    assert 0.3 < doc["hit_frequency"] < 0.6 and 3 < doc["std_dev"] < 20
    assert doc["method"]["simulated"] == []
    assert not doc["gli_11"]["awards_rarer"]
    assert sum(b["probability"] for b in doc["win_distribution_base_spin"]) == pytest.approx(1)


def test_gli_flag(tsar_model):
    """An award rarer than 1 in 100 million games is flagged (and only such an award)."""
    award = AwardFigures(
        "line", "tsar", 5, 10000, 1e-10, 1e-9, 1e-9, 9.9e-9, Fraction(0), Fraction(0)
    )
    assert award.below_gli_limit
    assert not AwardFigures(
        "line", "tsar", 5, 10000, 1e-10, 1e-9, 1e-9, 1e-8, Fraction(0), Fraction(0)
    ).below_gli_limit


def test_strips_that_cannot_trigger_are_analysed_and_flagged(tsar_model):
    """No eggs on the base reels: no free spins, and the egg awards that can never be seen in
    a game are flagged under GLI-11."""
    from tests.analysis.conftest import SMALL_FREE, make_variant

    no_eggs = [strip.replace("egg", "nine") for strip in SMALL_FREE]
    model = make_variant(tsar_model, "dry", no_eggs, SMALL_FREE, SMALL_REVEAL)
    analysis = analyze_full(model)
    assert analysis.figures.trigger_probability == 0 and analysis.figures.free_spins_rtp == 0
    doc = analysis_document(analysis)
    assert doc["free_spins_every"] is None
    flagged = set(doc["gli_11"]["awards_rarer"])
    assert {"2 x egg", "3 x egg", "4 x egg", "5 x egg"} <= flagged
    assert analysis.std_dev > 0
