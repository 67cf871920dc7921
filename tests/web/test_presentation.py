"""The presentation in the browser: win tiers and their scenes, wins over the reels, the
free-spins intro and outro, sound settings, and the gb market's quiet small wins."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from tests.web import forcing
from tests.web.conftest import (
    DESKTOP,
    PHONE,
    Server,
    force,
    minor,
    open_game,
    press_scene,
    record_scenes,
    scenes_shown,
    screenshot,
    sounds,
    wait_state,
)

pytestmark = pytest.mark.web

GAME = forcing.TSAR
BET_MINOR = 25  # 25 paylines x 1 coin x 0.01: 25 coins of 0.01
TIERS = {"big": 15, "mega": 30, "epic": 60}  # the shipped markets' thresholds (x stake)


def tier_for(win_minor: int, stake_minor: int) -> str | None:
    reached = [name for name, at in TIERS.items() if win_minor >= at * stake_minor]
    return reached[-1] if reached else None


@pytest.fixture
def moving(browser: Browser) -> Iterator[Page]:
    """A page without reduced motion (counts take their time), turbo left off."""
    context: BrowserContext = browser.new_context(
        viewport=DESKTOP, reduced_motion="no-preference", locale="en-GB"
    )
    context.set_default_timeout(15_000)
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    context.close()
    assert not errors, f"the page raised: {errors}"


def pause_clock(page: Page) -> None:
    """Stop the page's timers and animation frames (Playwright's clock, installed before the
    page loaded): from here on, time moves only with ``page.clock.run_for``."""
    page.clock.pause_at(page.evaluate("Date.now()") + 1)


def run_until(page: Page, condition: str, *, step_ms: int = 50, limit_ms: int = 30_000) -> int:
    """Move the paused clock on in small steps until ``condition`` (a script) holds; the
    milliseconds of page time it took."""
    for elapsed in range(0, limit_ms, step_ms):
        if page.evaluate(condition):
            return elapsed
        page.clock.run_for(step_ms)
    raise AssertionError(f"{condition} did not hold within {limit_ms} ms of page time")


def spin(page: Page) -> dict:
    with page.expect_response(lambda r: r.url.endswith(f"/api/games/{GAME}/spin")) as spun:
        page.click("#spin")
    body: dict = spun.value.json()
    return body


# -- win tiers ---------------------------------------------------------------------------


def test_a_big_win_counts_up_in_its_scene_and_a_tap_skips_to_the_total(
    moving: Page, server: Server
) -> None:
    page = moving
    page.clock.install()  # time runs as usual until the test pauses it
    player = server.new_player()
    open_game(page, server, player, GAME, turbo=False)
    force(page, forcing.tsar_win_between(15 * BET_MINOR, 30 * BET_MINOR))
    body = spin(page)
    win = body["win"]["minor"]
    assert tier_for(win, body["bet"]["minor"]) == "big"

    # The page's time moves in 50 ms steps until the count has begun, then stands still: the
    # count is caught on its way up whatever the machine's load.
    pause_clock(page)
    run_until(page, "document.querySelector(\"#win-scene[data-phase='counting']\") !== null")
    page.clock.run_for(500)
    assert page.get_attribute("#win-scene", "data-tier") == "big"
    assert page.inner_text("#win-scene .scene-title").lower() == "big win"
    counting = int(page.get_attribute("#win-scene-amount", "data-minor") or -1)
    assert 0 < counting < win  # on its way up
    page.click("#win-scene")  # the tap skips to the total at once
    assert page.get_attribute("#win-scene", "data-phase") == "total"
    assert minor(page, "#win-scene-amount") == win
    assert page.inner_text("#win-scene-amount") == body["win"]["formatted"]
    page.click("#win-scene")  # a second tap ends the scene before its hold is over
    assert page.locator("#win-scene").count() == 0
    page.clock.resume()
    wait_state(page, "gamble")
    assert minor(page, "#win") == win
    assert minor(page, "#win-amount") == win  # and the amount stays over the reels
    cues = sounds(page)
    assert "tier" in cues and "total" in cues


@pytest.mark.parametrize(
    ("low", "high", "tier"),
    [(15, 30, "big"), (30, 60, "mega"), (60, 1000, "epic")],
)
def test_each_tier_is_chosen_by_the_win_over_the_stake(
    page: Page, server: Server, low: int, high: int, tier: str
) -> None:
    player = server.new_player()
    open_game(page, server, player, GAME)
    record_scenes(page)
    # a win just below the big threshold has no scene at all
    force(page, forcing.tsar_win_between(8 * BET_MINOR, 15 * BET_MINOR))
    below = spin(page)
    wait_state(page, "gamble")
    assert tier_for(below["win"]["minor"], BET_MINOR) is None
    assert scenes_shown(page) == []
    assert "celebrate" in (page.get_attribute("#win-amount", "class") or "")

    force(page, forcing.tsar_win_between(low * BET_MINOR, high * BET_MINOR))
    body = spin(page)
    wait_state(page, "gamble", timeout=20_000)
    assert tier_for(body["win"]["minor"], body["bet"]["minor"]) == tier
    assert scenes_shown(page) == [["win-scene", tier]]
    assert minor(page, "#win") == body["win"]["minor"]


def test_several_line_wins_are_shown_one_by_one_with_their_amounts_then_together(
    page: Page, server: Server
) -> None:
    player = server.new_player()
    open_game(page, server, player, GAME)
    page.evaluate(
        """() => {
          window.__captions = [];
          const caption = document.querySelector('#win-caption');
          new MutationObserver(() => window.__captions.push(
              [caption.dataset.shown, caption.textContent,
               [...document.querySelectorAll('.line-amount')].map((e) => e.textContent)]))
            .observe(caption, {childList: true, characterData: true, subtree: true,
                               attributes: true});
        }"""
    )
    stops = forcing.search_stops(
        GAME,
        "base",
        [lambda cells: forcing.symbol(GAME, "egg") not in cells] * 5,
        lambda grid: len(forcing.tsar_wins(grid).line_wins) >= 3,
    )
    force(page, stops)
    body = spin(page)
    wins = body["round"]["spins"][0]["line_wins"]
    page.wait_for_function("document.querySelector('#win-caption').dataset.shown === 'all'")
    size = body["round"]["coin_size_minor"]
    captions = page.evaluate("window.__captions")
    singles = [c for c in captions if c[0] not in (None, "all")]
    shown_lines = []
    for index, text, _tags in singles:
        win = wins[int(index)]
        assert text.startswith(f"Line {win['line']}:")
        shown_lines.append(win["line"])
    assert sorted(set(shown_lines)) == sorted(w["line"] for w in wins)
    total = sum(w["coins"] for w in wins) * size
    caption = page.inner_text("#win-caption")
    assert caption.startswith(f"{len(wins)} wins pay ")
    for win in wins:
        assert f"Line {win['line']} " in caption
    tags = page.locator(".line-amount").evaluate_all("(els) => els.map((e) => e.dataset.minor)")
    assert sorted(int(t) for t in tags) == sorted(w["coins"] * size for w in wins)
    assert minor(page, "#win-amount") == total == body["win"]["minor"]


# -- the market forbids celebrating a win that does not exceed the stake --------------------


def test_gb_shows_a_win_not_above_the_stake_without_celebration(page: Page, server: Server) -> None:
    player = server.new_player(market="gb", currency="GBP")
    open_game(page, server, player, GAME)
    record_scenes(page)
    force(page, forcing.tsar_win_between(1, BET_MINOR + 1))
    body = spin(page)
    wait_state(page, "gamble")
    assert body["celebrate"] is False and 0 < body["win"]["minor"] <= BET_MINOR
    popup = page.get_attribute("#win-amount", "class") or ""
    assert "quiet" in popup.split() and "celebrate" not in popup.split()
    assert minor(page, "#win-amount") == body["win"]["minor"]
    assert "celebrate" not in (page.get_attribute("#win", "class") or "")
    assert scenes_shown(page) == []
    assert not {"win", "tier", "coin", "total"} & set(sounds(page))

    # a win above the stake is celebrated in gb too: its sound, and a tier's scene
    force(page, forcing.tsar_win_between(15 * BET_MINOR, 30 * BET_MINOR))
    big = spin(page)
    wait_state(page, "gamble", timeout=20_000)
    assert big["celebrate"] is True
    assert scenes_shown(page) == [["win-scene", "big"]]
    assert "tier" in sounds(page)


# -- free spins: intro, scene change, outro ------------------------------------------------


def test_the_free_spins_intro_waits_for_the_press_and_the_outro_shows_the_rounds_total(
    page: Page, server: Server
) -> None:
    page.clock.install()
    player = server.new_player()
    open_game(page, server, player, GAME)
    free_spins: list[str] = []
    page.on("request", lambda r: r.url.endswith("/free-spin") and free_spins.append(r.url))
    free = [forcing.tsar_spin(free=True, win=True) for _ in range(9)]
    force(page, forcing.tsar_free_spins_trigger(), *free)
    trigger = spin(page)
    assert trigger["round"]["free_spins_awarded"] == 9

    page.wait_for_selector("#free-spins-intro-button")
    assert page.get_attribute("#free-spins-intro", "data-spins") == "9"
    assert page.locator("#free-spins-intro .scene-egg-value").all_inner_texts() == ["3"] * 3
    # A minute of page time, far longer than any scene that goes on by itself: the intro still
    # waits and no free spin is played.
    pause_clock(page)
    page.clock.run_for(60_000)
    assert page.is_visible("#free-spins-intro-button")
    assert free_spins == []
    page.clock.resume()
    page.keyboard.press("Space")
    page.wait_for_selector("#free-spins-intro", state="detached")
    page.wait_for_selector(".game.in-free-spins")  # the scene changes for the free spins

    page.wait_for_selector("#free-spins-outro-button", timeout=30_000)
    assert len(free_spins) == 9
    view = server.get(player, f"/api/history/rounds?game={GAME}&limit=1")["rounds"][0]["round"]
    total = view["win_minor"]
    assert total > 0
    assert int(page.get_attribute("#free-spins-outro", "data-total") or -1) == total
    page.wait_for_function(
        "document.querySelector('#free-spins-outro-amount').dataset.minor"
        " === document.querySelector('#free-spins-outro-amount').dataset.total"
    )
    assert minor(page, "#free-spins-outro-amount") == total
    size = view["coin_size_minor"]
    free_win = view["free_spins_win_coins"] * size
    trigger_win = total - free_win
    outro = page.inner_text("#free-spins-outro")
    assert f"9 free spins won €{free_win / 100:.2f}" in outro
    if trigger_win:
        assert f"The spin that triggered them won €{trigger_win / 100:.2f}" in outro
    # the counter agrees with the Win meter: the round's win, the trigger's included
    assert minor(page, "#free-spins-win") == minor(page, "#win") == total
    screenshot(page, "free-spins-outro")
    press_scene(page, "free-spins-outro")
    wait_state(page, "gamble", "idle")
    assert page.is_hidden("#free-spins")
    assert page.locator(".game.in-free-spins").count() == 0
    assert {"featureIntro", "featureOutro"} <= set(sounds(page))


# -- the scenes cover the game at phone and desktop sizes -----------------------------------


def boxes_inside(page: Page, selector: str) -> list[str]:
    """What of `selector` and its descendants lies outside the viewport or overflows."""
    problems: list[str] = page.evaluate(
        """(selector) => {
          const w = window.innerWidth, h = window.innerHeight, out = [];
          const root = document.querySelector(selector);
          const r = root.getBoundingClientRect();
          if (r.left > 0.5 || r.top > 0.5 || r.right < w - 0.5 || r.bottom < h - 0.5)
            out.push(`the scene covers ${r.left},${r.top} to ${r.right},${r.bottom} of ${w}x${h}`);
          for (const el of root.querySelectorAll('.scene-card, .scene-card *')) {
            const b = el.getBoundingClientRect();
            if (!b.width && !b.height) continue;
            if (b.left < -0.5 || b.top < -0.5 || b.right > w + 0.5 || b.bottom > h + 0.5)
              out.push(`${el.className || el.tagName} at ${[b.left, b.top, b.right, b.bottom]}`);
            if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflow !== 'visible')
              out.push(`${el.className || el.tagName} overflows its width`);
          }
          const card = root.querySelector('.scene-card');
          if (card.scrollHeight > card.clientHeight + 1) out.push('the card overflows its height');
          return out;
        }""",
        selector,
    )
    return problems


@pytest.mark.parametrize("game", [forcing.TSAR, forcing.SULTAN])
def test_the_scenes_cover_the_game_and_nothing_overflows_at_phone_and_desktop_sizes(
    page: Page, server: Server, game: str
) -> None:
    player = server.new_player()
    open_game(page, server, player, game)
    if game == forcing.TSAR:
        free = [forcing.tsar_spin(free=True, win=True) for _ in range(9)]
        force(page, forcing.tsar_free_spins_trigger(), *free)
    else:
        trigger = [*forcing.sultan_triggers(), *forcing.sultan_spin(bonus=(0, 1, 2))]
        force(page, trigger, *[forcing.sultan_spin(free=True) for _ in range(7)])
    page.click("#spin")
    page.wait_for_selector("#free-spins-intro-button")
    for size in (PHONE, DESKTOP):
        page.set_viewport_size(size)
        page.wait_for_timeout(100)
        assert boxes_inside(page, "#free-spins-intro") == [], size
        # the scene is on top: the point at the middle of the Spin button is the scene's
        box = page.locator("#spin").bounding_box()
        assert box is not None
        on_top = page.evaluate(
            "([x, y]) => Boolean(document.elementFromPoint(x, y)?.closest('.scene'))",
            [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
        )
        assert on_top, size
    screenshot(page, f"free-spins-intro-{game}")
    press_scene(page, "free-spins-intro")
    page.wait_for_selector("#free-spins-outro-button", timeout=40_000)
    for size in (PHONE, DESKTOP):
        page.set_viewport_size(size)
        page.wait_for_timeout(100)
        assert boxes_inside(page, "#free-spins-outro") == [], size
    press_scene(page, "free-spins-outro")


# -- sound ---------------------------------------------------------------------------------


def test_the_sound_settings_persist_across_a_reload(page: Page, server: Server) -> None:
    player = server.new_player()
    open_game(page, server, player, GAME, turbo=False)
    # Nothing sounds before the player's first interaction; with reduced motion asked for, the
    # music starts off.
    assert page.get_attribute("html", "data-sound") == "locked"
    page.click("#menu")
    assert page.get_attribute("html", "data-sound") == "on"
    sound = page.locator("#menu-dialog[open] #menu-sound")
    assert sound.locator("#sound-toggle").get_attribute("aria-pressed") == "true"
    assert not page.is_checked("#sound-music")
    assert page.input_value("#sound-volume") == "70"
    page.fill("#sound-volume", "35")
    page.check("#sound-music")
    page.click("#sound-toggle")
    assert page.get_attribute("#sound-toggle", "aria-pressed") == "false"
    assert page.inner_text("#sound-toggle .sound-toggle-label") == "Sound off"
    assert page.get_attribute("html", "data-sound") == "off"
    assert page.is_disabled("#sound-volume")

    page.reload()
    page.wait_for_selector(".game:not([data-state='loading'])")
    assert page.get_attribute("html", "data-sound") == "off"
    page.click("#menu")
    assert page.get_attribute("#sound-toggle", "aria-pressed") == "false"
    assert page.input_value("#sound-volume") == "35"
    assert page.is_checked("#sound-music")
    page.click("#sound-toggle")
    assert page.get_attribute("#sound-toggle", "aria-pressed") == "true"
    assert page.get_attribute("html", "data-sound") == "on"
    stored = page.evaluate("JSON.parse(localStorage.getItem('reelsmith.sound'))")
    assert stored == {"on": True, "volume": 0.35, "music": True}
    page.click("#menu-dialog .dialog-close")

    # the reels' sounds are asked for as they spin and stop
    force(page, forcing.tsar_spin(win=False))
    page.click("#spin")
    wait_state(page, "idle")
    cues = sounds(page)
    assert cues.count("spin") == 1 and cues.count("reelStop") == 5


def test_the_scenes_and_sound_controls_speak_the_players_language(
    browser: Browser, server: Server
) -> None:
    context = browser.new_context(viewport=DESKTOP, reduced_motion="reduce", locale="de-DE")
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        player = server.new_player()
        open_game(page, server, player, GAME)
        assert page.text_content("#sound-toggle .sound-toggle-label") == "Ton an"
        force(page, forcing.tsar_free_spins_trigger())
        page.click("#spin")
        page.wait_for_selector("#free-spins-intro-button")
        assert page.inner_text("#free-spins-intro .scene-title") == "9 Freispiele"
        assert page.inner_text("#free-spins-intro .scene-line") == "Die Eier zeigen 3 + 3 + 3"
    finally:
        context.close()
