"""The jp market: yen (no minor unit), ja_JP. Each title played through the HTTP API in whole
yen, the books balanced; the pricing the loader refuses because a win could be a fraction of
a yen, named by game and level (or coin size)."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.numbers import format_currency, get_currency_symbol

from reelsmith.server.markets import MARKETS_DIR, MarketError, load_market, load_markets
from tests.server.forcing import (
    NEAR_POTS,
    NEW_POTS,
    aurora_trigger,
    sultan_stops,
    tsar_win,
)

SULTAN, TSAR, AURORA = "sultan-spins", "days-of-the-tsar", "aurora-fox"


def jp_player(api, deposit="10000"):
    player = api.player(market="jp", deposit=deposit)
    api.login(player)
    return player


def books_balance(api) -> None:
    assert api.op("GET", "/operator/ledger/verify", key=None).json()["ok"]


def test_the_market_prices_every_title_in_whole_yen():
    market = load_markets()["jp"]
    assert (market.currency.code, market.currency.exponent, market.locale) == ("JPY", 0, "ja_JP")
    sultan = market.to_json()["games"][SULTAN]
    assert sultan["bets"][:5] == ["20", "40", "60", "80", "100"] and sultan["bets"][-1] == "10000"
    assert sultan["default_bet"] == "100"
    assert market.to_json()["games"][TSAR]["coin_sizes"] == ["1", "2", "5", "10", "20", "25"]
    assert market.money(200_000)["formatted"] == "¥200,000"


def test_a_sultan_round_in_yen(api):
    player = jp_player(api)
    # teal's trigger at seed + 1: the first gem on reel 1 wins the pot of 3 bets
    body = api.spin(SULTAN, {"bet": "100"}, [*NEAR_POTS, *sultan_stops(gem_reels=(0,)), 0])
    assert body.status_code == 200, body.text
    body = body.json()
    assert body["bet"]["minor"] == 100 and body["bet"]["formatted"] == "¥100"
    view = body["round"]
    assert view["bet"] == "100" and view["bet_minor"] == 100
    assert view["spins"][0]["gems"][0]["jackpot_bets"] == 3
    win = body["win"]["minor"]
    assert win == view["win_minor"] >= 300 and view["paid_amount"] == str(win)
    assert view["refund_amount"] == "0"
    assert api.balance(player) == 10_000 - 100 + win
    carried = api.as_player("GET", f'/api/games/{SULTAN}/state?bet={{"bet":"100"}}').json()
    assert carried["carried_state"]["pots_minor"][0] == 200  # teal back at its seed, 2 bets
    assert carried["carried_state"]["pots"][0]["formatted"] == "¥200"
    record = api.op("GET", f"/operator/rounds/{body['round_id']}", key=None).json()["record"]
    assert record["bet"] == {"bet": "100"} and record["bet_level"] == 5
    replay = api.op("POST", f"/operator/rounds/{body['round_id']}/replay", key=None).json()
    assert replay["identical"] is True
    books_balance(api)


def test_the_smallest_sultan_bet_pays_whole_yen(api):
    """A line bet at 20 yen is half a yen: every line pay is even, so every win is whole."""
    player = jp_player(api)
    balance = 10_000
    for spin in range(5):  # trigger points are drawn in the first round at a level only
        forced = [*(NEW_POTS if spin == 0 else []), *sultan_stops()]
        body = api.spin(SULTAN, {"bet": "20"}, forced).json()
        assert body["bet"]["minor"] == 20, body
        balance += body["win"]["minor"] - 20
    assert api.balance(player) == balance
    books_balance(api)


def test_sultan_bets_off_the_yen_ladder_are_refused_by_name(api):
    jp_player(api)
    for bet in ("0.20", "30", "20.5"):
        response = api.spin(SULTAN, {"bet": bet})
        assert response.status_code == 400, bet
        assert f"bet {bet} is not offered; the bets are 20, 40, 60" in response.text


def test_a_tsar_round_and_its_gamble_limit_in_yen(api):
    player = jp_player(api)
    bet = {"lines": 25, "coins_per_line": 1, "coin_size": "10"}  # 25 coins of 10 yen
    body = api.spin(TSAR, bet, tsar_win())
    assert body.status_code == 200, body.text
    body = body.json()
    assert body["bet"]["minor"] == 250
    view = body["round"]
    assert view["bet"]["coin_size"] == "10" and view["coin_size_minor"] == 10
    assert view["gamble_limit_minor"] == 250_000  # the market's limit, in yen
    win = view["win_minor"]
    assert win > 0 and win % 10 == 0
    if body["status"] == "open":  # the win waits for the gamble: collect it
        body = api.act(TSAR, body["round_id"], "collect").json()
    assert body["status"] == "complete"
    assert api.balance(player) == 10_000 - 250 + body["win"]["minor"]
    record = api.op("GET", f"/operator/rounds/{body['round_id']}", key=None).json()["record"]
    assert record["bet"]["coin_size"] == "0.10"  # the engine's bet, in credits
    assert record["options"]["gamble_limit_credits"] == "2500"
    books_balance(api)


def test_an_aurora_round_in_yen(api):
    player = jp_player(api)
    bet = {"lines": 20, "coins_per_line": 1, "coin_size": "5"}
    body = api.spin(AURORA, bet, aurora_trigger()).json()
    assert body["bet"]["minor"] == 100
    while body["status"] == "open":
        body = api.act(AURORA, body["round_id"], "free-spin").json()
    assert body["status"] == "complete"
    assert api.balance(player) == 10_000 - 100 + body["win"]["minor"]
    books_balance(api)


def test_a_yen_balance_is_written_for_ja_jp(api):
    jp_player(api, deposit="2000")
    me = api.as_player("GET", "/api/me").json()
    assert me["balance"]["formatted"] == "¥2,000" and me["balance"]["amount"] == "2000"
    # the market's sign, which the browser writes too, in every language
    assert me["market"]["currency_sign"] == "¥"


@pytest.mark.parametrize("locale", ["ja_JP", "en_JP", "en_GB", "de", "en_IE"])
def test_the_yen_has_the_market_sign_in_every_locale(locale):
    """ja_JP would write the full-width "￥", British English "JP¥", the others "¥": the
    market's sign replaces each, and the digits and where the sign stands stay the locale's."""
    yen = load_markets()["jp"].currency
    for minor in (5, 2_000, 1_234_567, -2_000):
        written = yen.format(minor, locale)
        assert "¥" in written and "￥" not in written and "JP" not in written, written
        babel = format_currency(minor, "JPY", locale=locale)
        own = get_currency_symbol("JPY", locale=locale)
        assert written == babel.replace(own, "¥"), (locale, written, babel)


def test_a_market_without_a_sign_writes_its_locale_sign(tmp_path):
    text = (MARKETS_DIR / "jp.toml").read_text(encoding="utf-8")
    path = tmp_path / "jp.toml"
    path.write_text(text.replace('currency_sign = "¥"\n', ""), encoding="utf-8")
    market = load_market(path)
    assert market.currency.sign == "￥"
    assert market.currency.format(2_000, "en_GB") == "￥2,000"  # not British "JP¥"


@pytest.mark.parametrize(
    ("sign", "message"),
    [
        ('""', "'' is not a currency sign"),
        ('"1¥"', "'1¥' is not a currency sign"),
        ('" ¥"', "' ¥' is not a currency sign"),
        ("5", "currency_sign must be a text"),
    ],
)
def test_the_loader_refuses_a_bad_currency_sign(tmp_path, sign, message):
    text = (MARKETS_DIR / "jp.toml").read_text(encoding="utf-8")
    path = tmp_path / "jp.toml"
    path.write_text(
        text.replace('currency_sign = "¥"', f"currency_sign = {sign}"), encoding="utf-8"
    )
    with pytest.raises(MarketError, match=message):
        load_market(path)


def write_market(tmp_path: Path, games: str) -> Path:
    text = (MARKETS_DIR / "jp.toml").read_text(encoding="utf-8")
    head = text[: text.index("[games.")]
    path = tmp_path / "jp.toml"
    path.write_text(head + games, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("games", "message"),
    [
        (  # 1 yen a stake unit: a line win of 2 line bets at level 1 is 1/20 yen
            '[games.sultan-spins]\nvariant = "94.00"\nstake_unit = "1"\nlevels = [1, 2]\n',
            "sultan-spins level 1 at a stake unit of 1 JPY could pay a fraction",
        ),
        (  # 10 yen: even levels are whole yen, odd ones are not
            '[games.sultan-spins]\nvariant = "94.00"\nstake_unit = "10"\nlevels = [2, 3]\n',
            "sultan-spins level 3 at a stake unit of 10 JPY could pay a fraction",
        ),
        (
            '[games.sultan-spins]\nvariant = "94.00"\nstake_unit = "0.5"\nlevels = [1]\n',
            "0.5 JPY is not a whole number of minor units",
        ),
        (
            '[games.sultan-spins]\nvariant = "94.00"\nstake_unit = "20"\nlevels = [7]\n',
            "sultan-spins has no bet level 7",
        ),
        (
            '[games.sultan-spins]\nvariant = "94.00"\nbets = ["20", "40"]\n',
            "sultan-spins is bet in bet levels; price them with stake_unit",
        ),
        (
            '[games.days-of-the-tsar]\nvariant = "96.00"\ncredit_value = "100"\n'
            'coin_sizes = ["1", "3"]\n',
            "days-of-the-tsar has no coin size 3 (0.03 credits at a credit of 100)",
        ),
    ],
)
def test_the_loader_refuses_a_pricing_that_cannot_be_exact(tmp_path, games, message):
    with pytest.raises(MarketError, match=message.replace("(", r"\(").replace(")", r"\)")):
        load_market(write_market(tmp_path, games))


def test_exact_pricings_load(tmp_path):
    market = load_market(
        write_market(
            tmp_path,
            '[games.sultan-spins]\nvariant = "94.00"\nstake_unit = "10"\nlevels = [2, 4, 10]\n',
        )
    )
    assert market.games[SULTAN].bets == (20, 40, 100)
    assert market.games[SULTAN].default_level == 2  # the model's 5 is not offered
