"""Days of the Tsar is a catalogue model: its model file declares the catalogue's tables, the
generic exact analyzer re-derives every figure stored beside its strips, and the generic live
engine replays, draw for draw, the rounds recorded under the title's former engine
(tests/contract/fixtures, recorded by tests/contract/record_fixtures.py): rounds stored before
replay to the same screens, wins, gambles and settlement."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from reelsmith.analysis.catalogue_exact import analyze_full, analyze_rtp
from reelsmith.analysis.catalogue_exact import stored_figures as variant_figures
from reelsmith.engine.catalogue import RETRIGGER_PER_SYMBOL, mechanics
from reelsmith.games import load_game
from reelsmith.mechanics import declared_names
from reelsmith.rng import Draw
from tests import catalogue_rounds as generic

GAME = "days-of-the-tsar"
RECORDED = Path(__file__).parents[1] / "contract" / "fixtures" / f"{GAME}.json"


@pytest.fixture(scope="module")
def model():  # type: ignore[no-untyped-def]
    return load_game(GAME)


def test_the_model_declares_the_catalogue(model) -> None:  # type: ignore[no-untyped-def]
    assert {"coins", "paylines", "wild", "scatter", "free_spins", "gamble"} <= declared_names(model)
    rules = mechanics(model)
    free = rules.free_spins
    assert free is not None and free.reveal == "egg_reveal" and free.symbol == model.scatter
    # an egg shown in a free spin adds one spin; free spins pay without a multiplier
    assert (free.retrigger, free.spins_per_symbol, free.multiplier) == (RETRIGGER_PER_SYMBOL, 1, 1)
    assert model.wild >= 0 and model.scatter >= 0
    assert rules.gamble is not None and rules.gamble.max_gambles == 5


@pytest.mark.parametrize("variant_id", ["96.00", "94.00"])
def test_generic_analysis_rederives_the_stored_figures(model, variant_id: str) -> None:  # type: ignore[no-untyped-def]
    analysis = analyze_full(model, variant_id)
    assert analyze_rtp(model, variant_id).rtp == analysis.rtp
    assert variant_figures(analysis) == dict(model.variant(variant_id).figures)


def recorded_rounds() -> list[dict[str, Any]]:
    rounds: list[dict[str, Any]] = json.loads(RECORDED.read_text())["rounds"]
    return rounds


def in_recorded_names(spin: dict[str, Any]) -> dict[str, Any]:
    """A generic spin record under the names the recorded view gives it: the model's scatter is
    the egg, and the eggs it shows are the free spins' trigger symbols, counted on every reel."""
    spin = dict(spin)
    assert spin.pop("triggers") == spin["scatters"], spin
    spin["eggs"] = spin.pop("scatters")
    spin["egg_positions"] = spin.pop("scatter_positions")
    return spin


def test_the_recorded_rounds_cover_the_title() -> None:
    """The fixtures below hold free spins with retriggers, won and lost gambles and rounds left
    open in free spins and in the gamble: what the replay proves reaches all of them."""
    features = {f for entry in recorded_rounds() for f in entry["features"]}
    assert {"egg_reveals", "retrigger", "gamble_won", "gamble_lost", "suit_gamble"} <= features
    assert {"gamble_limit", "open_free_spins", "open_gamble", "gamble_declined"} <= features


@pytest.mark.parametrize("entry", recorded_rounds(), ids=lambda entry: entry["name"])
def test_the_generic_engine_replays_the_recorded_rounds(model, entry: dict[str, Any]) -> None:  # type: ignore[no-untyped-def]
    """Each recorded round, re-run by the generic engine from its bet, options, actions and
    draws (every draw used, in the recorded order), gives the recorded round field for field."""
    record, view = entry["record"], entry["outcome"]["view"]
    bet = generic.bet_options(model).validate(
        record["bet"]["lines"], record["bet"]["coins_per_line"], record["bet"]["coin_size"]
    )
    draws = [Draw.from_json(d) for d in record["draws"]]
    replayed = generic.replay_from(
        model,
        bet,
        generic.RoundOptions.from_json(record["options"]),
        record["variant"],
        record["actions"],
        draws,
    )
    assert replayed.actions == tuple(record["actions"])
    assert replayed.draws == tuple(draws)
    played = replayed.to_json()
    assert [in_recorded_names(s) for s in played.pop("spins")] == view["spins"]
    del played["actions"], played["draws"]
    assert played == {key: view[key] for key in played}
