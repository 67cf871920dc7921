"""A title composed of ways, cascades and free spins plays in the browser with no code of its
own in the client: ``tests/web/titles/tumbling_ways`` (a model file and a variant, nothing
else) served with ``--titles`` and offered by a market of its own files. The client plays each
step from its events: the way wins light their cells, each cascade's removed cells vanish,
the symbols fall and refill and the chain's multiplier climbs, the free spins are introduced,
counted and summed up; the Win meter ends on the round's win, under the server's
Content-Security-Policy, with no page error. Screenshots of a fall mid-way at phone and
desktop sizes (artifacts/screenshots/cascade-mid-fall-*.png)."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from reelsmith.engine import round as core
from reelsmith.engine.bets import CoinBet
from reelsmith.engine.model import load_model
from reelsmith.mechanics import composition
from reelsmith.mechanics.gamble.live import OPTIONS, RoundOptions
from reelsmith.rng import Draw, ReplaySource
from tests import copies
from tests.web.conftest import (
    DESKTOP,
    PHONE,
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

pytestmark = pytest.mark.web

TITLES = Path(__file__).resolve().parent / "titles"
GAME = "tumbling-ways"
#: Forced screens (each reel's stop), checked against the engine by ``chain``.
CHAIN = [9, 11, 1, 3, 5]  # three cascades after the first screen, no free spins
TRIGGER = [4, 9, 2, 7, 0]  # four cascades, and three Stars: six free spins
QUIET = [0, 5, 10, 3, 8]  # nothing pays, nothing falls


def chain(stops: list[int]) -> tuple[int, str]:
    """The cascades a base spin on ``stops`` plays and the round's phase after it (the
    engine's own play of the title, so the forced screens say what the test expects)."""
    model = load_model(TITLES / "tumbling_ways")
    lengths = [int(n) for n in model.variant().reel_sets["base"].lengths]
    draws = ReplaySource([Draw("reel_stop", n, s) for n, s in zip(lengths, stops, strict=True)])
    played = core.start_round(
        composition(model),
        CoinBet(20, 1, Decimal("0.01")),
        core.Stake(20, 1),
        draws,
        parts={OPTIONS: RoundOptions(False)},
    )
    return len(played.spins[0].parts["cascade"].fallen), played.phase


@pytest.fixture(scope="module")
def ways_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server of the shipped titles and the test's, which the default market offers."""
    tmp = tmp_path_factory.mktemp("cascade-title")
    table = 'variant = "main"\ncoin_sizes = ["0.01", "0.02", "0.05"]'
    markets = copies.markets_offering(tmp / "markets", GAME, table)
    with run_server(tmp, titles_dirs=str(TITLES), markets_dir=str(markets)) as running:
        yield running


#: Keeps each cascade step the game shows (the root's data-cascade-step) and each multiplier.
RECORD = """() => {
  window.__cascades = [];
  const root = document.querySelector('.game');
  new MutationObserver(() => {
    const step = root.dataset.cascadeStep;
    if (step) window.__cascades.push(Number(step));
  }).observe(root, {attributes: true, attributeFilter: ['data-cascade-step']});
}"""


#: Notes whether any cell fell or dropped in (js/reels.js cascade()).
FELL = """() => {
  window.__fell = false;
  new MutationObserver(() => {
    if (document.querySelector('.reels .cell.fall, .reels .cell.drop-in')) window.__fell = true;
  }).observe(document.querySelector('.reels'), {subtree: true, childList: true, attributes: true});
}"""


def shown_screen(page: Page) -> list[list[str]]:
    screen: list[list[str]] = page.evaluate(
        """() => {
          const rows = [];
          for (const cell of document.querySelectorAll('.reels .cell[data-row]')) {
            const [row, reel] = [Number(cell.dataset.row), Number(cell.dataset.reel)];
            (rows[row] ??= [])[reel] = cell.dataset.symbol;
          }
          return rows;
        }"""
    )
    return screen


def test_forced_screens_are_what_the_test_says() -> None:
    assert chain(CHAIN) == (3, "complete")
    assert chain(TRIGGER) == (4, "free_spins")
    assert chain(QUIET) == (0, "complete")


