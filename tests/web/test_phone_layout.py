"""The game on phones, measured on element boxes: the reels take the width and height the
controls leave, the bet is one total with touch targets of 44 px (a list to choose from and a
max bet), the autoplay status stays on a 320 px screen, the Sultan's reels stay inside
their arch on a 1920 px screen, each title's symbols take the width of an upright phone's
cells, and Lucky Lanterns' ante and coin values are read whole beside its hold-and-spin."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tests.web import forcing
from tests.web.conftest import SCREENSHOTS, Server, force, open_game, wait_state
from tests.web.test_layout import BOXES, check_game, inside, overlaps
from tests.web.test_overlaps import check_ante_words, check_info
from tests.web.test_screens import line_wins

pytestmark = pytest.mark.web

SIZES = {
    "320x568": {"width": 320, "height": 568},
    "390x844": {"width": 390, "height": 844},
    "844x390": {"width": 844, "height": 390},
    "1920x1080": {"width": 1920, "height": 1080},
}


@pytest.fixture
def at_size(browser: Browser) -> Iterator[Callable[[str], Page]]:
    """Pages at a named screen size; each fails the test if it raised."""
    contexts = []
    errors: list[str] = []

    def open_page(size: str) -> Page:
        ctx = browser.new_context(viewport=SIZES[size], reduced_motion="reduce", locale="en-GB")
        ctx.set_default_timeout(15_000)
        contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        return page

    yield open_page
    for ctx in contexts:
        ctx.close()
    assert not errors, f"the page raised: {errors}"


def shot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"phone-{name}.png"))


def box(page: Page, selector: str) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate(BOXES, {"it": selector})
    (only,) = found["it"]
    return only


def test_the_sultan_reel_window_takes_a_small_phones_width(
    at_size: Callable[[str], Page], server: Server
) -> None:
    """At 320x568 the pots and the meter leave the reels room for cells of 44 px and more
    (the reel window was 186 px wide, its cells 34 px)."""
    page = at_size("320x568")
    open_game(page, server, server.new_player(), forcing.SULTAN)
    wait_state(page, "idle")
    shot(page, "sultan-320x568")
    check_game(page, "sultan-spins at 320x568")
    reels = box(page, ".reels")
    assert reels["w"] >= 240, f"the reel window is {reels['w']:.0f} px wide"
    columns = page.evaluate(BOXES, {"reel": ".reel"})["reel"]
    assert min(c["w"] for c in columns) >= 44, f"reels {[round(c['w']) for c in columns]} px"


@pytest.mark.parametrize("game", [forcing.TSAR, forcing.AURORA])
def test_a_tall_phone_gives_its_height_to_the_reels(
    at_size: Callable[[str], Page], server: Server, game: str
) -> None:
    """At 390x844 the reels grow taller into the frame: at most 120 px of backdrop between
    them and the bar (the win caption's line included), where there were 170."""
    page = at_size("390x844")
    open_game(page, server, server.new_player(), game)
    wait_state(page, "idle")
    shot(page, f"{game}-390x844")
    check_game(page, f"{game} at 390x844")
    reels, bar = box(page, ".reels"), box(page, ".controls")
    assert reels["h"] >= 330, f"the reels are {reels['h']:.0f} px high"
    under = bar["y"] - reels["bottom"]
    assert under <= 120, f"{under:.0f} px of backdrop under the reels"


@pytest.mark.parametrize("size", ["320x568", "390x844", "844x390"])
@pytest.mark.parametrize("game", [forcing.TSAR, forcing.SULTAN])
def test_the_bet_is_a_total_with_44_px_targets_a_list_and_a_max_bet(
    at_size: Callable[[str], Page], server: Server, game: str, size: str
) -> None:
    page = at_size(size)
    player = server.new_player()
    open_game(page, server, player, game)
    wait_state(page, "idle")
    where = f"{game} at {size}"
    assert page.is_visible(".bet-picker"), f"{where}: no total-bet picker"
    assert page.locator(".bet-controls > .stepper:visible").count() == 0
    controls = page.evaluate(BOXES, {"c": ".controls button, .controls .spin-button"})["c"]
    for control in controls:
        assert control["w"] >= 44 and control["h"] >= 44, f"{where}: {control} under 44 px"
    for i, a in enumerate(controls):
        for b in controls[i + 1 :]:
            assert not overlaps(a, b), f"{where}: {a['id']} overlaps {b['id']}"
    view = SIZES[size]
    for control in controls:
        assert inside(control, view["width"], view["height"]), f"{where}: {control} off screen"
    shot(page, f"bet-{game}-{size}")

    # the list: every bet by its total, the current one marked; choosing one takes it
    start = int(page.get_attribute("#bet-total", "data-minor") or 0)
    page.click("#total-bet-open")
    page.wait_for_selector("#bet-picker[open]")
    options = page.evaluate(BOXES, {"o": ".bet-option"})["o"]
    assert len(options) >= 4, f"{where}: {len(options)} bets to choose from"
    assert all(o["h"] >= 44 for o in options), f"{where}: a bet in the list is under 44 px"
    minors = [
        int(m) for m in page.eval_on_selector_all(".bet-option", "l => l.map(e => e.dataset.minor)")
    ]
    assert minors == sorted(set(minors)), f"{where}: the bets are not one per total, rising"
    pressed = page.eval_on_selector_all(
        ".bet-option[aria-pressed='true']", "l => l.map(e => e.dataset.minor)"
    )
    assert pressed == [str(start)], f"{where}: the current bet {start} is not marked: {pressed}"
    chosen = minors[2]
    shot(page, f"bet-list-{game}-{size}")
    page.click(f".bet-option[data-minor='{chosen}']")
    page.wait_for_selector("#bet-picker", state="hidden")
    assert int(page.get_attribute("#bet-total", "data-minor") or 0) == chosen
    assert page.inner_text(".picker-value") == page.inner_text("#bet-total")

    # − and + step through the list
    page.click("#total-bet-up")
    assert int(page.get_attribute("#bet-total", "data-minor") or 0) == minors[3]
    page.click("#total-bet-down")
    page.click("#total-bet-down")
    assert int(page.get_attribute("#bet-total", "data-minor") or 0) == minors[1]

    # Max bet: the largest in the list, and then nothing higher to step to
    page.click("#total-bet-max")
    assert int(page.get_attribute("#bet-total", "data-minor") or 0) == minors[-1]
    assert page.is_disabled("#total-bet-up") and page.is_disabled("#total-bet-max")

    # a spin is played at the bet chosen
    page.click("#total-bet-open")
    page.click(f".bet-option[data-minor='{chosen}']")
    if game == forcing.TSAR:
        force(page, forcing.tsar_spin(win=False))
    else:
        force(page, [*forcing.sultan_triggers(), *forcing.sultan_spin()])
    with page.expect_response(lambda r: r.url.endswith("/spin")) as spun:
        page.click("#spin")
    assert spun.value.json()["bet"]["minor"] == chosen
    wait_state(page, "idle")


def test_the_autoplay_status_and_its_stop_stay_on_a_320_px_screen(
    at_size: Callable[[str], Page], server: Server
) -> None:
    page = at_size("320x568")
    open_game(page, server, server.new_player(), forcing.TSAR)
    wait_state(page, "idle")
    page.click("#autoplay")
    page.fill("#autoplay-rounds", "50")
    page.fill("#autoplay-loss-limit", "100")
    page.click("#autoplay-start")
    page.wait_for_selector("#autoplay-status:not([hidden])")
    found = page.evaluate(
        BOXES, {"status": "#autoplay-status", "stop": "#autoplay-stop", "clock": ".session-info"}
    )
    shot(page, "autoplay-320x568")
    (status,), (stop,), (clock,) = found["status"], found["stop"], found["clock"]
    for name, each in (("status", status), ("stop", stop)):
        assert inside(each, 320, 568), f"the autoplay {name} is off screen: {each}"
    assert not overlaps(status, clock), f"the autoplay status {status} covers the clock {clock}"
    assert status["sw"] <= status["cw"] + 1, "the autoplay status's text overflows"
    count = page.inner_text("#autoplay-status .autoplay-count")
    assert re.fullmatch(r"\d+/50", count), f"the count reads {count!r}"
    page.click("#autoplay-stop")
    page.wait_for_selector("#autoplay-status", state="hidden", timeout=60_000)


#: The corners of each reel against the reel window's rounded (arched) outline: a corner
#: within an outer corner's radius lies inside the ellipse of that radius, or sticks out.
CORNERS_OUTSIDE = """() => {
  const reels = document.querySelector('.reels');
  const r = reels.getBoundingClientRect();
  const style = getComputedStyle(reels);
  const radius = (value) => {
    const [x, y = x] = value.split(' ');
    const px = (v, of) => (v.endsWith('%') ? (parseFloat(v) * of) / 100 : parseFloat(v));
    return [px(x, r.width), px(y, r.height)];
  };
  const [lx, ly] = radius(style.borderTopLeftRadius);
  const [rx, ry] = radius(style.borderTopRightRadius);
  const out = [];
  for (const reel of reels.querySelectorAll('.reel')) {
    const b = reel.getBoundingClientRect();
    const points = [[b.left - r.left, b.top - r.top, lx, ly, false],
                    [r.right - b.right, b.top - r.top, rx, ry, true]];
    for (const [x, y, ex, ey] of points) {
      if (x >= ex || y >= ey) continue;
      const d = ((x - ex) / ex) ** 2 + ((y - ey) / ey) ** 2;
      if (d > 1) out.push([reel.dataset.reel, Math.round(x), Math.round(y), ex, ey]);
    }
  }
  return out;
}"""


def test_the_sultan_reels_stay_inside_their_arch_at_1920(
    at_size: Callable[[str], Page], server: Server
) -> None:
    page = at_size("1920x1080")
    open_game(page, server, server.new_player(), forcing.SULTAN)
    wait_state(page, "idle")
    shot(page, "sultan-1920x1080")
    outside = page.evaluate(CORNERS_OUTSIDE)
    assert not outside, f"reel corners outside the arch (reel, x, y, radii): {outside}"


def resume_sultan_free_spins(page: Page, server: Server) -> None:
    """A Sultan round paused in its free spins: the game offers Continue, with a notice."""
    open_game(page, server, server.new_player(), forcing.SULTAN)
    free = [forcing.sultan_spin(free=True) for _ in range(3)]
    force(page, [*forcing.sultan_triggers(), *forcing.sultan_spin(bonus=(0, 1, 2))], *free)
    page.click("#spin")
    page.click("#free-spins-intro-button")
    # polled from here: the page's policy forbids the strings wait_for_function evaluates
    for _ in range(400):
        if page.evaluate(
            "() => Number(document.querySelector('#ladder-left')?.dataset.count) <= 5"
        ):
            break
        page.wait_for_timeout(50)
    page.reload()
    wait_state(page, "paused")
    page.wait_for_selector(".notice")


def within(inner: dict[str, Any], outer: dict[str, Any], slack: float = 0.5) -> bool:
    return (
        inner["x"] >= outer["x"] - slack
        and inner["y"] >= outer["y"] - slack
        and inner["right"] <= outer["right"] + slack
        and inner["bottom"] <= outer["bottom"] + slack
    )


def test_the_sultan_continue_and_its_panels_stay_in_their_frames_at_1920(
    at_size: Callable[[str], Page], server: Server
) -> None:
    """Back in free spins at 1920x1080: the ladder's status keeps to the column beside the
    reels (it ran 25 px out of it), the notice saying "press Continue" lies inside the reels'
    frame (it lay across its bottom border) and Continue is inside its button."""
    page = at_size("1920x1080")
    resume_sultan_free_spins(page, server)
    shot(page, "sultan-continue-1920x1080")
    found = page.evaluate(
        BOXES,
        {
            "column": ".stage-feature",
            "panels": ".stage-feature > *",
            "notice": ".notice",
            "reels": ".reels",
            "spin": "#spin",
        },
    )
    (column,), (reels,), (spin,) = found["column"], found["reels"], found["spin"]
    assert found["panels"] and found["notice"]
    for panel in found["panels"]:
        assert within(panel, column), f"{panel['id']} {panel} spills out of its column {column}"
    for notice in found["notice"]:
        assert within(notice, reels), f"the notice {notice} is not inside the reels {reels}"
    label = page.evaluate(
        """() => { const r = document.createRange();
          r.selectNodeContents(document.querySelector('#spin .spin-label'));
          const b = r.getBoundingClientRect();
          return { x: b.x, y: b.y, right: b.right, bottom: b.bottom }; }"""
    )
    assert page.inner_text("#spin .spin-label").lower() == "continue"
    assert within(label, spin), f"Continue {label} spills out of its button {spin}"


def test_the_sultan_reels_take_the_height_of_a_phone_on_its_side(
    at_size: Callable[[str], Page], server: Server
) -> None:
    """At 844x390 the meter and the ladder's status sit in a column beside the reels, not in a
    row above them, and the pots drop their caps: the cells were 39x44 px, now over 50."""
    page = at_size("844x390")
    open_game(page, server, server.new_player(), forcing.SULTAN)
    wait_state(page, "idle")
    shot(page, "sultan-844x390")
    check_game(page, "sultan-spins at 844x390")
    found = page.evaluate(
        BOXES, {"cell": ".reel .cell[data-row]", "feature": ".stage-feature > *", "reels": ".reels"}
    )
    cell, (reels,) = found["cell"][0], found["reels"]
    assert cell["w"] >= 50 and cell["h"] >= 54, f"the cells are {cell['w']:.0f}x{cell['h']:.0f}"
    for panel in found["feature"]:
        assert panel["right"] <= reels["x"], f"{panel['id']} {panel} is not beside the reels"
    # a line's amount over the reels is about a cell wide, not two
    force(page, line_wins(forcing.SULTAN))
    page.click("#spin")
    wait_state(page, "idle")
    page.wait_for_selector(".line-amount")
    amount = box(page, ".line-amount")
    assert amount["w"] <= 1.25 * cell["w"], (
        f"a line's amount {amount} over {cell['w']:.0f} px cells"
    )
    # the free spins' status shows in that column: the reels do not move for it
    resume_sultan_free_spins(page, server)
    (status,) = page.evaluate(BOXES, {"it": ".ladder-status"})["it"]
    (moved,) = page.evaluate(BOXES, {"it": ".reels"})["it"]
    assert status["right"] <= moved["x"] and status["sw"] <= status["cw"] + 1
    assert [round(moved[k]) for k in "xywh"] == [round(reels[k]) for k in "xywh"]


#: Each cell in the reel window (a strip's loop cells above it left out): its box and the box
#: its symbol's art is drawn in (the art's 100 x 100 square, mapped to the screen).
SYMBOL_BOXES = """() => [...document.querySelectorAll('.reels .reel')].flatMap((reel) => {
  const view = reel.getBoundingClientRect();
  return [...reel.querySelectorAll('.cell')].map((cell) => {
    const c = cell.getBoundingClientRect();
    const svg = cell.querySelector('svg.symbol');
    if (!svg || c.bottom <= view.top + 1 || c.top >= view.bottom - 1) return null;
    const m = svg.getScreenCTM();
    const a = new DOMPoint(0, 0).matrixTransform(m);
    const b = new DOMPoint(100, 100).matrixTransform(m);
    return { symbol: cell.dataset.symbol, cell_w: c.width, cell_h: c.height,
             art_w: b.x - a.x, art_h: b.y - a.y };
  }).filter(Boolean);
})"""


def check_symbols_fill_their_cells(page: Page, where: str) -> list[dict[str, Any]]:
    """Each symbol's art, its aspect kept, takes its cell's width (95% of it or more), and so
    at least 55% of a cell taller than wide: an upright phone's cells are, and the art drawn in
    them with a margin all round took 46% of a 65x112 px cell."""
    found: list[dict[str, Any]] = page.evaluate(SYMBOL_BOXES)
    assert found, f"{where}: no symbols drawn"
    for cell in found:
        said = f"{where}: {cell['symbol']} drawn {cell['art_w']:.0f} px wide"
        assert abs(cell["art_w"] - cell["art_h"]) <= 1, f"{said}: its art is not square"
        assert cell["art_w"] >= 0.95 * cell["cell_w"], f"{said} in a cell of {cell}"
        share = cell["art_w"] * cell["art_h"] / (cell["cell_w"] * cell["cell_h"])
        assert share >= 0.55, f"{said}: {share:.0%} of its cell {cell}"
    return found


@pytest.mark.parametrize("size", ["320x568", "390x844"])
@pytest.mark.parametrize("game", forcing.LOOKED)
def test_the_symbols_take_the_width_of_an_upright_phones_cells(
    at_size: Callable[[str], Page], server: Server, game: str, size: str
) -> None:
    page = at_size(size)
    player = server.new_player()
    if game not in {g["id"] for g in server.get(player, "/api/games")["games"]}:
        pytest.skip(f"no market of the test server offers {game}")
    open_game(page, server, player, game)
    wait_state(page, "idle")
    shot(page, f"symbols-{game}-{size}")
    check_game(page, f"{game} at {size}")
    check_symbols_fill_their_cells(page, f"{game} at {size}")


@pytest.mark.skipif(not forcing.lanterns_present(), reason="Lucky Lanterns is not in games/")
@pytest.mark.parametrize(
    ("size", "lang"), [("320x568", "en"), ("390x844", "en"), ("844x390", "en"), ("320x568", "de")]
)
def test_the_lanterns_ante_and_coin_values_read_whole_on_a_phone(
    at_size: Callable[[str], Page], server: Server, size: str, lang: str
) -> None:
    """Lucky Lanterns at its highest bet with the ante on (the longest price per spin), after
    a hold-and-spin whose counter stays up beside the ante: the ante's name and price are read
    whole, its switch a 44 px target, the coins' values written at 11 px or more on their
    lanterns, and the lanterns drawn across their cells' width; in German too at 320 px."""
    page = at_size(size)
    player = server.new_player(balance="100000.00")
    if forcing.LANTERNS not in {g["id"] for g in server.get(player, "/api/games")["games"]}:
        pytest.skip("no market of the test server offers Lucky Lanterns")
    page.goto(f"{server.url}/?token={player.token}&lang={lang}#/play/{forcing.LANTERNS}")
    wait_state(page, "idle")
    if page.get_attribute("#turbo", "aria-pressed") != "true":
        page.click("#turbo")
    where = f"{forcing.LANTERNS} at {size} ({lang})"
    page.click("#total-bet-max")
    page.click("#ante")
    assert page.get_attribute("#ante", "aria-checked") == "true"
    check_ante_words(page, f"{where} idle")
    force(page, forcing.lanterns_spin(7, ["5", "mini", "10"]))
    page.click("#spin")
    page.wait_for_selector("#hold-and-spin:not([hidden])")
    wait_state(page, "idle", "gamble", timeout=60_000)
    shot(page, f"lanterns-ante-{size}-{lang}")
    assert page.is_visible("#hold-and-spin") and page.is_visible("#ante")
    check_ante_words(page, f"{where} after the hold-and-spin")
    check_info(page, f"{where} after the hold-and-spin")
    coins = page.evaluate(BOXES, {"coin": ".cell.hs-held .cell-badge.hs-coin:not(.hs-tier)"})
    assert coins["coin"], f"{where}: no coin values shown"
    for coin in coins["coin"]:
        assert coin["fs"] >= 11, f"{where}: a coin's value is written at {coin['fs']} px"
        assert coin["sw"] <= coin["cw"] + 1, f"{where}: a coin's value overflows {coin}"
    if size != "844x390":
        check_symbols_fill_their_cells(page, where)
