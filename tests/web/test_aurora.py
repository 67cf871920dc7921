"""Aurora Fox, a catalogue title, in the browser against the real server: the generic catalogue
script renders it from the round's events with its own art, at phone and desktop sizes."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tests.web import forcing
from tests.web.conftest import (
    DESKTOP,
    PHONE,
    Server,
    badges,
    force,
    minor,
    open_game,
    press_scene,
    record_badges,
    screenshot,
    wait_state,
)

pytestmark = pytest.mark.web

GAME = forcing.AURORA
BET_MINOR = 20  # 20 paylines x 1 coin x 0.01

SIZES = {"phone": PHONE, "desktop": DESKTOP}


@pytest.fixture(params=list(SIZES))
def sized_page(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Page]:
    """A page at phone or desktop size (the test's parameter)."""
    ctx = browser.new_context(
        viewport=SIZES[request.param], reduced_motion="reduce", locale="en-GB", bypass_csp=True
    )
    ctx.set_default_timeout(15_000)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    ctx.close()
    assert not errors, f"the page raised: {errors}"


def is_spin(url: str) -> bool:
    return url.endswith(f"/api/games/{GAME}/spin")


def box(page: Page, selector: str) -> dict[str, Any]:
    found = page.locator(selector).bounding_box()
    assert found is not None, f"{selector} is not shown"
    return found


def on_screen(page: Page, *selectors: str) -> None:
    """Each element is shown, whole, inside the viewport."""
    view = page.viewport_size
    assert view is not None
    for selector in selectors:
        b = box(page, selector)
        assert b["width"] > 1 and b["height"] > 1, (selector, b)
        assert b["x"] >= -0.5 and b["y"] >= -0.5, (selector, b)
        assert b["x"] + b["width"] <= view["width"] + 0.5, (selector, b, view)
        assert b["y"] + b["height"] <= view["height"] + 0.5, (selector, b, view)


def apart(page: Page, first: str, second: str) -> None:
    a, b = box(page, first), box(page, second)
    overlap = (
        a["x"] + 1 < b["x"] + b["width"]
        and b["x"] + 1 < a["x"] + a["width"]
        and a["y"] + 1 < b["y"] + b["height"]
        and b["y"] + 1 < a["y"] + a["height"]
    )
    assert not overlap, f"{first} {a} overlaps {second} {b}"


def test_the_lobby_offers_aurora_fox_with_its_own_art(page: Page, server: Server) -> None:
    player = server.new_player()
    page.goto(f"{server.url}/?token={player.token}#/")
    card = page.locator(".lobby-card[data-game='aurora-fox']")
    card.wait_for()
    assert "Aurora Fox" in card.inner_text()
    assert card.get_attribute("class") == "lobby-card theme-aurora-fox"
    assert card.locator(".lobby-symbol use").evaluate_all(
        "(els) => els.map((e) => e.getAttribute('href'))"
    ) == ["#aurora-fox-owl", "#aurora-fox-fox", "#aurora-fox-aurora"]
    # the sprites are drawn (not empty symbols) and the theme's background applies
    assert page.locator("#symbol-sprites symbol#aurora-fox-fox path").count() > 3
    background = card.evaluate("(e) => getComputedStyle(e).backgroundImage")
    assert re.search(r"/web/art/aurora-sky(\.[0-9a-f]+)?\.svg", background), background
    card.locator(".lobby-play").click()
    page.wait_for_selector(".game[data-game='aurora-fox']:not([data-state='loading'])")
    assert page.inner_text(".game-title") == "Aurora Fox"


def test_a_line_win_is_paid_with_the_spin(sized_page: Page, server: Server) -> None:
    page = sized_page
    player = server.new_player()
    open_game(page, server, player, GAME)
    assert minor(page, "#balance") == 100_000
    assert minor(page, "#bet-total") == BET_MINOR
    view = page.viewport_size
    assert view is not None
    # a phone shows the bet as the total-bet picker; wider screens the total and the steppers
    bet = ("#total-bet-open",) if view["width"] < 600 else ("#bet-total", "#lines-value")
    on_screen(page, ".reels", "#spin", "#balance", "#win", *bet)
    # the reels show the title's symbols, drawn from its sprites
    symbols = page.locator(".reels .cell").evaluate_all("(els) => els.map((e) => e.dataset.symbol)")
    assert len(symbols) == 15 and set(symbols) <= set(forcing.model(GAME).symbol_ids)

    stops = forcing.aurora_spin(win=True)
    force(page, stops)
    with page.expect_response(lambda r: is_spin(r.url)) as spun:
        page.click("#spin")
    won = spun.value.json()
    wait_state(page, "idle")
    win_minor = forcing.aurora_win_coins(stops)  # coin size 0.01: one coin is one cent
    assert won["status"] == "complete" and won["win"]["minor"] == win_minor > 0
    assert minor(page, "#win") == win_minor
    assert minor(page, "#balance") == 100_000 - BET_MINOR + win_minor == won["balance"]["minor"]
    assert page.locator(".cell.win").count() > 0
    assert page.locator(".paylines-overlay polyline").count() > 0
    assert page.locator("#gamble-offer").count() == 0  # the title has no gamble
    on_screen(page, ".reels", "#spin", "#win")
    screenshot(page, "aurora-win")


def test_forced_free_spins_play_with_their_counter_and_multiplier(
    sized_page: Page, server: Server
) -> None:
    page = sized_page
    player = server.new_player()
    open_game(page, server, player, GAME)
    # Three Auroras: ten free spins; the second free spin shows three more (+10): twenty.
    free = [forcing.aurora_spin(free=True) for _ in range(20)]
    free[1] = forcing.aurora_spin(auroras=(0, 2, 4), free=True)
    force(page, forcing.aurora_spin(auroras=(0, 1, 2)), *free)
    record_badges(page)
    with page.expect_response(lambda r: is_spin(r.url)) as spun:
        page.click("#spin")
    trigger = spun.value.json()
    assert trigger["round"]["free_spins_awarded"] == 10
    assert trigger["round"]["free_spins_multiplier"] == 2
    page.wait_for_selector("#free-spins-intro")
    intro = page.inner_text("#free-spins-intro")
    assert "10 free spins" in intro and "Every win ×2" in intro
    assert page.locator("#free-spins-intro .scene-egg").count() == 3  # the three Auroras
    on_screen(page, "#free-spins-intro-button")
    screenshot(page, "aurora-intro")
    press_scene(page, "free-spins-intro")

    page.wait_for_selector("#free-spins-total:text('20')", timeout=30_000)
    assert page.is_visible("#free-spins") and page.is_visible("#free-spins-multiplier")
    assert page.inner_text("#free-spins-multiplier") == "×2"
    on_screen(page, "#free-spins", ".reels", "#spin")
    apart(page, "#free-spins", ".reels")
    assert page.locator(".game.in-free-spins").count() == 1  # the scene change
    screenshot(page, "aurora-free-spins")

    page.wait_for_selector("#free-spins-outro-button", timeout=60_000)
    on_screen(page, "#free-spins-outro-button", "#free-spins-outro-amount")
    screenshot(page, "aurora-outro")
    press_scene(page, "free-spins-outro")
    wait_state(page, "idle", timeout=30_000)
    assert badges(page, "scatter-extra") == ["+10"]
    assert page.is_hidden("#free-spins")

    rounds = server.get(player, f"/api/history/rounds?game={GAME}&limit=1")["rounds"]
    view = rounds[0]["round"]
    assert [s["kind"] for s in view["spins"]] == ["base"] + ["free"] * 20
    assert view["phase"] == "complete"
    assert minor(page, "#win") == view["win_minor"]
    me = server.get(player, "/api/me")
    assert me["balance"]["minor"] == 100_000 - BET_MINOR + view["win_minor"]
    assert minor(page, "#balance") == me["balance"]["minor"]


def test_the_rules_and_history_of_a_catalogue_title(page: Page, server: Server) -> None:
    player = server.new_player()
    open_game(page, server, player, GAME)
    free = [forcing.aurora_spin(free=True) for _ in range(10)]
    force(page, forcing.aurora_spin(auroras=(1, 2, 3)), *free)
    page.click("#spin")
    press_scene(page, "free-spins-intro")
    page.wait_for_selector("#free-spins-outro-button", timeout=60_000)
    press_scene(page, "free-spins-outro")
    wait_state(page, "idle", timeout=30_000)

    page.click("#menu")
    page.click("#history")
    dialog = page.locator("#history-dialog[open]")
    dialog.locator(".history-row").first.wait_for()
    assert "10 free spins" in dialog.locator(".history-row").first.inner_text()
    dialog.locator(".history-row").first.locator(".replay-open").click()
    assert "3 × Aurora: 10 free spins." in dialog.inner_text()
    dialog.locator("#replay-next").click()
    assert "every win ×2" in dialog.inner_text()
    page.keyboard.press("Escape")

    page.click("#menu")
    page.click("#rules")
    rules = page.locator("#rules-dialog[open]")
    rules.wait_for()
    text = rules.inner_text()
    assert "Snowy Owl" in text and "During free spins every win is multiplied by 2." in text
    assert rules.locator(".pay-art use[href='#aurora-fox-fox']").count() == 1


def test_the_rules_page_prices_a_line_pay_by_the_coin_not_by_the_paylines(
    page: Page, server: Server
) -> None:
    """A coin-bet title's line pay at the bet is pays x coins per line x coin size, whatever
    the paylines enabled: the page reads the bet's shape, not the title's id."""
    player = server.new_player()
    open_game(page, server, player, GAME)

    def top_pay_at_bet() -> str:
        page.click("#menu")
        page.click("#rules")
        dialog = page.locator("#rules-dialog[open]")
        dialog.wait_for()
        text = dialog.locator(".pay-card dd small").first.inner_text()
        page.keyboard.press("Escape")
        return text

    all_lines = top_pay_at_bet()
    assert re.search(r"[1-9]", all_lines), all_lines
    lines = int(page.inner_text("#lines-value"))
    page.click("#lines-down")
    assert int(page.inner_text("#lines-value")) == lines - 1
    assert top_pay_at_bet() == all_lines
