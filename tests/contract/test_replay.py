"""Recorded rounds replay identically: every fixture round, restored from its stored record,
gives its stored outcome (screens, wins, events, final state, settlement) and the same record;
played live again from its bet, starting state and draws, action by action, it gives the
same. The fixtures were recorded before the catalogue of mechanics, so rounds stored before
the change must replay identically after it (tests/contract/record_fixtures.py).

``fixtures/before/<title>.<version>.json`` keeps the rounds recorded under an earlier version
of a title: of its rules (Sultan Spins' ``rules-1``, whose pots could be won at their caps),
which the title still reads from a record, or of its model files (Crystal Caverns'
``strips-1``, its strips before its bought feature was tuned), which are kept beside them in
``fixtures/before/<title>.<version>/`` as a server keeps a version it served. They restore
to their recorded outcome under their own rules, on their own files; only the current
fixtures are played again through the live path, which plays new rounds on the current
ones."""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from reelsmith.engine.errors import RuleError
from reelsmith.rng import Draw, ReplayError, ReplaySource
from tests.contract.rounds import migrated_outcome, outcome_of, record_of
from tests.contract.titles import (
    adapter,
    contract_titles,
    kept_files,
    market_for,
    server_title,
    version_title,
)

FIXTURES = Path(__file__).parent / "fixtures"


@cache
def fixture_file(game_id: str, earlier: str = "") -> dict[str, Any]:
    """The title's current fixtures, or those kept from an ``earlier`` version."""
    path = FIXTURES / (f"before/{game_id}.{earlier}.json" if earlier else f"{game_id}.json")
    if not path.exists():
        raise FileNotFoundError(f"{path} is missing: record it (docs/contract-tests.md)")
    document: dict[str, Any] = json.loads(path.read_text())
    assert document["game"] == game_id, path
    return document


def earlier_versions(game_id: str) -> list[str]:
    """The earlier versions whose recorded rounds are kept (``fixtures/before``)."""
    found = (FIXTURES / "before").glob(f"{game_id}.*.json")
    return sorted(
        p.name[len(game_id) + 1 : -5] for p in found if not p.name.endswith(".server.json")
    )


def recorded(game_id: str, earlier: str = "") -> list[dict[str, Any]]:
    """The recorded rounds, their kept states' keys as the store holds them after its
    migrations (Sultan Spins' amount keys became bet levels)."""
    rounds = copy.deepcopy(fixture_file(game_id, earlier)["rounds"])
    for entry in rounds:
        entry["outcome"] = migrated_outcome(entry["outcome"])
    return rounds


CASES = [(g, i, entry["name"]) for g in contract_titles() for i, entry in enumerate(recorded(g))]
EARLIER_CASES = [
    (g, e, i, entry["name"])
    for g in contract_titles()
    for e in earlier_versions(g)
    for i, entry in enumerate(recorded(g, e))
]


def case_ids(case: tuple[str, int, str]) -> str:
    return f"{case[0]}: {case[2]}"


@pytest.fixture(params=CASES, ids=[case_ids(c) for c in CASES])
def case(request: pytest.FixtureRequest) -> tuple[str, dict[str, Any]]:
    game_id, index, _name = request.param
    return game_id, recorded(game_id)[index]


@pytest.fixture(params=EARLIER_CASES, ids=[f"{c[0]} {c[1]}: {c[3]}" for c in EARLIER_CASES])
def earlier_case(request: pytest.FixtureRequest) -> tuple[str, str, dict[str, Any]]:
    game_id, earlier, index, _name = request.param
    return game_id, earlier, recorded(game_id, earlier)[index]


def test_restored_record_gives_the_recorded_outcome(case):
    game_id, entry = case
    _check_restored(server_title(game_id), game_id, entry)


def test_a_round_of_an_earlier_version_restores_to_its_recorded_outcome(earlier_case):
    """Rounds stored under an earlier version replay identically, under their own rules
    and on their own model files (their record, which names no later version, is written
    back as it was stored)."""
    game_id, earlier, entry = earlier_case
    _check_restored(version_title(game_id, earlier), game_id, entry)


