"""Sultan Spins in the browser against the real server: pots, gems, jackpots, the ladder."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.web import forcing
from tests.web.conftest import (
    Server,
    force,
    minor,
    open_game,
    press_scene,
    screenshot,
    wait_state,
)

pytestmark = pytest.mark.web

GAME = forcing.SULTAN
BET_MINOR = 100  # the default bet, 1.00


def step_until(page: Page, condition: str, step_ms: int = 50) -> None:
    """Move the paused page clock on in small steps until ``condition`` holds."""
    for _ in range(600):
        if page.evaluate(condition):
            return
        page.clock.run_for(step_ms)
    raise AssertionError(f"{condition} did not hold within 30 s of page time")


def pots_shown(page: Page) -> list[int]:
    return [
        int(v)
        for v in page.locator(".pot").evaluate_all("(els) => els.map((e) => e.dataset.minor)")
    ]


def test_pots_rise_as_gems_land_and_a_jackpot_is_an_event(page: Page, server: Server) -> None:
    page.clock.install()  # time runs as usual until the jackpot's steps are stepped through
    player = server.new_player()
    open_game(page, server, player, GAME)
    carried = server.get(player, f'/api/games/{GAME}/state?bet={{"bet":"1.00"}}')["carried_state"]
    seeds = carried["pots_minor"]
    assert seeds == [200, 500, 2500, 10000, 50000]
    assert pots_shown(page) == seeds
    assert page.inner_text(".pot[data-pot='red'] .pot-value") == "€500.00"
    assert page.get_attribute(".pot[data-pot='red']", "data-cap-minor") == "500000"

    # A bet size never played draws its trigger points first: the teal pot is set to be won
    # by its next gem, the others only at their caps. A gem on reel 2 reveals a wild reel.
    stops = forcing.sultan_spin(gems=(1,))
    force(
        page,
        [*forcing.sultan_triggers(hit_first_gem=(0,)), *stops, forcing.gem_reveal("wild_reel")],
    )
    with page.expect_response(lambda r: r.url.endswith("/spin")) as spun:
        page.click("#spin")
    first = spun.value.json()
    wait_state(page, "idle")
    assert first["round"]["spins"][0]["gems"][0]["reveal"] == "wild_reel"
    assert pots_shown(page) == [200, 600, 2500, 10000, 50000] == first["round"]["pots_minor"]
    assert page.locator(".reel[data-reel='1'] .cell[data-symbol='wild']").count() == 4
    assert minor(page, "#balance") == first["balance"]["minor"]

    # A gem on reel 1 takes the teal pot to its trigger point: the jackpot spin.
    stops = forcing.sultan_spin(gems=(0,))
    teal_last_draw = forcing.pots()[0].trigger_span - 1
    force(page, [*stops, teal_last_draw])
    with page.expect_response(lambda r: r.url.endswith("/spin")) as spun:
        page.click("#spin")
    second = spun.value.json()
    # The jackpot spin is played out on the reels (all five stop on the won pot's gem), then
    # the pot's scene shows the prize. The page's time is stepped, so no step is missed.
    page.clock.pause_at(page.evaluate("Date.now()") + 1)
    step_until(page, "document.querySelector('#jackpot-spin') !== null")
    assert page.get_attribute(".game", "data-jackpot-spin") == "teal"
    step_until(page, "document.querySelector('#jackpot-event') !== null")
    assert page.locator(".reel .cell[data-symbol='gem-teal']").count() == 20
    assert page.get_attribute("#jackpot-event", "data-pot") == "teal"
    assert page.get_attribute("#jackpot-event", "data-minor") == "300"
    assert page.inner_text("#jackpot-event .scene-title").lower() == "teal jackpot"
    step_until(page, "document.querySelector('#jackpot-amount')?.dataset.minor === '300'")
    assert page.inner_text("#jackpot-amount") == "€3.00"
    screenshot(page, "sultan-jackpot")
    page.clock.resume()
    wait_state(page, "idle")
    gem = second["round"]["spins"][0]["gems"][0]
    assert gem["reveal"] == "jackpot" and gem["jackpot_bets"] == 3
    assert pots_shown(page) == [200, 600, 2500, 10000, 50000]
    assert second["win"]["minor"] >= 300
    assert minor(page, "#win") == second["win"]["minor"]
    assert minor(page, "#balance") == first["balance"]["minor"] - BET_MINOR + second["win"]["minor"]
    assert page.locator(".reel[data-reel='0'] .cell.jackpot-gem").count() == 1


def test_pots_follow_the_bet_size(page: Page, server: Server) -> None:
    player = server.new_player()
    open_game(page, server, player, GAME)
    page.click("#bet-up")
    assert page.inner_text("#bet-value") == "€1.20"
    page.wait_for_function("document.querySelector('.pot[data-pot=teal]').dataset.minor === '240'")
    assert pots_shown(page) == [240, 600, 3000, 12000, 60000]
    assert page.inner_text(".pots-caption") == "Jackpots for the €1.20 bet"
    # the seed's words: "Teal Gem Jackpot must be won before 25x bet"
    cap = " ".join(page.inner_text(".pot[data-pot=teal] .pot-cap").split())
    assert cap == "won before €30.00", cap


def test_forced_free_spins_climb_the_ladder_and_play_to_the_end(page: Page, server: Server) -> None:
    player = server.new_player()
    open_game(page, server, player, GAME)
    trigger = [*forcing.sultan_triggers(), *forcing.sultan_spin(bonus=(0, 1, 2))]
    # Level 1: three bonus symbols, then two more: five spots unlock level 2.
    level_one = [forcing.sultan_spin(free=True) for _ in range(7)]
    level_one[0] = forcing.sultan_spin(bonus=(0, 2, 4), free=True)
    level_one[1] = forcing.sultan_spin(bonus=(1, 3), free=True)
    level_two = [forcing.sultan_spin(free=True) for _ in range(7)]
    force(page, trigger, *level_one, *level_two)
    page.click("#spin")
    page.wait_for_selector("#free-spins-intro")
    assert page.get_attribute("#free-spins-intro", "data-spins") == "7"
    assert page.locator("#free-spins-intro .scene-ladder li").count() == 5
    press_scene(page, "free-spins-intro")
    page.wait_for_selector("#ladder:not([hidden])")
    page.wait_for_function("document.querySelector('#ladder-level')?.textContent === '2'")
    assert page.inner_text("#ladder-multiplier") == "2x"
    assert page.get_attribute(".ladder-level[data-level='2']", "class").split().count("current")
    page.wait_for_selector("#free-spins-outro-button", timeout=40_000)
    outro_total = page.get_attribute("#free-spins-outro", "data-total")
    press_scene(page, "free-spins-outro")
    wait_state(page, "idle", timeout=40_000)

    view = server.get(player, f"/api/history/rounds?game={GAME}&limit=1")["rounds"][0]["round"]
    assert view["phase"] == "complete"
    assert [s["level"] for s in view["spins"]] == [0] + [1] * 7 + [2] * 7
    assert minor(page, "#win") == view["win_minor"] == int(outro_total or -1)
    me = server.get(player, "/api/me")
    assert me["balance"]["minor"] == 100_000 - BET_MINOR + view["win_minor"]
    assert minor(page, "#balance") == me["balance"]["minor"]
    assert page.is_hidden("#ladder")
    assert page.get_attribute("#meter", "data-filled") == str(view["meter"])


def test_two_bonus_symbols_fill_a_meter_spot(page: Page, server: Server) -> None:
    player = server.new_player()
    open_game(page, server, player, GAME)
    assert page.get_attribute("#meter", "data-filled") == "0"
    force(page, [*forcing.sultan_triggers(), *forcing.sultan_spin(bonus=(1, 3))])
    page.click("#spin")
    wait_state(page, "idle")
    assert page.get_attribute("#meter", "data-filled") == "1"
    assert page.locator("#meter .spot.filled").count() == 1


def test_a_reload_during_free_spins_resumes_the_ladder(page: Page, server: Server) -> None:
    player = server.new_player()
    open_game(page, server, player, GAME)
    free = [forcing.sultan_spin(free=True) for _ in range(3)]
    force(page, [*forcing.sultan_triggers(), *forcing.sultan_spin(bonus=(0, 1, 2))], *free)
    page.click("#spin")
    press_scene(page, "free-spins-intro")
    page.wait_for_selector("#ladder:not([hidden])")
    page.wait_for_function("Number(document.querySelector('#ladder-left').dataset.count) <= 5")
    page.reload()
    wait_state(page, "paused")
    open_round = server.get(player, f"/api/games/{GAME}/state")["open_round"]["round"]
    assert page.get_attribute("#ladder-left", "data-count") == str(open_round["level_spins_left"])
    assert page.inner_text("#ladder-level") == str(open_round["level"])
    screenshot(page, "sultan-free-spins-resumed")
    page.click("#spin")
    page.wait_for_selector("#free-spins-outro-button", timeout=40_000)
    press_scene(page, "free-spins-outro")
    wait_state(page, "idle", timeout=40_000)
    assert server.get(player, f"/api/games/{GAME}/state")["open_round"] is None
    assert minor(page, "#balance") == server.get(player, "/api/me")["balance"]["minor"]
