"""Each shipped title's look in the browser: the lobby draws every symbol of its model from the
title's own sprites (no plain tile for a title that has art), and Lucky Lanterns, where its
folder is in games/ and a market offers it, plays its hold-and-spin with its own lanterns:
each lantern held shows its value on its belly, and a lantern of a jackpot tier is drawn as
that tier's lantern (``lantern-mini`` ...). A title without a look is drawn plain
(``test_hold_title``, ``test_cascade_title``)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page

from reelsmith.games import TITLE_FOLDERS
from tests.web import forcing
from tests.web.conftest import Server, force, open_game, screenshot, wait_state

pytestmark = pytest.mark.web

#: The sprite ids (`<theme>-<symbol>`) drawn with some art: more than one element inside.
DRAWN = """() => [...document.querySelectorAll('#symbol-sprites symbol')]
  .filter((s) => s.querySelectorAll('*').length > 1).map((s) => s.id)"""


@pytest.mark.parametrize("game", sorted(TITLE_FOLDERS))
def test_the_lobby_draws_every_symbol_of_each_title_from_its_own_art(
    page: Page, server: Server, game: str
) -> None:
    player = server.new_player()
    offered = {g["id"] for g in server.get(player, "/api/games")["games"]}
    if game not in offered:
        pytest.skip(f"no market of the test server offers {game}")
    page.goto(f"{server.url}/?token={player.token}#/")
    card = page.locator(f".lobby-card[data-game='{game}']")
    card.wait_for()
    (theme,) = re.findall(r"\btheme-([\w-]+)", card.get_attribute("class") or "")
    drawn = set(page.evaluate(DRAWN))
    missing = [s for s in forcing.model(game).symbol_ids if f"{theme}-{s}" not in drawn]
    assert not missing, f"{game}: no art for {missing}"
    hero = card.locator(".lobby-symbol use").evaluate_all(
        "(els) => els.map((e) => e.getAttribute('href'))"
    )
    assert len(hero) == 3 and all(h.startswith(f"#{theme}-") for h in hero), hero


lanterns = pytest.mark.skipif(
    not forcing.lanterns_present(), reason="Lucky Lanterns is not in games/ on this branch"
)


def open_lanterns(page: Page, server: Server) -> None:
    player = server.new_player()
    if forcing.LANTERNS not in {g["id"] for g in server.get(player, "/api/games")["games"]}:
        pytest.skip("no market of the test server offers Lucky Lanterns")
    open_game(page, server, player, forcing.LANTERNS)
    wait_state(page, "idle")


@lanterns
def test_lucky_lanterns_has_its_own_art_theme_and_music(page: Page, server: Server) -> None:
    open_lanterns(page, server)
    root = page.locator(".game[data-game='lucky-lanterns']")
    assert "theme-lucky-lanterns" in (root.get_attribute("class") or "").split()
    background = root.evaluate("(e) => getComputedStyle(e).getPropertyValue('--theme-bg')")
    assert re.search(r"/web/art/lanterns-river(\.[0-9a-f]+)?\.svg", background), background
    hrefs = page.locator(".reels .cell use").evaluate_all(
        "(els) => els.map((e) => e.getAttribute('href'))"
    )
    assert hrefs and all(h.startswith("#lucky-lanterns-") for h in hrefs), hrefs


@lanterns
def test_the_lanterns_hold_their_values_and_the_tiers_their_own_lanterns(
    page: Page, server: Server
) -> None:
    open_lanterns(page, server)
    force(page, forcing.lanterns_spin(7, ["5", "mini", "2", "minor", "10", "major"]))
    with page.expect_response(lambda r: r.url.endswith("/spin")) as spun:
        page.click("#spin")
    answer = spun.value.json()
    page.wait_for_selector("#hold-and-spin:not([hidden])")
    wait_state(page, "idle", timeout=40_000)
    events = answer["events"]
    start = next(e for e in events if e["type"] == "hold_and_spin_start")
    respins = [e for e in events if e["type"] == "hold_and_spin_respin"]
    coins = [*start["held"], *(c for e in respins for c in e["landed"])]
    tiers = [c["value"] for c in start["held"] if not c["value"].isdigit()]
    assert tiers == ["mini", "minor", "major"]
    for coin in coins:
        row, reel = coin["position"]
        cell = page.locator(f".reels .cell[data-row='{row}'][data-reel='{reel}']")
        value = coin["value"]
        drawn = "lantern" if value.isdigit() else f"lantern-{value}"
        assert cell.get_attribute("data-symbol") == drawn
        assert cell.locator(f"use[href='#lucky-lanterns-{drawn}']").count() == 1
        badge = cell.locator(".cell-badge.hs-coin")
        assert badge.inner_text() == (f"{coin['bets']}×" if value.isdigit() else value.upper())
    # the value sits on the lantern's belly: the badge's centre near the cell's
    cell = page.locator(".reels .cell.hs-held:not([data-symbol^='lantern-'])").first
    box, badge = cell.bounding_box(), cell.locator(".cell-badge").bounding_box()
    assert box is not None and badge is not None
    assert abs((badge["x"] + badge["width"] / 2) - (box["x"] + box["width"] / 2)) < 3
    assert minor_win(page) == answer["round"]["win_minor"] > 0
    screenshot(page, "lanterns-hold")


def minor_win(page: Page) -> int:
    return int(page.get_attribute("#win", "data-minor") or -1)
