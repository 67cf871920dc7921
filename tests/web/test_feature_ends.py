"""What a player sees of Lucky Lanterns' ante and Crystal Caverns' bought free spins (issue #34):
with the ante on, a spinning reel runs through the symbols of the reel set the ante plays (the
game list names it, the rules page's ``reel_symbols`` lists its symbols per reel), not the base
game's; a bought feature is told by its intro and to a screen reader, and no notice lies over
a reel (at 1366x768, 390x844 and 320x568); the free-spins counter counts the spin in play
(the first free spin reads "9 left of 10"), a bought feature as a triggered one; and in German
every bet stepper's label fits its stepper ("Einsatzmultiplikator" wraps at its hyphen)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Route

from tests.web import forcing
from tests.web.conftest import SCREENSHOTS, Server, force, open_game, press_scene, wait_state
from tests.web.test_caverns_client import BLUR, blurred, german_caverns, strangers
from tests.web.test_caverns_look import open_caverns
from tests.web.test_layout import BOXES, overlaps
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


# -- Crystal Caverns' bought feature ------------------------------------------------------------

#: Keeps, every frame a notice shows, its box and the boxes of the reels' windows it meets
#: ([notice text, notice box, reel box]); and as each free spin's reels start, the counter
#: ([spins left, of how many]).
WATCH_FEATURE = """() => {
  window.__covered = [];
  window.__noticed = [];
  window.__counted = [];
  const box = (e) => { const r = e.getBoundingClientRect();
    return {x: r.x, y: r.y, right: r.right, bottom: r.bottom}; };
  const meets = (a, b) => a.x + 0.5 < b.right && b.x + 0.5 < a.right
    && a.y + 0.5 < b.bottom && b.y + 0.5 < a.bottom;
  const frame = () => {
    for (const notice of document.querySelectorAll('.notices .notice')) {
      const n = box(notice);
      window.__noticed.push(notice.textContent);
      for (const reel of document.querySelectorAll('.reels .reel')) {
        if (!reel.checkVisibility()) continue;
        const r = box(reel);
        if (meets(n, r)) window.__covered.push([notice.textContent, n, r]);
      }
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  window.__said = [];
  const status = document.querySelector('#sr-status');
  new MutationObserver(() => window.__said.push(status.textContent))
    .observe(status, {childList: true, characterData: true, subtree: true});
  const root = document.querySelector('.game');
  new MutationObserver(() => {
    if (root.dataset.state !== 'spinning' || !root.classList.contains('in-free-spins')) return;
    window.__counted.push([
      Number(document.querySelector('#free-spins-left').dataset.count),
      Number(document.querySelector('#free-spins-total').textContent),
    ]);
  }).observe(root, {attributes: true, attributeFilter: ['data-state']});
}"""

SIZES = ["1366x768", "390x844", "320x568"]


@pytest.mark.parametrize("size", SIZES)
def test_the_bought_notice_covers_no_symbol_and_the_counter_counts_the_spin_played(
    browser: Browser, server: Server, size: str
) -> None:
    """Bought: "Feature bought" is said by the intro and to a screen reader, and no notice
    lies over a reel in any frame; as each free
    spin's reels start the counter has counted it (the first: 9 left of 10)."""
    if not forcing.caverns_present():
        pytest.skip("Crystal Caverns is not in games/ on this branch")
    ctx = context_at(browser, size)
    try:
        page = ctx.new_page()
        open_caverns(page, server)
        page.evaluate(WATCH_FEATURE)
        quiet = forcing.caverns_free_quiet()
        force(page, [], *[quiet] * 10)
        page.click("#buy-feature")
        page.click("#buy-confirm")
        page.wait_for_selector("#free-spins-intro-button")
        assert page.inner_text("#free-spins-intro .intro-bought") == "Bought feature"
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"caverns-bought-notice-{size}.png"))
        press_scene(page, "free-spins-intro")
        page.wait_for_selector("#free-spins-outro-button", timeout=90_000)
        # told by the intro on screen and to a screen reader, and by no notice over the reels
        said = page.evaluate("() => window.__said")
        assert "Feature bought: 10 free spins." in said, said
        covered = page.evaluate("() => window.__covered")
        assert covered == [], covered[:3]
        counted = page.evaluate("() => window.__counted")
        assert counted == [[left, 10] for left in range(9, -1, -1)], counted
        press_scene(page, "free-spins-outro")
        wait_state(page, "idle", timeout=40_000)
    finally:
        ctx.close()