def test_earlier_rounds_show_the_features_they_were_recorded_for(earlier_case):
    game_id, _earlier, entry = earlier_case
    features = adapter(game_id).features(entry["record"], entry["outcome"])
    assert sorted(features) == entry["features"], entry["name"]


KEPT_FILES = [(g, e) for g in contract_titles() for e in earlier_versions(g) if kept_files(g, e)]


@pytest.mark.parametrize(("game_id", "earlier"), KEPT_FILES, ids=[" ".join(c) for c in KEPT_FILES])
def test_kept_files_are_the_version_their_rounds_need(game_id, earlier):
    """An earlier version's kept files are another version than the one served (another
    model hash for a variant its rounds played), and its rounds need them: at least one of
    them restores on the title served now to another outcome (or is refused)."""
    kept = version_title(game_id, earlier)
    served = server_title(game_id)
    rounds = recorded(game_id, earlier)
    played = sorted({entry["variant"] for entry in rounds})
    assert any(kept.model_hash(v) != served.model_hash(v) for v in played), played
    differ = 0
    for entry in rounds:
        market = market_for(entry["market"], game_id, entry["variant"])
        try:
            restored = served.restore(copy.deepcopy(entry["record"]))
        except (ReplayError, RuleError):
            differ += 1
            continue
        differ += outcome_of(served, market, restored) != entry["outcome"]
    assert differ, f"every round of {earlier} replays on the files served now: keep no files"


def _check_restored(title: Any, game_id: str, entry: dict[str, Any]) -> None:
    market = market_for(entry["market"], game_id, entry["variant"])
    restored = title.restore(copy.deepcopy(entry["record"]))
    assert record_of(title, restored) == entry["record"]
    assert outcome_of(title, market, restored) == entry["outcome"]


def test_live_play_of_the_recorded_draws_gives_the_recorded_round(case):
    """The round played again through the live path (the market's options, the bet parsed
    as a request's, each recorded action applied as a request applies it) from the
    recorded draws, which it must use up exactly."""
    game_id, entry = case
    title = server_title(game_id)
    market = market_for(entry["market"], game_id, entry["variant"])
    record = entry["record"]
    raw_bet, state, gamble = adapter(game_id).live_start(record, market)
    source = ReplaySource(Draw.from_json(d) for d in record["draws"])
    round_ = title.start(
        market, title.parse_bet(market, raw_bet), title.load_state(state), source, gamble
    )
    for action in record["actions"][1:]:
        assert action in title.actions(round_), (action, title.actions(round_))
        round_ = title.act(round_, action, source)
    assert source.remaining == 0
    assert record_of(title, round_) == record
    assert outcome_of(title, market, round_) == entry["outcome"]


@pytest.mark.parametrize("game_id", contract_titles())
def test_fixtures_cover_the_titles_features(game_id):
    """Between them a title's recorded rounds show every feature its adapter requires, and
    each round shows the features it was recorded for."""
    contract = adapter(game_id)
    seen: set[str] = set()
    for entry in recorded(game_id):
        features = contract.features(entry["record"], entry["outcome"])
        assert sorted(features) == entry["features"], entry["name"]
        seen |= features
    assert contract.required_features <= seen, sorted(contract.required_features - seen)


def test_a_record_with_another_draw_restores_to_another_round():
    """The outcome comes from the draws: the first reel stop moved by one gives another
    screen, so another outcome (or a refusal), never the recorded one."""
    for game_id in contract_titles():
        entry = recorded(game_id)[0]
        title = server_title(game_id)
        market = market_for(entry["market"], game_id, entry["variant"])
        record = copy.deepcopy(entry["record"])
        first = next(d for d in record["draws"] if d[0] == "reel_stop")
        first[2] = (first[2] + 1) % first[1]
        try:
            restored = title.restore(record)
        except (ReplayError, RuleError):
            continue
        assert outcome_of(title, market, restored) != entry["outcome"], game_id
