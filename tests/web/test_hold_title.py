"""A hold-and-spin title plays in the browser with no code of its own in the client: the
suite's hold title (``tests/mechanics/hold_title.py``: 5x3 lines, six coins anywhere start
three respins) written to a folder of its own and served with ``--titles``. A forced screen of
seven coins starts the feature: the coins stick, lit and each showing its value, the cells
left to spin are dimmed, a coin a respin lands is drawn on its cell and sticks too, and the
counter above the reels shows the respins left (three, reset by each new coin, down to none)
and the coins held; the Win meter and the balance end on the round's. Under the server's
Content-Security-Policy, with no page error.

At phone and desktop sizes the counter and the coins are on the screen and clear of
everything else (``test_layout.check_game``, ``test_sizes.check_size``,
``test_overlaps.check_info``); the screenshots (``artifacts/screenshots/hold-<size>.png``)
are for a person to look at."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from reelsmith.engine.model import load_model
from tests import copies
from tests.mechanics.hold_title import hold_title
from tests.web.conftest import (
    SCREENSHOTS,
    Policed,
    Server,
    force,
    minor,
    open_game,
    run_server,
    wait_state,
)
from tests.web.test_layout import check_game
from tests.web.test_overlaps import check_info
from tests.web.test_sizes import check_size, viewport

pytestmark = pytest.mark.web

GAME = "hold"
#: Each reel's stop: 2 + 1 + 1 + 1 + 2 coins, seven in the window (six start the feature).
COINS = [11, 0, 10, 0, 11]
SIZES = ["320x568", "390x844", "844x390", "1920x1080"]

#: Keeps each respins count and coins count the counter shows.
RECORD = """() => {
  window.__respins = [];
  const counter = document.querySelector('#hold-and-spin');
  new MutationObserver(() => {
    if (counter.hidden) return;
    const left = Number(document.querySelector('#hs-respins').dataset.count);
    const held = Number(document.querySelector('#hs-held').dataset.count);
    const last = window.__respins.at(-1);
    if (!last || last[0] !== left || last[1] !== held) window.__respins.push([left, held]);
  }).observe(counter, {subtree: true, attributes: true, childList: true, characterData: true});
}"""


@pytest.fixture(scope="module")
def hold_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("hold-title")
    titles = tmp / "titles"
    hold_title(titles / GAME)
    table = 'variant = "main"\ncoin_sizes = ["0.01", "0.10"]'
    markets = copies.markets_offering(tmp / "markets", GAME, table)
    with run_server(tmp, titles_dirs=str(titles), markets_dir=str(markets)) as running:
        yield running


def test_the_forced_screen_holds_seven_coins(tmp_path: Any) -> None:
    model = load_model(hold_title(tmp_path / GAME))
    strips = model.variant().reel_sets["base"].strips
    window = [
        [
            model.symbol_id(int(strip[(stop + row) % len(strip)]))
            for strip, stop in zip(strips, COINS, strict=True)
        ]
        for row in range(3)
    ]
    assert sum(row.count("coin") for row in window) == 7


def play_feature(page: Page) -> dict[str, Any]:
    """Spin the forced screen and play the feature to the end; the spin's answer."""
    force(page, COINS)
    with page.expect_response(lambda r: r.url.endswith("/spin")) as spun:
        page.click("#spin")
    answer: dict[str, Any] = spun.value.json()
    page.wait_for_selector("#hold-and-spin:not([hidden])")
    wait_state(page, "idle", timeout=40_000)
    return answer


def test_the_coins_stick_and_the_respins_are_counted(policed: Policed, hold_server: Server) -> None:
    page = policed.page
    player = hold_server.new_player()
    open_game(page, hold_server, player, GAME)
    wait_state(page, "idle")
    assert page.locator("#hold-and-spin").is_hidden()
    page.evaluate(RECORD)
    answer = play_feature(page)
    events = answer["events"]
    start = next(e for e in events if e["type"] == "hold_and_spin_start")
    respins = [e for e in events if e["type"] == "hold_and_spin_respin"]
    end = next(e for e in events if e["type"] == "hold_and_spin_end")
    assert len(start["held"]) == 7 and start["respins"] == 3

    # the counter went 3, then each respin's count, down to none, with the coins held
    shown = page.evaluate("() => window.__respins")
    held = 7
    expected = [[3, 7]]
    for respin in respins:
        held += len(respin["landed"])
        expected.append([respin["respins_left"], held])
    assert [tuple(x) for x in shown] == [tuple(x) for x in dict.fromkeys(map(tuple, expected))]
    assert page.is_visible("#hold-and-spin")
    assert page.get_attribute("#hs-respins", "data-count") == "0"
    assert page.get_attribute("#hs-held", "data-count") == str(end["coins_held"])
    assert page.get_attribute("#hs-pays", "data-bets") == str(end["total_bets"])
    assert page.inner_text("#hs-pays").startswith(f"pays {end['total_bets']}×")

    # every coin sticks on its cell, drawn as a coin, with its value; the rest are dimmed
    coins = [c for e in [start, *respins] for c in e.get("held", e.get("landed", []))]
    assert len(coins) == end["coins_held"]
    for coin in coins:
        row, reel = coin["position"]
        cell = page.locator(f".reels .cell[data-row='{row}'][data-reel='{reel}']")
        assert cell.get_attribute("data-symbol") == "coin"
        assert "hs-held" in (cell.get_attribute("class") or "").split()
        badge = cell.locator(".cell-badge.hs-coin")
        assert badge.count() == 1
        value = coin["value"]
        assert badge.inner_text() == (f"{coin['bets']}×" if value.isdigit() else value.upper())
    assert page.locator(".reels.hs-active .cell.hs-held").count() == end["coins_held"]
    dimmed = page.locator(".reels.hs-active .cell[data-row]:not(.hs-held) .symbol").first
    assert float(dimmed.evaluate("(e) => getComputedStyle(e).opacity")) < 0.5

    # the Win meter and the balance end on the round's
    assert minor(page, "#win") == answer["round"]["win_minor"] > 0
    assert minor(page, "#balance") == hold_server.get(player, "/api/me")["balance"]["minor"]

    # the next spin clears the feature away
    force(page, [0, 0, 0, 0, 0])
    page.click("#spin")
    wait_state(page, "idle")
    assert page.locator("#hold-and-spin").is_hidden()
    assert page.locator(".reels.hs-active").count() == 0
    assert policed.violations() == []


@pytest.fixture
def sized_page(browser: Browser, request: pytest.FixtureRequest) -> Iterator[Page]:
    ctx = browser.new_context(
        viewport=viewport(request.param), reduced_motion="reduce", locale="en-GB"
    )
    ctx.set_default_timeout(20_000)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    ctx.close()
    assert not errors, f"the page raised: {errors}"


@pytest.mark.parametrize("sized_page", SIZES, indirect=True)
def test_the_feature_fits_each_screen(sized_page: Page, hold_server: Server) -> None:
    page = sized_page
    size = page.viewport_size
    assert size is not None
    name = f"{size['width']}x{size['height']}"
    where = f"{GAME} {name}"
    open_game(page, hold_server, hold_server.new_player(), GAME)
    wait_state(page, "idle")
    check_size(page, name, f"{where} idle")
    play_feature(page)
    check_game(page, f"{where} held")
    found = check_info(page, f"{where} held")
    assert found["counter"], f"{where}: the respins counter is not shown"
    assert page.locator(".reels .cell.hs-held").count() >= 7
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"hold-{name}.png"))
