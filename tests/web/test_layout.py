"""The studio layout at every screen size, checked on element boxes (not only screenshots):
the lobby and both titles at 320x568, 360x640, 390x844, 667x375, 844x390, 768x1024 and
1366x768, in the base game and with a banner shown. Nothing is off screen, nothing in the bar
overlaps, the session clock (with gb's net position beside it) never meets the title, no text
overflows its box or is under 12 px, the reels are large enough to play, nothing moves when a
banner shows, and nothing of a win is drawn over the gamble screen."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Route

from tests.web import forcing
from tests.web.conftest import SCREENSHOTS, Server, force, open_game, press_scene, wait_state

pytestmark = pytest.mark.web

SIZES = {
    "phone-320x568": {"width": 320, "height": 568},
    "phone-360x640": {"width": 360, "height": 640},
    "phone-390x844": {"width": 390, "height": 844},
    "landscape-667x375": {"width": 667, "height": 375},
    "landscape-844x390": {"width": 844, "height": 390},
    "tablet-768x1024": {"width": 768, "height": 1024},
    "desktop-1366x768": {"width": 1366, "height": 768},
}

# Every box of the game screen worth checking, by name; each is a list (a selector may match
# several elements, invisible ones are left out).
BOXES = """(selectors) => {
  const out = {};
  for (const [name, selector] of Object.entries(selectors)) {
    out[name] = [...document.querySelectorAll(selector)]
      .filter((e) => e.checkVisibility({ visibilityProperty: true }))
      .map((e) => {
        const r = e.getBoundingClientRect();
        return { id: e.id || e.className, x: r.x, y: r.y, w: r.width, h: r.height,
                 right: r.right, bottom: r.bottom, sw: e.scrollWidth, cw: e.clientWidth,
                 fs: parseFloat(getComputedStyle(e).fontSize) };
      })
      .filter((b) => b.w > 1 && b.h > 1);  // a visually hidden duplicate is no box
  }
  out.viewport = [{ w: innerWidth, h: innerHeight,
                    sw: document.scrollingElement.scrollWidth,
                    sh: document.scrollingElement.scrollHeight }];
  return out;
}"""

GAME_BOXES = {
    "bar": ".controls",
    "bar_items": ".controls > *",
    "bar_controls": ".controls button, .controls output, .controls .stepper",
    "bar_groups": ".bet-controls, .stepper-row",
    "head": ".game-head",
    "session": ".game-session .session-item",
    "session_pill": ".game-session .session-info",
    "title": ".game-title",
    "head_centre": ".game-title, .autoplay-status",
    "reels": ".reels",
    "pots": ".pot",
    "feature": ".stage-feature > *",
    # a title's bet modes (js/modes.js): the ante switch and the buy button
    "modes": "#modes button",
    "caption": ".win-caption",
    "texts": ".meter-label, .meter-value, .wallet-label, #balance, .stepper-label,"
    " .stepper-value, .bar-text, .pot-value, .session-item > *, .game-title, .ladder-status,"
    " .fs-counter, .autoplay-status, .pot-cap, .pot-name, .pots-caption, .collection-label,"
    " .mode-name, .mode-price",
}


def overlaps(a: dict[str, Any], b: dict[str, Any], slack: float = 0.5) -> bool:
    return (
        a["x"] + slack < b["right"]
        and b["x"] + slack < a["right"]
        and a["y"] + slack < b["bottom"]
        and b["y"] + slack < a["bottom"]
    )


def place(boxes: dict[str, Any]) -> tuple[float, ...]:
    """Where the reels are: their box alone."""
    (reels,) = boxes["reels"]
    return tuple(round(reels[k], 1) for k in ("x", "y", "w", "h"))


def inside(box: dict[str, Any], width: float, height: float, slack: float = 0.5) -> bool:
    return (
        box["x"] >= -slack
        and box["y"] >= -slack
        and box["right"] <= width + slack
        and box["bottom"] <= height + slack
    )


def check_game(page: Page, where: str) -> dict[str, Any]:
    """Assert the game screen's layout; return its boxes."""
    boxes: dict[str, Any] = page.evaluate(BOXES, GAME_BOXES)
    view = boxes["viewport"][0]
    width, height = view["w"], view["h"]
    assert view["sw"] <= width and view["sh"] <= height, f"{where}: the page scrolls: {view}"
    for name in (
        "bar",
        "bar_items",
        "bar_controls",
        "head",
        "session",
        "title",
        "reels",
        "pots",
        "feature",
        "modes",
    ):
        for box in boxes[name]:
            assert inside(box, width, height), f"{where}: {name} {box['id']} is off screen: {box}"
    for group in boxes["bar_groups"]:
        assert group["sw"] <= group["cw"] + 1, f"{where}: {group['id']} is wider than its box"
    items = boxes["bar_items"]
    for i, a in enumerate(items):
        for b in items[i + 1 :]:
            assert not overlaps(a, b), f"{where}: {a['id']} overlaps {b['id']}"
    (bar,) = boxes["bar"]
    (reels,) = boxes["reels"]
    assert len(boxes["head"]) == 1, f"{where}: the game head is not shown"
    assert boxes["session_pill"], f"{where}: the session clock is not shown"
    for clock in boxes["session_pill"]:
        for centre in boxes["head_centre"]:
            assert not overlaps(clock, centre), (
                f"{where}: the session clock {clock} overlaps {centre['id']} {centre}"
            )
    for box in items:
        assert inside(
            {
                **box,
                "x": box["x"] - bar["x"],
                "y": box["y"] - bar["y"],
                "right": box["right"] - bar["x"],
                "bottom": box["bottom"] - bar["y"],
            },
            bar["w"],
            bar["h"],
        ), f"{where}: {box['id']} sticks out of the bar"
    for name in ("bar", "head", "pots", "feature", "modes", "caption"):
        for box in boxes[name] if name != "bar" else [bar]:
            assert not overlaps(reels, box, slack=2), (
                f"{where}: the reels overlap {name} {box['id']}"
            )
    for box in boxes["texts"]:
        assert box["sw"] <= box["cw"] + 1, f"{where}: the text of {box['id']} overflows its box"
        assert box["fs"] >= 12, f"{where}: {box['id']} is written at {box['fs']} px (below 12)"
    rows = int(
        page.evaluate(
            "getComputedStyle(document.querySelector('.reels')).getPropertyValue('--rows')"
        )
    )
    cell = reels["h"] / rows
    assert cell >= 34, f"{where}: the reels' cells are {cell:.0f} px high: too small to play"
    return boxes