def test_a_ways_cascade_title_plays_its_chains_and_free_spins(
    policed: Policed, ways_server: Server
) -> None:
    page = policed.page
    player = ways_server.new_player()
    games = {g["id"]: g for g in ways_server.get(player, "/api/games")["games"]}
    assert games[GAME]["client"] == "catalogue"
    open_game(page, ways_server, player, GAME)
    assert page.inner_text(".game-title") == "Tumbling Ways"
    page.evaluate(RECORD)

    # A chain: the first screen's ways pay, three cascades follow, each at its multiplier.
    force(page, CHAIN)
    with page.expect_response(lambda r: r.url.endswith("/spin")) as spun:
        page.click("#spin")
    answer = spun.value.json()
    wait_state(page, "idle", timeout=40_000)
    cascades = [e for e in answer["events"] if e["type"] == "cascade"]
    assert [e["step"] for e in cascades] == [2, 3, 4]
    assert page.evaluate("() => window.__cascades") == [2, 3, 4]
    assert page.get_attribute("#cascade-multiplier", "data-multiplier") == str(
        cascades[-1]["multiplier"]
    )
    assert page.is_visible("#cascade-multiplier")
    # the reels end on the chain's last screen, its way wins lit
    assert shown_screen(page) == cascades[-1]["screen"]
    events = answer["events"]
    after = events[events.index(cascades[-1]) :]
    paid = {tuple(cell) for e in after if e["type"] == "way_win" for cell in e["positions"]}
    lit = page.locator(".reels .cell.win").evaluate_all(
        "(cells) => cells.map((c) => [Number(c.dataset.row), Number(c.dataset.reel)])"
    )
    assert {tuple(cell) for cell in lit} == paid
    if not paid:  # the chain's last screen paid nothing: the chain is named, nothing dimmed
        assert page.inner_text("#win-caption").startswith("A chain of 4 screens pays")
        assert "has-wins" not in (page.get_attribute(".reels", "class") or "")
    assert minor(page, "#win") == answer["round"]["win_minor"] > 0
    assert minor(page, "#balance") == ways_server.get(player, "/api/me")["balance"]["minor"]

    # Three Stars after four cascades: six free spins, one of them a chain of its own.
    page.evaluate("() => { window.__cascades = []; }")
    force(page, TRIGGER, CHAIN, *[QUIET] * 5)
    page.click("#spin")
    page.wait_for_selector("#free-spins-intro-button", timeout=40_000)
    assert page.get_attribute("#free-spins-intro", "data-spins") == "6"
    press_scene(page, "free-spins-intro")
    page.wait_for_selector("#free-spins-outro-button", timeout=60_000)
    total = int(page.get_attribute("#free-spins-outro", "data-total") or -1)
    press_scene(page, "free-spins-outro")
    wait_state(page, "idle", timeout=40_000)
    assert page.evaluate("() => window.__cascades") == [2, 3, 4, 5, 2, 3, 4]
    view = ways_server.get(player, f"/api/history/rounds?game={GAME}&limit=1")["rounds"][0]
    assert view["round"]["phase"] == "complete" and len(view["round"]["spins"]) == 7
    assert minor(page, "#win") == view["round"]["win_minor"] == total
    assert policed.violations() == []


@pytest.mark.parametrize(("size", "viewport"), [("phone", PHONE), ("desktop", DESKTOP)])
def test_a_fall_mid_way_is_screenshotted(
    browser: Browser, ways_server: Server, size: str, viewport: dict[str, int]
) -> None:
    """At full motion (not reduced, not turbo): the screenshot is taken as the symbols fall."""
    ctx = browser.new_context(viewport=viewport, locale="en-GB", bypass_csp=True)
    ctx.set_default_timeout(15_000)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        player = ways_server.new_player()
        open_game(page, ways_server, player, GAME, turbo=False)
        page.evaluate(FELL)
        force(page, CHAIN)
        page.click("#spin")
        # the falling cells last a moment, which a loaded machine's polling can miss: the
        # shot is taken as the first cascade starts, and an observer says the cells fell
        page.wait_for_selector(".game[data-cascade-step]", timeout=30_000)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"cascade-mid-fall-{size}.png"))
        wait_state(page, "idle", timeout=40_000)
        assert page.evaluate("() => window.__fell") is True
        page.screenshot(path=str(SCREENSHOTS / f"cascade-chain-end-{size}.png"))
    finally:
        ctx.close()
    assert not errors, f"the page raised: {errors}"


def test_a_chain_resumed_and_replayed_shows_its_last_screen(
    policed: Policed, ways_server: Server
) -> None:
    """A round left in its free spins opens on its base spin's last cascade screen with the
    counter; the history replays the chain's last screen and tells every screen's wins."""
    page = policed.page
    player = ways_server.new_player()
    open_game(page, ways_server, player, GAME)
    force(page, TRIGGER)
    with page.expect_response(lambda r: r.url.endswith("/spin")) as spun:
        page.click("#spin")
    answer = spun.value.json()
    page.wait_for_selector("#free-spins-intro-button", timeout=40_000)
    last = [e for e in answer["events"] if e["type"] == "cascade"][-1]

    page.reload()
    wait_state(page, "paused")
    assert shown_screen(page) == last["screen"]
    assert page.get_attribute("#free-spins-left", "data-count") == "6"
    force(page, *[QUIET] * 6)
    page.click("#spin")
    press_scene(page, "free-spins-intro")
    page.wait_for_selector("#free-spins-outro-button", timeout=60_000)
    press_scene(page, "free-spins-outro")
    wait_state(page, "idle", timeout=40_000)

    page.click("#menu")
    page.click("#history")
    page.locator("#history-dialog[open] .history-row").first.wait_for()
    page.locator("#history-dialog .replay-open").first.click()
    page.locator("#history-dialog .replay-detail").wait_for()
    detail = page.inner_text("#history-dialog .replay-detail")
    ways = [e for e in answer["events"] if e["type"] == "way_win"]
    assert detail.count(" ways pays ") + detail.count(" way pays ") == len(ways), detail
    replayed = page.locator("#history-dialog .reels .cell[data-row]").evaluate_all(
        "(cells) => cells.map((c) => [Number(c.dataset.row), Number(c.dataset.reel),"
        " c.dataset.symbol])"
    )
    for row, reel, symbol in replayed:
        assert last["screen"][row][reel] == symbol
    page.keyboard.press("Escape")
