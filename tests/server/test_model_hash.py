"""Every round records the hash of the exact model and variant it was played on, on SQLite and
PostgreSQL: a title served, then served again with its variant file changed, over one database;
the report (JSON, CSV and the CLI) keeps the two versions' rounds apart, holds only the version
served now to its theoretical figures; the replay, the payout audit and an open round's next
step use each round's own version (kept in the database by the server that served it), and
with that version gone they refuse (replay and step: 409 naming the hash; audit: unchecked)
rather than use another."""

from __future__ import annotations

import csv
import io
import shutil
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text as sql_text

from reelsmith.engine.model import ModelError, load_model, model_hash
from reelsmith.games import game_folder
from reelsmith.server.clock import ManualClock
from reelsmith.server.markets import MARKETS_DIR
from reelsmith.server.services.reports import COLUMNS
from tests.server.conftest import Api, app_over, drop_schema, make_database

GAME = "polar-fox"
BET = {"lines": 20, "coins_per_line": 1, "coin_size": "0.01"}
DAY = "2026-01-01"  # the ManualClock's day


def served_folders(root: Path) -> tuple[Path, Path]:
    """Aurora Fox's folder as ``polar-fox``, and market files that offer it (96.00)."""
    title = root / "titles" / "polar_fox"
    shutil.copytree(game_folder("aurora-fox"), title)
    model = title / "model.toml"
    model.write_text(model.read_text().replace('id = "aurora-fox"', f'id = "{GAME}"', 1))
    markets = root / "markets"
    markets.mkdir()
    for path in MARKETS_DIR.glob("*.toml"):
        text = path.read_text()
        if path.stem == "default":
            text += f'\n[games.{GAME}]\nvariant = "96.00"\ncoin_sizes = ["0.01"]\n'
        (markets / path.name).write_text(text)
    return title, markets


def play(api: Api, rounds: int) -> list[str]:
    return [
        finish(api, api.spin(GAME, BET, gamble=False).json())["round_id"] for _ in range(rounds)
    ]


def finish(api: Api, body: dict[str, Any]) -> dict[str, Any]:
    while body["status"] == "open":
        body = api.act(GAME, body["round_id"], "free-spin").json()
    return body


