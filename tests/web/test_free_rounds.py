"""Free rounds in the browser: the lobby lists the player's playable campaigns, and its button
plays the next round through the real API (nothing charged, the win paid and shown, the
balance in the top bar the server's), until the campaign has no round left."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import Page

from tests.web.conftest import Player, Server, minor

pytestmark = pytest.mark.web

BET = {"lines": 25, "coins_per_line": 1, "coin_size": "0.05"}  # 1.25 EUR


def give(server: Server, player: Player, campaign_id: str, rounds: int) -> None:
    with server.client() as api:
        created = api.post(
            f"/operator/players/{player.id}/free-rounds",
            json={
                "campaign_id": campaign_id,
                "game": "days-of-the-tsar",
                "bet": BET,
                "rounds": rounds,
                "expires_at": (datetime.now(UTC) + timedelta(days=1)).isoformat(),
            },
        )
        assert created.status_code == 201, created.text


def test_the_lobby_plays_a_campaign_to_its_end(page: Page, server: Server) -> None:
    player = server.new_player(balance="10.00")
    campaign_id = f"web-{uuid.uuid4().hex[:12]}"
    give(server, player, campaign_id, 3)
    page.goto(f"{server.url}/?token={player.token}")
    item = page.locator(f".free-rounds-item[data-campaign='{campaign_id}']")
    item.wait_for()
    assert "Days of the Tsar" in item.inner_text() and "3 left at €1.25" in item.inner_text()
    for left in (2, 1, 0):
        item.locator(".free-rounds-play").click()
        page.wait_for_function(
            "([sel, left]) => document.querySelector(sel).textContent.startsWith(`${left} left`)",
            arg=[f".free-rounds-item[data-campaign='{campaign_id}'] .free-rounds-left", left],
        )
        assert "This round paid €" in item.locator(".free-rounds-result").inner_text()
    assert item.locator(".free-rounds-play").is_disabled()
    with server.client() as api:
        campaign = api.get(f"/operator/free-rounds/{campaign_id}").json()
    assert campaign["status"] == "finished" and campaign["played"] == 3
    me = server.get(player, "/api/me")
    # nothing charged: the balance is the deposit and what the three rounds paid
    assert me["balance"]["minor"] == 1000 + campaign["wins"]["minor"]
    assert minor(page, "#balance") == me["balance"]["minor"]
    # a finished campaign is no longer offered
    page.reload()
    page.wait_for_selector(".lobby-card")
    assert page.locator(f".free-rounds-item[data-campaign='{campaign_id}']").count() == 0
