"""The registry serves a title by the mechanics its model declares, never by its id: any model
with the ladder (here Sultan Spins' copied under another id) is bet in levels, drawn by the web
client's ladder script (the script its ladder mechanic asks for), and reads records from
before bet levels at the model's ``[bet] legacy_stake_unit``."""

from __future__ import annotations

import typing
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from reelsmith.engine.errors import RuleError
from reelsmith.mechanics import CATALOGUE, MECHANICS
from reelsmith.mechanics.coins.server import CoinBets
from reelsmith.mechanics.levels.server import LevelBets
from reelsmith.rng import SeededSource
from reelsmith.server.markets import MARKETS_DIR, load_markets
from reelsmith.server.registry import TitleRegistry
from reelsmith.server.schemas import GameInfo
from tests import copies
from tests.server.conftest import build

COPY = "palace-ladder"


def copy_of_sultan(tmp_path: Path, legacy: bool = True) -> Path:
    """Sultan Spins' folder copied under the id ``COPY`` (in ``tmp_path/palace_ladder``)."""
    return copies.copy_of_sultan(tmp_path / "palace_ladder", COPY, legacy=legacy)


def test_shipped_titles_are_served_by_their_mechanics() -> None:
    registry = TitleRegistry.load()
    assert isinstance(registry["sultan-spins"].bets, LevelBets)
    assert registry["sultan-spins"].client == "ladder"
    assert isinstance(registry["days-of-the-tsar"].bets, CoinBets)
    assert registry["days-of-the-tsar"].client == "catalogue"


def test_a_ladder_model_of_ones_own_is_served_by_its_mechanics(tmp_path: Path) -> None:
    registry = TitleRegistry.load([copy_of_sultan(tmp_path)])
    title = registry[COPY]
    assert isinstance(title.bets, LevelBets) and title.client == "ladder"
    shipped = (MARKETS_DIR / "default.toml").read_text(encoding="utf-8")
    market_text = (
        f'{shipped}\n[games.{COPY}]\nvariant = "94.00"\nstake_unit = "0.20"\nlevels = [1, 5]\n'
    )
    folder = tmp_path / "markets"
    folder.mkdir()
    (folder / "default.toml").write_text(market_text, encoding="utf-8")
    market = load_markets(folder, registry.models())["default"]
    bet = title.parse_bet(market, {"bet": "1.00"})
    play = title.finish(title.start(market, bet, None, SeededSource(7)), SeededSource(8))
    record = title.record(play)
    assert "bet_level" not in record  # 1.00 at the legacy 0.20 a stake unit is level 5
    assert title.restore(record) == play
    assert title.view(title.market_price(market, play), play)["game"] == COPY


def test_legacy_levels_come_from_the_model(tmp_path: Path) -> None:
    registry = TitleRegistry.load([copy_of_sultan(tmp_path, legacy=False)])
    title = registry[COPY]
    assert isinstance(title.bets, LevelBets)
    assert title.bets.legacy_level(Decimal("1.00")) is None
    shipped = TitleRegistry.load()["sultan-spins"]
    assert isinstance(shipped.bets, LevelBets)
    assert shipped.bets.legacy_level(Decimal("1.00")) == 5
    assert shipped.bets.legacy_level(Decimal("0.30")) is None
    record = {"bet": {"bet": "1.00"}, "state_before": None, "variant": "94.00",
              "actions": ["spin"], "draws": []}  # fmt: skip
    with pytest.raises(RuleError, match="names no bet level"):
        title.restore(record)


def test_the_game_lists_schema_offers_every_client_script_a_mechanic_asks_for() -> None:
    offered = typing.get_args(GameInfo.model_fields["client"].annotation)
    asked = {m.client for m in MECHANICS if m.client is not None}
    assert set(offered) == {CATALOGUE, *asked}


@pytest.fixture
def copy_api(tmp_path: Path) -> Any:
    titles = tmp_path / "titles"
    copy_of_sultan(titles)
    table = 'variant = "94.00"\nstake_unit = "0.20"\nlevels = [1, 5]'
    markets = copies.markets_offering(tmp_path / "markets", COPY, table)
    yield from build("sqlite", tmp_path, titles_dirs=str(titles), markets_dir=str(markets))


def test_the_game_list_names_the_ladder_script_and_its_meter(copy_api: Any) -> None:
    """The game list gives a ladder title, shipped or copied, the ladder script and the
    symbols and meter it draws, from the model; a catalogue title has no ladder entry."""
    api = copy_api
    api.login(api.player())
    games = {g["id"]: g for g in api.as_player("GET", "/api/games").json()["games"]}
    ladder = {"bonus_symbol": "bonus", "gem_symbol": "gem", "spots": 5, "meter_feed": 2}
    assert games["sultan-spins"] == {
        "id": "sultan-spins",
        "name": "Sultan Spins",
        "variant": "94.00",
        "client": "ladder",
        "ladder": ladder,
    }
    assert games[COPY] == {**games["sultan-spins"], "id": COPY}
    assert games["days-of-the-tsar"]["client"] == "catalogue"
    assert "ladder" not in games["days-of-the-tsar"]
    spec = api.client.get("/openapi.json").json()
    schema = spec["paths"]["/api/games"]["get"]["responses"]["200"]["content"]
    assert schema["application/json"]["schema"] == {"$ref": "#/components/schemas/GameList"}
