"""The paytable and rules (rendered from the rules API) and the history with its replay."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.web import forcing
from tests.web.conftest import Server, force, open_game, press_scene, screenshot, wait_state

pytestmark = pytest.mark.web


@pytest.mark.parametrize("game", [forcing.TSAR, forcing.SULTAN])
def test_the_rules_page_is_rendered_from_the_rules_api(
    page: Page, server: Server, game: str
) -> None:
    player = server.new_player()
    open_game(page, server, player, game)
    doc = server.get(player, f"/api/games/{game}/rules")
    page.click("#menu")
    page.click("#rules")
    dialog = page.locator("#rules-dialog[open]")
    dialog.wait_for()
    cards = dialog.locator(".paytable .pay-card")
    assert cards.evaluate_all("(els) => els.map((e) => e.dataset.symbol)") == [
        p["symbol"] for p in doc["paytable"]
    ]
    for entry in doc["paytable"]:
        top = max(entry["pays"], key=int)
        shown = dialog.locator(f".pay-card[data-symbol='{entry['symbol']}'] dd[data-count='{top}']")
        assert shown.inner_text().startswith(f"{entry['pays'][top]:,}")
    assert dialog.locator(".payline-diagram").count() == len(doc["paylines"])
    assert dialog.locator(".rules-section").count() == len(doc["rules"])
    first_rule = doc["rules"]["general"][0]
    assert first_rule in dialog.inner_text()
    screenshot(page, f"rules-{game}")
    page.keyboard.press("Escape")
    assert page.locator("#rules-dialog[open]").count() == 0


def test_the_history_lists_rounds_and_replays_them_step_by_step(page: Page, server: Server) -> None:
    player = server.new_player()
    open_game(page, server, player, forcing.TSAR)
    free = [forcing.tsar_spin(free=True) for _ in range(9)]
    force(page, forcing.tsar_spin(win=False), forcing.tsar_free_spins_trigger(), *free)
    page.click("#spin")
    wait_state(page, "idle")
    page.click("#spin")
    press_scene(page, "free-spins-intro")
    page.wait_for_selector("#free-spins-outro-button", timeout=30_000)
    press_scene(page, "free-spins-outro")
    wait_state(page, "gamble", "idle", timeout=30_000)
    if page.get_attribute(".game", "data-state") == "gamble":
        page.click("#collect-offer")
        wait_state(page, "idle")

    page.click("#menu")
    page.click("#history")
    dialog = page.locator("#history-dialog[open]")
    dialog.locator(".history-row").first.wait_for()
    rounds = server.get(player, f"/api/history/rounds?game={forcing.TSAR}&limit=10")["rounds"]
    rows = dialog.locator(".history-row")
    assert rows.count() == len(rounds) == 2
    assert rows.evaluate_all("(els) => els.map((e) => e.dataset.roundId)") == [
        r["round_id"] for r in rounds
    ]
    assert "9 free spins" in rows.first.inner_text()

    rows.first.locator(".replay-open").click()
    steps = rounds[0]["steps"]
    assert dialog.locator(".replay-step").count() == len(steps)
    assert "Step 1 of" in dialog.locator(".replay-title").inner_text()
    assert "The eggs revealed 3 + 3 + 3 = 9 free spins" in dialog.inner_text()
    first_screen = steps[0]["view"]["spins"][0]["screen"]
    shown = dialog.locator(".replay-stage .cell").evaluate_all(
        "(els) => els.map((e) => [e.dataset.row, e.dataset.reel, e.dataset.symbol])"
    )
    assert sorted(shown) == sorted(
        [str(r), str(c), s] for r, row in enumerate(first_screen) for c, s in enumerate(row)
    )
    dialog.locator("#replay-next").click()
    assert "Step 2 of" in dialog.locator(".replay-title").inner_text()
    second_screen = steps[1]["view"]["spins"][-1]["screen"]
    assert (
        dialog.locator(".replay-stage .cell[data-row='0'][data-reel='0']").get_attribute(
            "data-symbol"
        )
        == second_screen[0][0]
    )
    spin = steps[1]["view"]["spins"][-1]
    won = bool(spin["line_wins"] or spin["scatter_win"])
    assert dialog.locator(".replay-stage .reels.has-wins").count() == int(won)
    screenshot(page, "history-replay")


def test_a_hash_change_during_the_first_load_mounts_one_game(page: Page, server: Server) -> None:
    """The address changes to a game while the first load still opens the session, and again
    while the lobby's route waits for the server: exactly one game is mounted, with one menu
    (a second game's dialogs would stay in the page, and the menu's History would be the
    hidden one)."""
    import time

    held: list[str] = []

    def late(route) -> None:
        path = route.request.url.split("?")[0].rsplit("/", 2)[-2:]
        if "/".join(path) not in held:  # each first request of its kind arrives late
            held.append("/".join(path))
            time.sleep(0.8)
        route.continue_()

    page.route("**/api/me", late)
    page.route("**/api/games", late)
    player = server.new_player()
    page.goto(f"{server.url}/?token={player.token}#/")
    page.wait_for_function("() => document.querySelector('#loading') !== null")
    page.evaluate(f"() => {{ window.location.hash = '#/play/{forcing.TSAR}'; }}")
    page.wait_for_selector(".game:not([data-state='loading'])")
    wait_state(page, "idle")
    page.wait_for_timeout(2_000)  # any second mount would have landed by now
    assert held == ["api/me", "api/games"], held
    assert page.locator("#menu-dialog").count() == 1
    assert page.locator("#history").count() == 1
    page.click("#menu")
    page.click("#history")
    page.locator("#history-dialog[open]").wait_for()
