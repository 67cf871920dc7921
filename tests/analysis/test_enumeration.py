"""The full-cycle tree enumeration against brute force through the live evaluator."""

from __future__ import annotations

from fractions import Fraction

import pytest

from reelsmith.analysis.enumeration import enumerate_screens
from reelsmith.analysis.exact import analyze_line
from tests.analysis.conftest import brute_screens


def as_dicts(model, distribution):
    joint = {
        (k, int(p)): int(distribution.ways[k, p])
        for k in range(distribution.ways.shape[0])
        for p in range(distribution.ways.shape[1])
        if distribution.ways[k, p]
    }
    awards = {}
    for index, (symbol, count) in enumerate(distribution.awards):
        for k in range(distribution.award_ways.shape[1]):
            if distribution.award_ways[index, k]:
                awards[(k, (model.symbol_id(symbol), count))] = int(
                    distribution.award_ways[index, k]
                )
    return joint, awards


@pytest.mark.parametrize("reel_set_name", ["base", "free_spins"])
def test_small_model_full_cycle_equals_brute_force(small, reel_set_name):
    reel_set = small.variant().reel_sets[reel_set_name]
    joint, awards, _ = brute_screens(small, reel_set)
    distribution = enumerate_screens(small, reel_set)
    assert distribution.cycle == reel_set.cycle == sum(joint.values())
    assert as_dicts(small, distribution) == (joint, awards)


@pytest.mark.parametrize("variant_id", ["96.00", "94.00"])
@pytest.mark.parametrize("reel_set_name", ["base", "free_spins"])
def test_shipped_sub_cycle_equals_brute_force(tsar_model, variant_id, reel_set_name):
    """A slice of the real strips (Tsar and egg stops and a spread of others on each reel)
    through both evaluators."""
    reel_set = tsar_model.variant(variant_id).reel_sets[reel_set_name]
    wild, egg = tsar_model.wild, tsar_model.scatter

    def pick(reel, count, step):
        strip = [int(s) for s in reel_set.strips[reel]]
        special = [i for i, s in enumerate(strip) if s in (wild, egg)]
        return sorted(set(special[:count] + list(range(0, len(strip), step))))

    lists = [pick(0, 2, 40), pick(1, 2, 40), pick(2, 2, 30), pick(3, 4, 4), pick(4, 4, 4)]
    joint, awards, _ = brute_screens(tsar_model, reel_set, lists)
    distribution = enumerate_screens(tsar_model, reel_set, stop_lists=lists)
    assert as_dicts(tsar_model, distribution) == (joint, awards)


@pytest.mark.parametrize("variant_id", ["96.00", "94.00"])
def test_full_cycle_line_pay_equals_per_line_analysis(tsar_model, variant_id):
    """Two independent exact routes to the line RTP: the joint enumeration of all 25 lines and
    the per-line symbol-tuple enumeration."""
    for reel_set in tsar_model.variant(variant_id).reel_sets.values():
        distribution = enumerate_screens(tsar_model, reel_set)
        assert distribution.cycle == reel_set.cycle
        assert Fraction(distribution.line_pay_sum(), 25 * reel_set.cycle) == (
            analyze_line(tsar_model, reel_set).rtp
        )


def test_fewer_lines_and_bad_input(small):
    reel_set = small.variant().reel_sets["base"]
    joint, awards, _ = brute_screens(small, reel_set, lines=3)
    three_lines = enumerate_screens(small, reel_set, lines=3)
    assert as_dicts(small, three_lines) == (joint, awards)
    with pytest.raises(ValueError, match="lines must be"):
        enumerate_screens(small, reel_set, lines=0)
    with pytest.raises(ValueError, match="reel 1: stops must be"):
        enumerate_screens(small, reel_set, stop_lists=[[99], [0], [0], [0], [0]])
