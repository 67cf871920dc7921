"""A ladder title served from a folder plays in the browser: Sultan Spins' folder copied under an
id no code knows ("Palace Ladder"), served with ``--titles`` and offered by a market of its own
files, opens from the lobby and is drawn by the one ladder script with plain art (no art of its
own): its pots, meter, bet, gem reveals and the free-spins ladder, under the server's
Content-Security-Policy."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
from playwright.sync_api import Page

from reelsmith.engine.model import load_model
from tests import copies
from tests.web import forcing
from tests.web.conftest import (
    Policed,
    Server,
    force,
    minor,
    press_scene,
    run_server,
    screenshot,
    wait_state,
)

pytestmark = pytest.mark.web

COPY = "palace-ladder"
NAME = "Palace Ladder"
LEVELS = "[1, 2, 3, 4, 5, 6, 8, 10, 15, 20, 25, 30, 40, 50, 100, 250, 500]"


@pytest.fixture(scope="module")
def ladder_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server of the shipped titles and the copy, which the default market offers."""
    tmp = tmp_path_factory.mktemp("ladder-title")
    titles = tmp / "titles"
    copy = copies.copy_of_sultan(titles / "palace_ladder", COPY, name=NAME)
    # Sultan Spins' forced draws serve the copy: the same reels
    shipped = forcing.model(forcing.SULTAN).variant(forcing.SULTAN_VARIANT).reel_sets
    copied = load_model(copy).variant(forcing.SULTAN_VARIANT).reel_sets
    assert shipped.keys() == copied.keys()
    for name, reels in shipped.items():
        assert np.array_equal(reels.padded, copied[name].padded), name
    table = f'variant = "{forcing.SULTAN_VARIANT}"\nstake_unit = "0.20"\nlevels = {LEVELS}'
    markets = copies.markets_offering(tmp / "markets", COPY, table)
    with run_server(tmp, titles_dirs=str(titles), markets_dir=str(markets)) as running:
        yield running


def sprites_used(page: Page, selector: str) -> set[str]:
    found: list[str] = page.locator(f"{selector} use").evaluate_all(
        "(uses) => uses.map((u) => u.getAttribute('href'))"
    )
    return set(found)


