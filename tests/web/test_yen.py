"""A player of the jp market in the browser: yen have no minor unit, so every amount (balance,
bet, pots, win) is written in whole yen as the browser writes them for ja-JP (Chromium's ICU
uses the yen sign "¥"; the server's Babel formatting of the same amounts uses the full-width
"￥"), and a round settles in yen."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.web import forcing
from tests.web.conftest import Server, force, minor, open_game, screenshot, wait_state

pytestmark = pytest.mark.web


def test_a_yen_player_sees_whole_yen(page: Page, server: Server) -> None:
    player = server.new_player(market="jp", currency="JPY", balance="2000")
    open_game(page, server, player, forcing.SULTAN)
    wait_state(page, "idle")
    assert page.inner_text("#balance") == "¥2,000"
    assert page.inner_text("#bet-value") == "¥100"  # level 5 at 20 yen, the default
    assert page.inner_text(".pot[data-pot='red'] .pot-value") == "¥50,000"  # 500 bets
    page.click("#bet-up")
    assert page.inner_text("#bet-value") == "¥120"

    force(page, forcing.sultan_triggers(), forcing.sultan_spin())
    with page.expect_response(lambda r: r.url.endswith("/spin")) as spun:
        page.click("#spin")
    body = spun.value.json()
    wait_state(page, "idle")
    assert body["bet"]["minor"] == 120
    balance = 2000 - 120 + body["win"]["minor"]
    assert body["balance"]["minor"] == balance == minor(page, "#balance")
    assert page.inner_text("#balance") == f"¥{balance:,}"
    assert "." not in page.inner_text("#balance")
    screenshot(page, "jp-market")