def report(api: Api, **params: Any) -> Any:
    return api.client.get(
        "/operator/reports/daily",
        params={"from": DAY, **params},
        headers={"X-API-Key": "test-operator-key"},
    )


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_rounds_are_grouped_and_replayed_by_the_model_they_were_played_on(
    kind: str, tmp_path: Path
) -> None:
    from tests.server.forcing import aurora_trigger

    title, markets = served_folders(tmp_path)
    settings = {"titles_dirs": str(title.parent), "markets_dir": str(markets)}
    first_hash = model_hash(load_model(title), "96.00")
    db, schema = make_database(kind, tmp_path)
    clock = ManualClock()
    try:
        with TestClient(app_over(db, clock, **settings)) as client:
            api = Api(client, clock, db)
            player = api.player()
            api.login(player)
            # a round that pays three Auroras (10 free spins), then two of chance
            trigger = api.spin(GAME, BET, aurora_trigger(), gamble=False).json()
            assert trigger["status"] == "open", trigger
            old_rounds = [finish(api, trigger)["round_id"], *play(api, 2)]
            recalled = api.op("GET", f"/operator/rounds/{old_rounds[0]}", key=None).json()
            assert recalled["model_hash"] == first_hash
            replay = api.op("POST", f"/operator/rounds/{old_rounds[0]}/replay", key=None)
            assert replay.json()["identical"] is True and replay.json()["model_hash"] == first_hash

        # the same title served again with three Auroras paying 5 bets instead of 4
        model = title / "model.toml"
        text = model.read_text()
        assert "pays = { 2 = 1, 3 = 4, 4 = 20, 5 = 100 }" in text
        model.write_text(text.replace("3 = 4, 4 = 20", "3 = 5, 4 = 20", 1))
        second_hash = model_hash(load_model(title), "96.00")
        assert second_hash != first_hash
        with TestClient(app_over(db, clock, **settings)) as client:
            api = Api(client, clock, db)
            api.login(player)
            new_rounds = play(api, 2)
            data = report(api).json()
            rows = {row["model_hash"]: row for row in data["days"] if row["game"] == GAME}
            assert set(rows) == {first_hash, second_hash}
            assert rows[first_hash]["rounds"] == 3 and rows[second_hash]["rounds"] == 2
            assert rows[first_hash]["bets"]["minor"] == 3 * 20
            assert rows[second_hash]["bets"]["minor"] == 2 * 20
            # the figures served now are the new version's, not the old rounds'
            assert rows[first_hash]["rtp_theoretical"] is None
            assert rows[first_hash]["in_band"] is None
            assert rows[second_hash]["rtp_theoretical"] == pytest.approx(0.96, abs=0.01)
            totals = {t["model_hash"]: t for t in data["totals"] if t["game"] == GAME}
            assert {h: t["rounds"] for h, t in totals.items()} == {first_hash: 3, second_hash: 2}
            lines = list(csv.reader(io.StringIO(report(api, format="csv").text)))
            assert tuple(lines[0]) == COLUMNS
            in_csv = sorted(
                (line[COLUMNS.index("model_hash")], line[COLUMNS.index("rounds")])
                for line in lines[1:]
                if line[COLUMNS.index("game")] == GAME
            )
            assert in_csv == sorted([(first_hash, "3"), (second_hash, "2")])

            # the old rounds replay on the version they were played on, kept by the first
            # server: the trigger round's three Auroras pay 4 bets there (5 on the served one)
            for round_id in old_rounds:
                replay = api.op("POST", f"/operator/rounds/{round_id}/replay", key=None).json()
                assert replay["identical"] is True and replay["model_hash"] == first_hash
            replay = api.op("POST", f"/operator/rounds/{new_rounds[0]}/replay", key=None).json()
            assert replay["identical"] is True and replay["model_hash"] == second_hash
            # and the payout audit re-derives every round on its own version
            audit = api.op("GET", "/operator/audit/payouts", key=None).json()
            assert audit["ok"] is True and audit["checked"] == 5, audit

        # with the first version no longer kept, nothing is replayed on another
        with db.write() as connection:
            connection.execute(
                sql_text("DELETE FROM model_versions WHERE hash = :h"), {"h": first_hash}
            )
        with TestClient(app_over(db, clock, **settings)) as client:  # no version held in memory
            api = Api(client, clock, db)
            refused = api.op("POST", f"/operator/rounds/{old_rounds[0]}/replay", key=None)
            assert refused.status_code == 409, refused.text
            assert refused.json()["code"] == "model_changed"
            assert first_hash in refused.json()["message"]
            assert second_hash in refused.json()["message"]
            audit = api.op("GET", "/operator/audit/payouts", key=None).json()
            assert {u["round_id"] for u in audit["unchecked"]} == set(old_rounds)
            assert all(first_hash in u["reason"] for u in audit["unchecked"])
            assert audit["differences"] == [] and audit["ok"] is False

        if kind == "sqlite":
            from typer.testing import CliRunner

            from reelsmith.cli import app

            daily = CliRunner().invoke(
                app,
                [
                    "report",
                    "daily",
                    "--from",
                    DAY,
                    "--database-url",
                    f"sqlite:///{tmp_path}/server.db",
                    "--titles",
                    str(title.parent),
                ],
            )
            assert daily.exit_code == 0, daily.output
            lines = [line for line in daily.output.splitlines() if GAME in line]
            assert any(f"model {first_hash[:12]} " in line for line in lines), daily.output
            assert any(f"model {second_hash[:12]} " in line for line in lines), daily.output
    finally:
        db.dispose()
        if schema:
            drop_schema(schema)


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_an_open_round_goes_on_on_the_model_it_was_played_on(kind: str, tmp_path: Path) -> None:
    """A round left open (free spins to play) when its title is served again changed goes
    on on the version it was played on, kept by the first server: the step it takes replays
    identically there (the trigger's three Auroras pay 4 bets there, 5 on the served one).
    With that version no longer kept, the step is refused rather than played on another."""
    from tests.server.forcing import aurora_trigger

    title, markets = served_folders(tmp_path)
    settings = {"titles_dirs": str(title.parent), "markets_dir": str(markets)}
    first_hash = model_hash(load_model(title), "96.00")
    db, schema = make_database(kind, tmp_path)
    clock = ManualClock()
    try:
        with TestClient(app_over(db, clock, **settings)) as client:
            api = Api(client, clock, db)
            player = api.player()
            api.login(player)
            trigger = api.spin(GAME, BET, aurora_trigger(), gamble=False).json()
            assert trigger["status"] == "open", trigger
            round_id = trigger["round_id"]

        model = title / "model.toml"
        model.write_text(model.read_text().replace("3 = 4, 4 = 20", "3 = 5, 4 = 20", 1))
        second_hash = model_hash(load_model(title), "96.00")
        assert second_hash != first_hash
        with TestClient(app_over(db, clock, **settings)) as client:
            api = Api(client, clock, db)
            api.login(player)
            step = api.act(GAME, round_id, "free-spin")
            assert step.status_code == 200, step.text
            replay = api.op("POST", f"/operator/rounds/{round_id}/replay", key=None).json()
            assert replay["model_hash"] == first_hash and replay["identical"] is True, replay

        with db.write() as connection:
            connection.execute(
                sql_text("DELETE FROM model_versions WHERE hash = :h"), {"h": first_hash}
            )
        with TestClient(app_over(db, clock, **settings)) as client:  # no version held in memory
            api = Api(client, clock, db)
            api.login(player)
            refused = api.act(GAME, round_id, "free-spin")
            assert refused.status_code == 409, refused.text
            assert refused.json()["code"] == "model_changed"
            assert first_hash in refused.json()["message"]
    finally:
        db.dispose()
        if schema:
            drop_schema(schema)


def test_the_hash_is_the_data_not_the_file_text(tmp_path: Path) -> None:
    """A comment or a blank line changes nothing the engine reads, so not the hash; a changed
    pay does."""
    title, _ = served_folders(tmp_path)
    before = model_hash(load_model(title), "96.00")
    model = title / "model.toml"
    model.write_text("# a comment\n\n" + model.read_text())
    assert model_hash(load_model(title), "96.00") == before
    loaded = load_model(title)
    assert model_hash(loaded, "94.00") != before  # another variant, another hash
    text = model.read_text()
    pays = text.index("scatter]")
    changed = text[:pays] + text[pays:].replace("5 = 100", "5 = 101", 1)
    assert changed != text
    model.write_text(changed)
    assert model_hash(load_model(title), "96.00") != before
    with pytest.raises(ModelError, match=r"no RTP variant '12\.34'"):
        model_hash(loaded, "12.34")
