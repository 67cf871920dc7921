"""Keys and focus: Space spins (or stops) from every state that allows it, whatever has the
focus, and never changes the bet; steppers take the arrow keys; no control is focused when a
screen opens; every control shows a focus ring."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Browser, Page, Request

from tests.web import forcing
from tests.web.conftest import Server, force, minor, open_game, wait_state

pytestmark = pytest.mark.web

ACTIVE = """() => {
  const e = document.activeElement;
  return e ? { tag: e.tagName.toLowerCase(), id: e.id, cls: e.className } : null;
}"""


def spins(page: Page) -> list[Request]:
    sent: list[Request] = []
    page.on("request", lambda r: r.method == "POST" and r.url.endswith("/spin") and sent.append(r))
    return sent


def space_spins(page: Page, sent: list[Request], focus: str | None) -> None:
    """Focus ``focus`` (or nothing), press Space: one more spin, at the same bet."""
    before = len(sent)
    bet = minor(page, "#bet-total")
    if focus is None:
        page.evaluate("document.activeElement?.blur()")
    else:
        page.focus(focus)
    force(page, forcing.tsar_spin(win=False))
    with page.expect_request(lambda r: r.method == "POST" and r.url.endswith("/spin")):
        page.keyboard.press("Space")
    wait_state(page, "idle")
    assert len(sent) == before + 1, f"Space with {focus} focused did not spin once"
    assert minor(page, "#bet-total") == bet, f"Space with {focus} focused changed the bet"
    assert json.loads(sent[-1].post_data or "{}")["bet"]["coins_per_line"] == 1


def test_space_spins_whatever_has_the_focus_and_never_changes_the_bet(
    page: Page, server: Server
) -> None:
    player = server.new_player()
    sent = spins(page)
    open_game(page, server, player, forcing.TSAR)
    wait_state(page, "idle")
    turbo = page.get_attribute("#turbo", "aria-pressed")
    for focus in (
        None,
        "#coins-up",
        "#lines-down",
        "#coin-size-value",
        "#turbo",
        "#autoplay",
        "#spin",
        "#menu",
    ):
        space_spins(page, sent, focus)
    assert page.get_attribute("#turbo", "aria-pressed") == turbo  # Space did not press Turbo
    assert page.locator("dialog[open]").count() == 0  # nor open the autoplay dialog or menu

    # After the history closes, Space spins again (the focus went back to the menu button).
    page.click("#menu")
    page.click("#history")
    page.locator("#history-dialog[open]").wait_for()
    page.keyboard.press("Space")  # a dialog is open: Space is the dialog's
    assert len(sent) == 8
    page.keyboard.press("Escape")
    space_spins(page, sent, None)

    # From the gamble offer, Space collects the win and spins.
    force(page, forcing.tsar_spin(win=True))
    page.click("#spin")
    wait_state(page, "gamble")
    collected: list[str] = []
    page.on("request", lambda r: r.url.endswith("/collect") and collected.append(r.url))
    space_spins(page, sent, "#collect-offer")
    assert len(collected) == 1


def test_space_stops_the_reels_and_skips_where_the_market_allows(
    page: Page, server: Server
) -> None:
    player = server.new_player()
    sent = spins(page)
    open_game(page, server, player, forcing.TSAR, turbo=False)
    wait_state(page, "idle")
    # hold the spin's answer back so the reels are still spinning when Space is pressed
    held: list[object] = []
    page.route("**/api/games/*/spin", lambda route: held.append(route))
    force(page, forcing.tsar_spin(win=False))
    page.keyboard.press("Space")
    wait_state(page, "spinning")
    assert page.text_content("#spin .spin-label") == "Stop"
    page.keyboard.press("Space")  # slam stop: no second spin
    page.wait_for_timeout(100)
    assert len(held) == 1
    held[0].continue_()  # type: ignore[attr-defined]
    wait_state(page, "idle")
    assert len(sent) == 1


def test_steppers_take_arrow_keys_not_space(page: Page, server: Server) -> None:
    player = server.new_player()
    open_game(page, server, player, forcing.TSAR)
    wait_state(page, "idle")
    page.focus("#coins-value")
    page.keyboard.press("ArrowRight")
    assert page.inner_text("#coins-value") == "2" and minor(page, "#bet-total") == 50
    page.keyboard.press("ArrowDown")
    assert page.inner_text("#coins-value") == "1"
    page.focus("#lines-down")  # from a button of the stepper too
    page.keyboard.press("ArrowLeft")
    assert page.inner_text("#lines-value") == "24"
    page.keyboard.press("End")
    assert page.inner_text("#lines-value") == "25"
    assert page.get_attribute("#coins-value", "role") == "spinbutton"


def test_no_control_is_focused_when_a_screen_opens(page: Page, server: Server) -> None:
    player = server.new_player()
    open_game(page, server, player, forcing.TSAR, turbo=False)
    wait_state(page, "idle")
    focused = page.evaluate(ACTIVE)
    assert focused["tag"] not in ("button", "input", "a"), f"the game opened with {focused} focused"
    page.click("#autoplay")
    page.locator("#autoplay-dialog[open]").wait_for()
    assert page.evaluate(ACTIVE)["id"] == "autoplay-dialog"
    page.keyboard.press("Escape")
    page.click("#menu")
    assert page.evaluate(ACTIVE)["id"] == "menu-dialog"
    page.keyboard.press("Escape")
    # the gamble screen: no choice has the focus, so Enter or Space cannot gamble at once
    force(page, forcing.tsar_spin(win=True))
    page.click("#spin")
    wait_state(page, "gamble")
    page.click("#gamble")
    page.wait_for_selector("#gamble-screen")
    assert "gamble-choice" not in page.evaluate(ACTIVE)["cls"]
    gambles: list[str] = []
    page.on("request", lambda r: r.url.endswith("/gamble") and gambles.append(r.url))
    page.keyboard.press("Enter")
    page.keyboard.press("Space")
    page.wait_for_timeout(300)
    assert gambles == []


def test_every_control_shows_a_focus_ring(page: Page, server: Server) -> None:
    player = server.new_player()
    open_game(page, server, player, forcing.TSAR)
    wait_state(page, "idle")
    seen = set()
    for _ in range(16):
        page.keyboard.press("Tab")
        ring = page.evaluate(
            """() => {
              const e = document.activeElement;
              const s = getComputedStyle(e);
              return { id: e.id, outline: s.outlineStyle, width: parseFloat(s.outlineWidth),
                       visible: e.matches(':focus-visible') };
            }"""
        )
        if not ring["id"]:
            continue
        seen.add(ring["id"])
        assert ring["visible"], f"{ring['id']} has the focus but no :focus-visible"
        assert ring["outline"] != "none" and ring["width"] >= 2, f"{ring['id']} shows no ring"
    assert {"spin", "menu", "autoplay", "turbo", "coins-value"} <= seen


def test_the_menu_holds_rules_history_sound_settings_and_the_lobby(
    browser: Browser, server: Server
) -> None:
    ctx = browser.new_context(
        viewport={"width": 390, "height": 844}, reduced_motion="no-preference"
    )
    try:
        page = ctx.new_page()
        player = server.new_player()
        open_game(page, server, player, forcing.SULTAN)
        page.click("#menu")
        menu = page.locator("#menu-dialog[open]")
        for item in ("#rules", "#history", "#lobby-link", "#menu-settings"):
            assert menu.locator(item).is_visible(), item
        # the sound slot shows the sound module's controls
        assert menu.locator("#menu-sound").is_visible()
        for item in ("#sound-toggle", "#sound-volume", "#sound-music"):
            assert menu.locator(f"#menu-sound {item}").is_visible(), item
        # reduce motion: a setting of the player's own, remembered
        assert "reduced-motion" not in (page.get_attribute("html", "class") or "")
        page.check("#setting-reduce-motion")
        assert "reduced-motion" in (page.get_attribute("html", "class") or "")
        page.reload()
        page.wait_for_selector(".game:not([data-state='loading'])")
        assert "reduced-motion" in (page.get_attribute("html", "class") or "")
        page.click("#menu")
        assert page.is_checked("#setting-reduce-motion")
        page.click("#lobby-link")
        page.wait_for_selector(".lobby-card")
    finally:
        ctx.close()
