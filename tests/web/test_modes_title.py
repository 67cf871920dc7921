"""A title with bet modes plays them in the browser: the suite's moded title
(``tests/mechanics/moded_title.py``: 3x3 lines, an ante at 1.25 bets and free spins bought for
3.8 bets) written to a folder of its own and served with ``--titles``, offered by the default
market and by Germany's (which sells no bought feature). The ante is a switch that says what a
spin costs with it, and a spin with it on costs that; the buy button says its price, asks the
player to confirm it and then plays the free spins through the usual presenters; a balance
below the price says so and buys nothing; the controls are disabled in autoplay; Germany shows
the ante alone, in German. Under the server's Content-Security-Policy, with no page error.

At phone and desktop sizes the controls are 44 px touch targets, on the screen and clear of
everything else (``test_layout.check_game``, ``test_sizes.check_size``,
``test_overlaps.check_info``), idle and in the bought free spins; the screenshots
(``artifacts/screenshots/modes-<size>-<state>.png``) are for a person to look at."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from reelsmith.server.markets import MARKETS_DIR
from tests.mechanics.moded_title import moded_title
from tests.web.conftest import (
    SCREENSHOTS,
    Policed,
    Server,
    force,
    minor,
    open_game,
    press_scene,
    run_server,
    wait_state,
)
from tests.web.test_layout import BOXES, check_game, inside, overlaps
from tests.web.test_overlaps import check_info
from tests.web.test_sizes import check_size, viewport

pytestmark = pytest.mark.web

GAME = "moded"
#: Each reel's stop: a screen that pays nothing and triggers nothing, base or ante reels.
LOSING = [0, 0, 0]
BET_MINOR = 60  # 3 paylines x 1 coin x 0.20
ANTE_MINOR = 75  # x 1.25
BUY_MINOR = 228  # x 3.8
SIZES = ["320x568", "390x844", "844x390", "1920x1080"]


def markets_offering_moded(folder: Path) -> Path:
    """The shipped market files, the default market and Germany's offering the title."""
    folder.mkdir(parents=True)
    tables = {
        "default": 'variant = "main"\ncoin_sizes = ["0.20", "1.00"]',
        "de": 'variant = "main"\ncoin_sizes = ["0.20"]',
    }
    for path in MARKETS_DIR.glob("*.toml"):
        text = path.read_text(encoding="utf-8")
        if path.stem in tables:
            text += f"\n[games.{GAME}]\n{tables[path.stem]}\n"
        (folder / path.name).write_text(text, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def modes_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("modes-title")
    titles = tmp / "titles"
    moded_title(titles / GAME)
    markets = markets_offering_moded(tmp / "markets")
    with run_server(tmp, titles_dirs=str(titles), markets_dir=str(markets)) as running:
        yield running


def spin_body(page: Page, selector: str = "#spin") -> tuple[dict[str, Any], dict[str, Any]]:
    """Press ``selector`` and return the spin request's body and its answer."""
    with page.expect_response(lambda r: r.url.endswith("/spin")) as spun:
        page.click(selector)
    response = spun.value
    return response.request.post_data_json, response.json()


def test_the_ante_says_and_charges_its_price(policed: Policed, modes_server: Server) -> None:
    page = policed.page
    player = modes_server.new_player()
    open_game(page, modes_server, player, GAME)
    wait_state(page, "idle")
    ante = page.locator("#ante")
    assert ante.is_visible() and ante.get_attribute("role") == "switch"
    assert ante.get_attribute("aria-checked") == "false"
    assert page.inner_text("#ante .mode-name") == "ANTE 1.25×"  # upper case by its style
    assert page.inner_text("#ante .mode-price") == "€0.75 per spin"
    assert ante.get_attribute("aria-label") == "Ante 1.25×: €0.75 per spin"
    assert minor(page, "#bet-total") == BET_MINOR

    ante.click()
    assert ante.get_attribute("aria-checked") == "true"
    assert minor(page, "#bet-total") == ANTE_MINOR
    assert page.inner_text("#bet-total") == "€0.75"
    force(page, LOSING)
    body, answer = spin_body(page)
    assert body["mode"] == "ante"
    wait_state(page, "idle")
    assert answer["win"]["minor"] == 0
    assert answer["balance"]["minor"] == 100_000 - ANTE_MINOR
    assert minor(page, "#balance") == 100_000 - ANTE_MINOR

    # off again: the base game at the bet
    ante.click()
    assert ante.get_attribute("aria-checked") == "false"
    assert minor(page, "#bet-total") == BET_MINOR
    force(page, LOSING)
    body, answer = spin_body(page)
    assert "mode" not in body
    wait_state(page, "idle")
    assert minor(page, "#balance") == 100_000 - ANTE_MINOR - BET_MINOR

    # a larger bet: both prices follow it
    page.click("#coin-size-up")
    assert page.inner_text("#ante .mode-price") == "€3.75 per spin"
    assert page.inner_text("#buy-feature .mode-price") == "€11.40"
    assert policed.violations() == []


def test_buying_asks_first_then_plays_the_free_spins(
    policed: Policed, modes_server: Server
) -> None:
    page = policed.page
    player = modes_server.new_player()
    open_game(page, modes_server, player, GAME)
    wait_state(page, "idle")
    buy = page.locator("#buy-feature")
    assert buy.is_visible() and buy.is_enabled()
    assert page.inner_text("#buy-feature .mode-price") == "€2.28"
    spins: list[str] = []
    page.on("request", lambda r: r.url.endswith("/spin") and spins.append(r.url))

    # asked first: cancelling buys nothing
    buy.click()
    page.wait_for_selector("#buy-dialog[open]")
    question = page.inner_text("#buy-question")
    assert "€2.28" in question and "3.8" in question and "€0.60" in question
    assert page.inner_text("#buy-confirm") == "Buy for €2.28"
    page.click("#buy-cancel")
    page.wait_for_selector("#buy-dialog", state="hidden")
    assert spins == [] and minor(page, "#balance") == 100_000

    # confirmed: the price is taken and the free spins start
    buy.click()
    page.wait_for_selector("#buy-dialog[open]")
    body, answer = spin_body(page, "#buy-confirm")
    assert body["mode"] == "buy"
    assert answer["balance"]["minor"] == 100_000 - BUY_MINOR
    bought = [e for e in answer["events"] if e["type"] == "feature_bought"]
    assert bought and bought[0]["spins"] == answer["round"]["free_spins_awarded"] == 5
    page.wait_for_selector("#free-spins-intro-button")
    assert minor(page, "#balance") == 100_000 - BUY_MINOR
    assert "5 free spins" in page.inner_text("#free-spins-intro").lower()
    press_scene(page, "free-spins-intro")
    page.wait_for_selector(".fs-counter:not([hidden])")
    # the counter takes the modes' row during the feature
    assert not page.is_visible("#modes")
    page.wait_for_selector("#free-spins-outro-button", timeout=60_000)
    total = int(page.get_attribute("#free-spins-outro", "data-total") or -1)
    press_scene(page, "free-spins-outro")
    wait_state(page, "idle", timeout=30_000)
    me = modes_server.get(player, "/api/me")
    assert me["balance"]["minor"] == 100_000 - BUY_MINOR + total
    assert minor(page, "#balance") == me["balance"]["minor"]
    assert minor(page, "#win") == total
    assert page.is_visible("#modes") and buy.is_enabled()
    assert len(spins) == 1

    # the history names the mode, and its first step what was bought (it has no screen)
    page.click("#menu")
    page.click("#history")
    row = page.locator("#history-dialog[open] .history-row").first
    assert "Bought feature (3.8× the bet)" in row.inner_text()
    row.locator(".replay-open").click()
    assert page.inner_text(".replay-bought") == "Feature bought: 5 free spins."
    assert page.locator(".replay-stage .reels").is_hidden()
    steps = page.locator(".replay-steps .replay-step")
    assert steps.nth(0).inner_text() == "1. Feature bought"
    assert steps.nth(1).inner_text() == "2. Free spin"
    page.click("#replay-next")
    assert page.locator(".replay-stage .reels").is_visible()
    assert policed.violations() == []


def test_a_balance_below_the_price_says_so_and_buys_nothing(
    policed: Policed, modes_server: Server
) -> None:
    page = policed.page
    player = modes_server.new_player(balance="2.00")
    open_game(page, modes_server, player, GAME)
    wait_state(page, "idle")
    buy = page.locator("#buy-feature")
    assert buy.get_attribute("aria-disabled") == "true"
    assert buy.get_attribute("data-problem") == "balance_low"
    assert page.inner_text("#buy-feature .mode-name").lower() == "balance too low"
    buy.click(force=True)  # aria-disabled, not disabled: pressing it says why
    notice = page.wait_for_selector(".notice")
    assert notice is not None
    assert "does not cover the price of €2.28" in notice.inner_text()
    assert not page.is_visible("#buy-dialog")
    # the ante is still within reach, and the buy comes back with the balance
    assert page.get_attribute("#ante", "aria-disabled") == "false"
    assert policed.violations() == []


def test_the_modes_are_disabled_in_autoplay(policed: Policed, modes_server: Server) -> None:
    page = policed.page
    player = modes_server.new_player()
    open_game(page, modes_server, player, GAME)
    wait_state(page, "idle")
    page.click("#ante")
    force(page, *[LOSING for _ in range(20)])
    page.click("#autoplay")
    page.fill("#autoplay-rounds", "20")
    page.fill("#autoplay-loss-limit", "100")
    with page.expect_request(lambda r: r.url.endswith("/spin")) as first:
        page.click("#autoplay-start")
    # an autoplay plays the base game: its spins carry no mode, and the player is told
    assert "mode" not in first.value.post_data_json
    assert "without the ante" in page.inner_text("#notices")
    page.wait_for_selector("#autoplay-status:not([hidden])")
    assert page.is_disabled("#ante") and page.is_disabled("#buy-feature")
    assert minor(page, "#bet-total") == BET_MINOR
    page.click("#autoplay-stop")
    wait_state(page, "idle", timeout=60_000)
    assert page.is_enabled("#ante") and page.is_enabled("#buy-feature")
    assert page.get_attribute("#ante", "aria-checked") == "true"
    assert minor(page, "#bet-total") == ANTE_MINOR
    assert policed.violations() == []


def test_germany_offers_the_ante_alone_in_german(policed: Policed, modes_server: Server) -> None:
    page = policed.page
    player = modes_server.new_player(market="de")
    games = {g["id"]: g for g in modes_server.get(player, "/api/games")["games"]}
    assert [m["kind"] for m in games[GAME]["modes"]] == ["ante"]
    page.goto(f"{modes_server.url}/?token={player.token}&lang=de#/play/{GAME}")
    wait_state(page, "idle")
    assert page.locator("#buy-feature").count() == 0
    assert page.is_visible("#ante")
    assert page.inner_text("#ante .mode-name") == "ANTE 1,25×"
    assert page.inner_text("#ante .mode-price") == "0,75\xa0€ pro Drehung"
    page.click("#ante")
    assert minor(page, "#bet-total") == ANTE_MINOR
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


def check_modes(page: Page, size: str, where: str) -> None:
    """The mode controls: 44 px targets, on the screen, clear of each other, of the bar's
    controls and of the reels."""
    view = viewport(size)
    found = page.evaluate(
        BOXES, {"modes": "#modes button", "bar": ".controls > *", "reels": ".reels"}
    )
    assert len(found["modes"]) == 2, f"{where}: {found['modes']}"
    for control in found["modes"]:
        assert control["w"] >= 44 and control["h"] >= 44, f"{where}: {control} under 44 px"
        assert inside(control, view["width"], view["height"]), f"{where}: {control} off screen"
        for other in found["bar"] + found["reels"]:
            assert not overlaps(control, other), f"{where}: {control} overlaps {other}"
    a, b = found["modes"]
    assert not overlaps(a, b), f"{where}: the ante and the buy button overlap"


def check_small_phone(page: Page, where: str) -> None:
    """``test_sizes.check_size`` at 320x568 but for the reels' width: a 3x3 title's cells are
    square there and its reels as wide as the height leaves them (the modes' row takes 6 px
    more than the free-spins counter's), so they span 72% of the width, not 75%."""
    check_game(page, where)
    found = page.evaluate(BOXES, {"targets": ".controls button", "reels": ".reels"})
    small = [t for t in found["targets"] if t["w"] < 44 or t["h"] < 44]
    assert not small, f"{where}: bar buttons under 44 px: {small}"
    (reels,) = found["reels"]
    assert reels["w"] >= 0.72 * 320, f"{where}: reels {reels}"
    assert page.is_visible("#total-bet-open") and page.is_visible("#total-bet-max")


@pytest.mark.parametrize("sized_page", SIZES, indirect=True)
def test_the_controls_fit_each_screen(sized_page: Page, modes_server: Server) -> None:
    page = sized_page
    size = page.viewport_size
    assert size is not None
    name = f"{size['width']}x{size['height']}"
    player = modes_server.new_player()
    open_game(page, modes_server, player, GAME)
    wait_state(page, "idle")
    page.click("#ante")
    where = f"{GAME} {name}"
    if name == "320x568":
        check_small_phone(page, f"{where} idle")
    else:
        check_size(page, name, f"{where} idle")
    check_info(page, f"{where} idle")
    check_modes(page, name, f"{where} idle")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"modes-{name}-idle.png"))

    page.click("#ante")
    page.click("#buy-feature")
    page.wait_for_selector("#buy-dialog[open]")
    page.screenshot(path=str(SCREENSHOTS / f"modes-{name}-confirm.png"))
    page.click("#buy-confirm")
    page.wait_for_selector("#free-spins-intro-button")
    press_scene(page, "free-spins-intro")
    page.wait_for_selector(".fs-counter:not([hidden])")
    check_game(page, f"{where} free spins")
    assert check_info(page, f"{where} free spins")["counter"], "no free spins counter"
    page.screenshot(path=str(SCREENSHOTS / f"modes-{name}-free-spins.png"))
    page.wait_for_selector("#free-spins-outro-button", timeout=60_000)
    press_scene(page, "free-spins-outro")
    wait_state(page, "idle", timeout=30_000)
    check_modes(page, name, f"{where} after")


