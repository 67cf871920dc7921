"""A strict market (Great Britain): no autoplay or turbo, a 2.5 s minimum round, no
celebration of a win that does not exceed the stake, and the session's net position shown."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, Request, Response

from tests.web import forcing
from tests.web.conftest import Server, force, minor, open_game, screenshot, wait_state

pytestmark = pytest.mark.web


def test_the_gb_market_rules_shape_the_client(page: Page, server: Server) -> None:
    player = server.new_player(market="gb", currency="GBP")
    spins: list[Request] = []
    refused: list[Response] = []
    page.on("request", lambda r: r.url.endswith("/spin") and spins.append(r))
    page.on("response", lambda r: r.status == 429 and refused.append(r))
    open_game(page, server, player, forcing.TSAR)
    wait_state(page, "idle")
    assert page.locator("#autoplay").count() == 0
    assert page.locator("#turbo").count() == 0
    assert page.is_visible("#session-net")
    assert page.inner_text("#session-net") == "£0.00"
    assert page.inner_text("#balance") == "£1,000.00"

    # A win below the stake (3 coins on a 25-coin bet) is shown, not celebrated.
    stops = forcing.tsar_spin(win=True, max_win_coins=24)
    force(page, stops)
    with page.expect_response(lambda r: r.url.endswith("/spin")) as spun:
        page.click("#spin")
    small = spun.value.json()
    wait_state(page, "gamble")
    assert small["celebrate"] is False and 0 < small["win"]["minor"] < 25
    assert "celebrate" not in (page.get_attribute("#win", "class") or "")
    assert "quiet" in (page.get_attribute(".reels", "class") or "")
    assert minor(page, "#win") == small["win"]["minor"]
    assert minor(page, "#session-net") == small["session_net"]["minor"] == -25
    assert page.inner_text("#session-net") == "-£0.25"
    screenshot(page, "gb-market")

    # Spin again at once: the client collects, then waits out the minimum round duration.
    force(page, forcing.tsar_spin(win=False))
    page.click("#spin")
    wait_state(page, "idle", timeout=10_000)
    assert len(spins) == 2
    started = [r.timing["startTime"] for r in spins]  # ms, as the browser sent them
    assert started[1] - started[0] >= 2500
    assert not refused, "the client started a round before the market allows"
    assert minor(page, "#session-net") == -50 + small["win"]["minor"]
    assert minor(page, "#balance") == server.get(player, "/api/me")["balance"]["minor"]
