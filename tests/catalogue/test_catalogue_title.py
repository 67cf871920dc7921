"""Aurora Fox, reelsmith's catalogue title: a model file and nothing else. Its rounds, its
stored figures and the catalogue's rules it exercises (the doubling wild, scatter pays, free
spins with a multiplier and retriggers)."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reelsmith.analysis.catalogue_exact import analyze_full, analyze_rtp
from reelsmith.analysis.catalogue_exact import stored_figures as variant_figures
from reelsmith.analysis.tuning import tune
from reelsmith.engine.bets import CoinBet
from reelsmith.engine.catalogue import mechanics
from reelsmith.engine.evaluation import evaluate_screen
from reelsmith.engine.model import load_model
from reelsmith.engine.screen import parse_grid
from reelsmith.games import GAMES_DIR
from reelsmith.rng import SeededSource
from tests.catalogue_rounds import (
    CatalogueRound,
    Phase,
    RoundOptions,
    finish,
    play_free_spin,
    replay,
    start_round,
)

FOLDER = GAMES_DIR / "aurora_fox"
BET = CoinBet(20, 1, Decimal("0.01"))


@pytest.fixture(scope="module")
def model():  # type: ignore[no-untyped-def]
    return load_model(FOLDER)


def test_no_python_of_its_own() -> None:
    assert sorted(p.name for p in FOLDER.rglob("*") if p.is_file()) == [
        "94.00.toml",
        "96.00.toml",
        "messages.de.toml",  # its German names and description
        "model.toml",
    ]


@pytest.mark.parametrize("variant_id", ["96.00", "94.00"])
def test_stored_figures_are_rederived(model, variant_id: str) -> None:  # type: ignore[no-untyped-def]
    stored = dict(model.variant(variant_id).figures)
    derived = variant_figures(analyze_full(model, variant_id))
    assert derived == stored
    assert abs(stored["rtp"] - float(variant_id) / 100) <= 0.00005


def test_the_fox_doubles_the_wins_it_completes(model) -> None:  # type: ignore[no-untyped-def]
    plain = parse_grid(
        model, "owl,owl,owl,ten,ace/king,queen,jack,ace,king/ten,ace,king,queen,jack"
    )
    doubled = parse_grid(
        model, "owl,fox,owl,ten,ace/king,queen,jack,ace,king/ten,ace,king,queen,jack"
    )
    assert evaluate_screen(model, plain, 20, 1, 20).line_wins[0].coins == 30
    assert evaluate_screen(model, doubled, 20, 1, 20).line_wins[0].coins == 60
    # five foxes pay the Fox's own row (2500), more than any doubled substitution
    foxes = parse_grid(
        model, "fox,fox,fox,fox,fox/king,queen,jack,ace,king/ten,ace,king,queen,jack"
    )
    wins = evaluate_screen(model, foxes, 2, 1, 2).line_wins
    assert [(w.line, w.symbol, w.coins) for w in wins] == [(2, "fox", 2500)]


def test_free_spins_pay_double_and_retrigger(model) -> None:  # type: ignore[no-untyped-def]
    rules = mechanics(model)
    assert rules.free_spins is not None
    assert (rules.free_line_pays == 2 * model.line_pays).all()
    assert (rules.free_scatter_pays == 2 * model.scatter_pays).all()
    for seed in range(20_000):
        round_ = start_round(model, BET, SeededSource(seed))
        if round_.phase is Phase.FREE_SPINS:
            break
    else:  # pragma: no cover
        pytest.fail("no trigger in 20,000 seeds")
    base = round_.spins[0]
    assert base.triggers >= 3
    assert round_.free_spins_awarded == {3: 10, 4: 15, 5: 25}[min(base.triggers, 5)]
    rng = SeededSource(seed + 1)
    while round_.phase is Phase.FREE_SPINS:
        before = round_.free_spins_remaining
        round_ = play_free_spin(model, round_, rng)
        spin = round_.spins[-1]
        expected_added = {0: 0, 1: 0, 2: 0, 3: 10, 4: 15}.get(spin.triggers, 25)
        assert spin.spins_added == expected_added
        assert spin.free_spins_remaining == before - 1 + expected_added
    assert round_.phase is Phase.COMPLETE
    assert round_.win_coins == sum(s.win_coins for s in round_.spins)
    assert replay(model, round_).to_json() == round_.to_json()


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**63 - 1), lines=st.integers(1, 20), coins=st.integers(1, 10))
def test_any_round_replays_identically(model, seed: int, lines: int, coins: int) -> None:  # type: ignore[no-untyped-def]
    bet = CoinBet(lines, coins, Decimal("0.05"))
    rng = SeededSource(seed)
    round_ = finish(model, start_round(model, bet, rng, options=RoundOptions()), rng)
    assert round_.is_finished
    again = replay(model, round_)
    assert again.to_json() == round_.to_json()
    assert isinstance(again, CatalogueRound)


def test_simulated_rounds_agree_with_the_exact_rtp(model) -> None:  # type: ignore[no-untyped-def]
    """Live rounds (the engine that pays players) against the exact RTP: 15,000 rounds."""
    rtp = float(analyze_rtp(model).rtp)
    sd = analyze_full(model).std_dev
    rng = SeededSource(7)
    n = 15_000
    wins = np.empty(n)
    for i in range(n):
        wins[i] = finish(model, start_round(model, BET, rng), rng).win_coins / BET.total_coins
    half = 2.576 * sd / np.sqrt(n)
    assert abs(wins.mean() - rtp) <= half


def test_tune_reaches_a_target_and_proves_it(tmp_path: Path, model) -> None:  # type: ignore[no-untyped-def]
    import shutil

    folder = tmp_path / "aurora_fox"
    shutil.copytree(FOLDER, folder)
    copy = load_model(folder)
    result = tune(copy, folder, Decimal("95.00"), base_variant="96.00")
    tuned = load_model(folder)
    assert abs(float(analyze_rtp(tuned, "95.00").rtp) - 0.95) <= 0.000025
    assert tuned.variant("95.00").figures["rtp"] == round(result.rtp, 10)
