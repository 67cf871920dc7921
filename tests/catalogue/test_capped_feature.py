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
from reelsmith.engine.catalogue_round import Phase, finish, play_free_spin, start_round
from reelsmith.engine.model import GameModel, load_model
from reelsmith.games import GAMES_DIR
from reelsmith.rng import SeededSource

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
