"""Bet modes served, on SQLite and PostgreSQL: a round asked for in a mode is charged its price
through the ledger as the bet, stored with its mode (the column and the record) and replays;
a market that sells no bought features (de, gb) refuses a buy by name and offers the ante; the
game list shows the modes of the player's market. Migration 0015 adds ``rounds.mode`` and its
downgrade removes it, on both databases."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import inspect, text

from reelsmith.server.clock import ManualClock
from reelsmith.server.markets import MARKETS_DIR
from reelsmith.store.db import MIGRATIONS
from tests.mechanics.moded_title import moded_title
from tests.server.conftest import build, older_release

MODED = "moded"
BET = {"lines": 3, "coins_per_line": 1, "coin_size": "0.20"}  # 0.60


@pytest.fixture(params=["sqlite", "postgresql"])
def moded_api(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    titles = tmp_path / "titles"
    titles.mkdir()
    moded_title(titles / MODED, rtp="0.9230238757")
    markets = tmp_path / "markets"
    markets.mkdir()
    for path in MARKETS_DIR.glob("*.toml"):
        shutil.copy(path, markets / path.name)
    offer = f'\n[games.{MODED}]\nvariant = "main"\ncoin_sizes = ["0.20"]\n'
    for name in ("default", "de", "gb"):
        market = markets / f"{name}.toml"
        market.write_text(market.read_text(encoding="utf-8") + offer, encoding="utf-8")
    yield from build(request.param, tmp_path, titles_dirs=str(titles), markets_dir=str(markets))


def _stored(api: Any, round_id: str) -> tuple[Any, ...]:
    with api.db.read() as connection:
        row = connection.execute(
            text("SELECT mode, bet_minor, status FROM rounds WHERE id = :id"), {"id": round_id}
        ).one()
    return tuple(row)


def _played_out(api: Any, body: dict[str, Any]) -> dict[str, Any]:
    while body["status"] == "open":
        answer = api.act(MODED, body["round_id"], "free-spin")
        assert answer.status_code == 200, answer.text
        body = answer.json()
    return body


def test_an_ante_is_charged_its_price_and_recorded(moded_api: Any) -> None:
    api = moded_api
    player = api.player(deposit="10.00")
    api.login(player)
    answer = api.spin(MODED, BET, mode="ante")
    assert answer.status_code == 200, answer.text
    body = _played_out(api, answer.json())
    assert body["round"]["mode"] == "ante"
    assert _stored(api, body["round_id"])[:2] == ("ante", 75)  # 0.60 x 1.25
    first = answer.json()
    assert first["bet"]["minor"] == 75 and first["round"]["bet_minor"] == 75
    started = [e for e in first["events"] if e["type"] == "round_started"]
    assert started[0]["total_minor"] == 75
    assert api.balance(player) == 1000 - 75 + body["win"]["minor"]
    replay = api.op("POST", f"/operator/rounds/{body['round_id']}/replay", key=None).json()
    assert replay["identical"] is True
    base = api.spin(MODED, BET)
    assert base.status_code == 200
    assert _stored(api, base.json()["round_id"])[:2] == (None, 60)


def test_a_bought_feature_is_charged_and_starts_the_free_spins(moded_api: Any) -> None:
    api = moded_api
    player = api.player(deposit="10.00")
    api.login(player)
    answer = api.spin(MODED, BET, mode="buy")
    assert answer.status_code == 200, answer.text
    first = answer.json()
    # no base spin: the round waits for its first free spin
    assert first["round"]["spins"] == [] and first["round"]["phase"] == "free_spins"
    bought = next(e for e in first["events"] if e["type"] == "feature_bought")
    assert bought["triggers"] == 3 and bought["spins"] == 5
    body = _played_out(api, first)
    assert {s["kind"] for s in body["round"]["spins"]} == {"free"}
    assert len(body["round"]["spins"]) >= 5
    assert _stored(api, body["round_id"]) == ("buy", 228, "complete")  # 0.60 x 3.8
    assert api.balance(player) == 1000 - 228 + body["win"]["minor"]
    replay = api.op("POST", f"/operator/rounds/{body['round_id']}/replay", key=None).json()
    assert replay["identical"] is True


@pytest.mark.parametrize("market", ["de", "gb"])
def test_a_market_without_bought_features_refuses_a_buy(moded_api: Any, market: str) -> None:
    api = moded_api
    player = api.player(market=market, deposit="10.00")
    api.login(player)
    refused = api.spin(MODED, BET, mode="buy")
    assert refused.status_code == 403
    assert refused.json()["code"] == "mode_not_offered"
    assert "mode 'buy'" in refused.json()["message"]
    assert f"market {market}" in refused.json()["message"]
    assert api.balance(player) == 1000
    games = {g["id"]: g for g in api.as_player("GET", "/api/games").json()["games"]}
    assert [m["name"] for m in games[MODED]["modes"]] == ["ante"]
    assert api.spin(MODED, BET, mode="ante").status_code == 200


def test_the_game_list_and_an_unknown_mode(moded_api: Any) -> None:
    api = moded_api
    player = api.player(deposit="10.00")
    api.login(player)
    games = {g["id"]: g for g in api.as_player("GET", "/api/games").json()["games"]}
    assert games[MODED]["modes"] == [
        {"name": "ante", "kind": "ante", "price": "1.25", "reel_set": "ante"},
        {"name": "buy", "kind": "buy", "price": "3.8"},
    ]
    unknown = api.spin(MODED, BET, mode="turbo")
    assert unknown.status_code == 400 and unknown.json()["code"] == "invalid_mode"
    assert "no mode 'turbo'" in unknown.json()["message"]


def _columns(db: Any) -> set[str]:
    with db.engine.connect() as connection:
        return {c["name"] for c in inspect(connection).get_columns("rounds", schema=db.schema)}


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_migration_0015_up_and_down(kind: str, tmp_path: Any) -> None:
    with older_release(kind, tmp_path, "0014", ManualClock(), "old") as db:
        assert "mode" not in _columns(db)
        db.migrate()
        assert "mode" in _columns(db)
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        with db.engine.connect() as connection:
            if db.schema:
                connection.execute(text(f'SET search_path TO "{db.schema}"'))
            config.attributes["connection"] = connection
            command.downgrade(config, "0014")
            connection.commit()
        assert "mode" not in _columns(db)
