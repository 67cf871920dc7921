"""Autoplay: the server keeps it and counts its rounds; the client plays them and can stop."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, Request

from tests.web import forcing
from tests.web.conftest import Server, minor, open_game, screenshot, wait_state

pytestmark = pytest.mark.web


def autoplay_spins(page: Page) -> list[Request]:
    spins: list[Request] = []

    def seen(request: Request) -> None:
        if request.url.endswith("/spin") and "autoplay_id" in (request.post_data_json or {}):
            spins.append(request)

    page.on("request", seen)
    return spins


def test_autoplay_plays_the_rounds_asked_for_and_stops(page: Page, server: Server) -> None:
    player = server.new_player()
    open_game(page, server, player, forcing.TSAR)
    spins = autoplay_spins(page)
    collects: list[Request] = []
    page.on("request", lambda r: collects.append(r) if r.url.endswith("/collect") else None)
    page.click("#autoplay")
    page.wait_for_selector("#autoplay-dialog[open]")
    screenshot(page, "autoplay-dialog")
    page.fill("#autoplay-rounds", "3")
    page.fill("#autoplay-loss-limit", "100")
    page.click("#autoplay-start")
    page.wait_for_selector("#autoplay-status:not([hidden])")
    assert page.get_attribute(".game", "data-state") == "autoplay"
    wait_state(page, "idle", "gamble", "paused", timeout=60_000)
    assert page.get_attribute(".game", "data-autoplay-ended") == "rounds_done"
    assert page.is_hidden("#autoplay-status")
    assert len(spins) == 3
    assert len({s.post_data_json["autoplay_id"] for s in spins}) == 1
    # Autoplay declines the gamble: a win is paid with its spin, no collect is sent.
    assert all(s.post_data_json["gamble"] is False for s in spins)
    assert not collects
    # Every round was played out (wins collected): nothing is left open.
    assert server.get(player, f"/api/games/{forcing.TSAR}/state")["open_round"] is None
    history = server.get(player, f"/api/history/rounds?game={forcing.TSAR}&limit=10")["rounds"]
    assert len(history) == 3 and all(r["status"] == "complete" for r in history)
    assert minor(page, "#balance") == history[0]["balance_after_minor"]


def test_the_stop_button_ends_autoplay_and_the_count_is_visible(page: Page, server: Server) -> None:
    player = server.new_player()
    open_game(page, server, player, forcing.SULTAN)
    spins = autoplay_spins(page)
    page.click("#autoplay")
    page.fill("#autoplay-rounds", "50")
    page.check("#autoplay-feature")
    page.fill("#autoplay-win-above", "500")
    with page.expect_response(lambda r: r.url.endswith("/autoplay")) as started:
        page.click("#autoplay-start")
    body = started.value.request.post_data_json
    assert body["rounds"] == 50 and body["stop_on_feature"] is True
    assert body["stop_on_win_above"] == "500.00" and body["loss_limit"] is None
    page.wait_for_function(
        "Number(document.querySelector('#autoplay-status').dataset.remaining) <= 48"
    )
    # the rounds are the live RNG's: a feature in the first ones ends the autoplay (it stops
    # on a feature), and the count shows as the autoplay's ending; read both at once
    status, text = page.eval_on_selector(
        "#autoplay-status", "element => [element.dataset.status, element.innerText]"
    )
    if status == "active":
        assert "of 50 rounds left" in text
        page.click("#autoplay-stop")
        ended = ("player", "feature")
    else:  # ending on its feature, which may finish (the status and its button hidden)
        # before a click would land: it is left to end
        assert re.search(r"Autoplay ending \(\d+ left\)", text), text
        ended = ("feature",)
    wait_state(page, "idle", "paused", timeout=60_000)
    assert page.get_attribute(".game", "data-autoplay-ended") in ended
    state = server.get(player, f"/api/games/{forcing.SULTAN}/state")
    assert state["autoplay"] is None  # no autoplay is active any more
    assert 2 <= len(spins) < 50


def test_space_stops_autoplay_too(page: Page, server: Server) -> None:
    player = server.new_player()
    open_game(page, server, player, forcing.TSAR)
    page.click("#autoplay")
    page.fill("#autoplay-rounds", "100")
    page.click("#autoplay-start")
    page.wait_for_function(
        "Number(document.querySelector('#autoplay-status').dataset.remaining) <= 98"
    )
    page.locator("body").focus()
    page.keyboard.press("Space")
    wait_state(page, "idle", "gamble", "paused", timeout=60_000)
    assert page.get_attribute(".game", "data-autoplay-ended") in ("player", "feature")


def test_autoplay_stops_when_the_balance_changes_outside_it(page: Page, server: Server) -> None:
    player = server.new_player()
    open_game(page, server, player, forcing.SULTAN)
    spins = autoplay_spins(page)
    page.click("#autoplay")
    page.wait_for_selector("#autoplay-dialog[open]")
    # Sultan Spins has jackpots: its dialog offers that stop too
    assert page.is_visible("#autoplay-jackpot") and not page.is_checked("#autoplay-jackpot")
    page.fill("#autoplay-rounds", "200")
    page.check("#autoplay-balance-change")
    page.click("#autoplay-start")
    page.wait_for_selector("#autoplay-status:not([hidden])")
    while not spins:
        page.wait_for_timeout(50)
    started = spins[0].post_data_json
    with server.client() as api:  # the operator credits the player while autoplay runs
        api.post(
            f"/operator/players/{player.id}/deposit",
            json={"amount": "5.00"},
            headers={"Idempotency-Key": f"deposit-{player.id}"},
        ).raise_for_status()
    wait_state(page, "idle", "paused", timeout=60_000)
    assert page.get_attribute(".game", "data-autoplay-ended") == "balance_changed"
    assert len(spins) < 200
    auto = server.get(player, f"/api/games/{forcing.SULTAN}/state")["autoplay"]
    assert auto is None  # stopped on the server too
    assert started["bet"] == {"bet": "1.00"}
    assert minor(page, "#balance") == server.get(player, "/api/me")["balance"]["minor"]


def test_a_title_without_jackpots_offers_no_jackpot_stop(page: Page, server: Server) -> None:
    player = server.new_player()
    open_game(page, server, player, forcing.TSAR)
    page.click("#autoplay")
    page.wait_for_selector("#autoplay-dialog[open]")
    assert page.locator("#autoplay-jackpot").count() == 0 or page.is_hidden("#autoplay-jackpot")
    assert page.is_visible("#autoplay-balance-change")
