"""The words of the rules page: message catalogues per language, and the market's terms.

Every sentence of a rules page is a message of a catalogue, looked up in the player's language
and filled with the title's and the market's values (:class:`Phrases`). The catalogues are TOML
files: ``help/<language>.toml`` beside this module for the sentences every catalogue title
shares, and ``messages.<language>.toml`` in a title's folder for its own (a ladder title's
sentences, and any title's name, description and symbol names in another language). A
missing key falls back to English; a key missing in English is a programming error, named.

Numbers and money are formatted for the page's locale: the player's language with the market's
region where the locale library knows that pair (``en`` in ``en_GB`` is ``en_GB``; ``de`` in
``en_IE`` is plain ``de``).

:class:`Terms` is what the player's market and the server's settings make of the rules (bets,
limits, autoplay, the resolution period); the command line renders the model alone, without it.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any

from babel import Locale, UnknownLocaleError
from babel.numbers import format_decimal

from reelsmith.engine.model import GameModel

HELP_DIR = Path(__file__).parent
#: The languages a rules page is written in; the first is the fallback and the prevailing one.
LANGUAGES = ("en", "de")


class HelpError(ValueError):
    """A catalogue or a title's help file that cannot be read, or a message missing."""


class LanguageError(HelpError):
    """A language no rules page is written in."""


def _flatten(table: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in table.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping) and not set(value) <= {"one", "other"}:
            out.update(_flatten(value, f"{name}."))
        else:
            out[name] = value
    return out


