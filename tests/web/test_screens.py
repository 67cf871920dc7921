"""Every screen a player meets, at every required size, photographed and checked on element
boxes: the idle game, the menu, the rules, a spin's line wins, the gamble (Days of the Tsar),
a big win's scene, the history, and the free spins' intro and play. Each title at 320x568,
390x844, 844x390, 768x1024 and 1366x768, in English and German; the gb market (its session
clock and net position) on Days of the Tsar and the jp market (whole yen) on Sultan Spins.

The pictures (``artifacts/screenshots/screens-<case>-<screen>.png``) are for a person to look
at; the boxes are what a test can hold: nothing off screen, controls that do not overlap,
text that fits its box at a readable size. The whole sweep is slow (forty tours); a tour of
each title, each market and German at one size each runs always."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tests.web import forcing
from tests.web.conftest import SCREENSHOTS, Server, force, press_scene, wait_state
from tests.web.test_layout import BOXES, SIZES, check_game, inside, overlaps

pytestmark = pytest.mark.web

REQUIRED_SIZES = [
    "phone-320x568",
    "phone-390x844",
    "landscape-844x390",
    "tablet-768x1024",
    "desktop-1366x768",
]
GAMES = [forcing.TSAR, forcing.SULTAN, forcing.AURORA]
MARKETS = {  # market: (currency, balance)
    "default": ("EUR", "1000.00"),
    "gb": ("GBP", "1000.00"),
    "jp": ("JPY", "100000"),
}


@dataclass(frozen=True)
class Case:
    game: str
    size: str
    language: str = "en"
    market: str = "default"

    @property
    def name(self) -> str:
        return f"{self.game}-{self.market}-{self.language}-{self.size}"


def sweep() -> list[Case]:
    cases = [
        Case(game, size, language)
        for game in GAMES
        for size in REQUIRED_SIZES
        for language in ("en", "de")
    ]
    cases += [Case(forcing.TSAR, size, market="gb") for size in REQUIRED_SIZES]
    cases += [Case(forcing.SULTAN, size, market="jp") for size in REQUIRED_SIZES]
    return cases


ALWAYS = [
    Case(forcing.TSAR, "phone-390x844"),
    Case(forcing.SULTAN, "landscape-844x390"),
    Case(forcing.AURORA, "desktop-1366x768"),
    Case(forcing.TSAR, "phone-320x568", language="de"),
    Case(forcing.TSAR, "tablet-768x1024", market="gb"),
    Case(forcing.SULTAN, "phone-320x568", market="jp"),
]
SLOW = [case for case in sweep() if case not in ALWAYS]


# -- forced screens ----------------------------------------------------------------------


#: A lines title's symbol kept off a plain base spin (what would start its feature), its
#: wins at the forced bet and that bet in coins.
PLAIN = {
    forcing.TSAR: ("egg", forcing.tsar_wins, 25),
    forcing.AURORA: ("aurora", forcing.aurora_wins, 20),
    forcing.LANTERNS: ("lantern", forcing.lanterns_wins, 20),
}


def line_wins(game: str) -> list[int]:
    """The draws of a base spin that wins on two paylines or more, above the stake (gb does
    not celebrate a win not above it) and below the big-win tier."""
    if game in PLAIN:
        kept, wins, stake = PLAIN[game]
        off = forcing.symbol(game, kept)
        return forcing.search_stops(
            game,
            "base",
            [lambda cells: off not in cells] * 5,
            lambda grid: (
                len(wins(grid).line_wins) >= 2 and 2 * stake <= wins(grid).total_coins < 10 * stake
            ),
        )
    # the first spin of a bet size draws its pots' trigger points first
    return [*forcing.sultan_triggers(), *sultan_stops(lambda coins: 2 * 40 <= coins < 10 * 40)]


def big_win(game: str) -> list[int]:
    """The draws of a base spin whose win is in the big tier (15 to 30 times the stake), at a
    bet size played before."""
    if game == forcing.TSAR:
        return forcing.tsar_win_between(15 * 25, 30 * 25)
    if game == forcing.AURORA:
        aurora = forcing.symbol(game, "aurora")
        return forcing.search_stops(
            game,
            "base",
            [lambda cells: aurora not in cells] * 5,
            lambda grid: 15 * 20 <= forcing.aurora_wins(grid).total_coins < 30 * 20,
        )
    return sultan_stops(lambda coins: 15 * 40 <= coins < 30 * 40)


def sultan_stops(wanted: Any) -> list[int]:
    """Stops for a Sultan Spins base screen without gems or bonus symbols whose line wins, in
    line bets (a fortieth of the stake), satisfy ``wanted``."""
    from reelsmith.engine.evaluation import evaluate_screen

    game = forcing.model(forcing.SULTAN)
    lines = len(game.paylines)
    gem, bonus = forcing.symbol(forcing.SULTAN, "gem"), forcing.symbol(forcing.SULTAN, "bonus")
    return forcing.search_stops(
        forcing.SULTAN,
        "base",
        [lambda cells: gem not in cells and bonus not in cells] * 5,
        lambda grid: bool(wanted(evaluate_screen(game, grid, lines, 1, lines).total_coins)),
    )


def free_spins(game: str) -> list[list[int]]:
    """The trigger of free spins (at a bet size played before) and every free spin's draws."""
    if game == forcing.TSAR:
        return [forcing.tsar_free_spins_trigger(), *[forcing.tsar_spin(free=True)] * 9]
    if game == forcing.AURORA:
        return [forcing.aurora_spin(auroras=(0, 1, 2)), *[forcing.aurora_spin(free=True)] * 10]
    return [forcing.sultan_spin(bonus=(0, 1, 2)), *[forcing.sultan_spin(free=True)] * 7]


