"""A catalogue title served from its model alone (Aurora Fox), and titles added with
``--titles DIR`` (one with a plug-in mechanic among them): bets priced by the market, free
spins, history, replay, the 2-day resolution, the rules page, the bet shapes in the OpenAPI
document."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from reelsmith.games import game_folder
from reelsmith.mechanics.coins.server import CoinBets
from reelsmith.server.markets import MARKETS_DIR, MarketError, load_markets
from reelsmith.server.registry import TitleError, TitleRegistry
from tests.server.conftest import build
from tests.server.forcing import AURORA_BET, aurora_free_spin, aurora_trigger

GAME = "aurora-fox"


def test_the_registry_serves_every_shipped_title_through_one_interface():
    titles = TitleRegistry.load()
    assert set(titles) == {
        "aurora-fox",
        "crystal-caverns",
        "days-of-the-tsar",
        "lucky-lanterns",
        "sultan-spins",
    }
    assert isinstance(titles[GAME].bets, CoinBets)
    assert isinstance(titles["days-of-the-tsar"].bets, CoinBets)  # all three are bet in coins
    assert isinstance(titles["lucky-lanterns"].bets, CoinBets)
    assert titles["lucky-lanterns"].client == "catalogue"
    assert titles[GAME].client == "catalogue"
    assert titles[GAME].name == "Aurora Fox"


def test_days_of_the_tsar_keeps_its_view_names_from_its_model(api):
    """Its model's [view] names the scatters eggs, as its client and stored rounds read them."""
    from tests.server.forcing import TSAR_BET, tsar_trigger

    api.login(api.player())
    view = api.spin("days-of-the-tsar", TSAR_BET, tsar_trigger()).json()["round"]
    spin = view["spins"][0]
    assert spin["eggs"] == 3 and len(spin["egg_positions"]) == 3
    assert not {"scatters", "scatter_positions", "triggers"} & set(spin)
    assert "free_spins_multiplier" not in view
    aurora = api.spin(GAME, AURORA_BET, aurora_trigger()).json()["round"]
    assert {"scatters", "scatter_positions", "triggers"} <= set(aurora["spins"][0])


@pytest.mark.parametrize(
    ("view", "message"),
    [
        ('spin = { scatters = "eggs", stops = "x" }', "spin.stops: not a key the view renames"),
        ("spin = { scatters = 3 }", "spin.scatters must be a name or false"),
        ('colours = { a = "b" }', "must be a table of spin"),
    ],
)
def test_a_view_table_is_checked_by_name(tmp_path: Path, view: str, message: str):
    folder = copy_title(tmp_path / "titles", "named-fox", "Named Fox")
    model = folder / "model.toml"
    model.write_text(model.read_text() + f"\n[view]\n{view}\n")
    with pytest.raises(TitleError, match=message):
        TitleRegistry.load([folder])


def test_the_lobby_lists_aurora_fox_in_both_markets(api):
    for market in ("default", "gb"):
        api.login(api.player(market=market))
        games = {g["id"]: g for g in api.as_player("GET", "/api/games").json()["games"]}
        assert games[GAME] == {
            "id": GAME,
            "name": "Aurora Fox",
            "variant": "96.00",
            "client": "catalogue",
        }


def test_a_triggered_round_plays_its_free_spins_and_pays_once(api):
    player = api.player()
    api.login(player)
    body = api.spin(GAME, AURORA_BET, aurora_trigger()).json()
    round_ = body["round"]
    assert body["status"] == "open" and body["bet"]["minor"] == 200
    assert round_["phase"] == "free_spins" and round_["free_spins_awarded"] == 10
    assert round_["free_spins_multiplier"] == 2
    assert round_["spins"][0]["scatters"] == 3 and len(round_["spins"][0]["scatter_positions"]) == 3
    assert round_["actions_allowed"] == ["free_spin"]
    assert api.balance(player) == 10000 - 200  # the trigger's scatter win waits for the round
    # a free spin showing three Auroras adds ten more
    step = api.act(
        GAME, body["round_id"], "free-spin", {"forced_draws": aurora_free_spin((0, 1, 2))}
    )
    assert step.status_code == 200, step.text
    assert step.json()["round"]["free_spins_remaining"] == 19
    while step.json()["round"]["phase"] == "free_spins":  # the others without an Aurora
        step = api.act(GAME, body["round_id"], "free-spin", {"forced_draws": aurora_free_spin()})
        assert step.status_code == 200, step.text
    final = step.json()
    assert final["status"] == "complete"
    assert final["round"]["free_spins_awarded"] == 20 and len(final["round"]["spins"]) == 21
    win = final["round"]["spin_win_coins"] * 10  # coin size 0.10 = 10 cents
    assert final["win"]["minor"] == win and final["round"]["win_minor"] == win
    assert api.balance(player) == 10000 - 200 + win
    assert api.op("GET", "/operator/ledger/verify", key=None).json()["ok"]