def test_a_bought_feature_left_before_its_first_free_spin_resumes(
    policed: Policed, modes_server: Server
) -> None:
    """A bought round has no screen until its first free spin: reopened then, the game shows
    it waiting in its free spins and plays them on."""
    page = policed.page
    player = modes_server.new_player()
    open_game(page, modes_server, player, GAME)
    wait_state(page, "idle")
    page.click("#buy-feature")
    page.click("#buy-confirm")
    page.wait_for_selector("#free-spins-intro-button")
    open_game(page, modes_server, player, GAME)
    wait_state(page, "paused")
    assert page.is_visible(".fs-counter") and not page.is_visible("#modes")
    assert page.get_attribute("#free-spins-left", "data-count") == "5"
    assert minor(page, "#balance") == 100_000 - BUY_MINOR
    page.click("#spin")
    page.wait_for_selector("#free-spins-intro-button")
    press_scene(page, "free-spins-intro")
    page.wait_for_selector("#free-spins-outro-button", timeout=60_000)
    press_scene(page, "free-spins-outro")
    wait_state(page, "idle", timeout=30_000)
    assert minor(page, "#balance") == modes_server.get(player, "/api/me")["balance"]["minor"]
    assert page.is_visible("#modes")
    assert policed.violations() == []


def test_the_german_words_fit_a_320_px_screen(browser: Browser, modes_server: Server) -> None:
    """ "0,75 € pro Drehung" and "FREISPIELE KAUFEN" were cut off side by side at 320 px: the
    short price per spin and the names in plain case fit, no text wider than its box."""
    ctx = browser.new_context(viewport=viewport("320x568"), reduced_motion="reduce")
    page = ctx.new_page()
    try:
        player = modes_server.new_player()
        page.goto(f"{modes_server.url}/?token={player.token}&lang=de#/play/{GAME}")
        wait_state(page, "idle")
        assert page.inner_text("#ante .mode-price") == "0,75\xa0€/Dreh"
        assert page.inner_text("#buy-feature .mode-name") == "Freispiele kaufen"
        check_game(page, "moded de 320x568")
        check_modes(page, "320x568", "moded de 320x568")
    finally:
        ctx.close()
