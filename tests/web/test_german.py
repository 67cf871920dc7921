"""A German player reads German on every screen: the lobby, both titles, the bar, the menu,
autoplay, history and its replay, the gamble, the free spins' scenes, the rules dialog's chrome
and the reality check, at a phone's size and a desktop's.

What is "left English" is decided from the catalogues themselves: a word of an English text
that no German text uses (``Spin``, ``Collect``, ``left``...), or a common English word; it
must not appear in any text node the page shows, nor in the labels a screen reader reads.
Symbol and pot names (the titles' data, from the German rules document), the titles' names and
numbers are not words of the catalogues and pass. The rules dialog's body and the lobby's
description of each title come from the server's German rules page and are checked the same
way."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from tests.web import forcing
from tests.web.conftest import (
    SCREENSHOTS,
    Player,
    Server,
    force,
    open_game,
    press_scene,
    wait_state,
)

pytestmark = pytest.mark.web

CATALOGUES = Path(__file__).resolve().parents[2] / "src" / "reelsmith" / "web" / "i18n"
SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1366, "height": 768}}
COMMON_ENGLISH = {
    "the", "and", "your", "you", "of", "to", "is", "on", "for", "with", "was", "this", "at",
    "by", "it", "not", "are", "left", "win", "wins", "spin", "spins", "bet", "pays", "round",
}  # fmt: skip

TEXTS = """(skip) => {
  const out = [];
  const shown = (el) => el.checkVisibility({ visibilityProperty: true, opacityProperty: false });
  const skipped = (el) =>
    el.closest('script, style, noscript, svg') || skip.some((s) => el.closest(s));
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const el = node.parentElement;
    const text = node.textContent.trim();
    if (!text || !el || skipped(el) || !shown(el)) continue;
    out.push(text);
  }
  for (const el of document.querySelectorAll('[aria-label], [placeholder], [title]')) {
    if (skipped(el) || !shown(el)) continue;
    for (const name of ['aria-label', 'placeholder', 'title']) {
      if (el.hasAttribute(name) && el.getAttribute(name).trim()) out.push(el.getAttribute(name));
    }
  }
  return out;
}"""


def words(text: str) -> set[str]:
    return {word.lower() for word in re.findall(r"\b[^\W\d_]+\b", re.sub(r"\{\w+\}", " ", text))}


def catalogue_words(language: str) -> set[str]:
    data = json.loads((CATALOGUES / f"{language}.json").read_text("utf-8"))
    texts = [
        v
        for value in data.values()
        for v in (value.values() if isinstance(value, dict) else [value])
    ]
    return set().union(*(words(text) for text in texts))


ENGLISH_ONLY = (catalogue_words("en") - catalogue_words("de")) | (
    COMMON_ENGLISH - catalogue_words("de")
)


def names(server: Server, player: Player) -> list[str]:
    """The titles' names, their symbols' and pots' names: data, not the client's words."""
    found = []
    for game in server.get(player, "/api/games")["games"]:
        found.append(game["name"])
        rules = server.get(player, f"/api/games/{game['id']}/rules?lang=de")
        found.extend(symbol["name"] for symbol in rules["symbols"])
        pots = rules["rules"].get("jackpots", {}).get("pots", [])
        found.extend(pot["pot"] for pot in pots)
    return sorted(found, key=len, reverse=True)  # "Magic Lamp" before "Lamp"


def english_left(page: Page) -> list[str]:
    texts: list[str] = page.evaluate(TEXTS, [])
    allowed: list[str] = page.evaluate("() => window.__names")
    left = set()
    for text in texts:
        for name in allowed:
            text = text.replace(name, " ")
        if words(text) & ENGLISH_ONLY:
            left.add(text)
    return sorted(left)


def test_the_check_knows_english_when_it_sees_it() -> None:
    assert {"spin", "collect", "left", "the"} <= ENGLISH_ONLY
    assert not words("Freispiele: noch 3 von 9 · Gewinn 1,25 €") & ENGLISH_ONLY
    assert words("Free spins left") & ENGLISH_ONLY


@pytest.fixture(params=list(SIZES))
def german(
    request: pytest.FixtureRequest, browser: Browser
) -> Iterator[tuple[str, BrowserContext]]:
    ctx = browser.new_context(
        viewport=SIZES[request.param], reduced_motion="reduce", locale="de-DE", bypass_csp=True
    )
    ctx.set_default_timeout(20_000)
    yield request.param, ctx
    ctx.close()


def opened(ctx: BrowserContext, server: Server, player: Player) -> tuple[Page, list[str]]:
    ctx.add_init_script(f"window.__names = {json.dumps(names(server, player))};")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return page, errors


def look(page: Page, size: str, name: str) -> None:
    """The screen is German (the check), and its picture is kept for a person to look at."""
    page.screenshot(path=str(SCREENSHOTS / f"german-{name}-{size}.png"))
    assert english_left(page) == [], name


def test_the_lobby_and_the_tsar_are_german(german: tuple[str, BrowserContext], server: Server):
    size, ctx = german
    player = server.new_player()
    page, errors = opened(ctx, server, player)
    page.goto(f"{server.url}/?token={player.token}#/")
    page.wait_for_selector("#loading", state="hidden")
    page.wait_for_selector(".lobby-card")
    assert page.inner_text("#lobby-title") == "Spiel wählen"
    look(page, size, "lobby")

    open_game(page, server, player, forcing.TSAR)
    wait_state(page, "idle")
    assert page.text_content("#spin .spin-label") == "Drehen"
    look(page, size, "tsar")

    page.click("#menu")
    page.locator("#menu-dialog[open]").wait_for()
    assert page.locator("#setting-language").input_value() == "de"
    look(page, size, "menu")
    page.keyboard.press("Escape")

    page.click("#autoplay")
    page.locator("#autoplay-dialog[open]").wait_for()
    look(page, size, "autoplay")
    page.keyboard.press("Escape")

    page.click("#menu")
    page.click("#rules")
    page.locator("#rules-dialog[open] .pay-card").first.wait_for()
    look(page, size, "rules")
    page.keyboard.press("Escape")

    # a win: the gamble offer, then the gamble screen
    force(page, forcing.tsar_spin(win=True))
    page.click("#spin")
    wait_state(page, "gamble")
    look(page, size, "tsar-gamble-offer")
    page.click("#gamble")
    page.locator("#gamble-screen").wait_for()
    look(page, size, "tsar-gamble")
    page.click("#collect")
    wait_state(page, "idle")

    # free spins: the intro scene, the counter
    force(page, forcing.tsar_free_spins_trigger())
    page.click("#spin")
    page.locator("#free-spins-intro").wait_for()
    look(page, size, "tsar-free-spins-intro")
    press_scene(page, "free-spins-intro")
    page.locator("#free-spins:not([hidden])").wait_for()
    look(page, size, "tsar-free-spins")

    page.reload()  # the round waits
    wait_state(page, "paused")
    page.click("#menu")
    page.click("#history")
    history = page.locator("#history-dialog[open]")
    history.locator(".history-row").first.wait_for()
    look(page, size, "history")
    history.locator(".replay-open").nth(1).click()
    history.locator(".replay-step").first.wait_for()
    look(page, size, "replay")
    assert not errors


def test_sultan_spins_is_german(german: tuple[str, BrowserContext], server: Server):
    size, ctx = german
    player = server.new_player()
    page, errors = opened(ctx, server, player)
    open_game(page, server, player, forcing.SULTAN)
    wait_state(page, "idle")
    look(page, size, "sultan")
    # a screen without gems or bonus symbols: an unforced spin may start the free spins, whose
    # intro waits for the player
    force(page, forcing.sultan_spin())
    page.click("#spin")
    wait_state(page, "idle", "paused", timeout=30_000)
    look(page, size, "sultan-after-spin")
    assert not errors


def test_a_catalogue_title_is_german(german: tuple[str, BrowserContext], server: Server):
    size, ctx = german
    player = server.new_player()
    page, errors = opened(ctx, server, player)
    open_game(page, server, player, forcing.AURORA)
    wait_state(page, "idle")
    look(page, size, "aurora")
    # three Auroras: the intro with its multiplier, the counter, then the history's notes
    free = [forcing.aurora_spin(free=True) for _ in range(10)]
    force(page, forcing.aurora_spin(auroras=(0, 1, 2)), *free)
    page.click("#spin")
    page.locator("#free-spins-intro").wait_for()
    assert "Jeder Gewinn ×2" in page.inner_text("#free-spins-intro")
    look(page, size, "aurora-free-spins-intro")
    press_scene(page, "free-spins-intro")
    page.locator("#free-spins:not([hidden])").wait_for()
    look(page, size, "aurora-free-spins")
    page.reload()  # the round waits
    wait_state(page, "paused")
    page.click("#menu")
    page.click("#history")
    history = page.locator("#history-dialog[open]")
    history.locator(".history-row").first.wait_for()
    history.locator(".replay-open").first.click()
    history.locator(".replay-step").first.wait_for()
    assert "Aurora: 10 Freispiele." in history.inner_text()
    look(page, size, "aurora-replay")
    assert not errors


def test_the_reality_check_is_german(german: tuple[str, BrowserContext], server: Server):
    size, ctx = german
    player = server.new_player(market="gb", currency="GBP")
    page, errors = opened(ctx, server, player)
    page.clock.install()
    open_game(page, server, player, forcing.TSAR)
    wait_state(page, "idle")
    page.clock.fast_forward("01:00:00")
    page.clock.run_for(2000)
    page.locator("#reality-check[open]").wait_for()
    look(page, size, "reality-check")
    assert not errors


def test_the_language_chosen_in_the_menu_is_kept(german: tuple[str, BrowserContext], server):
    size, ctx = german
    player = server.new_player(balance="1234.50")
    page, errors = opened(ctx, server, player)
    open_game(page, server, player, forcing.TSAR)
    wait_state(page, "idle")
    page.click("#menu")
    with page.expect_navigation():
        page.select_option("#setting-language", "en")
    wait_state(page, "idle")
    assert page.text_content("#spin .spin-label") == "Spin"
    assert page.evaluate("document.documentElement.lang") == "en"
    # money in the player's language with the market's region
    assert page.inner_text("#balance").replace("\u00a0", " ") == "€1,234.50"
    page.reload()
    wait_state(page, "idle")
    assert page.text_content("#spin .spin-label") == "Spin"
    page.click("#menu")
    with page.expect_navigation():
        page.select_option("#setting-language", "de")
    wait_state(page, "idle")
    assert page.text_content("#spin .spin-label") == "Drehen"
    assert page.inner_text("#balance").replace("\u00a0", " ") == "1.234,50 €"
    assert not errors, size
