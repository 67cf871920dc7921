"""The figures of every title and variant: those stored beside the strips are re-derived by
the exact analysis, the exact analysis lies inside a seeded simulation's 99% intervals, and
a variant is named by its RTP.

Both the analysis and the simulation are reached through the math lab's own entry points
(``reelsmith analyze`` and ``reelsmith simulate``: the lab part of the model's kind,
:mod:`reelsmith.engine.title`), as a user reaches them; the stored figures through the title's
adapter.
"""

from __future__ import annotations

import math
import re
import tomllib
from functools import cache
from typing import Any

import pytest

from reelsmith.analysis.analysis_report import analysis_report
from reelsmith.analysis.analyzer import analyze
from reelsmith.games import game_folder
from reelsmith.mechanics import round_face
from reelsmith.mechanics.base import face
from tests.contract.titles import adapter, contract_titles, model, variants

Z_99 = 2.5758293035489004
CASES = [(g, v) for g in contract_titles() for v in variants(g)]
SIMULATED_ROUNDS = 2_000_000


@cache
def analysis(game_id: str, variant_id: str) -> dict[str, Any]:
    """``reelsmith analyze GAME --variant V --json``."""
    report = analysis_report(analyze(model(game_id), variant_id))
    return dict(report.to_json())


def printed_figures(game_id: str, variant_id: str) -> dict[str, str]:
    """The ``[figures]`` table of the variant's file, each value as printed there."""
    path = game_folder(game_id) / "variants" / f"{variant_id}.toml"
    text = path.read_text()
    tomllib.loads(text)  # the file is valid TOML
    section = text.split("\n[figures]\n", 1)[1].split("\n[", 1)[0]
    printed = dict(re.findall(r"^(\w+)\s*=\s*(\S+)", section, flags=re.MULTILINE))
    assert printed, f"{path} has no [figures] table"
    return printed


def feature_frequency(report: dict[str, Any]) -> str:
    """The analysis report's key for how often a round plays its feature: the free spins', or
    the hold-and-spin's where that is the title's feature (the simulation's report names both
    ``free_spins_frequency``)."""
    hold = "hold_and_spin_frequency"
    return hold if hold in report else "free_spins_frequency"


def decimals(printed: str) -> int:
    if not re.fullmatch(r"-?\d+(\.\d+)?", printed):
        raise ValueError(f"figure {printed!r} is not a plain decimal")
    return len(printed.partition(".")[2])


@pytest.mark.parametrize(("game_id", "variant_id"), CASES)
def test_stored_figures_are_re_derived(game_id, variant_id):
    """RTP to 1e-10; every other figure to the precision it is printed with."""
    stored = model(game_id).variant(variant_id).figures
    printed = printed_figures(game_id, variant_id)
    derived = adapter(game_id).variant_figures(model(game_id), variant_id)
    assert set(stored) == set(printed) == set(derived)
    assert abs(stored["rtp"] - derived["rtp"]) <= 1e-10, (stored["rtp"], derived["rtp"])
    for key, value in derived.items():
        assert float(printed[key]) == stored[key], key
        tolerance = 0.5 * 10 ** -decimals(printed[key]) + 1e-13
        assert abs(stored[key] - value) <= tolerance, (key, stored[key], value)


@pytest.mark.parametrize(("game_id", "variant_id"), CASES)
def test_the_analysis_reports_the_stored_figures(game_id, variant_id):
    """``analyze`` prints the RTP, hit frequency and feature frequency (free spins or
    hold-and-spin) stored beside the strips."""
    stored = model(game_id).variant(variant_id).figures
    report = analysis(game_id, variant_id)
    assert report["game"] == game_id and report["variant"] == variant_id
    assert abs(report["rtp"] - stored["rtp"]) <= 1e-10
    for key in ("hit_frequency", feature_frequency(report)):
        assert abs(report[key] - stored[key]) <= 1e-10, key


@pytest.mark.parametrize(("game_id", "variant_id"), CASES)
def test_variant_is_named_by_its_rtp(game_id, variant_id):
    assert abs(analysis(game_id, variant_id)["rtp"] * 100 - float(variant_id)) <= 0.01


@pytest.mark.parametrize(("game_id", "variant_id"), CASES)
def test_exact_figures_inside_simulated_99_percent_intervals(game_id, variant_id):
    exact = analysis(game_id, variant_id)
    simulate = face(round_face(model(game_id), "simulate"))
    doc = simulate(game_id, SIMULATED_ROUNDS, 31, variant_id=variant_id, workers=1).to_json()
    assert doc["variant"] == variant_id and doc["seed"] == 31
    n = doc["rounds"] if "rounds" in doc else doc["spins"]  # the catalogue's report counts rounds
    assert n == SIMULATED_ROUNDS
    low, high = doc["rtp_ci99"]
    assert low <= exact["rtp"] <= high, (low, exact["rtp"], high)
    pairs = {"hit_frequency": "hit_frequency", "free_spins_frequency": feature_frequency(exact)}
    for key, exact_key in pairs.items():
        value = exact[exact_key]
        half = Z_99 * math.sqrt(value * (1 - value) / n)
        assert abs(doc[key] - value) <= half, (key, doc[key], value)
    # spins per trigger: a mean over the triggers, each of at most about 8 standard units (a
    # hold-and-spin's respins per feature are not stored beside the strips: the analyzer's
    # figure, which the simulation's report carries)
    stored = model(game_id).variant(variant_id).figures
    if feature_frequency(exact) == "free_spins_frequency":
        per_trigger = stored["expected_free_spins_per_trigger"]
    else:
        per_trigger = doc["exact"]["expected_free_spins_per_trigger"]
    triggers = doc["free_spins_frequency"] * n
    assert doc["free_spins_per_trigger"] == pytest.approx(per_trigger, abs=5 * 8 / triggers**0.5)
    # the sample standard deviation is itself noisy (heavy tails): 10% is a wide enough band
    assert doc["std_dev"] == pytest.approx(exact["std_dev"], rel=0.10)
