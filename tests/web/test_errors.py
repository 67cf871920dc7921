"""Clear messages when something goes wrong: no money, no server, no session."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, Route

from tests.web import forcing
from tests.web.conftest import Server, force, minor, open_game, run_server, wait_state

pytestmark = pytest.mark.web


def test_a_bet_above_the_balance_says_so(page: Page, server: Server) -> None:
    player = server.new_player(balance="0.10")
    open_game(page, server, player, forcing.TSAR)
    page.click("#spin")
    page.wait_for_selector("#banner:not([hidden])")
    assert "Your balance does not cover this bet" in page.inner_text("#banner")
    wait_state(page, "idle")
    assert minor(page, "#balance") == 10
    assert "over-balance" in (page.get_attribute("#bet-total", "class") or "")


def test_a_bet_the_balance_cannot_cover_is_lowered_and_the_player_told(
    page: Page, server: Server
) -> None:
    player = server.new_player(balance="0.30")
    open_game(page, server, player, forcing.TSAR)
    page.click("#coins-up")  # 25 lines x 2 coins = 0.50, above the balance
    assert minor(page, "#bet-total") == 50
    force(page, forcing.tsar_spin(win=False))
    with page.expect_response(lambda r: r.url.endswith("/spin")) as spun:
        page.click("#spin")
    lowered = spun.value.json()["bet_lowered"]
    assert lowered["to"] == {"lines": 25, "coins_per_line": 1, "coin_size": "0.01"}
    wait_state(page, "idle")
    assert "the bet was lowered to €0.25" in page.inner_text("#banner")
    assert page.inner_text("#coins-value") == "1"
    assert minor(page, "#bet-total") == 25
    assert minor(page, "#balance") == 5


def test_the_bet_is_lowered_as_soon_as_a_round_leaves_the_balance_below_it(
    page: Page, server: Server
) -> None:
    player = server.new_player(balance="0.80")
    open_game(page, server, player, forcing.TSAR)
    page.click("#coins-up")  # 25 lines x 2 coins = 0.50, covered by 0.80
    assert minor(page, "#bet-total") == 50
    force(page, forcing.tsar_spin(win=False))
    with page.expect_response(lambda r: r.url.endswith("/spin")) as spun:
        page.click("#spin")
    body = spun.value.json()
    assert body["bet_lowered"] is None  # played at the bet chosen
    assert body["next_bet"]["to"] == {"lines": 25, "coins_per_line": 1, "coin_size": "0.01"}
    wait_state(page, "idle")
    # shown with this round, before any next spin: 0.30 left covers 25 lines x 1 coin
    assert "the bet was lowered to €0.25" in page.inner_text("#banner")
    assert page.inner_text("#coins-value") == "1"
    assert minor(page, "#bet-total") == 25
    assert minor(page, "#balance") == 30


def test_an_unreachable_server_is_retried_with_the_same_idempotency_key(
    page: Page, server: Server
) -> None:
    player = server.new_player()
    open_game(page, server, player, forcing.TSAR)
    keys: list[str] = []
    cut = {"on": True}

    def flaky(route: Route) -> None:
        keys.append(route.request.headers["idempotency-key"])
        if cut["on"]:
            route.abort("connectionrefused")
        else:
            route.continue_()

    page.route("**/api/games/*/spin", flaky)
    force(page, forcing.tsar_spin(win=False))
    page.click("#spin")
    page.wait_for_selector("body[data-unreachable]", timeout=15_000)
    assert "cannot be reached" in page.inner_text("#banner")
    cut["on"] = False
    page.click("#banner button:has-text('Retry')")
    wait_state(page, "idle")
    assert len(keys) >= 2 and len(set(keys)) == 1  # every attempt was the same request
    assert minor(page, "#balance") == 100_000 - 25  # and the bet was taken once
    assert server.get(player, "/api/me")["balance"]["minor"] == 100_000 - 25


def test_a_stale_demo_token_is_replaced_by_a_new_demo_session(page: Page, server: Server) -> None:
    page.goto(f"{server.url}/")
    page.wait_for_selector(".lobby-card")
    page.evaluate(
        """() => {
          const stored = JSON.parse(sessionStorage.getItem('reelsmith.session'));
          sessionStorage.setItem('reelsmith.session', JSON.stringify({...stored, token: 'x.y'}));
        }"""
    )
    page.reload()
    page.wait_for_selector(".lobby-card")
    assert page.is_hidden("#banner")
    assert page.evaluate("JSON.parse(sessionStorage.getItem('reelsmith.session')).token") != "x.y"


@pytest.fixture(scope="module")
def short_sessions(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose sessions last two seconds."""
    with run_server(Path(tmp_path_factory.mktemp("short-sessions")), token_ttl_seconds="2") as s:
        yield s


def test_an_expired_session_is_explained_and_a_new_one_continues(
    page: Page, short_sessions: Server
) -> None:
    page.goto(f"{short_sessions.url}/#/play/{forcing.TSAR}")
    wait_state(page, "idle", "gamble", "paused")
    page.wait_for_timeout(2500)
    page.click("#spin")
    page.wait_for_selector("body[data-session='expired']")
    assert "Your session has expired" in page.inner_text("#banner")
    page.click("#banner button:has-text('Start a new session')")
    page.wait_for_selector("body:not([data-session])")
    wait_state(page, "idle", "gamble", "paused")
    with page.expect_response(lambda r: r.url.endswith("/spin")) as spun:
        page.click("#spin")
    assert spun.value.status == 200
