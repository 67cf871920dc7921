"""Days of the Tsar is a catalogue model: its model file declares the catalogue's tables, the
generic exact analyzer re-derives every figure stored beside its strips, and the generic live
engine plays its rounds exactly as its own engine does, draw for draw."""

from __future__ import annotations

from decimal import Decimal

import pytest

from reelsmith.analysis.catalogue_exact import analyze_full, analyze_rtp
from reelsmith.analysis.catalogue_tuning import variant_figures
from reelsmith.engine import catalogue_round as generic
from reelsmith.engine.bets import CoinBet
from reelsmith.engine.catalogue import is_catalogue, mechanics
from reelsmith.engine.gamble import CHOICES
from reelsmith.games import load_game
from reelsmith.games.days_of_the_tsar import rules as tsar
from reelsmith.rng import RecordingSource, SeededSource

GAME = "days-of-the-tsar"


@pytest.fixture(scope="module")
def model():  # type: ignore[no-untyped-def]
    return load_game(GAME)


def test_the_model_declares_the_catalogue(model) -> None:  # type: ignore[no-untyped-def]
    assert is_catalogue(model)
    rules = mechanics(model)
    assert rules.free_spins is not None and rules.free_spins.reveal == "egg_reveal"
    assert rules.gamble is not None and rules.gamble.max_gambles == 5


@pytest.mark.parametrize("variant_id", ["96.00", "94.00"])
def test_generic_analysis_rederives_the_stored_figures(model, variant_id: str) -> None:  # type: ignore[no-untyped-def]
    analysis = analyze_full(model, variant_id)
    assert analyze_rtp(model, variant_id).rtp == analysis.rtp
    assert variant_figures(analysis) == dict(model.variant(variant_id).figures)


def _same(tsar_round: tsar.TsarRound, round_: generic.CatalogueRound) -> None:
    assert str(round_.phase) == str(tsar_round.phase)
    assert round_.draws == tsar_round.draws
    assert round_.actions == tsar_round.actions
    assert round_.win_coins == tsar_round.win_coins
    assert round_.free_spins_awarded == tsar_round.free_spins_awarded
    assert len(round_.spins) == len(tsar_round.spins)
    for a, b in zip(tsar_round.spins, round_.spins, strict=True):
        assert (a.kind, a.stops, a.screen, a.reveals, a.spins_added) == (
            b.kind,
            b.stops,
            b.screen,
            b.reveals,
            b.spins_added,
        )
        assert a.wins == b.wins
        assert a.free_spins_remaining == b.free_spins_remaining
    assert [g.to_json() for g in tsar_round.gambles] == [g.to_json() for g in round_.gambles]


@pytest.mark.parametrize("seed", range(40))
def test_the_generic_engine_plays_tsar_rounds_draw_for_draw(model, seed: int) -> None:  # type: ignore[no-untyped-def]
    """Rounds played by the title's own engine replay through the generic one identically,
    gambles included (the choice cycles through every colour and suit)."""
    bet = CoinBet(25, 1 + seed % 3, Decimal("0.05"))
    recorder = RecordingSource(SeededSource(seed))
    own = tsar.start_round(model, bet, recorder)
    choice = 0
    while not own.is_finished:
        if own.phase is tsar.Phase.FREE_SPINS:
            own = tsar.play_free_spin(model, own, recorder)
        else:
            offered = tsar.gamble_choices(model, own)
            pick = CHOICES[(seed + choice) % len(CHOICES)]
            choice += 1
            own = tsar.gamble(model, own, pick, recorder) if pick in offered else tsar.collect(own)
    replayed = generic.replay_from(
        model,
        bet,
        generic.RoundOptions(),
        own.variant,
        own.actions,
        own.draws,
    )
    _same(own, replayed)


def test_a_free_spins_round_matches(model) -> None:  # type: ignore[no-untyped-def]
    bet = CoinBet(25, 1, Decimal("0.01"))
    for seed in range(5_000):
        own = tsar.start_round(model, bet, SeededSource(seed))
        if own.phase is tsar.Phase.FREE_SPINS:
            break
    rng_a, rng_b = SeededSource(seed + 99), SeededSource(seed + 99)
    own = tsar.finish(model, own, rng_a)
    other = generic.start_round(model, bet, SeededSource(seed))
    other = generic.finish(model, other, rng_b)
    assert own.free_spins_awarded > 0
    _same(own, other)