@pytest.fixture(params=list(SIZES), ids=list(SIZES))
def sized(request: pytest.FixtureRequest, browser: Browser) -> Iterator[tuple[str, Page]]:
    ctx: BrowserContext = browser.new_context(
        viewport=SIZES[request.param], reduced_motion="reduce", locale="en-GB"
    )
    ctx.set_default_timeout(15_000)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield request.param, page
    ctx.close()
    assert not errors, f"the page raised: {errors}"


def shot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"layout-{name}.png"))


def test_the_lobby_fits_every_screen(sized: tuple[str, Page], server: Server) -> None:
    size, page = sized
    player = server.new_player()
    page.goto(f"{server.url}/?token={player.token}#/")
    page.wait_for_selector(".lobby-card")
    boxes = page.evaluate(
        BOXES,
        {
            "bar": ".topbar > *",
            "cards": ".lobby-card",
            "buttons": ".lobby-play",
            "texts": ".wallet-label, #balance, .session-item > *, .lobby-name",
        },
    )
    width = boxes["viewport"][0]["w"]
    assert boxes["viewport"][0]["sw"] <= width, f"{size}: the lobby scrolls sideways"
    top = boxes["bar"]
    for i, a in enumerate(top):
        assert inside(a, width, 10_000), f"{size}: {a['id']} is off screen"
        for b in top[i + 1 :]:
            assert not overlaps(a, b), f"{size}: {a['id']} overlaps {b['id']}"
    for box in boxes["cards"] + boxes["buttons"]:
        assert box["x"] >= 0 and box["right"] <= width, f"{size}: {box['id']} is off screen"
    for box in boxes["texts"]:
        assert box["sw"] <= box["cw"] + 1, f"{size}: the text of {box['id']} overflows"
    # the lobby stays a lobby: the site bar, the balance in it
    assert page.is_visible(".topbar #balance") and page.is_visible(".topbar #session-clock")
    shot(page, f"lobby-{size}")


