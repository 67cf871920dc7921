"""The loading screen: branded (the reelsmith mark, then the title's name and backdrop), a
progress bar that follows the files and steps of the first load, inside the screen at every
layout size, and gone without moving anything when the game appears.

The network is throttled through the DevTools protocol so that the load takes long enough to
be watched; a recorder installed before the page's own scripts keeps every value the bar
took and the reels' box at the moment the screen started to fade."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Route

from tests.web import forcing
from tests.web.conftest import SCREENSHOTS, Server

pytestmark = pytest.mark.web

SIZES = {
    "320x568": {"width": 320, "height": 568},
    "390x844": {"width": 390, "height": 844},
    "844x390": {"width": 844, "height": 390},
    "768x1024": {"width": 768, "height": 1024},
    "1366x768": {"width": 1366, "height": 768},
}
SLOW = {
    "offline": False,
    "latency": 120,
    "downloadThroughput": 400_000,
    "uploadThroughput": 200_000,
}

RECORD = """() => {
  window.__progress = [];
  window.__reelsAtFade = null;
  document.addEventListener('DOMContentLoaded', () => {
    const bar = document.getElementById('loading-bar');
    const screen = document.getElementById('loading');
    new MutationObserver(() => window.__progress.push(Number(bar.getAttribute('aria-valuenow'))))
      .observe(bar, { attributes: true, attributeFilter: ['aria-valuenow'] });
    new MutationObserver(() => {
      if (screen.dataset.state !== 'done' || window.__reelsAtFade) return;
      const reels = document.querySelector('.reels');
      const r = reels && reels.getBoundingClientRect();
      window.__reelsAtFade = r ? [r.x, r.y, r.width, r.height] : 'none';
    }).observe(screen, { attributes: true, attributeFilter: ['data-state'] });
  });
}"""

BOX = """(selector) => {
  const r = document.querySelector(selector).getBoundingClientRect();
  return [r.x, r.y, r.width, r.height];
}"""


def inside(box: list[float], width: int, height: int) -> bool:
    x, y, w, h = box
    return x >= 0 and y >= 0 and x + w <= width + 0.5 and y + h <= height + 0.5 and w > 0


@pytest.mark.parametrize("size", list(SIZES))
def test_the_loading_screen_shows_brand_title_and_progress_then_gives_way(
    browser: Browser, server: Server, size: str
) -> None:
    viewport = SIZES[size]
    context = browser.new_context(
        viewport=viewport, reduced_motion="no-preference", locale="en-GB", bypass_csp=True
    )
    context.set_default_timeout(60_000)
    context.add_init_script(f"({RECORD})()")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", SLOW)
    player = server.new_player()
    # the game's rules are held back until the screen has been looked at
    held: list[Route] = []
    page.route("**/api/games/*/rules?*", lambda route: held.append(route))
    page.goto(f"{server.url}/?token={player.token}#/play/{forcing.TSAR}", wait_until="commit")

    page.wait_for_selector("#loading-title:has-text('Days of the Tsar')")
    page.wait_for_function(
        "() => document.styleSheets.length > 0 && document.fonts.status === 'loaded'"
    )
    page.wait_for_timeout(300)  # the backdrop's art
    assert 0 < int(page.get_attribute("#loading-bar", "aria-valuenow") or 0) < 100
    assert page.locator("#loading").is_visible()
    assert page.locator("#loading").get_attribute("class") == "loading-screen theme-tsar"
    for part in ("#loading .loading-card", ".loading-logo", "#loading-brand", "#loading-bar"):
        assert inside(page.evaluate(BOX, part), viewport["width"], viewport["height"]), part
    assert page.inner_text("#loading-brand") == "reelsmith"
    page.screenshot(path=str(SCREENSHOTS / f"loading-{size}.png"))
    assert len(held) == 1
    held[0].continue_()

    page.wait_for_selector("body[data-loaded='true']")
    page.wait_for_selector("#loading", state="hidden")
    progress = page.evaluate("() => window.__progress")
    assert progress == sorted(progress), progress  # never backwards
    assert progress[-1] == 100
    # more than a jump from nothing to done: the files and the steps moved it on the way
    assert len({value for value in progress if 0 < value < 100}) >= 3, progress
    assert page.locator(".game").get_attribute("data-state") != "loading"
    at_fade = page.evaluate("() => window.__reelsAtFade")
    assert at_fade != "none" and at_fade == page.evaluate(BOX, ".reels")  # nothing moved
    assert page.locator("#spin").is_enabled()
    assert not errors
    context.close()


def test_the_lobby_loads_behind_the_screen_without_a_title(browser: Browser, server: Server):
    context = browser.new_context(viewport=SIZES["390x844"], locale="en-GB", bypass_csp=True)
    context.add_init_script(f"({RECORD})()")
    page = context.new_page()
    player = server.new_player()
    page.goto(f"{server.url}/?token={player.token}#/")
    page.wait_for_selector("#loading", state="hidden")
    assert page.inner_text("#loading-title") == ""
    assert page.evaluate("() => window.__progress").pop() == 100
    assert page.locator(".lobby-card").count() >= 2
    context.close()
