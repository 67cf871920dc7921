"""Rounds as the game server stores them replay: every fixture row (the round's row as the
server wrote it, with the player's carried state rows) restores to a round whose record is
the stored text and whose view is the stored view; put back into a database, the server's
replay says identical, an open round goes on from its stored record, and a carried state
stored under its bet key is the state the next round at that bet starts from (Sultan Spins'
state rows recorded under the bet's amount are read as migration 0005 moved them, to the bet
level). Rows kept from
an earlier version (``fixtures/before/<title>.<version>.server.json``) pass the same: they
replay, and an open one goes on, under their own rules and on their own model files; their
carried state starts a round of the current version. Rows of a version whose model files are
kept (``fixtures/before/<title>.<version>/``) are put back as a server that served those files
stored them: with their model hash, the files kept under it in ``model_versions``."""

from __future__ import annotations

import copy
import json
import uuid
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import insert, update

from reelsmith.server.jsontext import json_text
from reelsmith.server.services.stored import stored_price
from reelsmith.store import model_versions
from reelsmith.store.tables import game_states, players, rounds
from tests.contract.rounds import migrated_state_key
from tests.contract.titles import (
    adapter,
    contract_titles,
    kept_files,
    market_for,
    server_title,
    version_title,
)
from tests.server.conftest import Api, build

FIXTURES = Path(__file__).parent / "fixtures"


@cache
def server_file(game_id: str, earlier: str = "") -> dict[str, Any]:
    name = f"before/{game_id}.{earlier}.server.json" if earlier else f"{game_id}.server.json"
    path = FIXTURES / name
    if not path.exists():
        raise FileNotFoundError(f"{path} is missing: record it (docs/contract-tests.md)")
    document: dict[str, Any] = json.loads(path.read_text())
    assert document["game"] == game_id, path
    return document


def versions(game_id: str) -> list[str]:
    """``""`` for the current rows, then each earlier version kept."""
    found = (FIXTURES / "before").glob(f"{game_id}.*.server.json")
    return ["", *sorted(p.name[len(game_id) + 1 : -len(".server.json")] for p in found)]


def stored(game_id: str, earlier: str | None = None) -> list[dict[str, Any]]:
    """The rows of one file, or (``earlier`` None) of every file, the current ones first."""
    chosen = versions(game_id) if earlier is None else [earlier]
    rows = [
        {**row, "name": f"{v} {row['name']}".strip(), "version": v}
        for v in chosen
        for row in copy.deepcopy(server_file(game_id, v)["rows"])
    ]
    for row in rows:  # the carried states as the store holds them after its migrations
        for state in row["game_states"]:
            state["bet_key"] = migrated_state_key(state["bet_key"])
    return rows


CASES = [(g, i, e["name"]) for g in contract_titles() for i, e in enumerate(stored(g))]


@pytest.mark.parametrize(
    ("game_id", "index"), [c[:2] for c in CASES], ids=[f"{c[0]}: {c[2]}" for c in CASES]
)
def test_stored_row_restores_to_its_record_and_view(game_id, index):
    entry = stored(game_id)[index]
    row = entry["row"]
    title = version_title(game_id, entry["version"])
    market = market_for(entry["market"], game_id, row["variant"])
    restored = title.restore(json.loads(row["record"]))
    assert json_text(title.record(restored), sort_keys=True) == row["record"]
    price = stored_price(title, row, restored)  # the round's own, from its stored bet
    assert price.unit_minor == title.market_price(market, restored).unit_minor
    assert title.view(price, restored) == json.loads(row["view"])
    outcome = title.outcome(price, restored)
    assert outcome.status == row["status"]
    assert outcome.win_minor + outcome.jackpot_minor == row["win_minor"]
    assert (
        title.bet_minor(market, title.parse_bet(market, json.loads(row["bet"])))
        == (row["bet_minor"])
    )
    kept = title.kept_state(restored)
    if row["status"] == "complete" and kept is not None:
        key, state = kept
        states = {s["bet_key"]: json.loads(s["state"]) for s in entry["game_states"]}
        assert states[key] == json.loads(json_text(state, sort_keys=True))