@pytest.mark.parametrize("game", [forcing.TSAR, forcing.SULTAN, forcing.AURORA])
def test_a_game_fills_every_screen_and_nothing_moves_for_a_banner(
    sized: tuple[str, Page], server: Server, game: str
) -> None:
    size, page = sized
    player = server.new_player()
    open_game(page, server, player, game)
    wait_state(page, "idle")
    where = f"{game} at {size}"
    shot(page, f"{game}-{size}")
    base = check_game(page, where)
    # the game has no site bar: the balance is in the game's own bar, beside bet and win
    assert page.is_hidden(".topbar")
    assert page.locator(".controls #balance").count() == 1

    # A message banner (the server cannot be reached) covers the top; the reels stay put.
    def refuse(route: Route) -> None:
        route.abort("connectionrefused")

    page.route("**/api/games/*/spin", refuse)
    page.click("#spin")
    page.wait_for_selector("body[data-unreachable]")
    assert page.is_visible("#banner")
    moved = check_game(page, f"{where}, message banner")
    assert place(moved) == place(base), f"{where}: the reels moved for the message banner"
    page.click("#banner button:has-text('Cancel')")
    wait_state(page, "idle")
    page.unroute("**/api/games/*/spin")

    # The free spins intro (a scene over the whole page) and the feature's panels: still
    # nothing moves.
    if game == forcing.TSAR:
        free = [forcing.tsar_spin(free=True) for _ in range(9)]
        force(page, forcing.tsar_free_spins_trigger(), *free)
    elif game == forcing.AURORA:
        free = [forcing.aurora_spin(free=True) for _ in range(10)]
        force(page, forcing.aurora_spin(auroras=(0, 1, 2)), *free)
    else:
        free = [forcing.sultan_spin(free=True) for _ in range(7)]
        force(page, [*forcing.sultan_triggers(), *forcing.sultan_spin(bonus=(0, 1, 2))], *free)
    page.click("#spin")
    page.wait_for_selector("#free-spins-intro-button")
    shot(page, f"{game}-{size}-banner")
    during = check_game(page, f"{where}, free spins intro")
    assert place(during) == place(base), f"{where}: the reels moved for the free spins intro"
    press_scene(page, "free-spins-intro")
    wait_state(page, "feature", "spinning")
    playing = check_game(page, f"{where}, free spins")
    assert place(playing) == place(base), f"{where}: the reels moved during free spins"


# What is drawn over the reels for a win, and where the gamble screen covers it, whether it is
# under the screen. Hit testing follows the paint order, so each such element is made hittable
# (these layers ignore the pointer) and, at points where it and the gamble screen meet, the
# topmost hit tells which is drawn above; its own pointer-events come back after.
DRAWN_ABOVE_THE_GAMBLE = """(selector) => {
  const dialog = document.querySelector('#gamble-screen');
  const d = dialog.getBoundingClientRect();
  const above = [];
  for (const e of document.querySelectorAll(selector)) {
    if (!e.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
    const r = e.getBoundingClientRect();
    const left = Math.max(r.left, d.left), right = Math.min(r.right, d.right);
    const top = Math.max(r.top, d.top), bottom = Math.min(r.bottom, d.bottom);
    if (right - left < 1 || bottom - top < 1) continue;
    const style = e.style;
    const p = 'pointer-events';
    const kept = [style.getPropertyValue(p), style.getPropertyPriority(p)];
    style.setProperty(p, 'auto', 'important');
    try {
      search: for (const fx of [0.2, 0.5, 0.8]) for (const fy of [0.2, 0.5, 0.8]) {
        const x = left + (right - left) * fx, y = top + (bottom - top) * fy;
        const stack = document.elementsFromPoint(x, y);
        const mine = stack.findIndex((n) => e.contains(n));
        const its = stack.findIndex((n) => dialog.contains(n));
        if (mine !== -1 && (its === -1 || mine < its)) {
          above.push(`${e.getAttribute('class')} "${e.textContent}"`);
          break search;
        }
      }
    } finally {
      style.setProperty(p, kept[0], kept[1]);
    }
  }
  return above;
}"""
WIN_MARKS = ".line-amount, .payline-tag, .win-popup, .cell-badge"