# -- the checks --------------------------------------------------------------------------

OVERLAY_BOXES = {
    "panel": "{panel}",
    "controls": "{panel} button, {panel} select, {panel} input, {panel} a.btn",
    "body": "{panel} .dialog-body",
}
OVERLAY_TEXTS = (
    "{panel} h2, {panel} h3, {panel} button, {panel} label, {panel} td, {panel} th, {panel} dt,"
    " {panel} dd, {panel} .scene-line, {panel} .scene-title, {panel} .scene-amount,"
    " {panel} .pay-card *, {panel} p, {panel} output, {panel} b, {panel} caption, {panel} a"
)


# The innermost elements of a scrolling box that reach past its right edge, named.
STICKING_OUT = """(selector) => {
  const box = document.querySelector(selector);
  const edge = box.getBoundingClientRect().right;
  return [...box.querySelectorAll('*')]
    .filter((e) => e.getBoundingClientRect().right > edge + 1)
    .filter((e) => ![...e.children].some((c) => c.getBoundingClientRect().right > edge + 1))
    .slice(0, 6)
    .map((e) => `${e.tagName.toLowerCase()}.${e.className} "${e.textContent.slice(0, 40)}"`);
}"""


# Text that overflows its box or is written under 12 px; text kept for screen readers alone (a
# clipped box of 1 px, as the history's table head on a phone) is no text a player reads.
BAD_TEXT = """(selector) => {
  const hidden = (e) => {
    for (let n = e; n; n = n.parentElement) {
      const r = n.getBoundingClientRect();
      if (getComputedStyle(n).clip !== 'auto' || r.width <= 1 || r.height <= 1) return true;
    }
    return false;
  };
  return [...document.querySelectorAll(selector)]
    .filter((e) => e.checkVisibility({ visibilityProperty: true }) && !hidden(e))
    .filter((e) => e.scrollWidth > e.clientWidth + 1
                   || parseFloat(getComputedStyle(e).fontSize) < 12)
    .slice(0, 6)
    .map((e) => `${e.tagName.toLowerCase()}.${e.className} "${e.textContent.slice(0, 40)}"`
                + ` ${e.scrollWidth} > ${e.clientWidth} at ${getComputedStyle(e).fontSize}`);
}"""


def check_overlay(page: Page, panel: str, where: str, *, whole: bool = False) -> dict[str, Any]:
    """A dialog, screen or scene over the game (``panel``, a selector): it is on screen, its
    body does not scroll sideways, its controls stay inside it (across; a long body scrolls
    down, unless ``whole``: a screen whose every control must show without scrolling) and do
    not overlap one another, its text fits its box at 12 px or more."""
    boxes: dict[str, Any] = page.evaluate(
        BOXES, {name: selector.format(panel=panel) for name, selector in OVERLAY_BOXES.items()}
    )
    view = boxes["viewport"][0]
    assert view["sw"] <= view["w"] and view["sh"] <= view["h"], f"{where}: the page scrolls"
    assert boxes["panel"], f"{where}: {panel} is not shown"
    (box,) = boxes["panel"][:1]
    assert inside(box, view["w"], view["h"]), f"{where}: {panel} is off screen: {box}"
    for body in boxes["body"]:
        if body["sw"] > body["cw"] + 1:
            wide = page.evaluate(STICKING_OUT, f"{panel} .dialog-body")
            raise AssertionError(f"{where}: {panel} scrolls sideways: {wide}")
    controls = boxes["controls"]
    for control in controls:
        assert control["x"] >= box["x"] - 0.5 and control["right"] <= box["right"] + 0.5, (
            f"{where}: {control['id']} sticks out of {panel} across: {control}"
        )
        if whole:
            assert control["y"] >= box["y"] - 0.5 and control["bottom"] <= box["bottom"] + 0.5, (
                f"{where}: {control['id']} is out of sight in {panel}: {control} in {box}"
            )
    for i, a in enumerate(controls):
        for b in controls[i + 1 :]:
            assert not overlaps(a, b), f"{where}: {a['id']} overlaps {b['id']}"
    bad = page.evaluate(BAD_TEXT, OVERLAY_TEXTS.format(panel=panel))
    assert not bad, f"{where}: text overflows its box or is under 12 px: {bad}"
    return boxes