@pytest.fixture(params=["sqlite", "postgresql"])
def api(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[Api]:
    yield from build(request.param, tmp_path)


def put_back(api: Api, entry: dict[str, Any]) -> tuple[str, str]:
    """A new player owning the stored rows (the round's and its carried states): the round's
    new id and the player's. A row of a version whose model files are kept is stored as the
    server that served them stored it: with their model hash (the recorded rows name none:
    null is the title served now), the files kept under that hash as the server keeps the
    versions it serves (``reelsmith.server.services.versions``)."""
    player = api.player(deposit="100.00")
    round_id = str(uuid.uuid4())
    row = dict(entry["row"])
    files = kept_files(row["game"], entry["version"]) if entry["version"] else None
    with api.db.write() as connection:
        if files is not None:
            played_on = version_title(row["game"], entry["version"]).model_hash(row["variant"])
            model_versions.keep(connection, played_on, row["game"], row["variant"], files, 0)
            row["model_hash"] = played_on
        connection.execute(
            insert(rounds).values(
                id=round_id,
                player_id=player,
                number=1,
                balance_before=10_000,
                balance_after=None if entry["row"]["status"] == "open" else 10_000,
                created_ms=0,
                updated_ms=api.clock.now_ms(),
                completed_ms=None if entry["row"]["status"] == "open" else 0,
                **row,
            )
        )
        connection.execute(update(players).where(players.c.id == player).values(rounds_played=1))
        for state in entry["game_states"]:
            connection.execute(
                insert(game_states).values(
                    player_id=player, game=entry["row"]["game"], updated_ms=0, **state
                )
            )
    return round_id, player


@pytest.mark.parametrize("game_id", contract_titles())
def test_rows_put_back_replay_identically_through_the_server(api, game_id):
    for entry in stored(game_id):
        round_id, _player = put_back(api, entry)
        response = api.op("POST", f"/operator/rounds/{round_id}/replay", key=None)
        assert response.status_code == 200, response.text
        assert response.json()["identical"] is True, entry["name"]


@pytest.mark.parametrize("game_id", contract_titles())
def test_an_open_row_goes_on_from_its_stored_record(api, game_id):
    """An open row goes on from its stored record, on the version it was played on: the step
    the server adds replays identically on that version (and on no other)."""
    opened = [e for e in stored(game_id) if e["row"]["status"] == "open"]
    if not adapter(game_id).required_features & {"open_free_spins", "open_gamble"}:
        # every round of the title ends with its spin (no free spins to play, no win to
        # gamble; a hold-and-spin plays its respins at once): no stored row waits for a step
        rows = [e["row"] for e in stored(game_id)]
        assert rows and not opened
        assert all(json.loads(row["view"])["actions_allowed"] == [] for row in rows)
        return
    assert opened, "the fixtures hold open rounds"
    for entry in opened:
        round_id, player = put_back(api, entry)
        api.login(player)
        action = json.loads(entry["row"]["view"])["actions_allowed"][0]
        verb, _, choice = action.partition(" ")
        response = api.act(
            game_id, round_id, verb.replace("_", "-"), {"choice": choice} if choice else None
        )
        assert response.status_code == 200, (entry["name"], response.text)
        record = json.loads(entry["row"]["record"])
        went_on = api.op("GET", f"/operator/rounds/{round_id}", key=None).json()["record"]
        assert went_on["actions"] == [*record["actions"], action]
        assert went_on["draws"][: len(record["draws"])] == record["draws"]
        assert version_title(game_id, entry["version"]).restore(went_on) is not None
        response = api.op("POST", f"/operator/rounds/{round_id}/replay", key=None)
        assert response.status_code == 200, (entry["name"], response.text)
        assert response.json()["identical"] is True, entry["name"]


@pytest.mark.parametrize("game_id", contract_titles())
def test_a_stored_carried_state_starts_the_next_round(api, game_id):
    """The state rows kept beside a finished round (keyed by bet as today) are what a new
    round at that bet starts from."""
    for version in versions(game_id):
        complete = [e for e in stored(game_id, version) if e["row"]["status"] == "complete"]
        assert complete, version
        _starts_the_next_round(api, game_id, complete[-1])


def _starts_the_next_round(api: Api, game_id: str, entry: dict[str, Any]) -> None:
    title = server_title(game_id)
    _round_id, player = put_back(api, entry)
    api.login(player)
    bet = json.loads(entry["row"]["bet"])
    response = api.spin(game_id, bet, gamble=False)
    assert response.status_code == 200, response.text
    round_id = response.json()["round_id"]
    record = api.op("GET", f"/operator/rounds/{round_id}", key=None).json()["record"]
    market = market_for(entry["market"], game_id)
    key = title.state_key(title.parse_bet(market, bet))
    states = {s["bet_key"]: json.loads(s["state"]) for s in entry["game_states"]}
    if key is None:
        assert not states
    else:
        assert record["state_before"] == states[key]
