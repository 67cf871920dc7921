"""A hold-and-spin title's collector and multiplier coins show their own badges in the browser:
the suite's coins title (``tests/mechanics/hold_title.py``: ``coins_hold_title``, the hold
title with collectors and x2 / x5 multiplier coins among the values) written to a folder of its
own and served with ``--titles``. The forced screen of seven coins (the hold title's, the same
strips) starts the feature, and the seven value draws are forced too, so that the coins the
feature starts with are a collector, an x2, an x5, plain values and a jackpot. Every coin held
at the end, the respins' included, shows on its cell the badge its event says: a collector
COLLECT (German SAMMLER), a multiplier ``x<factor>``, a plain coin ``<bets>×``, a jackpot its
tier's name; in English and in German, under the server's Content-Security-Policy, with no page
error."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser

from reelsmith.engine.model import load_model
from reelsmith.mechanics.hold_and_spin.rules import hold_and_spin_rules
from tests import copies
from tests.mechanics.hold_title import coins_hold_title
from tests.web.conftest import WATCH, Policed, Server, force, open_game, run_server, wait_state
from tests.web.test_hold_title import COINS

pytestmark = pytest.mark.web

GAME = "coins-hold"
#: The values of the seven coins the forced screen shows, in reading order (rows top to
#: bottom, each left to right): the order the feature draws them in.
START = ["collect", "x2", "5", "x5", "2", "mini", "collect"]
#: A collector's badge in each language (the client's ``hs.collect``).
COLLECT = {"en": "COLLECT", "de": "SAMMLER"}
LOCALES = {"en": "en-GB", "de": "de-DE"}


def value_draws(folder: Path) -> list[int]:
    """The forced draws that give the start's coins the values ``START``: each the first draw
    of its entry in the value table's weights."""
    rules = hold_and_spin_rules(load_model(folder))
    offsets: dict[str, int] = {}
    below = 0
    for value, weight in zip(rules.values, rules.value_weights, strict=True):
        offsets.setdefault(value.label, below)
        below += weight
    return [offsets[label] for label in START]


@pytest.fixture(scope="module")
def coins_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("coins-title")
    titles = tmp / "titles"
    coins_hold_title(titles / GAME)
    table = 'variant = "main"\ncoin_sizes = ["0.01", "0.10"]'
    markets = copies.markets_offering(tmp / "markets", GAME, table)
    with run_server(tmp, titles_dirs=str(titles), markets_dir=str(markets)) as running:
        yield running


@pytest.fixture(params=list(LOCALES))
def language_page(browser: Browser, request: pytest.FixtureRequest) -> Iterator[Policed]:
    """A desktop page under the server's Content-Security-Policy in the param's language; the
    test fails if the page raised."""
    ctx = browser.new_context(
        viewport={"width": 1366, "height": 768},
        reduced_motion="reduce",
        locale=LOCALES[request.param],
    )
    ctx.set_default_timeout(15_000)
    ctx.add_init_script(f"({WATCH})()")
    opened = ctx.new_page()
    console: list[str] = []
    opened.on("console", lambda message: console.append(message.text))
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield Policed(opened, console)
    ctx.close()
    assert not errors, f"the page raised: {errors}"


def test_the_forced_screen_holds_seven_coins(tmp_path: Any) -> None:
    model = load_model(coins_hold_title(tmp_path / GAME))
    strips = model.variant().reel_sets["base"].strips
    window = [
        [
            model.symbol_id(int(strip[(stop + row) % len(strip)]))
            for strip, stop in zip(strips, COINS, strict=True)
        ]
        for row in range(3)
    ]
    assert sum(row.count("coin") for row in window) == len(START)


def expected_badge(coin: dict[str, Any], language: str) -> str:
    """What a coin's event says its badge reads."""
    if coin.get("kind") == "collect":
        return COLLECT[language]
    if coin.get("kind") == "multiplier":
        return f"x{coin['multiplier']}"
    value = str(coin["value"])
    return f"{coin['bets']}×" if value.isdigit() else value.upper()


def test_collector_and_multiplier_coins_show_their_badges(
    language_page: Policed, coins_server: Server, tmp_path: Path
) -> None:
    page = language_page.page
    language = next(k for k, v in LOCALES.items() if v == page.evaluate("navigator.language"))
    player = coins_server.new_player()
    open_game(page, coins_server, player, GAME)
    wait_state(page, "idle")
    assert page.evaluate("document.documentElement.lang") == language
    draws = value_draws(coins_hold_title(tmp_path / GAME))
    force(page, [*COINS, *draws])
    with page.expect_response(lambda r: r.url.endswith("/spin")) as spun:
        page.click("#spin")
    answer: dict[str, Any] = spun.value.json()
    page.wait_for_selector("#hold-and-spin:not([hidden])")
    wait_state(page, "idle", timeout=40_000)

    events = answer["events"]
    start = next(e for e in events if e["type"] == "hold_and_spin_start")
    respins = [e for e in events if e["type"] == "hold_and_spin_respin"]
    end = next(e for e in events if e["type"] == "hold_and_spin_end")
    assert [c["value"] for c in start["held"]] == START
    coins = [c for e in [start, *respins] for c in e.get("held", e.get("landed", []))]
    assert len(coins) == end["coins_held"]
    kinds = [c.get("kind") for c in coins]
    assert "collect" in kinds and "multiplier" in kinds, kinds
    assert {c.get("multiplier") for c in coins} >= {2, 5}

    shown, wanted = [], []
    for coin in coins:
        row, reel = coin["position"]
        cell = page.locator(f".reels .cell[data-row='{row}'][data-reel='{reel}']")
        assert "hs-held" in (cell.get_attribute("class") or "").split()
        badge = cell.locator(".cell-badge.hs-coin")
        assert badge.count() == 1, f"{coin}: {badge.count()} badges"
        shown.append((coin["value"], badge.inner_text()))
        wanted.append((coin["value"], expected_badge(coin, language)))
    assert shown == wanted
    assert language_page.violations() == []
