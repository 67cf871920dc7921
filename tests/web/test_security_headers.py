"""The web client under the server's security headers: it plays both titles, shows its
history and rules with no Content-Security-Policy violation, and no other site can frame it."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page

from tests.web import forcing
from tests.web.conftest import Policed, Server, force, open_game, wait_state

pytestmark = pytest.mark.web


def test_the_client_plays_with_no_policy_violation(policed: Policed, server: Server):
    page = policed.page
    player = server.new_player()

    response = page.goto(f"{server.url}/?token={player.token}#/")
    assert response is not None
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
    open_game(page, server, player, forcing.TSAR)
    force(page, forcing.tsar_spin(win=True))
    page.click("#spin")
    wait_state(page, "gamble")
    page.click("#collect-offer")
    wait_state(page, "idle")
    page.click("#menu")
    page.click("#history")
    history = page.locator("#history-dialog[open]")
    history.locator(".history-row").first.wait_for()
    history.locator(".replay-open").first.click()
    history.locator(".replay-step").first.wait_for()
    page.keyboard.press("Escape")
    page.click("#menu")
    page.click("#rules")
    page.locator("#rules-dialog[open] .pay-card").first.wait_for()
    page.keyboard.press("Escape")
    open_game(page, server, player, forcing.SULTAN)
    page.click("#spin")
    wait_state(page, "idle", "gamble", timeout=30_000)
    assert policed.violations() == []


def test_another_site_cannot_frame_the_game(browser: Browser, server: Server):
    context = browser.new_context()  # under the policy (the shared context bypasses it)
    page: Page = context.new_page()
    console: list[str] = []
    page.on("console", lambda message: console.append(message.text))
    page.set_content(f'<iframe id="game" src="{server.url}/" width="400" height="300"></iframe>')
    page.wait_for_timeout(1500)
    frame = page.frame_locator("#game")
    assert frame.locator("#view").count() == 0  # the client never loaded in the frame
    assert any("frame-ancestors" in text for text in console), console
    context.close()
