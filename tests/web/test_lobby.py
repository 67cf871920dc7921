"""The page users land on: the lobby, reached with a demo session like `make run` gives."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.web.conftest import Player, Server, minor, screenshot

pytestmark = pytest.mark.web


def test_the_lobby_offers_every_title_with_the_demo_players_balance(
    page: Page, server: Server
) -> None:
    page.goto(f"{server.url}/")
    page.wait_for_selector(".lobby-card")
    assert page.locator(".lobby-name").all_inner_texts() == [
        "Days of the Tsar",
        "Sultan Spins",
        "Aurora Fox",
        "Lucky Lanterns",
        "Crystal Caverns",
    ]
    token = page.evaluate("JSON.parse(sessionStorage.getItem('reelsmith.session')).token")
    me = server.get(Player("demo", token, "EUR"), "/api/me")
    assert minor(page, "#balance") == me["balance"]["minor"]
    assert page.inner_text("#balance") == me["balance"]["formatted"]
    games = server.get(Player("demo", token, "EUR"), "/api/games")["games"]
    for game in games:
        card = page.locator(f".lobby-card[data-game='{game['id']}']")
        assert f"{game['variant']}%" in card.inner_text()
    # The tests ask for reduced motion, as a player may: the client honours it.
    assert "reduced-motion" in (page.get_attribute("html", "class") or "")
    screenshot(page, "lobby")

    page.click(".lobby-card[data-game='sultan-spins'] .lobby-play")
    page.wait_for_selector(".game[data-game='sultan-spins']:not([data-state='loading'])")
    assert page.url.endswith("#/play/sultan-spins")
    page.click("#menu")
    page.click("#lobby-link")
    page.wait_for_selector(".lobby-card")
