"""The client's languages: message catalogues for English and German, chosen by the player's
locale or the ``lang`` setting, with money formatted for it."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from tests.web.conftest import DESKTOP, Server

WEB = Path(__file__).resolve().parents[2] / "src" / "reelsmith" / "web"
CATALOGUES = WEB / "i18n"


def catalogue(language: str) -> dict[str, object]:
    data: dict[str, object] = json.loads((CATALOGUES / f"{language}.json").read_text("utf-8"))
    return data


def placeholders(value: object) -> set[str]:
    texts = value.values() if isinstance(value, dict) else [value]
    return {name for text in texts for name in re.findall(r"\{(\w+)\}", str(text))}


def test_every_english_key_has_a_german_text_and_the_reverse() -> None:
    english, german = catalogue("en"), catalogue("de")
    assert sorted(set(english) - set(german)) == [], "keys missing in de.json"
    assert sorted(set(german) - set(english)) == [], "keys in de.json that English lacks"


def test_the_german_texts_fill_the_same_placeholders_and_plural_forms() -> None:
    english, german = catalogue("en"), catalogue("de")
    for key, text in english.items():
        assert placeholders(german[key]) == placeholders(text), key
        assert isinstance(german[key], dict) == isinstance(text, dict), key
        if isinstance(text, dict):
            assert isinstance(german[key], dict) and set(german[key]) >= {"one", "other"}, key
        else:
            assert german[key], f"{key} is empty in de.json"


@pytest.fixture
def german(browser: Browser) -> Iterator[BrowserContext]:
    ctx = browser.new_context(viewport=DESKTOP, reduced_motion="reduce", locale="de-DE")
    ctx.set_default_timeout(15_000)
    yield ctx
    ctx.close()


def _page(ctx: BrowserContext) -> tuple[Page, list[str]]:
    opened = ctx.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    opened.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return opened, errors


@pytest.mark.web
def test_a_german_browser_reads_german(german: BrowserContext, server: Server) -> None:
    player = server.new_player()
    page, errors = _page(german)
    page.goto(f"{server.url}/?token={player.token}#/")
    page.wait_for_selector(".lobby-card")
    assert page.inner_text("#lobby-title") == "Spiel wählen"
    assert page.inner_text(".lobby-card[data-game='days-of-the-tsar'] .lobby-play") == (
        "Days of the Tsar spielen"
    )
    assert page.evaluate("document.documentElement.lang") == "de"
    assert not errors


@pytest.mark.web
def test_the_lang_setting_overrides_the_browser_and_is_remembered(
    german: BrowserContext, server: Server
) -> None:
    player = server.new_player()
    page, errors = _page(german)
    page.goto(f"{server.url}/?token={player.token}&lang=en#/")
    page.wait_for_selector(".lobby-card")
    assert page.inner_text("#lobby-title") == "Choose a game"
    page.goto(f"{server.url}/?token={player.token}#/")
    page.wait_for_selector(".lobby-card")
    assert page.inner_text("#lobby-title") == "Choose a game"
    assert page.evaluate("document.documentElement.lang") == "en"
    assert not errors


@pytest.mark.web
def test_money_is_written_the_german_way(german: BrowserContext, server: Server) -> None:
    player = server.new_player(balance="1234.50")
    page, errors = _page(german)
    page.goto(f"{server.url}/?token={player.token}#/")
    page.wait_for_selector("body[data-ready='true']")
    page.wait_for_function("document.getElementById('balance').dataset.minor === '123450'")
    assert page.inner_text("#balance").replace("\u00a0", " ") == "1.234,50 €"
    assert not errors