def test_a_triggered_feature_counts_the_spin_played_as_a_bought_one(
    browser: Browser, server: Server
) -> None:
    """Triggered by the Mine Carts: as each free spin's reels start the counter has counted
    it, as in a bought feature."""
    if not forcing.caverns_present():
        pytest.skip("Crystal Caverns is not in games/ on this branch")
    ctx = context_at(browser, "1366x768")
    try:
        page = ctx.new_page()
        open_caverns(page, server)
        page.evaluate(WATCH_FEATURE)
        awarded = forcing.caverns_round(forcing.caverns_trigger()).parts["free_spins"].awarded
        quiet = forcing.caverns_free_quiet()
        force(page, forcing.caverns_trigger(), *[quiet] * awarded)
        page.click("#spin")
        press_scene(page, "free-spins-intro")
        page.wait_for_selector("#free-spins-outro-button", timeout=90_000)
        counted = page.evaluate("() => window.__counted")
        assert counted == [[left, awarded] for left in range(awarded - 1, -1, -1)], counted
        press_scene(page, "free-spins-outro")
        wait_state(page, "idle", timeout=40_000)
    finally:
        ctx.close()


# -- German words on the bet bar ---------------------------------------------------------------

#: Each stepper's label and value row, as the player sees them ([label, label box, row box]).
STEPPERS = """() => [...document.querySelectorAll('.bet-controls > .stepper')]
  .filter((s) => s.checkVisibility())
  .map((s) => {
    const box = (e) => { const r = e.getBoundingClientRect();
      return {x: r.x, y: r.y, w: r.width, h: r.height, right: r.right, bottom: r.bottom}; };
    const label = s.querySelector('.stepper-label');
    return [label.textContent, box(label), box(s.querySelector('.stepper-row')),
            label.scrollWidth - label.clientWidth];
  })"""


@pytest.mark.parametrize("size", ["1366x768", "1920x1080"])
def test_the_german_bet_labels_fit_their_steppers(
    browser: Browser, server: Server, size: str
) -> None:
    """Crystal Caverns in German: every stepper's label ("Einsatzmultiplikator" the longest)
    is no wider than the stepper's buttons and value, cut nowhere, clear of the other
    controls; the steppers' rows stay level."""
    if not forcing.caverns_present():
        pytest.skip("Crystal Caverns is not in games/ on this branch")
    page, errors = german_caverns(browser, server, size)
    try:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"caverns-de-{size}-steppers.png"))
        steppers = page.evaluate(STEPPERS)
        assert any(
            label.replace("\u00ad", "") == "Einsatzmultiplikator" for label, *_ in steppers
        ), steppers
        for label, box, row, overflow in steppers:
            assert box["w"] <= row["w"] + 1, f"{label}: {box['w']:.0f} px over {row['w']:.0f} px"
            assert overflow <= 1, f"{label} is cut by {overflow} px"
        rows = {round(row["y"]) for _, _, row, _ in steppers}
        assert max(rows) - min(rows) <= 1, steppers
        boxes = page.evaluate(
            BOXES,
            {
                "label": ".bet-controls .stepper-label",
                "other": ".controls button, .controls output",
            },
        )
        for label in boxes["label"]:
            for other in boxes["other"]:
                assert not overlaps(label, other), (label, other)
        assert not errors, errors
    finally:
        page.context.close()
