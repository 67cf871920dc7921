"""Responsible play in the browser: the session clock in every market, the gb market's net
position beside it and its reality check (on Playwright's fake clock), and what gb forbids
hidden."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page

from tests.web import forcing
from tests.web.conftest import Server, force, minor, open_game, wait_state

pytestmark = pytest.mark.web


def seconds(page: Page) -> int:
    return int(page.get_attribute("#session-clock", "data-seconds") or "-1")


def test_the_session_clock_counts_in_the_default_market(page: Page, server: Server) -> None:
    page.clock.install()
    player = server.new_player()
    open_game(page, server, player, forcing.SULTAN)
    assert page.is_visible(".game-session #session-clock")
    start = seconds(page)
    assert 0 <= start < 30
    page.clock.run_for("01:05")
    assert seconds(page) >= start + 65
    page.clock.fast_forward("59:00")
    page.clock.run_for(1000)
    assert seconds(page) >= start + 65 + 59 * 60
    assert re.fullmatch(r"1:0\d:\d\d", page.inner_text("#session-clock"))
    # the default market sets no reality check
    assert page.locator("#reality-check").count() == 0
    assert page.is_hidden("#session-net")


def test_gb_shows_the_net_beside_the_clock_and_hides_what_it_forbids(
    page: Page, server: Server
) -> None:
    player = server.new_player(market="gb", currency="GBP")
    open_game(page, server, player, forcing.TSAR)
    wait_state(page, "idle")
    for forbidden in ("#autoplay", "#turbo", "#autoplay-status"):
        assert page.locator(forbidden).count() in (0, 1)
        assert page.is_hidden(forbidden) or page.locator(forbidden).count() == 0, forbidden
    assert page.locator("#autoplay").count() == 0 and page.locator("#turbo").count() == 0
    clock = page.locator(".game-session #session-clock").bounding_box()
    net = page.locator(".game-session #session-net").bounding_box()
    assert clock and net and page.is_visible("#session-net")
    assert abs(clock["y"] - net["y"]) < 8 and 0 < net["x"] - clock["x"] < 220  # side by side
    # no slam stop: while the reels spin the button is disabled and Space does nothing more
    force(page, forcing.tsar_spin(win=False))
    held: list[object] = []
    page.route("**/api/games/*/spin", lambda route: held.append(route))
    page.keyboard.press("Space")
    wait_state(page, "spinning")
    assert page.is_disabled("#spin")
    page.keyboard.press("Space")
    page.wait_for_timeout(100)
    assert len(held) == 1
    held[0].continue_()  # type: ignore[attr-defined]
    wait_state(page, "idle")
    assert minor(page, "#session-net") == -25


def test_gb_reality_check_every_hour_on_a_fake_clock(page: Page, server: Server) -> None:
    page.clock.install()
    player = server.new_player(market="gb", currency="GBP")
    open_game(page, server, player, forcing.TSAR)
    wait_state(page, "idle")
    force(page, forcing.tsar_spin(win=False))
    page.click("#spin")
    wait_state(page, "idle")
    assert page.locator("#reality-check[open]").count() == 0

    page.clock.fast_forward("59:00")
    page.clock.run_for(2000)
    assert page.locator("#reality-check[open]").count() == 0
    page.clock.fast_forward("01:00")
    page.clock.run_for(2000)
    check = page.locator("#reality-check[open]")
    check.wait_for()
    assert re.fullmatch(r"You have played for 1:00:\d\d\.", page.inner_text("#reality-played"))
    assert page.inner_text("#reality-net") == "Your net position this session is -£0.25."
    # the player answers: Space does not spin behind it, Escape does not dismiss it
    spins: list[str] = []
    page.on("request", lambda r: r.url.endswith("/spin") and spins.append(r.url))
    page.keyboard.press("Space")
    page.keyboard.press("Escape")
    assert page.locator("#reality-check[open]").count() == 1 and spins == []
    page.click("#reality-continue")
    assert page.locator("#reality-check[open]").count() == 0
    force(page, forcing.tsar_spin(win=False))
    page.wait_for_timeout(2600)  # the market's minimum round time, on the server's real clock
    page.click("#spin")
    wait_state(page, "idle")
    assert len(spins) == 1

    # the answer is kept with the session, so a reload does not ask again
    kept = page.evaluate("JSON.parse(sessionStorage.getItem('reelsmith.reality'))")
    assert kept["answered"] == 1 and kept["session"] == server.get(player, "/api/me")["session_id"]

    # An hour on, the next check; "Leave" goes back to the lobby.
    page.clock.fast_forward("01:00:00")
    page.clock.run_for(2000)
    page.locator("#reality-check[open]").wait_for()
    assert page.inner_text("#reality-played").startswith("You have played for 2:0")
    page.click("#reality-leave")
    page.wait_for_selector(".lobby-card")
    assert page.url.endswith("#/")
