"""Crystal Caverns in the browser, the loose ends of issue #34: a free spin's cascade counts its
screens into the free-spins counter's win as it pays them (with the Win meter, ending on the
free spins' total); a spinning reel runs only through the symbols its own strip carries (the
Geode never blurs past reel 1, where it never lands), in the base game and in the free spins;
and in Germany the title offers no buy, speaks German that fits and shows a cascade round in
its history and replay, at 1366x768, 1920x1080 and 390x844 (screenshots
``caverns-de-<size>-<idle|chain|history|replay>.png`` for a person to look at)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from tests.web import forcing
from tests.web.conftest import (
    SCREENSHOTS,
    Server,
    answers,
    force,
    minor,
    open_game,
    press_scene,
    received,
    wait_state,
)
from tests.web.test_caverns_look import GAME, open_caverns
from tests.web.test_german import english_left, names
from tests.web.test_layout import BOXES, overlaps
from tests.web.test_sizes import check_size, viewport

pytestmark = [
    pytest.mark.web,
    pytest.mark.skipif(
        not forcing.caverns_present(), reason="Crystal Caverns is not in games/ on this branch"
    ),
]

#: The win events, whose ``minor`` a screen pays.
WINS = {"line_win", "way_win", "count_win", "scatter_win"}

#: Keeps, as each cascade of a free spin starts ([step, Win meter, counter's win]).
COUNTER = """() => {
  window.__paid = [];
  const root = document.querySelector('.game');
  new MutationObserver(() => {
    if (!root.dataset.cascadeStep || !root.classList.contains('in-free-spins')) return;
    window.__paid.push([
      Number(root.dataset.cascadeStep),
      Number(document.querySelector('#win').dataset.minor),
      Number(document.querySelector('#free-spins-win').dataset.minor),
    ]);
  }).observe(root, {attributes: true, attributeFilter: ['data-cascade-step']});
}"""

#: Keeps the symbols each reel runs through as it starts spinning ([reel, symbol, free?]):
#: a spinning strip is its filler, then the screen it spins away from and the filler's first
#: `rows` again (`ReelGrid.startSpin`); only the filler is kept.
BLUR = """(rows) => {
  window.__blur = [];
  const root = document.querySelector('.game');
  new MutationObserver((changes) => {
    for (const change of changes) {
      const column = change.target;
      if (!column.classList.contains('reel') || !column.classList.contains('spinning')) continue;
      if ((change.oldValue ?? '').split(' ').includes('spinning')) continue;
      const cells = [...column.querySelectorAll('.strip > .cell')];
      const free = root.classList.contains('in-free-spins');
      for (const cell of cells.slice(0, cells.length - 2 * rows))
        window.__blur.push([Number(column.dataset.reel), cell.dataset.symbol, free]);
    }
  }).observe(document.querySelector('.reels'),
    {subtree: true, attributes: true, attributeFilter: ['class'], attributeOldValue: true});
}"""


@pytest.fixture
def moving(browser: Browser) -> Iterator[BrowserContext]:
    """A desktop context at full motion (reduced motion draws no spinning strip)."""
    ctx = browser.new_context(
        viewport=viewport("1366x768"),
        reduced_motion="no-preference",
        locale="en-GB",
        bypass_csp=True,
    )
    ctx.set_default_timeout(20_000)
    yield ctx
    ctx.close()


def strip_symbols(name: str) -> list[set[str]]:
    """Per reel, the symbols reel set ``name`` of the variant the default market plays carries."""
    game = forcing.model(GAME)
    strips = forcing.reel_set(GAME, name).strips
    return [{game.symbols[int(s)].id for s in strip} for strip in strips]


def expected_counter(answer: dict[str, Any], earlier: int) -> list[int]:
    """What the counter (and the Win meter) show as each cascade of a free spin starts: the
    round's win before the spin and the chain's screens paid so far (the step's events)."""
    index = len(answer["round"]["spins"]) - 1
    paid, out = earlier, []
    for event in answer["events"]:
        if event.get("spin") != index:
            continue
        if event["type"] in WINS:
            paid += event["minor"]
        elif event["type"] == "cascade":
            out.append(paid)
    return out


def screens_paid(answer: dict[str, Any]) -> list[tuple[dict[str, Any], int]]:
    """The win events of a step's screen, each with the multiplier of the chain's screen that
    paid it (the first screen's: x1 in the base game)."""
    index = len(answer["round"]["spins"]) - 1
    multiplier = answer["round"]["spins"][-1].get("cascade_multiplier", 1)
    out = []
    for event in answer["events"]:
        if event.get("spin") != index:
            continue
        if event["type"] == "cascade":
            multiplier = event["multiplier"]
        elif event["type"] in WINS:
            out.append((event, multiplier))
    return out


def blurred(page: Page, *, free: bool) -> list[list[Any]]:
    found: list[list[Any]] = page.evaluate("() => window.__blur")
    return [entry for entry in found if entry[2] == free]


def strangers(blur: list[list[Any]], allowed: list[set[str]]) -> list[tuple[int, str]]:
    """The symbols a reel ran through that its strip does not carry (reel numbers from 1)."""
    return sorted({(reel + 1, symbol) for reel, symbol, _ in blur if symbol not in allowed[reel]})


def test_the_counter_counts_a_free_spins_chain_as_it_pays(page: Page, server: Server) -> None:
    """A bought feature's first free spin is a chain: as each of its screens is paid the
    counter's win is the Win meter's (the chain so far), never €0.00 until the spin ends; at
    the outro it is the free spins' total."""
    open_caverns(page, server)
    page.evaluate(COUNTER)
    free = answers(page, "/free-spin")
    quiet = forcing.caverns_free_quiet()
    force(page, [], forcing.caverns_free_chain(2), *[quiet] * 9)
    page.click("#buy-feature")
    page.click("#buy-confirm")
    press_scene(page, "free-spins-intro")
    # the chain falling, its win on the counter as on the meter: kept for a person to look at
    page.wait_for_function("() => window.__paid.length > 0", timeout=40_000)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "caverns-free-chain-counter.png"))
    page.wait_for_selector("#free-spins-outro-button", timeout=90_000)
    assert len(received(page, free, 10)) == 10
    expected = expected_counter(free[0], earlier=0)
    assert len(expected) >= 2 and expected[0] > 0, expected
    paid = page.evaluate("() => window.__paid")
    # the first free spin's chain: each fall shows the screens paid before it, on both
    assert [meter for _, meter, _ in paid] == expected, paid
    assert [counter for _, _, counter in paid] == expected, paid
    total = int(page.get_attribute("#free-spins-outro", "data-total") or -1)
    assert minor(page, "#free-spins-win") == total == free[-1]["round"]["win_minor"] > 0
    press_scene(page, "free-spins-outro")
    wait_state(page, "idle", timeout=40_000)


