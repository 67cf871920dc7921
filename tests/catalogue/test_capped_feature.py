"""A feature capped at ``max_spins``: live play cuts the awards at the cap, and the exact
analyzer solves the capped feature as a Markov chain (its mean equals Wald's E[N] E[W])."""

from __future__ import annotations

import shutil
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from reelsmith.analysis.catalogue_exact import analyze_full, analyze_rtp
from reelsmith.engine.bets import CoinBet
from reelsmith.engine.model import GameModel, load_model
from reelsmith.games import GAMES_DIR
from reelsmith.rng import SeededSource
from tests.catalogue_rounds import Phase, finish, play_free_spin, start_round

BET = CoinBet(20, 1, Decimal("0.01"))


def _variant(tmp_path: Path, replace: dict[str, str]) -> GameModel:
    folder = tmp_path / "capped"
    shutil.copytree(GAMES_DIR / "aurora_fox", folder)
    model = folder / "model.toml"
    text = model.read_text(encoding="utf-8")
    for old, new in replace.items():
        assert old in text
        text = text.replace(old, new)
    model.write_text(text, encoding="utf-8")
    return load_model(folder)


@pytest.fixture
def capped(tmp_path: Path) -> GameModel:
    return _variant(
        tmp_path,
        {'retrigger = "table"': 'retrigger = "per_symbol"\nspins_per_symbol = 4\nmax_spins = 30'},
    )


def test_live_play_never_passes_the_cap(capped: GameModel) -> None:
    seen = 0
    for seed in range(4_000):
        round_ = start_round(capped, BET, SeededSource(seed))
        if round_.phase is not Phase.FREE_SPINS:
            continue
        rng = SeededSource(10**6 + seed)
        while round_.phase is Phase.FREE_SPINS:
            round_ = play_free_spin(capped, round_, rng)
            assert round_.free_spins_awarded <= 30
        assert len(round_.free_spins) == round_.free_spins_awarded
        seen += round_.free_spins_awarded == 30
    assert seen > 0  # the cap was reached, and held


def test_a_cap_every_feature_reaches(tmp_path: Path) -> None:
    """Every trigger awards 25 spins, capped at 25: each feature plays exactly 25 spins."""
    model = _variant(
        tmp_path,
        {"spins = { 3 = 10, 4 = 15, 5 = 25 }": "spins = { 3 = 25 }\nmax_spins = 25"},
    )
    figures = analyze_rtp(model)
    assert figures.expected_free_spins == 25
    assert figures.free_spins_rtp == figures.trigger_probability * 25 * figures.free_spin_win
    full = analyze_full(model)
    for moments in full.spins_given.values():
        assert moments.mean == 25 and moments.second == 625


def test_capped_exact_rtp_inside_the_simulated_interval(capped: GameModel) -> None:
    full = analyze_full(capped)  # checks the chain's mean against Wald's identity itself
    assert isinstance(full.rtp, Fraction)
    rng = SeededSource(11)
    n = 15_000
    wins = np.empty(n)
    for i in range(n):
        wins[i] = finish(capped, start_round(capped, BET, rng), rng).win_coins / BET.total_coins
    assert abs(wins.mean() - float(full.rtp)) <= 2.576 * full.std_dev / np.sqrt(n)


def test_a_high_cap_changes_only_what_reaches_it(tmp_path: Path) -> None:
    """Aurora Fox's features capped at 60 spins against the uncapped closed forms (retrigger
    trees): a feature that ends below the cap never came near it, so the spins-per-trigger
    law below 60 is the same; the cap only takes spins away, so no award is more frequent per
    game and none loses more than the rare features reaching the cap can take."""
    free = analyze_full(load_model(GAMES_DIR / "aurora_fox"))
    capped = analyze_full(
        _variant(tmp_path, {'retrigger = "table"': 'retrigger = "table"\nmax_spins = 60'})
    )
    assert 0 < free.figures.rtp - capped.figures.rtp < Fraction(1, 10_000)
    law = capped.spins_per_trigger
    assert len(law) == 61 and law.sum() == pytest.approx(1, abs=1e-12)
    assert law[:60] == pytest.approx(free.spins_per_trigger[:60], abs=1e-13)
    assert law[60] == pytest.approx(1 - free.spins_per_trigger[:60].sum(), abs=1e-12)
    assert len(capped.awards) == len(free.awards) > 20
    for a, b in zip(capped.awards, free.awards, strict=True):
        assert (a.kind, a.symbol, a.count) == (b.kind, b.symbol, b.count)
        assert a.per_base_spin == b.per_base_spin and a.per_free_spin == b.per_free_spin
        assert b.per_game - 1e-6 <= a.per_game <= b.per_game + 1e-15, a


def test_capped_award_and_spin_laws_agree_with_live_play(capped: GameModel) -> None:
    """The capped chain's spins per trigger (every feature at most 30) and each frequent
    award's probability per game, against seeded live rounds."""
    full = analyze_full(capped)
    law = full.spins_per_trigger
    assert len(law) == 31 and law.sum() == pytest.approx(1, abs=1e-12)
    mean = float((np.arange(len(law)) * law).sum())
    assert mean == pytest.approx(float(full.figures.expected_free_spins), rel=1e-9)
    rng = SeededSource(5)
    n = 12_000
    seen: dict[tuple[str, int], int] = {}
    for _ in range(n):
        round_ = finish(capped, start_round(capped, BET, rng), rng)
        shown = {(w.symbol, w.count) for s in round_.spins for w in s.wins.line_wins}
        for key in shown:
            seen[key] = seen.get(key, 0) + 1
    checked = 0
    for award in full.awards:
        if award.kind != "line" or award.per_game < 0.02:
            continue
        observed = seen.get((award.symbol, award.count), 0) / n
        half = 4.5 * (award.per_game * (1 - award.per_game) / n) ** 0.5
        assert abs(observed - award.per_game) <= half, (award, observed)
        checked += 1
    assert checked >= 5
