"""A player of the jp market in the browser: yen have no minor unit, so every amount (balance,
bet, pots, win) is written in whole yen, and a round settles in yen.

The yen's sign is the market's, "¥" (U+00A5, see server/markets/jp.toml), in every place
and language. ja_JP writes the full-width "￥" (U+FFE5: Babel and Chromium's Intl agree),
British English "JP¥", English and German "¥"; the server wrote the API's amounts for ja_JP
and the rules' sentences for the player's language, the browser the bar and the paytable for
the player's language, so one screen (the rules dialog) could show two signs."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from tests.web import forcing
from tests.web.conftest import Server, force, minor, open_game, screenshot, wait_state

pytestmark = pytest.mark.web

MARKET_SIGN = "\u00a5"  # ¥, the jp market's sign
FULL_WIDTH = "\uffe5"  # ￥, ja_JP's own sign


def signs_on_screen(page: Page) -> dict[str, int]:
    """How often each yen sign is written in the visible text of the page."""
    text = page.evaluate("() => document.body.innerText")
    return {sign: text.count(sign) for sign in (MARKET_SIGN, FULL_WIDTH, "JP\u00a5")}


def test_a_yen_player_sees_whole_yen(page: Page, server: Server) -> None:
    player = server.new_player(market="jp", currency="JPY", balance="2000")
    open_game(page, server, player, forcing.SULTAN)
    wait_state(page, "idle")
    assert page.inner_text("#balance") == "¥2,000"
    assert page.inner_text("#bet-value") == "¥100"  # level 5 at 20 yen, the default
    assert page.inner_text(".pot[data-pot='red'] .pot-value") == "¥50,000"  # 500 bets
    page.click("#bet-up")
    assert page.inner_text("#bet-value") == "¥120"

    force(page, forcing.sultan_triggers(), forcing.sultan_spin())
    with page.expect_response(lambda r: r.url.endswith("/spin")) as spun:
        page.click("#spin")
    body = spun.value.json()
    wait_state(page, "idle")
    assert body["bet"]["minor"] == 120
    balance = 2000 - 120 + body["win"]["minor"]
    assert body["balance"]["minor"] == balance == minor(page, "#balance")
    assert page.inner_text("#balance") == f"¥{balance:,}"
    # the browser writes the amount as the server does
    assert page.inner_text("#balance") == body["balance"]["formatted"]
    assert "." not in page.inner_text("#balance")
    screenshot(page, "jp-market")


@pytest.fixture(params=["en-GB", "de-DE"])
def reader(request: pytest.FixtureRequest, browser: Browser) -> Iterator[tuple[str, Page]]:
    ctx = browser.new_context(
        viewport={"width": 1366, "height": 768}, reduced_motion="reduce", locale=request.param
    )
    ctx.set_default_timeout(15_000)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield request.param, page
    ctx.close()
    assert not errors, f"the page raised: {errors}"


@pytest.mark.parametrize("game", [forcing.TSAR, forcing.SULTAN])
def test_one_yen_sign_on_every_screen_in_every_language(
    reader: tuple[str, Page], server: Server, game: str
) -> None:
    """The game and its rules dialog (the browser's and the server's amounts together) write
    the yen with the market's sign alone, in English and in German (en-GB alone would write
    "JP¥", German "¥" after the number)."""
    language, page = reader
    player = server.new_player(market="jp", currency="JPY", balance="2000")
    open_game(page, server, player, game)
    wait_state(page, "idle")
    balance = page.inner_text("#balance")
    assert MARKET_SIGN in balance and "JP" not in balance, f"{language}: {balance!r}"
    game_signs = signs_on_screen(page)
    assert game_signs[FULL_WIDTH] == game_signs["JP\u00a5"] == 0, game_signs
    assert game_signs[MARKET_SIGN] >= 2, game_signs

    page.click("#menu")
    page.click("#rules")
    rules = page.locator("#rules-dialog[open]")
    rules.locator(".pay-card").first.wait_for()
    text = rules.inner_text()
    served = server.get(player, f"/api/games/{game}/rules?lang={language[:2]}")
    # the server's sentences name amounts too (the bets, the gamble limit): same sign
    assert MARKET_SIGN in str(served["rules"]), f"{language}: the server's rules lack ¥"
    assert FULL_WIDTH not in str(served["rules"]) and "JP\u00a5" not in str(served["rules"])
    assert text.count(MARKET_SIGN) >= 3, f"{language}: too few amounts in the rules: {text}"
    assert FULL_WIDTH not in text and "JP\u00a5" not in text, f"{language}: two yen signs"
    screenshot(page, f"jp-rules-{game}-{language}")
