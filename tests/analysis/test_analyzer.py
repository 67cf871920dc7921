"""The lab's one exact analyzer and its one report: every title goes through
:func:`reelsmith.analysis.analyzer.analyze`, whose round law the model's declared mechanics
choose, and :func:`reelsmith.analysis.analysis_report.analysis_report`, whose sections are those
of what the analysis contains."""

from __future__ import annotations

import dataclasses
from decimal import Decimal
from functools import cache

import pytest

from reelsmith.analysis.analysis_report import analysis_report
from reelsmith.analysis.analyzer import (
    analyze,
    round_law,
    stored_figures,
)
from reelsmith.analysis.catalogue_exact import CatalogueAnalysis
from reelsmith.analysis.ladder_exact import LadderAnalysis
from reelsmith.engine.model import GameModel
from reelsmith.games import TITLE_FOLDERS, load_game
from reelsmith.mechanics import CompositionError, declared_names
from reelsmith.mechanics.cascade.report import CascadeAnalysis
from reelsmith.mechanics.hold_and_spin.exact import HoldAndSpinAnalysis

GAMES = sorted(TITLE_FOLDERS)
CASES = [(game, variant) for game in GAMES for variant in load_game(game).variants]
LADDER_SECTIONS = {"Local jackpots", "Free-spins ladder", "Win distribution (round, simulated)"}
FREE_SPINS_SECTIONS = {"Free spins", "Win distribution (base spin)"}


@cache
def analysis(game: str, variant: str) -> CatalogueAnalysis | LadderAnalysis | HoldAndSpinAnalysis:
    return analyze(load_game(game), variant)


def family(model: GameModel) -> str:
    """The round law the title's declared mechanics choose: the ladder's, the hold-and-spin's
    or the catalogue's (paylines, scatter and free spins)."""
    names = declared_names(model)
    return "ladder" if "ladder" in names else "hold_and_spin" if "hold_and_spin" in names else ""


@pytest.mark.parametrize(("game", "variant"), CASES)
def test_every_title_s_analysis_gives_the_figures_stored_beside_its_strips(game, variant):
    stored = dict(load_game(game).variant(variant).figures)
    derived = stored_figures(analysis(game, variant))
    assert set(derived) == set(stored)
    for key, value in stored.items():
        assert derived[key] == pytest.approx(value, abs=1e-10), key


@pytest.mark.parametrize("game", GAMES)
def test_the_declared_mechanics_choose_the_round_law(game):
    model = load_game(game)
    law = round_law(model)
    if family(model) == "ladder":
        assert law.module == "reelsmith.analysis.ladder_exact"
        assert isinstance(analysis(game, model.default_variant), LadderAnalysis)
    elif family(model) == "hold_and_spin":
        assert law.module == "reelsmith.mechanics.hold_and_spin.exact"
        assert isinstance(analysis(game, model.default_variant), HoldAndSpinAnalysis)
    else:
        assert law.module == "reelsmith.analysis.catalogue_exact"
        found = analysis(game, model.default_variant)
        # a cascade's law is its full cycle of chains, which the catalogue's law hands on
        kind = CascadeAnalysis if "cascade" in declared_names(model) else CatalogueAnalysis
        assert isinstance(found, kind)


def test_a_model_whose_mechanics_no_law_analyzes_is_refused_by_name():
    model = load_game(GAMES[0])
    other: GameModel = dataclasses.replace(model, raw={**model.raw, "mechanics": "reels-of-fate"})
    with pytest.raises(CompositionError, match=f"{other.source or other.id}.*reels-of-fate"):
        analyze(other)


@pytest.mark.parametrize("game", GAMES)
def test_the_report_has_the_ladder_s_sections_exactly_when_the_model_has_the_ladder(game):
    model = load_game(game)
    report = analysis_report(analysis(game, model.default_variant))
    assert report.sheet is not None
    headings = [section.heading for section in report.sheet().sections]
    if family(model) == "hold_and_spin":  # its summary and strips (its method: exact, by name)
        assert headings == ["Summary", "Reel strips"]
        assert report.to_json()["exact"] is True
        return
    if "cascade" in declared_names(model):  # its summary, its chains' table and strips
        assert headings == ["Summary", "Cascade", "Reel strips"]
        assert str(report.to_json()["method"]).startswith("exact")
        return
    assert headings[:2] == ["Summary", "Paytable"]
    assert headings[-2:] == ["RTP confidence band", "Reel strips"]
    if "ladder" in declared_names(model):
        assert set(headings) >= LADDER_SECTIONS and not FREE_SPINS_SECTIONS & set(headings)
        assert report.to_json()["method"]["simulated"] == ["round_win_distribution"]
    else:
        assert set(headings) >= FREE_SPINS_SECTIONS and not LADDER_SECTIONS & set(headings)
        assert report.to_json()["method"]["simulated"] == []


@pytest.mark.parametrize("game", GAMES)
def test_the_tuner_s_family_counts_the_rtp_the_analyzer_gives(game):
    """The one tuner takes the family the round law names; that family's fast RTP of the
    variant it starts from is the analyzer's."""
    from reelsmith.analysis import catalogue_tuning, exact_tuning, ladder_tuning

    model = load_game(game)
    setup = round_law(model).tuning_plan()
    plans = {"ladder": ladder_tuning.plan, "hold_and_spin": exact_tuning.plan}
    cascade = "cascade" in declared_names(model)  # tuned by the exact family, as hold-and-spin
    assert setup is (
        exact_tuning.plan if cascade else plans.get(family(model), catalogue_tuning.plan)
    )
    source = model.variant(None)
    plan = setup(model, source, "tuned", Decimal("95.00"), None)
    assert plan.target == pytest.approx(0.95, abs=1e-15)
    assert plan.coarse >= plan.aim and plan.tolerance >= plan.aim
    rtp = plan.family.rtp(plan.state)
    assert float(rtp) == pytest.approx(float(analysis(game, source.id).rtp), abs=1e-10)
    assert plan.state.moves == 0