def test_no_gamble_is_offered_where_the_model_has_none(api):
    api.login(api.player())
    for _ in range(40):
        body = api.spin(GAME, AURORA_BET).json()
        round_ = body["round"]
        while round_["phase"] == "free_spins":
            round_ = api.act(GAME, body["round_id"], "free-spin").json()["round"]
        assert round_["phase"] == "complete" and round_["gamble_choices"] == []
    refused = api.act(GAME, body["round_id"], "gamble", {"choice": "red"})
    assert refused.status_code == 409


def test_history_and_the_operator_replay_of_a_round(api):
    api.login(api.player())
    body = api.spin(GAME, AURORA_BET, aurora_trigger()).json()
    round_id = body["round_id"]
    api.act(GAME, round_id, "free-spin")
    page = api.as_player("GET", f"/api/history/rounds?game={GAME}").json()
    assert [r["round_id"] for r in page["rounds"]] == [round_id]
    recalled = api.as_player("GET", f"/api/history/rounds/{round_id}").json()
    assert len(recalled["round"]["spins"]) == 2
    replay = api.op("POST", f"/operator/rounds/{round_id}/replay", key=None).json()
    assert replay["identical"] is True


def test_a_round_left_open_is_finished_after_two_days(api):
    player = api.player()
    api.login(player)
    round_id = api.spin(GAME, AURORA_BET, aurora_trigger()).json()["round_id"]
    api.clock.advance(days=2, seconds=1)
    resolved = api.op("POST", "/operator/jobs/resolve-stale-rounds", key=None).json()["resolved"]
    assert round_id in resolved
    stored = api.op("GET", f"/operator/rounds/{round_id}", key=None).json()
    assert stored["status"] == "complete" and stored["resolved_by"] == "auto"
    assert len(stored["round"]["spins"]) >= 11
    assert api.balance(player) == 10000 - 200 + stored["round"]["win_minor"]


def test_bets_are_the_models_options_priced_by_the_market(api):
    api.login(api.player(market="gb"))
    refusals = {
        "coin size 0.25 is not offered in this market": {**AURORA_BET, "coin_size": "0.25"},
        "above the market's maximum stake 5.00": {**AURORA_BET, "coins_per_line": 3},
        "lines must be 1 to 20": {**AURORA_BET, "lines": 25},
        "coin_size must be a decimal string": {**AURORA_BET, "coin_size": 0.1},
        "the bet has no field 'bet'": {**AURORA_BET, "bet": "1.00"},
    }
    for message, bet in refusals.items():
        response = api.spin(GAME, bet)
        assert response.status_code == 400, response.text
        assert response.json()["code"] == "invalid_bet"
        assert message in response.json()["message"], response.json()
    assert api.spin(GAME, {**AURORA_BET, "coins_per_line": 2}).status_code == 200


def test_the_rules_page_is_rendered_from_the_model(api):
    api.login(api.player())
    rules = api.as_player("GET", f"/api/games/{GAME}/rules").json()
    assert rules["game"] == GAME and rules["variant"] == "96.00"
    assert "During free spins every win is multiplied by 2." in rules["rules"]["free_spins"]["text"]
    assert "gamble" not in rules["rules"]


def test_the_openapi_document_describes_each_titles_bet(api):
    spec = api.client.get("/openapi.json").json()
    spin = spec["paths"]["/api/games/{game}/spin"]["post"]
    bet = spin["requestBody"]["content"]["application/json"]["schema"]["properties"]["bet"]
    shapes = {tuple(sorted(s["properties"])): s for s in bet["anyOf"]}
    coin = shapes[("coin_size", "coins_per_line", "lines")]
    assert coin["properties"]["coin_size"]["type"] == "string"
    assert coin["properties"]["lines"]["type"] == "integer"
    assert coin["additionalProperties"] is False
    assert shapes[("bet",)]["properties"]["bet"]["type"] == "string"
    autoplay = spec["components"]["schemas"]["AutoplayRequest"]["properties"]["bet"]
    assert len(autoplay["anyOf"]) == 2


# ---------------------------------------------------------------------------------------
# Titles added from folders of model files
# ---------------------------------------------------------------------------------------


def copy_title(root: Path, game_id: str, name: str) -> Path:
    """Aurora Fox's folder under another id and name."""
    folder = root / game_id.replace("-", "_")
    shutil.copytree(game_folder(GAME), folder)
    model = folder / "model.toml"
    text = model.read_text()
    text = text.replace('id = "aurora-fox"', f'id = "{game_id}"', 1)
    text = text.replace('name = "Aurora Fox"', f'name = "{name}"', 1)
    model.write_text(text)
    return folder


def markets_with(root: Path, game_id: str) -> Path:
    folder = root / "markets"
    folder.mkdir()
    for path in MARKETS_DIR.glob("*.toml"):
        text = path.read_text()
        if path.stem == "default":
            text += f'\n[games.{game_id}]\nvariant = "94.00"\ncoin_sizes = ["0.01", "0.10"]\n'
        (folder / path.name).write_text(text)
    return folder


