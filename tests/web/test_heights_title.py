"""A title of variable rows plays in the browser with no code of its own in the client:
``tests/web/titles/rising_rows`` (six reels of 2 to 7 rows, ways, free spins; a model file and
a variant, nothing else) served with ``--titles``. Each reel shows its drawn height's symbols
over its whole column, no cell below it, the ways the screen shows are named, and the way wins
light their cells; under the server's Content-Security-Policy, with no page error. Screenshots
at phone and desktop sizes (artifacts/screenshots/heights-*.png)."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from reelsmith.engine.model import load_model
from tests import copies
from tests.web.conftest import (
    DESKTOP,
    PHONE,
    SCREENSHOTS,
    Policed,
    Server,
    force,
    open_game,
    run_server,
    wait_state,
)

pytestmark = pytest.mark.web

TITLES = Path(__file__).resolve().parent / "titles"
GAME = "rising-rows"
#: Each reel's (stop, height) of the forced screen.
LANDED = [(0, 2), (3, 7), (5, 4), (1, 3), (8, 6), (2, 5)]


def draws(landed: list[tuple[int, int]]) -> list[int]:
    """The ``reel_stop`` draw that lands each reel on its (stop, height): the least value
    below its total weight that the weighted draw maps to that position."""
    reel_set = load_model(TITLES / "rising_rows").variant().reel_sets["base"]
    assert reel_set.heights is not None
    values = []
    for reel, (stop, height) in enumerate(landed):
        k = [h for h, _ in reel_set.heights[reel]].index(height)
        position = k * int(reel_set.lengths[reel]) + stop
        values.append(
            int(reel_set.cumulative[reel, position])
            - int(reel_set.position_weights(reel)[position])
        )
        assert reel_set.position(reel, position) == (stop, height)
    return values


@pytest.fixture(scope="module")
def heights_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("heights-title")
    table = 'variant = "main"\ncoin_sizes = ["0.01", "0.05"]'
    markets = copies.markets_offering(tmp / "markets", GAME, table)
    with run_server(tmp, titles_dirs=str(TITLES), markets_dir=str(markets)) as running:
        yield running


def test_a_screen_of_variable_rows_shows_each_reel_s_height(
    policed: Policed, heights_server: Server
) -> None:
    page = policed.page
    player = heights_server.new_player()
    open_game(page, heights_server, player, GAME)
    force(page, draws(LANDED))
    with page.expect_response(lambda r: r.url.endswith("/spin")) as spun:
        page.click("#spin")
    answer = spun.value.json()
    wait_state(page, "idle", "free_spins", timeout=40_000)
    drawn = next(e for e in answer["events"] if e["type"] == "heights_drawn")
    heights = [h for _, h in LANDED]
    assert drawn["heights"] == heights and drawn["stops"] == [s for s, _ in LANDED]
    assert drawn["ways"] == math.prod(heights) == 5040
    for reel, height in enumerate(heights):
        column = page.locator(f".reels .reel[data-reel='{reel}']")
        assert column.get_attribute("data-height") == str(height)
        cells = column.locator(".cell[data-row]")
        assert cells.count() == height
        assert "-" not in cells.evaluate_all("(cs) => cs.map((c) => c.dataset.symbol)")
        # the symbols fill the column: the cells' heights add up to the column's
        box = column.bounding_box()
        total = sum(cells.nth(i).bounding_box()["height"] for i in range(height))  # type: ignore[index]
        assert box is not None and abs(total - box["height"]) <= 2 + height
    assert page.inner_text(".reels .ways-count") == "5,040 ways"
    # a ways title's bet multiplies its cost: the stepper says so, as the rules page does
    assert page.get_attribute("#coins-up", "aria-label") is not None
    assert "Bet multiplier" in (page.get_attribute("#coins-up", "aria-label") or "")
    paid = {
        tuple(cell) for e in answer["events"] if e["type"] == "way_win" for cell in e["positions"]
    }
    lit = page.locator(".reels .cell.win").evaluate_all(
        "(cells) => cells.map((c) => [Number(c.dataset.row), Number(c.dataset.reel)])"
    )
    assert {tuple(c) for c in lit} == paid
    # each win frame covers exactly its cell, the tall cells of the short reels too (a frame
    # inset by a share of the cell's height sat 7 px inside a 250 px cell, 2 px inside its sides)
    frames = page.locator(".reels .cell.win").evaluate_all(
        """(cells) => cells.map((c) => {
          const b = c.getBoundingClientRect(); const f = getComputedStyle(c, '::after');
          return { reel: c.dataset.reel, w: b.width, h: b.height, top: parseFloat(f.top),
                   fw: parseFloat(f.width), fh: parseFloat(f.height) };
        })"""
    )
    assert any(f["h"] > 2 * f["w"] for f in frames), "no win on a short reel's tall cell"
    for frame in frames:
        assert abs(frame["fh"] - frame["h"]) <= 1 and abs(frame["fw"] - frame["w"]) <= 1, frame
        assert abs(frame["top"]) <= 0.5, frame
    assert policed.violations() == []


@pytest.mark.parametrize(("size", "viewport"), [("phone", PHONE), ("desktop", DESKTOP)])
def test_variable_rows_are_screenshotted(
    browser: Browser, heights_server: Server, size: str, viewport: dict[str, int]
) -> None:
    ctx = browser.new_context(viewport=viewport, locale="en-GB", bypass_csp=True)
    ctx.set_default_timeout(15_000)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        player = heights_server.new_player()
        open_game(page, heights_server, player, GAME)
        force(page, draws(LANDED))
        page.click("#spin")
        wait_state(page, "idle", "free_spins", timeout=40_000)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"heights-{size}.png"))
    finally:
        ctx.close()
    assert not errors, f"the page raised: {errors}"
