"""Crystal Caverns' look in the browser, where its folder is in games/ and a market offers it:
its symbols drawn from its own sprites (``#crystal-caverns-<id>``), its theme and its cavern
backdrop; a forced chain whose winning cells vanish while the symbols above fall, the
multiplier meter climbing x2, x3 ...; free spins whose chain starts at twice that, the meter
showing x2 as each free spin's reels stop; and the
bought feature, which says its price, asks once and plays its free spins. Under the server's
Content-Security-Policy, with no page error. Screenshots (``caverns-*``) for a person to look
at."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from playwright.sync_api import Browser, Page

from reelsmith.games import load_game
from tests.web import forcing
from tests.web.conftest import (
    SCREENSHOTS,
    WATCH,
    Policed,
    Server,
    answers,
    force,
    minor,
    open_game,
    press_scene,
    received,
    screenshot,
    wait_state,
)
from tests.web.test_sizes import FIRST_LOAD, FIRST_LOAD_BUDGET, check_size, viewport

pytestmark = [
    pytest.mark.web,
    pytest.mark.skipif(
        not forcing.caverns_present(), reason="Crystal Caverns is not in games/ on this branch"
    ),
]

GAME = forcing.CAVERNS

#: Keeps each cascade step and multiplier the game shows (the meter's data attributes).
RECORD = """() => {
  window.__steps = [];
  const root = document.querySelector('.game');
  new MutationObserver(() => {
    const meter = document.querySelector('#cascade-multiplier');
    const step = root.dataset.cascadeStep;
    if (step && meter) window.__steps.push([Number(step), Number(meter.dataset.multiplier)]);
  }).observe(root, {attributes: true, attributeFilter: ['data-cascade-step']});
  window.__vanished = false;
  window.__fell = false;
  new MutationObserver(() => {
    if (document.querySelector('.reels .cell.vanish')) window.__vanished = true;
    if (document.querySelector('.reels .cell.fall, .reels .cell.drop-in')) window.__fell = true;
  }).observe(document.querySelector('.reels'), {subtree: true, childList: true, attributes: true});
}"""


def open_caverns(page: Page, server: Server, *, turbo: bool = True) -> None:
    player = server.new_player()
    if GAME not in {g["id"] for g in server.get(player, "/api/games")["games"]}:
        pytest.skip("no market of the test server offers Crystal Caverns")
    # its rules page's first answer works out the title's figures (some seconds): asked once
    # here, beyond the page's own timeouts
    with server.client(player.token) as api:
        api.get(f"/api/games/{GAME}/rules?lang=en", timeout=180).raise_for_status()
    open_game(page, server, player, GAME, turbo=turbo)
    wait_state(page, "idle", timeout=60_000)


def sprites(page: Page) -> list[str]:
    hrefs: list[str] = page.locator(".reels .cell use").evaluate_all(
        "(els) => els.map((e) => e.getAttribute('href'))"
    )
    return hrefs


def test_crystal_caverns_has_its_own_art_theme_and_backdrop(page: Page, server: Server) -> None:
    open_caverns(page, server)
    root = page.locator(f".game[data-game='{GAME}']")
    assert "theme-crystal-caverns" in (root.get_attribute("class") or "").split()
    background = root.evaluate("(e) => getComputedStyle(e).getPropertyValue('--theme-bg')")
    assert re.search(r"/web/art/caverns-mine(\.[0-9a-f]+)?\.svg", background), background
    hrefs = sprites(page)
    assert hrefs and all(h.startswith("#crystal-caverns-") for h in hrefs), hrefs
    # every symbol of the model has a sprite of its own, drawn (not a plain tile)
    drawn = page.evaluate(
        """() => [...document.querySelectorAll('#symbol-sprites symbol')]
          .filter((s) => s.id.startsWith('crystal-caverns-') && s.querySelectorAll('*').length > 3)
          .map((s) => s.id)"""
    )
    missing = [s for s in forcing.model(GAME).symbol_ids if f"crystal-caverns-{s}" not in drawn]
    assert not missing, missing
    screenshot(page, "caverns-base")


def test_a_chain_shatters_falls_and_climbs_the_multiplier(policed: Policed, server: Server) -> None:
    page = policed.page
    open_caverns(page, server)
    page.evaluate(RECORD)
    stops = forcing.caverns_chain(2)
    played = forcing.caverns_round(stops)
    force(page, stops)
    with page.expect_response(lambda r: r.url.endswith("/spin")) as spun:
        page.click("#spin")
    answer = spun.value.json()
    wait_state(page, "idle", timeout=40_000)
    cascades = [e for e in answer["events"] if e["type"] == "cascade"]
    assert len(cascades) == forcing.cascades(played) >= 2
    shown = page.evaluate("() => window.__steps")
    assert shown == [[e["step"], e["multiplier"]] for e in cascades]
    assert [m for _, m in shown][:2] == [2, 3]
    assert page.evaluate("() => window.__vanished && window.__fell") is True
    meter = page.locator("#cascade-multiplier")
    assert meter.is_visible() and meter.inner_text() == f"×{cascades[-1]['multiplier']}"
    # the cells end on the chain's last screen, each drawn from the title's own art
    assert all(h.startswith("#crystal-caverns-") for h in sprites(page))
    assert minor(page, "#win") == answer["round"]["win_minor"] > 0
    screenshot(page, "caverns-chain-end")
    assert policed.violations() == []


def test_the_free_spins_chain_at_twice_the_multiplier(policed: Policed, server: Server) -> None:
    page = policed.page
    open_caverns(page, server)
    chain, quiet = forcing.caverns_free_chain(1), forcing.caverns_free_quiet()
    force(page, forcing.caverns_trigger(), chain, *[quiet] * 9)
    page.click("#spin")
    page.wait_for_selector("#free-spins-intro-button", timeout=40_000)
    assert page.get_attribute("#free-spins-intro", "data-spins") == "10"
    page.evaluate(RECORD)
    press_scene(page, "free-spins-intro")
    assert "in-free-spins" in (page.get_attribute(".game", "class") or "").split()
    page.wait_for_selector("#free-spins-outro-button", timeout=90_000)
    # the free spin's chain: its first fall at x4; every free spin's first screen says x2
    assert page.evaluate("() => window.__steps")[0] == [2, 4]
    meter = page.locator("#cascade-multiplier")
    assert (meter.get_attribute("data-step"), meter.get_attribute("data-multiplier")) == ("1", "2")
    assert meter.text_content() == "×2"
    press_scene(page, "free-spins-outro")
    wait_state(page, "idle", timeout=40_000)
    assert policed.violations() == []


def test_a_bought_feature_says_its_price_asks_once_and_plays(
    policed: Policed, server: Server
) -> None:
    page = policed.page
    open_caverns(page, server)
    buy = page.locator("#buy-feature")
    assert buy.is_visible() and buy.is_enabled()
    bet = minor(page, "#bet") if page.locator("#bet[data-minor]").count() else 20
    before = minor(page, "#balance")
    # the buy's price in bets, as the model sells it
    cost = int(Decimal(bet) * Decimal(load_game(forcing.CAVERNS).raw["modes"]["buy"]["price"]))
    price = page.inner_text("#buy-feature .mode-price")
    assert price == f"€{Decimal(cost) / 100:,.2f}", price
    buy.click()
    page.wait_for_selector("#buy-dialog[open]")
    assert price in page.inner_text("#buy-question")
    quiet = forcing.caverns_free_quiet()
    force(page, [], forcing.caverns_free_chain(1), *[quiet] * 9)
    with page.expect_response(lambda r: r.url.endswith("/spin")) as spun:
        page.click("#buy-confirm")
    answer = spun.value.json()
    assert answer["balance"]["minor"] == before - cost
    assert [e for e in answer["events"] if e["type"] == "feature_bought"]
    page.wait_for_selector("#free-spins-intro-button", timeout=40_000)
    assert page.locator("#buy-dialog[open]").count() == 0  # asked once, not again
    page.evaluate(RECORD)
    free = answers(page, "/free-spin")
    press_scene(page, "free-spins-intro")
    page.wait_for_selector("#free-spins-outro-button", timeout=90_000)
    # ten free spins, the first of them the forced chain, shown at the free spins' x4
    assert len(received(page, free, 10)) == 10
    assert page.evaluate("() => window.__steps")[0] == [2, 4], [
        [e["type"] for e in f["events"]] for f in free[:2]
    ]
    total = int(page.get_attribute("#free-spins-outro", "data-total") or -1)
    press_scene(page, "free-spins-outro")
    wait_state(page, "idle", timeout=40_000)
    assert minor(page, "#win") == total >= 0
    assert minor(page, "#balance") == before - cost + total
    assert policed.violations() == []


@pytest.mark.parametrize("size", ["320x568", "390x844", "844x390", "1920x1080"])
def test_a_chain_at_each_size(browser: Browser, server: Server, size: str) -> None:
    """Opened within the first load's budget, the layout holding (``test_sizes.check_size``)
    idle, as a chain falls and after it, under the server's Content-Security-Policy; the
    screenshots (``caverns-<size>-<idle|falling|chain>.png``) are for a person to look at."""
    ctx = browser.new_context(viewport=viewport(size), locale="en-GB")
    ctx.set_default_timeout(20_000)
    ctx.add_init_script(f"({WATCH})()")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def shot(state: str) -> None:
        page.screenshot(path=str(SCREENSHOTS / f"caverns-{size}-{state}.png"))

    try:
        open_caverns(page, server, turbo=False)  # at full motion: the shot catches a fall
        page.wait_for_selector("#loading", state="hidden")
        load = page.evaluate(FIRST_LOAD)
        assert 0 < load["page"] + load["files"] <= FIRST_LOAD_BUDGET, f"{size}: {load}"
        idle = check_size(page, size, f"{GAME} {size} idle")
        shot("idle")
        force(page, forcing.caverns_chain(2))
        page.click("#spin")
        # the falling cells last a moment: the shot is taken as the first cascade starts
        page.wait_for_selector(".game[data-cascade-step]", timeout=30_000)
        shot("falling")
        wait_state(page, "idle", timeout=40_000)
        assert check_size(page, size, f"{GAME} {size} chain") == idle
        assert page.is_visible("#cascade-multiplier")
        shot("chain")
        assert page.evaluate("() => window.__violations") == []
    finally:
        ctx.close()
    assert not errors, f"{size}: the page raised: {errors}"
