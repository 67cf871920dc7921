"""What a player sees of Lucky Lanterns' ante and Crystal Caverns' bought free spins (issue #34):
with the ante on, a spinning reel runs through the symbols of the reel set the ante plays (the
game list names it, the rules page's ``reel_symbols`` lists its symbols per reel), not the base
game's; the "Feature bought" notice covers no symbol of the reels at 1366x768, 390x844 and
320x568; and the free-spins counter counts the spin in play (the first free spin reads "9
left of 10"), a bought feature as a triggered one."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Route

from tests.web import forcing
from tests.web.conftest import Server, force, open_game, wait_state
from tests.web.test_caverns_client import BLUR, blurred, strangers
from tests.web.test_sizes import viewport

pytestmark = [pytest.mark.web]

LANTERNS = forcing.LANTERNS

#: The ante's reels as the test's rules page lists them: reels 2 to 4 carry only the Lantern
#: and the Dragon (the real ante set carries what the base set does, told apart by weights
#: alone, so only a page that tells the two apart shows which set a reel runs through).
ANTE_ONLY = ["dragon", "lantern"]


def context_at(browser: Browser, size: str, *, moving: bool = False) -> BrowserContext:
    ctx = browser.new_context(
        viewport=viewport(size),
        reduced_motion="no-preference" if moving else "reduce",
        locale="en-GB",
        bypass_csp=True,
    )
    ctx.set_default_timeout(30_000)
    return ctx


@pytest.fixture
def moving(browser: Browser) -> Iterator[BrowserContext]:
    """A desktop context at full motion (reduced motion draws no spinning strip)."""
    ctx = context_at(browser, "1366x768", moving=True)
    yield ctx
    ctx.close()


def narrow_ante(route: Route) -> None:
    """The rules page with the ante's reels 2 to 4 narrowed to ``ANTE_ONLY``."""
    response = route.fetch()
    page = response.json()
    ante = page["reel_symbols"]["ante"]
    for reel in (1, 2, 3):
        ante[reel] = ANTE_ONLY
    route.fulfill(response=response, body=json.dumps(page))


def test_the_ante_spins_the_reels_of_its_own_reel_set(
    moving: BrowserContext, server: Server
) -> None:
    """The game list names the ante's reel set; with the ante on, reels 2 to 4 run through that
    set's symbols alone; with it off, through the base set's again."""
    if not forcing.lanterns_present():
        pytest.skip("Lucky Lanterns is not in games/ on this branch")
    page = moving.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    player = server.new_player(balance="100000.00")
    games = {g["id"]: g for g in server.get(player, "/api/games")["games"]}
    if LANTERNS not in games:
        pytest.skip("no market of the test server offers Lucky Lanterns")
    assert {"name": "ante", "kind": "ante", "price": "1.25", "reel_set": "ante"} in games[LANTERNS][
        "modes"
    ]
    page.route(f"**/api/games/{LANTERNS}/rules*", narrow_ante)
    open_game(page, server, player, LANTERNS)
    wait_state(page, "idle")
    rows = forcing.model(LANTERNS).rows
    page.evaluate(BLUR, rows)
    quiet = forcing.lanterns_spin(2)[:5]
    page.click("#ante")
    assert page.get_attribute("#ante", "aria-checked") == "true"
    for _ in range(3):
        force(page, quiet)
        page.click("#spin")
        wait_state(page, "idle", "gamble", timeout=30_000)
        if page.locator("#collect").is_visible():
            page.click("#collect")
            wait_state(page, "idle")
    ante = blurred(page, free=False)
    assert {reel for reel, _, _ in ante} == set(range(5)) and len(ante) >= 3 * 5 * 9
    narrowed = [{*ANTE_ONLY}] * 5
    # reels 2 to 4 ran through the ante's Lantern and Dragon alone
    assert [(r, s) for r, s in strangers(ante, narrowed) if r in (2, 3, 4)] == []
    # and off again: the base set's symbols run there too
    page.evaluate("() => { window.__blur = []; }")
    page.click("#ante")
    assert page.get_attribute("#ante", "aria-checked") == "false"
    for _ in range(2):
        force(page, quiet)
        page.click("#spin")
        wait_state(page, "idle", "gamble", timeout=30_000)
        if page.locator("#collect").is_visible():
            page.click("#collect")
            wait_state(page, "idle")
    base = blurred(page, free=False)
    assert {s for r, s, _ in base if r in (1, 2, 3)} - set(ANTE_ONLY)
    assert not errors, errors