def test_each_reel_spins_only_the_symbols_its_strip_carries(
    moving: BrowserContext, server: Server
) -> None:
    """Base spins and free spins: every symbol a spinning reel runs through is on that reel's
    strip of the reel set the screen plays (the Geode, on reels 2 to 5 only, never on reel 1)."""
    page = moving.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    open_caverns(page, server)
    rows = forcing.model(GAME).rows
    page.evaluate(BLUR, rows)
    base, free = strip_symbols("base"), strip_symbols("free_spins")
    assert "geode" not in base[0] and all("geode" in reel for reel in base[1:])
    quiet_base = forcing.caverns_stops(
        lambda s: (r := forcing.caverns_round(s)).phase == "complete" and r.spins[-1].win_coins == 0
    )
    for _ in range(6):
        force(page, quiet_base)
        page.click("#spin")
        wait_state(page, "idle", timeout=30_000)
    spun = blurred(page, free=False)
    # six spins, nine filler cells a reel each: every reel ran, through its own symbols alone
    assert {reel for reel, _, _ in spun} == set(range(5)) and len(spun) >= 6 * 5 * 9
    assert strangers(spun, base) == []
    assert len({symbol for reel, symbol, _ in spun if reel == 1}) > 1
    force(page, forcing.caverns_trigger(), *[forcing.caverns_free_quiet()] * 10)
    page.click("#spin")
    press_scene(page, "free-spins-intro")
    page.wait_for_selector("#free-spins-outro-button", timeout=90_000)
    spun_free = blurred(page, free=True)
    assert len(spun_free) >= 10 * 5 * 9
    assert strangers(spun_free, free) == []
    press_scene(page, "free-spins-outro")
    wait_state(page, "idle", timeout=40_000)
    assert not errors, errors


# -- Germany ----------------------------------------------------------------------------------

DE_SIZES = ["1366x768", "1920x1080", "390x844"]

#: The boxes of the texts a German player reads on the game screen: none may be cut.
CUT = """() => [...document.querySelectorAll(
    '.game button, .game output, .game label, .game .stepper-label, .game .fs-counter *, '
    + '.game .win-caption, .game .caption, .dialog[open] *')]
  .filter((el) => el.checkVisibility() && el.children.length === 0 && el.textContent.trim())
  .filter((el) => el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflow !== 'visible'
    || el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).textOverflow === 'ellipsis')
  .map((el) => `${el.id || el.className}: ${el.textContent.trim()}`)"""


