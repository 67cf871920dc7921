"""The de market through the HTTP API: euros, a stake of at most 1.00, a 5 s minimum round, no
autoplay and no title with local jackpots (Sultan Spins is not offered, and a market
file listing a title with pots is refused when it loads); and the max-win cap served: the
model's cap pays a round at the cap and records it, and a market's lower cap (here de's, in a
copy of the market files) caps the same screen lower, replayed identically."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from reelsmith.server.markets import MARKETS_DIR, MarketError, load_market, load_markets
from tests.mechanics.capped_title import capped_title
from tests.server.conftest import build
from tests.server.forcing import aurora_free_spin

TSAR, AURORA, SULTAN = "days-of-the-tsar", "aurora-fox", "sultan-spins"


def de_player(api: Any, deposit: str = "50.00") -> str:
    player = api.player(market="de", deposit=deposit)
    api.login(player)
    return player


def test_the_market_as_the_client_reads_it(api):
    de_player(api)
    market = api.as_player("GET", "/api/me").json()["market"]
    assert market["currency"] == "EUR" and market["locale"] == "de_DE"
    assert market["max_stake"] == "1.00" and market["min_round_ms"] == 5000
    assert not market["autoplay"] and not market["turbo"]
    assert market["jackpots"] is False
    games = {g["id"] for g in api.as_player("GET", "/api/games").json()["games"]}
    assert SULTAN not in games and TSAR not in games and AURORA in games


def test_a_stake_above_one_euro_is_refused(api):
    de_player(api)
    at_most = {"lines": 20, "coins_per_line": 1, "coin_size": "0.05"}  # 1.00
    assert api.spin(AURORA, at_most).status_code == 200
    api.clock.advance(seconds=5)
    response = api.spin(AURORA, {"lines": 20, "coins_per_line": 2, "coin_size": "0.05"})
    assert response.status_code == 400 and "maximum stake 1.00" in response.json()["message"]


def test_a_round_lasts_five_seconds_at_least(api):
    de_player(api)
    bet = {"lines": 20, "coins_per_line": 1, "coin_size": "0.01"}
    no_trigger = aurora_free_spin()  # a screen without an Aurora: the round completes
    assert api.spin(AURORA, bet, no_trigger).json()["status"] == "complete"
    api.clock.advance(ms=4000)
    too_soon = api.spin(AURORA, bet, no_trigger)
    assert too_soon.status_code == 429 and too_soon.json()["code"] == "min_round_duration"
    assert too_soon.json()["retry_after_ms"] == 1000
    api.clock.advance(ms=1000)
    assert api.spin(AURORA, bet, no_trigger).status_code == 200


def test_no_autoplay(api):
    de_player(api)
    bet = {"lines": 20, "coins_per_line": 1, "coin_size": "0.01"}
    response = api.as_player("POST", f"/api/games/{AURORA}/autoplay", {"bet": bet, "rounds": 5})
    assert response.status_code == 403 and response.json()["code"] == "autoplay_not_allowed"


def test_no_jackpot_title_is_offered(api):
    de_player(api)
    response = api.spin(SULTAN, {"bet": "1.00"})
    assert response.status_code == 403 and response.json()["code"] == "game_not_offered"


def test_a_market_file_offering_a_jackpot_title_is_refused(tmp_path: Path):
    path = tmp_path / "de.toml"
    text = (MARKETS_DIR / "de.toml").read_text(encoding="utf-8")
    path.write_text(
        text + '\n[games.sultan-spins]\nvariant = "94.00"\nstake_unit = "0.20"\nlevels = [1]\n',
        encoding="utf-8",
    )
    with pytest.raises(MarketError, match="sultan-spins plays local jackpots"):
        load_market(path)
    assert load_markets()["de"].jackpots is False


# -- the cap, served ----------------------------------------------------------------------

CAPPED = "capped"
#: Stops of the capped title: a screen paying 36 coins at one coin a payline (above the model's
#: cap of 30), and one paying 16 (below it, above a cap of 5 x 3 = 15).
ABOVE_THE_CAP = [4, 1, 1]
BETWEEN_THE_CAPS = [0, 0, 6]
CAPPED_BET = {"lines": 3, "coins_per_line": 1, "coin_size": "0.10"}


@pytest.fixture
def capped_api(tmp_path: Path) -> Any:
    titles = tmp_path / "titles"
    titles.mkdir()
    capped_title(titles / "capped", rtp="3.9977324263")
    markets = tmp_path / "markets"
    markets.mkdir()
    for path in MARKETS_DIR.glob("*.toml"):
        shutil.copy(path, markets / path.name)
    offer = f'\n[games.{CAPPED}]\nvariant = "main"\ncoin_sizes = ["0.10"]\n'
    default = markets / "default.toml"
    default.write_text(default.read_text(encoding="utf-8") + offer, encoding="utf-8")
    de = markets / "de.toml"
    de.write_text(
        "max_win_multiplier = 5\n" + de.read_text(encoding="utf-8") + offer, encoding="utf-8"
    )
    yield from build("sqlite", tmp_path, titles_dirs=str(titles), markets_dir=str(markets))


def test_the_model_s_cap_is_applied_and_recorded(capped_api):
    api = capped_api
    player = api.player(deposit="10.00")
    api.login(player)
    body = api.spin(CAPPED, CAPPED_BET, ABOVE_THE_CAP)
    assert body.status_code == 200, body.text
    body = body.json()
    assert body["win"]["minor"] == 300  # 10 x the bet of 0.30, not the 3.60 the screen paid
    assert body["round"]["cap_reached"] is True and body["round"]["max_win_multiplier"] == 10
    assert next(e for e in body["events"] if e["type"] == "cap_reached")["uncapped_coins"] == 36
    assert api.balance(player) == 1000 - 30 + 300
    replay = api.op("POST", f"/operator/rounds/{body['round_id']}/replay", key=None).json()
    assert replay["identical"] is True
    api.clock.advance(seconds=1)
    below = api.spin(CAPPED, CAPPED_BET, BETWEEN_THE_CAPS).json()
    assert below["win"]["minor"] == 160 and below["round"]["cap_reached"] is False


def test_a_market_s_lower_cap_is_applied_and_recorded(capped_api):
    api = capped_api
    player = api.player(market="de", deposit="10.00")
    api.login(player)
    body = api.spin(CAPPED, CAPPED_BET, BETWEEN_THE_CAPS).json()
    assert body["win"]["minor"] == 150  # de's 5 x 0.30, below the model's cap
    view = body["round"]
    assert view["cap_reached"] is True and view["max_win_multiplier"] == 5
    assert view["options"]["max_win_multiplier"] == 5
    replay = api.op("POST", f"/operator/rounds/{body['round_id']}/replay", key=None).json()
    assert replay["identical"] is True
    rules = api.as_player("GET", f"/api/games/{CAPPED}/rules?lang=de").text
    assert "5-Fache ihres Gesamteinsatzes" in rules