@pytest.fixture
def added_api(tmp_path: Path) -> Any:
    titles = tmp_path / "titles"
    copy_title(titles, "polar-fox", "Polar Fox")
    markets = markets_with(tmp_path, "polar-fox")
    yield from build("sqlite", tmp_path, titles_dirs=str(titles), markets_dir=str(markets))


def test_a_title_added_from_a_folder_is_served_and_offered(added_api):
    api = added_api
    player = api.player()
    api.login(player)
    games = {g["id"]: g for g in api.as_player("GET", "/api/games").json()["games"]}
    assert games["polar-fox"] == {
        "id": "polar-fox",
        "name": "Polar Fox",
        "variant": "94.00",
        "client": "catalogue",
    }
    body = api.spin("polar-fox", AURORA_BET, aurora_trigger()).json()
    assert body["round"]["game"] == "polar-fox" and body["round"]["variant"] == "94.00"
    replay = api.op("POST", f"/operator/rounds/{body['round_id']}/replay", key=None).json()
    assert replay["identical"] is True


def test_added_titles_are_checked_when_loaded(tmp_path: Path):
    copy_title(tmp_path / "twice", "aurora-fox", "Aurora Fox again")
    with pytest.raises(TitleError, match="the title id 'aurora-fox' is taken"):
        TitleRegistry.load([tmp_path / "twice"])
    with pytest.raises(TitleError, match="no title in it"):
        (tmp_path / "empty").mkdir()
        TitleRegistry.load([tmp_path / "empty"])
    plug_in = copy_title(tmp_path / "plug", "gem-fox", "Gem Fox")
    model = plug_in / "model.toml"
    model.write_text(model.read_text().replace('mechanics = "catalogue"', 'mechanics = "gems"'))
    with pytest.raises(
        TitleError,
        match="mechanics = 'gems': the one value is \"catalogue\"",
    ):
        TitleRegistry.load([tmp_path / "plug"])


def test_a_market_naming_a_title_not_served_is_refused(tmp_path: Path):
    markets = markets_with(tmp_path, "polar-fox")
    with pytest.raises(MarketError, match="polar-fox: unknown game; the games served are"):
        load_markets(markets, TitleRegistry.load().models())


# ---------------------------------------------------------------------------------------
# A title with a plug-in mechanic, added from its folder
# ---------------------------------------------------------------------------------------

PLUGIN_TITLE = Path(__file__).resolve().parents[1] / "catalogue" / "models" / "lucky-fox"
LUCKY_BET = {"lines": 5, "coins_per_line": 1, "coin_size": "0.10"}  # 5 coins = 0.50


@pytest.fixture
def plugin_api(tmp_path: Path) -> Any:
    from reelsmith.rng import SeededSource

    titles = tmp_path / "titles"
    shutil.copytree(PLUGIN_TITLE, titles / "lucky_fox")
    markets = tmp_path / "markets"
    markets.mkdir()
    for path in MARKETS_DIR.glob("*.toml"):
        text = path.read_text()
        if path.stem == "default":
            text += '\n[games.lucky-fox]\nvariant = "99.36"\ncoin_sizes = ["0.10"]\n'
        (markets / path.name).write_text(text)
    yield from build(
        "sqlite",
        tmp_path,
        rng=SeededSource(2026),
        titles_dirs=str(titles),
        markets_dir=str(markets),
    )


def test_a_plug_in_title_is_served_its_draws_recorded_and_its_rounds_replayed(plugin_api):
    """The server plays the plug-in's step through the catalogue adapter: its draw is in the
    round's record, its win is what the round pays, and the operator's replay is identical."""
    api = plugin_api
    player = api.player()
    api.login(player)
    paid = 0
    multiplied = []
    for _ in range(30):
        body = api.spin("lucky-fox", LUCKY_BET, gamble=False).json()
        round_ = body["round"]
        while round_["phase"] == "free_spins":
            round_ = api.act("lucky-fox", body["round_id"], "free-spin").json()["round"]
        assert round_["phase"] == "complete"
        paid += round_["win_minor"]
        for spin in round_["spins"]:
            # the plug-in acts on every spin; a winning one draws its multiplier
            screen_win = sum(w["coins"] for w in spin["line_wins"]) + (
                spin["scatter_win"]["coins"] if spin["scatter_win"] else 0
            )
            step = spin["plugin"]
            assert step["outcome"] in ((1, 2, 3, 10) if screen_win else (0,))
            assert step["win_coins"] == spin["win_coins"] == screen_win * max(step["outcome"], 1)
            if step["outcome"] > 1:
                multiplied.append((body["round_id"], spin))
    assert api.balance(player) == 10000 - 30 * 50 + paid
    assert multiplied  # one winning spin in five is multiplied at least twice
    round_id, spin = multiplied[0]
    recalled = api.as_player("GET", f"/api/history/rounds/{round_id}").json()
    assert spin in recalled["round"]["spins"]
    replay = api.op("POST", f"/operator/rounds/{round_id}/replay", key=None).json()
    assert replay["identical"] is True
    assert api.op("GET", "/operator/ledger/verify", key=None).json()["ok"]