def german_caverns(browser: Browser, server: Server, size: str) -> tuple[Page, list[str]]:
    ctx = browser.new_context(
        viewport=viewport(size), reduced_motion="reduce", locale="de-DE", bypass_csp=True
    )
    ctx.set_default_timeout(30_000)
    player = server.new_player(market="de")
    if GAME not in {g["id"] for g in server.get(player, "/api/games")["games"]}:
        ctx.close()
        pytest.skip("the de market of the test server does not offer Crystal Caverns")
    with server.client(player.token) as api:
        api.get(f"/api/games/{GAME}/rules?lang=de", timeout=180).raise_for_status()
    ctx.add_init_script(f"window.__names = {json.dumps(names(server, player))};")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    open_game(page, server, player, GAME)
    wait_state(page, "idle", timeout=60_000)
    return page, errors


def euro(minor: int) -> str:
    """``minor`` euro cents as the German page writes them (``1,25 €``)."""
    units, cents = divmod(minor, 100)
    return f"{units:,}".replace(",", ".") + f",{cents:02d}\u00a0€"


def look(page: Page, size: str, state: str) -> None:
    """The screen is German, no text of it cut, the title clear of the session clock and of
    the head's buttons (the clock and net position take a phone's head: the long title
    must make room), and its picture kept for a person."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"caverns-de-{size}-{state}.png"))
    assert english_left(page) == [], state
    assert page.evaluate(CUT) == [], state
    head = page.evaluate(
        BOXES,
        {
            "title": ".game-title",
            "beside": ".game-session .session-info, .head-tools > *",
            "head": ".game-head",
        },
    )
    ((title,), (bar,)) = head["title"], head["head"]
    for box in head["beside"]:
        assert not overlaps(title, box), f"{state}: the title {title} meets {box['id']} {box}"
    assert bar["y"] - 0.5 <= title["y"] and title["bottom"] <= bar["bottom"] + 0.5, (state, title)


@pytest.mark.parametrize("size", DE_SIZES)
def test_germany_offers_no_buy_and_shows_a_chain_in_german(
    browser: Browser, server: Server, size: str
) -> None:
    page, errors = german_caverns(browser, server, size)
    try:
        # no bought feature here: no buy button at all (as gb does), nor the price of one
        assert page.locator("#buy-feature").count() == 0
        assert "56,5" not in page.inner_text("body")
        idle = check_size(page, size, f"{GAME} de {size} idle")
        look(page, size, "idle")
        stops = forcing.caverns_chain(2)
        played = forcing.caverns_round(stops)
        force(page, stops)
        with page.expect_response(lambda r: r.url.endswith("/spin")) as spun:
            page.click("#spin")
        answer = spun.value.json()
        wait_state(page, "idle", timeout=60_000)
        win = answer["round"]["win_minor"]
        assert minor(page, "#win") == win > 0
        assert check_size(page, size, f"{GAME} de {size} chain") == idle
        look(page, size, "chain")
        # the history: the round, its win, and in its replay every screen of the chain's wins
        page.click("#menu")
        page.click("#history")
        history = page.locator("#history-dialog[open]")
        row = history.locator(".history-row").first
        row.wait_for()
        assert int(row.locator(".history-win").get_attribute("data-minor") or -1) == win
        look(page, size, "history")
        row.locator(".replay-open").click()
        history.locator(".replay-step").first.wait_for()
        assert history.locator(".replay-win").inner_text() == f"Rundengewinn bisher: {euro(win)}"
        paid = [e for e in answer["events"] if e["type"] in WINS]
        assert len(paid) >= forcing.cascades(played)
        amounts = [euro(e["minor"]) for e in paid]
        detail = history.locator(".replay-detail").inner_text()
        assert all(a in detail for a in amounts), (amounts, detail)
        # a later screen's wins say the multiplier their amounts hold (the paytable's x1 not)
        multiplied = [(e["minor"], m) for e, m in screens_paid(answer) if m > 1]
        assert multiplied, answer["events"]
        for paid_minor, times in multiplied:
            assert f"zahlt {euro(paid_minor)} ({times}x)" in detail, (paid_minor, times, detail)
        assert sum(e["minor"] for e in paid) == win
        # the replay's reels show the chain's last screen, as the game ended on it
        shown = history.locator(".replay-stage .cell").evaluate_all(
            "(els) => els.map((e) => e.dataset.symbol)"
        )
        last = answer["round"]["spins"][-1]
        final = (last.get("cascade") or [last])[-1]["screen"]
        assert shown == [s for row in zip(*final, strict=True) for s in row]
        boxes = page.evaluate(BOXES, {"it": "#history-dialog[open] .replay-nav button"})["it"]
        for i, a in enumerate(boxes):
            for b in boxes[i + 1 :]:
                assert not overlaps(a, b), (a, b)
        look(page, size, "replay")
        assert not errors, errors
    finally:
        page.context.close()