def test_a_copied_ladder_title_opens_from_the_lobby_and_climbs_the_ladder(
    policed: Policed, ladder_server: Server
) -> None:
    page = policed.page
    server = ladder_server
    player = server.new_player()
    games = {g["id"]: g for g in server.get(player, "/api/games")["games"]}
    assert games[COPY]["client"] == "ladder" and games[COPY]["name"] == NAME

    # The lobby lists it with plain art of its own name, and opens it.
    page.goto(f"{server.url}/?token={player.token}#/")
    card = page.locator(f".lobby-card[data-game='{COPY}']")
    card.wait_for()
    assert card.locator(".lobby-name").inner_text() == NAME
    hero = sprites_used(page, f".lobby-card[data-game='{COPY}'] .lobby-art")
    assert hero == {f"#{COPY}-sultan", f"#{COPY}-gem-red", f"#{COPY}-bonus"}
    card.locator(".lobby-play").click()
    page.wait_for_selector(f".game[data-game='{COPY}']:not([data-state='loading'])")
    assert page.url.endswith(f"#/play/{COPY}")
    root = page.locator(".game")
    classes = set(root.get_attribute("class").split())
    assert classes >= {"with-ladder", "bet-single", f"theme-{COPY}"}
    assert page.inner_text(".game-title") == NAME
    assert all(href.startswith(f"#{COPY}-") for href in sprites_used(page, ".reels"))
    page.click("#turbo")

    # The pots of the bet (seeds and caps), the five-spot meter, the bet.
    rules = server.get(player, f"/api/games/{COPY}/rules")
    carried = server.get(player, f'/api/games/{COPY}/state?bet={{"bet":"1.00"}}')["carried_state"]
    pots = page.locator(".pot")
    assert pots.evaluate_all("(els) => els.map((e) => e.dataset.pot)") == [
        p["id"] for p in rules["rules"]["jackpots"]["pots"]
    ]
    shown = pots.evaluate_all("(els) => els.map((e) => Number(e.dataset.minor))")
    assert shown == carried["pots_minor"] == [200, 500, 2500, 10000, 50000]
    assert page.inner_text(".pot[data-pot='red'] .pot-value") == "€500.00"
    assert page.text_content(".pot[data-pot='teal'] .pot-name") == "Teal"  # the rules page's
    assert " ".join(page.inner_text(".pot[data-pot='teal'] .pot-cap").split()) == (
        "won before €25.00"
    )
    assert page.inner_text(".pots-caption") == "Jackpots for the €1.00 bet"
    # each pot in its own colour, named after it
    colours = pots.evaluate_all("(els) => els.map((e) => getComputedStyle(e).borderTopColor)")
    assert len(set(colours)) == 5, colours
    assert page.locator("#meter .spot").count() == 5
    assert page.get_attribute("#meter", "data-filled") == "0"
    assert page.get_attribute("#meter", "aria-label") == "Bonus meter: 0 of 5 spots"
    assert page.inner_text("#bet-value") == "€1.00"
    assert minor(page, "#bet-total") == 100

    # A gem lands on reel 2 and reveals a wild reel: its pot rises by the bet.
    force(
        page,
        [
            *forcing.sultan_triggers(),
            *forcing.sultan_spin(gems=(1,)),
            forcing.gem_reveal("wild_reel"),
        ],
    )
    with page.expect_response(lambda r: r.url.endswith("/spin")) as spun:
        page.click("#spin")
    first = spun.value.json()
    wait_state(page, "idle")
    assert first["round"]["spins"][0]["gems"][0]["reveal"] == "wild_reel"
    assert page.get_attribute(".pot[data-pot='blue']", "data-minor") == "600"
    assert page.locator(".reel[data-reel='1'] .cell[data-symbol='wild']").count() == 4
    assert minor(page, "#balance") == first["balance"]["minor"]

    # Exactly two bonus symbols fill a meter spot (the game list's meter_feed).
    force(page, forcing.sultan_spin(bonus=(1, 3)))
    page.click("#spin")
    page.wait_for_selector("#meter[data-filled='1']")
    wait_state(page, "idle")
    assert page.locator("#meter .spot.filled").count() == 1

    # Three bonus symbols start the ladder; five more in level 1 unlock level 2.
    level_one = [forcing.sultan_spin(free=True) for _ in range(7)]
    level_one[0] = forcing.sultan_spin(bonus=(0, 2, 4), free=True)
    level_one[1] = forcing.sultan_spin(bonus=(1, 3), free=True)
    level_two = [forcing.sultan_spin(free=True) for _ in range(7)]
    force(page, forcing.sultan_spin(bonus=(0, 1, 2)), *level_one, *level_two)
    page.click("#spin")
    page.wait_for_selector("#free-spins-intro-button")
    assert page.get_attribute("#free-spins-intro", "data-spins") == "7"
    assert page.locator("#free-spins-intro .scene-ladder li").count() == 5
    assert page.locator(f"#free-spins-intro .scene-art use[href='#{COPY}-bonus']").count() == 1
    press_scene(page, "free-spins-intro")
    page.wait_for_selector("#ladder .ladder-level.current[data-level='2']")
    assert page.is_visible("#ladder-status")
    assert page.inner_text("#ladder-multiplier") == "2x"
    assert page.locator("#ladder .ladder-level").count() == 5
    screenshot(page, "ladder-copy-free-spins")
    page.wait_for_selector("#free-spins-outro-button", timeout=40_000)
    outro_total = page.get_attribute("#free-spins-outro", "data-total")
    press_scene(page, "free-spins-outro")
    wait_state(page, "idle", timeout=40_000)

    view = server.get(player, f"/api/history/rounds?game={COPY}&limit=1")["rounds"][0]["round"]
    assert view["game"] == COPY and view["phase"] == "complete"
    assert [s["level"] for s in view["spins"]] == [0] + [1] * 7 + [2] * 7
    assert minor(page, "#win") == view["win_minor"] == int(outro_total or -1)
    assert minor(page, "#balance") == server.get(player, "/api/me")["balance"]["minor"]
    assert page.is_hidden("#ladder")
    assert page.get_attribute("#meter", "data-filled") == str(view["meter"])
    assert policed.violations() == []
