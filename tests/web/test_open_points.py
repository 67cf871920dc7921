"""The seed titles' open points, as a player meets them: the Sultan's jackpot spin runs on
gems alone, a gamble lost stays said until the next spin, the sound mutes with one tap
outside the menu, the game goes full screen with one tap, and the lobby takes a 1920 px
screen's width."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page

from tests.web import forcing
from tests.web.conftest import SCREENSHOTS, Server, force, minor, open_game, wait_state
from tests.web.test_layout import BOXES, inside, overlaps

pytestmark = pytest.mark.web


def step_until(page: Page, condition: str, step_ms: int = 50) -> None:
    """Move the paused page clock on in small steps until ``condition`` holds."""
    for _ in range(600):
        if page.evaluate(condition):
            return
        page.clock.run_for(step_ms)
    raise AssertionError(f"{condition} did not hold within 30 s of page time")


def test_the_jackpot_spin_runs_on_gems_alone(page: Page, server: Server) -> None:
    """While the jackpot spin's reels run, every symbol on them is one of the pots' gems (the
    rules' gems-only spin), not the screen's ordinary symbols."""
    page.clock.install()
    open_game(page, server, server.new_player(), forcing.SULTAN)
    wait_state(page, "idle")
    stops = forcing.sultan_spin(gems=(0,))
    force(page, [*forcing.sultan_triggers(hit_first_gem=(0,)), *stops])
    page.click("#spin")
    page.clock.pause_at(page.evaluate("Date.now()") + 1)
    step_until(page, "document.querySelector('#jackpot-spin') !== null")
    step_until(page, "document.querySelectorAll('.reel.spinning').length === 5", step_ms=10)
    shown = page.eval_on_selector_all(
        ".reel.spinning .cell", "cells => cells.map((c) => c.dataset.symbol)"
    )
    assert shown, "no reel of the jackpot spin shows a symbol"
    others = sorted({s for s in shown if not s.startswith("gem-")})
    assert not others, f"the jackpot spin runs through {others}"
    step_until(page, "document.querySelector('#jackpot-event') !== null")
    page.clock.resume()
    wait_state(page, "idle")


def test_a_gamble_lost_stays_said_until_the_next_spin(page: Page, server: Server) -> None:
    open_game(page, server, server.new_player(), forcing.TSAR)
    stops = forcing.tsar_spin(win=True)
    force(page, stops)
    page.click("#spin")
    wait_state(page, "gamble")
    stake = minor(page, "#win")
    page.click("#gamble")
    page.wait_for_selector("#gamble-screen")
    force(page, [0])  # the 2 of hearts: black loses
    page.click(".gamble-choice[data-choice='black']")
    wait_state(page, "idle")
    page.wait_for_timeout(2500)  # long after any moment's flash
    assert page.is_visible("#gamble-lost"), "nothing says the gamble was lost"
    assert page.inner_text("#gamble-lost .gamble-lost-title").lower() == "lost"
    assert page.get_attribute("#gamble-lost", "data-minor") == str(stake)
    caption = page.inner_text("#win-caption")
    assert "lost" in caption and caption.count("€") == 1, caption
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "open-gamble-lost.png"))
    force(page, forcing.tsar_spin(win=False))
    page.click("#spin")
    wait_state(page, "idle")
    assert page.locator("#gamble-lost").count() == 0, "the loss outlived the next spin"


@pytest.mark.parametrize("size", [(320, 568), (1366, 768)])
def test_one_tap_mutes_the_sound_outside_the_menu(
    browser: Browser, server: Server, size: tuple[int, int]
) -> None:
    width, height = size
    ctx = browser.new_context(
        viewport={"width": width, "height": height}, reduced_motion="reduce", locale="en-GB"
    )
    try:
        page = ctx.new_page()
        open_game(page, server, server.new_player(), forcing.AURORA)
        wait_state(page, "idle")
        found = page.evaluate(BOXES, {"mute": "#mute", "title": ".game-title"})
        (mute,) = found["mute"]
        assert inside(mute, width, height), f"the mute button is off screen: {mute}"
        assert page.get_attribute("#mute", "aria-pressed") == "false"
        page.click("#mute")
        assert page.get_attribute("#mute", "aria-pressed") == "true"
        page.click("#menu")
        assert page.get_attribute("#sound-toggle", "aria-pressed") == "false"
    finally:
        ctx.close()


@pytest.mark.parametrize("size", [(320, 568), (1366, 768)])
def test_one_tap_puts_the_game_in_full_screen_and_back(
    browser: Browser, server: Server, size: tuple[int, int]
) -> None:
    """Chromium lets a page go full screen: the head offers it beside the mute, on the screen,
    and says which it is."""
    width, height = size
    ctx = browser.new_context(
        viewport={"width": width, "height": height}, reduced_motion="reduce", locale="en-GB"
    )
    try:
        page = ctx.new_page()
        open_game(page, server, server.new_player(), forcing.SULTAN)
        wait_state(page, "idle")
        found = page.evaluate(BOXES, {"it": "#fullscreen", "mute": "#mute"})
        (button,) = found["it"]
        (mute,) = found["mute"]
        assert inside(button, width, height), f"the fullscreen button is off screen: {button}"
        assert not overlaps(button, mute), f"the fullscreen button covers the mute: {button}"
        assert button["w"] >= 34 and button["h"] >= 34, button
        assert page.get_attribute("#fullscreen", "aria-pressed") == "false"
        assert page.get_attribute("#fullscreen", "aria-label") == "Full screen"
        page.click("#fullscreen")
        page.wait_for_selector("#fullscreen[aria-pressed='true']")
        assert page.evaluate("document.fullscreenElement === document.documentElement")
        assert page.get_attribute("#fullscreen", "aria-label") == "Leave full screen"
        page.click("#fullscreen")
        page.wait_for_selector("#fullscreen[aria-pressed='false']")
        assert page.evaluate("document.fullscreenElement") is None
    finally:
        ctx.close()


def test_the_lobby_takes_a_1920_px_screen(browser: Browser, server: Server) -> None:
    ctx = browser.new_context(
        viewport={"width": 1920, "height": 1080}, reduced_motion="reduce", locale="en-GB"
    )
    try:
        page = ctx.new_page()
        page.goto(f"{server.url}/?token={server.new_player().token}#/")
        page.wait_for_selector(".lobby-card")
        cards = page.evaluate(BOXES, {"cards": ".lobby-card"})["cards"]
        span = max(c["right"] for c in cards) - min(c["x"] for c in cards)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "open-lobby-1920x1080.png"))
        assert span >= 0.75 * 1920, f"the cards span {span:.0f} px of 1920"
        assert all(c["right"] <= 1920 for c in cards)
    finally:
        ctx.close()


OUTRO_WATCH = """() => {
  window.__outro = [];
  const seen = (scene) => {
    const free = scene.querySelector('.outro-free');
    window.__outro.push([scene.dataset.phase,
      free ? free.checkVisibility({ visibilityProperty: true }) : null,
      scene.querySelector('#free-spins-outro-amount')?.dataset.minor ?? null]);
  };
  new MutationObserver((changes) => {
    for (const change of changes) {
      const scene = change.target.closest?.('#free-spins-outro')
        ?? [...change.addedNodes].find((n) => n.id === 'free-spins-outro');
      if (scene) seen(scene);
    }
  }).observe(document.body, { subtree: true, childList: true, attributes: true,
                              attributeFilter: ['data-phase', 'data-minor'] });
}"""


def test_the_outro_says_what_the_parts_won_once_the_total_has_counted(
    browser: Browser, server: Server
) -> None:
    """While the outro counts the round's total up, the lines saying what the free spins and
    the trigger won (which add up to it) are hidden; once counted, they are shown."""
    ctx = browser.new_context(
        viewport={"width": 390, "height": 844},
        reduced_motion="no-preference",
        locale="en-GB",
        bypass_csp=True,
    )
    try:
        page = ctx.new_page()
        open_game(page, server, server.new_player(), forcing.TSAR)  # turbo on: a short count
        wait_state(page, "idle")
        free = [forcing.tsar_spin(free=True, win=True)]
        free += [forcing.tsar_spin(free=True, win=False) for _ in range(8)]
        force(page, forcing.tsar_free_spins_trigger(), *free)
        page.evaluate(OUTRO_WATCH)
        page.click("#spin")
        page.click("#free-spins-intro-button", timeout=30_000)
        page.wait_for_selector("#free-spins-outro[data-phase='total']", timeout=60_000)
        seen = page.evaluate("() => window.__outro")
        counting = [s for s in seen if s[0] == "counting"]
        assert counting, f"the outro never counted: {seen}"
        assert not any(visible for _, visible, _ in counting), f"said during the count: {seen}"
        assert page.locator("#free-spins-outro .outro-free").is_visible()
        page.click("#free-spins-outro-button")
    finally:
        ctx.close()


def test_a_notice_on_a_phone_leaves_the_free_spins_counter_clear(
    browser: Browser, server: Server
) -> None:
    """Back in a round paused in its free spins, the notice that says so lies clear of the
    counter, the head line and the bar."""
    ctx = browser.new_context(
        viewport={"width": 390, "height": 844}, reduced_motion="reduce", locale="en-GB"
    )
    try:
        page = ctx.new_page()
        player = server.new_player()
        open_game(page, server, player, forcing.TSAR)
        wait_state(page, "idle")
        free = [forcing.tsar_spin(free=True, win=False) for _ in range(9)]
        force(page, forcing.tsar_free_spins_trigger(), *free)
        page.click("#spin")
        page.wait_for_selector("#free-spins-intro-button")
        page.goto(f"{server.url}/?token={player.token}#/play/{forcing.TSAR}")
        page.wait_for_selector(".notice")
        wait_state(page, "paused")
        found = page.evaluate(
            BOXES,
            {
                "notice": ".notice",
                "counter": ".stage-feature > *",
                "head": ".game-head",
                "bar": ".controls",
            },
        )
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "open-notice-390x844.png"))
        assert found["counter"], "the free spins counter is not shown"
        for notice in found["notice"]:
            assert inside(notice, 390, 844), f"the notice is off screen: {notice}"
            for name in ("counter", "head", "bar"):
                for other in found[name]:
                    assert not overlaps(notice, other), f"the notice covers the {name}: {other}"
    finally:
        ctx.close()


def test_the_history_states_a_pending_win(page: Page, server: Server) -> None:
    """A round waiting for the gamble or collect lists the win it holds, as pending, not as
    nothing won."""
    player = server.new_player()
    open_game(page, server, player, forcing.TSAR)
    force(page, forcing.tsar_spin(win=True))
    page.click("#spin")
    wait_state(page, "gamble")
    pending = minor(page, "#win")
    shown = page.inner_text("#win")
    assert pending > 0
    page.click("#menu")
    page.click("#history")
    row = page.locator("#history-dialog .history-row").first
    row.wait_for()
    assert row.get_attribute("data-status") == "open"
    cell = row.locator(".history-win")
    assert cell.get_attribute("data-pending") == str(pending)
    text = cell.inner_text()
    assert text == f"{shown} pending", text
    assert "not yet collected" in row.locator(".history-summary").inner_text()