@cache
def _read(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {}
    try:
        return _flatten(tomllib.loads(path.read_text(encoding="utf-8")))
    except tomllib.TOMLDecodeError as exc:
        raise HelpError(f"{path}: {exc}") from None


def language_of(asked: str | None) -> str:
    """The shipped language for ``asked`` (a BCP 47 tag such as ``de-AT``); English when none
    is asked; HelpError naming the languages for any other."""
    if not asked:
        return LANGUAGES[0]
    primary = asked.replace("_", "-").split("-")[0].lower()
    if primary not in LANGUAGES:
        raise LanguageError(
            f"no rules page in language {asked!r}; the languages are {', '.join(LANGUAGES)}"
        )
    return primary


def page_locale(language: str, market_locale: str | None) -> str:
    """The locale numbers and money are formatted in: the language in the market's region
    where that pair exists, else the language alone."""
    if market_locale:
        region = market_locale.replace("-", "_").split("_")[-1]
        try:
            Locale.parse(f"{language}_{region}")
            return f"{language}_{region}"
        except (UnknownLocaleError, ValueError):
            pass
    return language


def _title_dir(model: GameModel) -> Path | None:
    return model.source.parent if model.source is not None else None


class Phrases:
    """The messages of one page: ``phrases("key", name=value)`` in the page's language.

    An ``int`` or ``Decimal`` value is formatted for the locale (``10,000`` / ``10.000``); a
    ``str`` is put in as it is. A message may be a table of plural forms (``one``, ``other``)
    chosen by the ``count`` value."""

    def __init__(self, model: GameModel, language: str = "en", locale: str | None = None):
        self.model = model
        self.language = language_of(language)
        self.locale = locale or self.language
        title = _title_dir(model)
        files = [HELP_DIR / f"{lang}.toml" for lang in (self.language, "en")]
        if title is not None:
            files = [title / f"messages.{self.language}.toml", *files, title / "messages.en.toml"]
        self._tables = [_read(path) for path in files]
        self._plural = Locale.parse(self.language).plural_form

    def has(self, key: str) -> bool:
        return any(key in table for table in self._tables)

    def _message(self, key: str) -> Any:
        for table in self._tables:
            if key in table:
                return table[key]
        raise HelpError(f"no message {key!r} in the rules page's catalogues")

    def number(self, value: int | Decimal, places: int | None = None) -> str:
        if places is None:
            return format_decimal(value, locale=self.locale)
        pattern = "#,##0." + "0" * places if places else "#,##0"
        return format_decimal(value, format=pattern, locale=self.locale)

    def __call__(self, key: str, **params: Any) -> str:
        message = self._message(key)
        if isinstance(message, Mapping):
            if "count" not in params:
                raise HelpError(f"message {key!r} has plural forms and needs a count")
            message = message.get(self._plural(params["count"]), message["other"])
        shown = {
            name: self.number(value)
            if isinstance(value, (int, Decimal)) and not isinstance(value, bool)
            else value
            for name, value in params.items()
        }
        try:
            text = str(message).format(**shown)
        except KeyError as exc:
            raise HelpError(f"message {key!r} needs a value for {exc.args[0]}") from None
        if text.endswith("."):  # a sentence may start with a filled-in word ("three ...")
            text = re.sub(r"(^|\. )(\w)", lambda m: m.group(1) + m.group(2).upper(), text)
        return text

    # -- the title's own words ---------------------------------------------------------
    def name(self) -> str:
        key = "title.name"
        return self(key) if self.has(key) else self.model.name

    def description(self) -> str:
        key = "title.description"
        return self(key) if self.has(key) else str(self.model.raw.get("description", ""))

    def symbol(self, symbol_id: str) -> str:
        key = f"symbols.{symbol_id}"
        if self.has(key):
            return self(key)
        return next(s.name for s in self.model.symbols if s.id == symbol_id)

    def word(self, symbol_id: str) -> str:
        """The symbol's name as the rules' sentences use it: a language may give it a form of
        its own for compounds (German ``Kathedralen-Symbol``: ``compound.<id>``)."""
        key = f"compound.{symbol_id}"
        return self(key) if self.has(key) else self.symbol(symbol_id)

    def symbol_at(self, index: int) -> str:
        """The name of the symbol at ``index`` as the sentences use it (see :meth:`word`)."""
        return self.word(self.model.symbols[index].id)

    def spell(self, n: int) -> str:
        """A small count in words where the language's catalogue has the word, else figures."""
        key = f"numbers.{n}"
        return self(key) if self.has(key) else self.number(n)

    def join(self, items: list[str], word: str = "and") -> str:
        """``a, b and c`` (``word`` "or": ``a, b or c``) in the page's language."""
        if len(items) < 2:
            return "".join(items)
        return self(f"list.{word}", first=", ".join(items[:-1]), last=items[-1])

    def period(self, seconds: int) -> str:
        """A whole number of days, hours or minutes (``2 days``), else seconds."""
        for unit, size in (("days", 86_400), ("hours", 3_600), ("minutes", 60)):
            if seconds % size == 0 and seconds >= size:
                return self(f"period.{unit}", count=seconds // size)
        return self("period.seconds", count=seconds)


@dataclass(frozen=True)
class Terms:
    """What the player's market and the server's settings make of a title's rules: the bets it
    offers and the limits it enforces, in its money, and the features it allows."""

    market: str
    money: Callable[[int], str]  # minor units -> text in the page's locale
    to_minor: Callable[[Decimal], int]
    currency: str
    autoplay: bool
    autoplay_loss_limit: bool
    autoplay_stop_on_jackpot: bool
    autoplay_stop_on_balance_change: bool
    turbo: bool
    slam_stop: bool
    gamble: bool
    max_stake_minor: int
    resolve_after_seconds: int | None
    coin_sizes: tuple[Decimal, ...] = ()  # coin-bet titles
    bets_minor: tuple[int, ...] = ()  # bet-size titles
    gamble_limit: Decimal | None = None
    credit_value: Decimal = Decimal(1)  # coin-bet titles: one credit of the model's in money
    #: The market's cap on a round's win in total bets, where it sets one (None: the model's).
    max_win_multiplier: int | None = None
    #: The modes of the title the market offers (None: every mode, the page of no market).
    modes_offered: tuple[str, ...] | None = None


def play_rules(phrases: Phrases, terms: Terms | None, how: str) -> list[str]:
    """How to play: the title's first step (``how``, a message key), then autoplay, turbo and
    slam stop as the market offers them."""
    out = [phrases(how)]
    if terms is None:
        return out
    if terms.autoplay:
        out += [
            phrases("play.autoplay"),
            phrases("play.autoplay_icon"),
            phrases("play.autoplay_left"),
        ]
        out.append(phrases("play.autoplay_stops"))
        if terms.autoplay_loss_limit:
            out.append(phrases("play.autoplay_loss_limit"))
        if terms.autoplay_stop_on_jackpot:
            out.append(phrases("play.autoplay_stop_on_jackpot"))
        if terms.autoplay_stop_on_balance_change:
            out.append(phrases("play.autoplay_stop_on_balance_change"))
    else:
        out.append(phrases("play.no_autoplay"))
    if terms.turbo:
        out.append(phrases("play.turbo"))
    if terms.slam_stop:
        out.append(phrases("play.slam_stop"))
    if not terms.turbo and not terms.slam_stop:
        out.append(phrases("play.no_turbo"))
    return out


def settled_rules(phrases: Phrases, terms: Terms | None) -> list[str]:
    """The rules every title shares about money and settlement: the currency, incomplete
    rounds and their resolution period, and which version of the rules prevails."""
    out = []
    if terms is not None:
        out.append(phrases("settle.currency", currency=terms.currency))
        if terms.resolve_after_seconds is not None:
            out.append(
                phrases("settle.resolve", period=phrases.period(terms.resolve_after_seconds))
            )
            out.append(phrases("settle.resolve_paid"))
    out.append(phrases("settle.english_prevails"))
    if phrases.language != "en":
        out.append(phrases("settle.translation"))
    return out