def test_nothing_of_the_win_is_drawn_over_the_gamble_screen(
    sized: tuple[str, Page], server: Server
) -> None:
    """A win on several lines cycles through them, each with its amount over the reels; the
    gamble screen opened meanwhile covers the reels, and none of those amounts, line tags or
    the win's total is drawn on top of it."""
    size, page = sized
    open_game(page, server, server.new_player(), forcing.TSAR)
    wait_state(page, "idle")
    force(page, forcing.tsar_win_on_lines(2))
    page.click("#spin")
    wait_state(page, "gamble")
    page.wait_for_selector(".line-amount")  # a line's amount is shown over the reels
    page.click("#gamble")
    page.wait_for_selector("#gamble-screen")
    page.wait_for_timeout(300)  # the cycle's next line, were it still going
    shot(page, f"gamble-{size}")
    above = page.evaluate(DRAWN_ABOVE_THE_GAMBLE, WIN_MARKS)
    assert not above, f"{size}: drawn over the gamble screen: {above}"
    caption = page.inner_text("#win-caption")
    assert caption == "", f"{size}: the caption still names a line's win: {caption!r}"
    boxes = page.evaluate(BOXES, {"dialog": "#gamble-screen"})
    view = boxes["viewport"][0]
    (dialog,) = boxes["dialog"]
    assert inside(dialog, view["w"], view["h"]), f"{size}: the gamble screen is off screen"


def test_the_gb_net_position_beside_the_clock_leaves_the_title_clear(
    sized: tuple[str, Page], server: Server
) -> None:
    """gb shows the net position beside the session clock: the head grows, and still neither
    overlaps the title."""
    size, page = sized
    open_game(page, server, server.new_player(market="gb", currency="GBP"), forcing.TSAR)
    wait_state(page, "idle")
    force(page, forcing.tsar_spin(win=False))
    page.click("#spin")
    wait_state(page, "idle")
    page.wait_for_selector("#session-net:not(:empty)")
    shot(page, f"gb-{size}")
    check_game(page, f"gb {forcing.TSAR} at {size}")


@pytest.mark.parametrize("size", ["phone-320x568", "phone-390x844"])
def test_the_history_shows_replay_on_a_phone(browser: Browser, server: Server, size: str) -> None:
    ctx = browser.new_context(viewport=SIZES[size], reduced_motion="reduce", locale="en-GB")
    try:
        page = ctx.new_page()
        player = server.new_player()
        open_game(page, server, player, forcing.TSAR)
        force(page, forcing.tsar_spin(win=False))
        page.click("#spin")
        wait_state(page, "idle")
        page.click("#menu")
        page.click("#history")
        page.locator("#history-dialog .history-row").first.wait_for()
        shot(page, f"history-{size}")
        boxes = page.evaluate(
            BOXES,
            {
                "replay": ".replay-open",
                "cells": ".history-row td",
                "dialog": "#history-dialog .dialog-body",
            },
        )
        width, height = boxes["viewport"][0]["w"], boxes["viewport"][0]["h"]
        assert boxes["replay"], "no Replay button is shown"
        for name in ("replay", "cells", "dialog"):
            for box in boxes[name]:
                assert inside(box, width, height), f"{size}: {name} {box['id']} is off screen"
        (dialog,) = boxes["dialog"]
        assert dialog["sw"] <= dialog["cw"] + 1, f"{size}: the history scrolls sideways"
        page.click(".replay-open")
        page.wait_for_selector(".replay-stage .reels")
    finally:
        ctx.close()


@pytest.mark.parametrize("size", ["phone-320x568", "landscape-667x375"])
@pytest.mark.parametrize("game", [forcing.TSAR, forcing.SULTAN])
def test_a_game_in_german_fits_the_small_screens(
    browser: Browser, server: Server, size: str, game: str
) -> None:
    """German words are longer: the bar and the head still fit."""
    ctx = browser.new_context(viewport=SIZES[size], reduced_motion="reduce", locale="de-DE")
    try:
        page = ctx.new_page()
        open_game(page, server, server.new_player(), game)
        wait_state(page, "idle")
        assert page.get_attribute("html", "lang", timeout=1000) in ("de", "de-DE")
        assert page.inner_text(".meter-win .meter-label").lower() == "gewinn"
        shot(page, f"{game}-{size}-de")
        check_game(page, f"{game} in German at {size}")
    finally:
        ctx.close()
