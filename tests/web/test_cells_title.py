"""A title whose cells are drawn one by one plays in the browser with no code of its own in the
client: the test suite's ``grand_cells`` (5x3, nine symbols drawn per cell, 10 paylines, free
spins) written at test time and served with ``--titles``. A forced screen (one ``cell`` draw
per cell) shows the drawn symbols in their cells, a reel may show the scatter twice, the line
wins light their cells, under the server's Content-Security-Policy with no page error.
Screenshots at phone and desktop sizes (artifacts/screenshots/cells-*.png)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from reelsmith.engine.model import load_model
from tests import copies
from tests.mechanics.cells_title import grand_cells
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

GAME = "grand-cells"
#: The forced screen, rows top to bottom: crowns on the middle payline, two stars on reel 5.
SCREEN = [
    ["ace", "king", "queen", "jack", "star"],
    ["crown", "crown", "crown", "ring", "ten"],
    ["ten", "ace", "king", "queen", "star"],
]


@pytest.fixture(scope="module")
def cells_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, list[int]]]:
    tmp = tmp_path_factory.mktemp("cells-title")
    titles = tmp / "titles"
    folder = grand_cells(titles / "grand_cells")
    reel_set = load_model(folder).variant().reel_sets["base"]
    assert reel_set.cells is not None
    values = []
    for reel, table in enumerate(reel_set.cells):  # each reel's rows top to bottom
        starts, at = {}, 0
        for symbol, weight in table:
            starts[load_model(folder).symbol_id(symbol)] = at
            at += weight
        values += [starts[SCREEN[row][reel]] for row in range(3)]
    table_lines = 'variant = "main"\ncoin_sizes = ["0.01", "0.10"]'
    markets = copies.markets_offering(tmp / "markets", GAME, table_lines)
    with run_server(tmp, titles_dirs=str(titles), markets_dir=str(markets)) as running:
        yield running, values


def test_a_screen_of_drawn_cells_shows_each_cell_s_symbol(
    policed: Policed, cells_server: tuple[Server, list[int]]
) -> None:
    server, values = cells_server
    page = policed.page
    player = server.new_player()
    open_game(page, server, player, GAME)
    force(page, values)
    with page.expect_response(lambda r: r.url.endswith("/spin")) as spun:
        page.click("#spin")
    answer = spun.value.json()
    wait_state(page, "idle", "free_spins", timeout=40_000)
    stopped = next(e for e in answer["events"] if e["type"] == "spin_stopped")
    assert stopped["screen"] == SCREEN
    shown = page.locator(".reels .cell[data-row]").evaluate_all(
        "(cs) => cs.map((c) => [Number(c.dataset.row), Number(c.dataset.reel), c.dataset.symbol])"
    )
    assert {(r, c): s for r, c, s in shown} == {
        (r, c): SCREEN[r][c] for r in range(3) for c in range(5)
    }
    paid = {
        tuple(cell) for e in answer["events"] if e["type"] == "line_win" for cell in e["positions"]
    }
    assert (1, 0) in paid and (1, 2) in paid  # three crowns on the middle payline
    lit = page.locator(".reels .cell.win").evaluate_all(
        "(cells) => cells.map((c) => [Number(c.dataset.row), Number(c.dataset.reel)])"
    )
    assert paid <= {tuple(c) for c in lit}
    assert policed.violations() == []


@pytest.mark.parametrize(("size", "viewport"), [("phone", PHONE), ("desktop", DESKTOP)])
def test_drawn_cells_are_screenshotted(
    browser: Browser,
    cells_server: tuple[Server, list[int]],
    size: str,
    viewport: dict[str, int],
) -> None:
    server, values = cells_server
    ctx = browser.new_context(viewport=viewport, locale="en-GB", bypass_csp=True)
    ctx.set_default_timeout(15_000)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        player = server.new_player()
        open_game(page, server, player, GAME)
        force(page, values)
        page.click("#spin")
        wait_state(page, "idle", "free_spins", timeout=40_000)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"cells-{size}.png"))
    finally:
        ctx.close()
    assert not errors, f"the page raised: {errors}"
