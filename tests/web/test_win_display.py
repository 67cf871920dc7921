"""A win on several lines, measured on element boxes once every line is shown together: each
payline's number is on its own line and clear of the others (not all at the reels' left
edge), no two lines' amounts cover each other, and on a phone the total covers no symbol and
the caption is whole (never cut with an ellipsis)."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tests.web import forcing
from tests.web.conftest import SCREENSHOTS, Server, force, open_game, wait_state
from tests.web.test_layout import BOXES, overlaps

pytestmark = pytest.mark.web

SIZES = {
    "320x568": {"width": 320, "height": 568},
    "390x844": {"width": 390, "height": 844},
    "844x390": {"width": 844, "height": 390},
    "1366x768": {"width": 1366, "height": 768},
}
PHONES = ["320x568", "390x844", "844x390"]


@pytest.fixture(params=list(SIZES))
def shown(request: pytest.FixtureRequest, browser: Browser, server: Server) -> Iterator[Page]:
    """A Tsar win on three lines or more, shown all together, at each size."""
    ctx = browser.new_context(
        viewport=SIZES[request.param],
        reduced_motion="reduce",
        locale="en-GB",
        bypass_csp=True,
    )
    ctx.set_default_timeout(15_000)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    open_game(page, server, server.new_player(), forcing.TSAR)
    wait_state(page, "idle")
    force(page, forcing.tsar_win_on_lines(3))
    page.click("#spin")
    page.wait_for_function("document.querySelector('#win-caption').dataset.shown === 'all'")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"win-lines-{request.param}.png"))
    yield page
    ctx.close()
    assert not errors, f"the page raised: {errors}"


def size_of(page: Page) -> str:
    view = page.viewport_size
    assert view is not None
    return f"{view['width']}x{view['height']}"


def test_each_payline_number_is_on_its_line_and_clear_of_the_others(shown: Page) -> None:
    page = shown
    where = size_of(page)
    tags: list[dict[str, Any]] = page.evaluate(
        """() => [...document.querySelectorAll('.payline-tag circle')].map((c) => {
             const r = c.getBoundingClientRect();
             return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
           })"""
    )
    lines = page.evaluate("() => document.querySelectorAll('.payline').length")
    assert len(tags) == lines >= 3, f"{where}: {len(tags)} numbers for {lines} lines"
    reels = page.evaluate(BOXES, {"reels": ".reels"})["reels"][0]
    left_edge = [t for t in tags if t["x"] < reels["x"] + reels["w"] / 10]
    assert len(left_edge) <= 1, f"{where}: {len(left_edge)} numbers at the reels' left edge"
    for i, a in enumerate(tags):
        for b in tags[i + 1 :]:
            apart = math.hypot(a["x"] - b["x"], a["y"] - b["y"])
            assert apart >= 22, f"{where}: two line numbers {apart:.0f} px apart: {a} {b}"


def test_no_two_line_amounts_cover_each_other(shown: Page) -> None:
    page = shown
    where = size_of(page)
    amounts = page.evaluate(BOXES, {"a": ".line-amount"})["a"]
    assert len(amounts) >= 3, f"{where}: {len(amounts)} line amounts shown"
    for i, a in enumerate(amounts):
        for b in amounts[i + 1 :]:
            assert not overlaps(a, b), f"{where}: line amounts overlap: {a} {b}"


def test_on_a_phone_the_total_covers_no_symbol_and_the_caption_is_whole(shown: Page) -> None:
    page = shown
    where = size_of(page)
    if where not in PHONES:
        pytest.skip("the total lies over the reels where they leave it room")
    found = page.evaluate(
        BOXES,
        {"total": "#win-amount", "symbols": ".reels .cell .symbol", "caption": "#win-caption"},
    )
    (total,) = found["total"]
    covered = [s for s in found["symbols"] if overlaps(total, s)]
    assert not covered, f"{where}: the total {total} covers {len(covered)} symbols"
    size = page.eval_on_selector(
        "#win-caption",
        "e => [e.scrollWidth, e.clientWidth, e.scrollHeight, e.clientHeight, e.textContent]",
    )
    sw, cw, sh, ch, text = size
    assert sw <= cw + 1 and sh <= ch + 1, f"{where}: the caption {text!r} is cut: {size}"
    assert page.get_attribute("#win-amount", "data-minor") == page.get_attribute(
        "#win", "data-minor"
    )
    assert "pay" in text, f"{where}: the caption {text!r} does not say what the wins pay"
