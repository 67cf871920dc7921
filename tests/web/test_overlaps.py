"""What the game tells the player never covers itself: at each screen size of ``test_sizes``
and for each title, in the base game idle, with a win shown, while autoplay runs, in free
spins with their counter and with a notice shown (a round resumed in its free spins), the
boxes of the head (session clock, title or autoplay status, fullscreen, mute), the autoplay
status and its Stop button, the notices, the feature's counters and panels (free spins
counter, ladder, collection meter, pots), the win caption, the win's total and the bar are
each on the screen and none overlaps another that is not part of it.

The screenshots (``artifacts/screenshots/overlaps-<title>-<size>-<state>.png``) are for a
person to look at."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tests.web import forcing
from tests.web.conftest import SCREENSHOTS, Server, force, press_scene, wait_state
from tests.web.test_layout import BOXES, inside, overlaps
from tests.web.test_screens import free_spins, line_wins
from tests.web.test_sizes import GAMES, SIZES, viewport

pytestmark = pytest.mark.web

#: Each piece of information, by name: a selector may match several boxes (invisible ones are
#: left out). Two boxes of one name may touch (the pots side by side, a head's parts); boxes of
#: two names never overlap, except where one holds the other (``HOLDS``).
INFO = {
    "clock": ".game-session .session-info",
    "title": ".game-title",
    "mute": "#mute",
    "fullscreen": "#fullscreen",
    "autoplay": "#autoplay-status",
    "autoplay_stop": "#autoplay-stop",
    "notice": ".notice",
    "banner": "#banner:not([hidden])",
    "counter": ".fs-counter, .ladder-status",
    "feature": ".stage-feature > *",
    "modes": "#modes button",
    "pots": ".pot, .pots-caption",
    "caption": "#win-caption:not(:empty)",
    "total": ".win-popup",
    "bar": ".controls > *",
}
#: Boxes drawn inside another on purpose: (outer, inner).
HOLDS = {("autoplay", "autoplay_stop"), ("feature", "counter"), ("feature", "modes")}


def losing_spin(game: str) -> list[int]:
    if game == forcing.TSAR:
        return forcing.tsar_spin(win=False)
    if game == forcing.AURORA:
        return forcing.aurora_spin(win=False)
    return forcing.sultan_spin()


#: The ante switch's words as drawn (where it is shown): each line's element box, the box of
#: its text as laid out (a range over it: text cut by ``overflow`` or an ellipsis is laid out
#: past its box), whether it is cut with an ellipsis, and the switch's own box.
ANTE_WORDS = """() => {
  const ante = document.querySelector('#ante');
  if (!ante || !ante.checkVisibility({ visibilityProperty: true })) return null;
  const box = (r) => ({ x: r.x, y: r.y, w: r.width, h: r.height,
                        right: r.right, bottom: r.bottom });
  const lines = [...ante.querySelectorAll('.mode-name, .mode-price')].map((e) => {
    const range = document.createRange();
    range.selectNodeContents(e);
    const style = getComputedStyle(e);
    return { text: e.innerText, box: box(e.getBoundingClientRect()),
             words: box(range.getBoundingClientRect()), sw: e.scrollWidth, cw: e.clientWidth,
             ellipsis: style.textOverflow === 'ellipsis' && style.overflowX !== 'visible' };
  });
  return { button: box(ante.getBoundingClientRect()), lines };
}"""


def within(inner: dict[str, Any], outer: dict[str, Any], slack: float = 0.5) -> bool:
    return (
        inner["x"] >= outer["x"] - slack
        and inner["y"] >= outer["y"] - slack
        and inner["right"] <= outer["right"] + slack
        and inner["bottom"] <= outer["bottom"] + slack
    )


def check_ante_words(page: Page, where: str) -> None:
    """The ante switch, where it is shown, is a 44 px target whose name and price per spin
    are read whole: no line cut with an ellipsis or wider than its box, and the words inside
    the switch (at 320x568 beside the hold-and-spin counter they were "A… €0…")."""
    found: dict[str, Any] | None = page.evaluate(ANTE_WORDS)
    if found is None:
        return
    button = found["button"]
    assert button["w"] >= 44 and button["h"] >= 44, f"{where}: the ante is {button}"
    assert found["lines"] and found["lines"][0]["text"], f"{where}: the ante has no name"
    for line in found["lines"]:
        said = f"{where}: the ante's {line['text']!r}"
        assert not line["ellipsis"], f"{said} may be cut with an ellipsis"
        assert line["sw"] <= line["cw"] + 1, f"{said} is wider than its box: {line}"
        assert within(line["words"], line["box"], 1), f"{said} runs out of its box: {line}"
        assert within(line["words"], button, 1), f"{said} runs out of the switch: {line}"


def check_info(page: Page, where: str) -> dict[str, Any]:
    """Every piece of ``INFO`` shown is on the screen and clear of every other, and the ante's
    words are read whole (``check_ante_words``)."""
    check_ante_words(page, where)
    boxes: dict[str, Any] = page.evaluate(BOXES, INFO)
    view = boxes["viewport"][0]
    named = [(name, box) for name in INFO for box in boxes[name]]
    for name, box in named:
        assert inside(box, view["w"], view["h"]), f"{where}: {name} is off screen: {box}"
    for i, (name_a, a) in enumerate(named):
        for name_b, b in named[i + 1 :]:
            if name_a == name_b or (name_a, name_b) in HOLDS or (name_b, name_a) in HOLDS:
                continue
            assert not overlaps(a, b), f"{where}: {name_a} {a} overlaps {name_b} {b}"
    return boxes


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", GAMES)
def test_nothing_the_game_says_covers_anything_else(
    browser: Browser, server: Server, game: str, size: str
) -> None:
    ctx = browser.new_context(
        viewport=viewport(size), reduced_motion="reduce", locale="en-GB", bypass_csp=True
    )
    ctx.set_default_timeout(20_000)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def check(state: str) -> dict[str, Any]:
        page.screenshot(path=str(SCREENSHOTS / f"overlaps-{game}-{size}-{state}.png"))
        return check_info(page, f"{game} {size} {state}")

    try:
        player = server.new_player()
        page.goto(f"{server.url}/?token={player.token}#/play/{game}")
        page.wait_for_selector(".game:not([data-state='loading'])")
        turbo = page.locator("#turbo")
        if turbo.is_visible() and turbo.get_attribute("aria-pressed") != "true":
            turbo.click()
        wait_state(page, "idle")
        check("idle")

        force(page, line_wins(game))
        page.click("#spin")
        wait_state(page, "idle", "gamble")
        page.wait_for_selector("#win-caption:not(:empty)")
        assert check("win")["caption"], "the win caption is not shown"
        if game == forcing.TSAR:
            page.click("#collect-offer")
            wait_state(page, "idle")

        force(page, *[losing_spin(game) for _ in range(20)])
        page.click("#autoplay")
        page.fill("#autoplay-rounds", "20")
        page.fill("#autoplay-loss-limit", "100")
        page.click("#autoplay-start")
        page.wait_for_selector("#autoplay-status:not([hidden])")
        page.wait_for_function(
            "Number(document.querySelector('#autoplay-status').dataset.remaining) <= 19"
        )
        found = check("autoplay")
        assert found["autoplay"] and found["autoplay_stop"], "the autoplay status is not shown"
        page.evaluate(
            "document.querySelector('#autoplay-status:not([hidden]) #autoplay-stop')?.click()"
        )
        wait_state(page, "idle", timeout=60_000)
        page.evaluate("window.reelsmith.clear()")

        if game == forcing.LANTERNS:
            # its feature is the hold-and-spin, played out within its spin: the board and its
            # counter are checked, and no round is left open to come back to
            force(page, forcing.lanterns_spin(7, ["5", "mini"]))
            page.click("#spin")
            page.wait_for_selector("#hold-and-spin:not([hidden])")
            assert check("hold-and-spin")["counter"], "the hold-and-spin counter is not shown"
            wait_state(page, "idle", "gamble", timeout=60_000)
            check("hold-and-spin-end")
            return
        force(page, *free_spins(game))
        page.click("#spin")
        page.wait_for_selector("#free-spins-intro-button")
        press_scene(page, "free-spins-intro")
        wait_state(page, "feature", "spinning")
        page.locator(".fs-counter:not([hidden]), .ladder-status").first.wait_for()
        assert check("free-spins")["counter"], "the free spins counter is not shown"

        page.goto(f"{server.url}/?token={player.token}#/play/{game}")
        page.wait_for_selector(".notice")
        wait_state(page, "paused")
        found = check("notice")
        assert found["notice"], "the notice is not shown"
        assert found["counter"], "the free spins counter is not shown beside the notice"
    finally:
        ctx.close()
    assert not errors, f"{game} {size}: the page raised: {errors}"