def check_marks(page: Page, where: str) -> None:
    """The amounts drawn over the reels for a win are on screen and readable."""
    boxes = page.evaluate(BOXES, {"marks": ".line-amount, .win-popup"})
    view = boxes["viewport"][0]
    assert boxes["marks"], f"{where}: no amount is drawn over the reels"
    for mark in boxes["marks"]:
        assert inside(mark, view["w"], view["h"]), f"{where}: {mark['id']} is off screen"
        assert mark["fs"] >= 12, f"{where}: {mark['id']} is written at {mark['fs']} px"


# -- the tour ----------------------------------------------------------------------------


@pytest.fixture
def tour_page(browser: Browser, request: pytest.FixtureRequest) -> Iterator[Page]:
    case: Case = request.param
    locale = "de-DE" if case.language == "de" else "en-GB"
    ctx = browser.new_context(
        viewport=SIZES[case.size], reduced_motion="reduce", locale=locale, bypass_csp=True
    )
    ctx.set_default_timeout(20_000)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    ctx.close()
    assert not errors, f"the page raised: {errors}"


def tour(page: Page, server: Server, case: Case) -> None:
    """Every screen of ``case``, in the order a player meets them."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def shot(screen: str) -> None:
        page.screenshot(path=str(SCREENSHOTS / f"screens-{case.name}-{screen}.png"))

    currency, balance = MARKETS[case.market]
    player = server.new_player(market=case.market, currency=currency, balance=balance)
    page.goto(f"{server.url}/?token={player.token}#/play/{case.game}")
    page.wait_for_selector(".game:not([data-state='loading'])")
    turbo = page.locator("#turbo")
    if turbo.is_visible() and turbo.get_attribute("aria-pressed") != "true":
        turbo.click()
    wait_state(page, "idle")
    where = case.name
    expected = "de" if case.language == "de" else "en"
    assert page.evaluate("document.documentElement.lang") == expected, where
    shot("idle")
    check_game(page, f"{where}, idle")

    page.click("#menu")
    page.locator("#menu-dialog[open]").wait_for()
    shot("menu")
    check_overlay(page, "#menu-dialog", f"{where}, menu")
    page.keyboard.press("Escape")

    page.click("#menu")
    page.click("#rules")
    page.locator("#rules-dialog[open] .pay-card").first.wait_for()
    shot("rules")
    check_overlay(page, "#rules-dialog", f"{where}, rules")
    page.keyboard.press("Escape")

    force(page, line_wins(case.game))
    page.click("#spin")
    page.locator(".line-amount").first.wait_for()
    shot("line-wins")
    check_game(page, f"{where}, line wins")
    check_marks(page, f"{where}, line wins")
    if case.game == forcing.TSAR:
        wait_state(page, "gamble")
        page.click("#gamble")
        page.locator("#gamble-screen").wait_for()
        shot("gamble")
        check_overlay(page, "#gamble-screen", f"{where}, gamble", whole=True)
        page.click("#collect")
    wait_state(page, "idle")

    force(page, big_win(case.game))
    page.click("#spin")
    page.locator("#win-scene").wait_for()
    shot("big-win")
    assert page.get_attribute("#win-scene", "data-tier") == "big", where
    check_overlay(page, "#win-scene .scene-card", f"{where}, big win", whole=True)
    while page.locator("#win-scene").count():
        page.locator("#win-scene").click()
    if case.game == forcing.TSAR:
        wait_state(page, "gamble")
        page.click("#gamble")
        page.click("#collect")
    wait_state(page, "idle")

    page.click("#menu")
    page.click("#history")
    page.locator("#history-dialog[open] .history-row").first.wait_for()
    shot("history")
    check_overlay(page, "#history-dialog", f"{where}, history")
    page.keyboard.press("Escape")

    force(page, *free_spins(case.game))
    page.click("#spin")
    page.wait_for_selector("#free-spins-intro-button")
    shot("free-spins-intro")
    check_overlay(page, "#free-spins-intro .scene-card", f"{where}, free spins intro", whole=True)
    press_scene(page, "free-spins-intro")
    wait_state(page, "feature", "spinning")
    page.locator(".fs-counter:not([hidden]), .ladder-status").first.wait_for()
    shot("free-spins")
    check_game(page, f"{where}, free spins")


@pytest.mark.parametrize("tour_page", ALWAYS, ids=[c.name for c in ALWAYS], indirect=True)
def test_every_screen_of_a_title(tour_page: Page, server: Server, request: Any) -> None:
    tour(tour_page, server, request.node.callspec.params["tour_page"])


@pytest.mark.slow
@pytest.mark.parametrize("tour_page", SLOW, ids=[c.name for c in SLOW], indirect=True)
def test_every_screen_at_every_size(tour_page: Page, server: Server, request: Any) -> None:
    tour(tour_page, server, request.node.callspec.params["tour_page"])
