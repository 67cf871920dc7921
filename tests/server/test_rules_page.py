"""The rules page is the help page, for the player's market and the server's settings.

The help pages in ``shared/seeds/`` are the specification: every sentence of
``days-of-the-tsar.txt`` and ``sultan-spins.txt`` must appear on the rendered rules page of every
market that offers the title, in its own words or in the rewording :data:`REWORDINGS` lists
beside it with its reason. A sentence the page drops fails here, and so does a rewording the
seed no longer has.

What counts as a sentence of a seed: each sentence of its prose and each item of its lists
(``- ...``, ``• ...``), lead-ins ending in a colon included. Left out are the headings (a line
that is neither a list item nor ends a sentence: ``SCATTER SYMBOL``, ``How To Play``), the
navigation bars and table cells (lines with ``|``), and the Days of the Tsar payout table,
which :func:`test_the_paytable_is_the_help_pages` compares number by number. Matching ignores
case, runs of white space, the quotes' typography and a sentence's final full stop or colon.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from reelsmith.help import page_locale
from reelsmith.server.markets import Market, load_markets
from reelsmith.server.registry import TitleRegistry
from reelsmith.server.settings import Settings

SHARED = Path(
    os.environ.get("REELSMITH_SHARED_DIR", Path(__file__).resolve().parents[2].parent / "shared")
)
SEEDS = SHARED / "seeds"
TSAR = "days-of-the-tsar"
SULTAN = "sultan-spins"
SEED_FILES = {TSAR: "days-of-the-tsar.txt", SULTAN: "sultan-spins.txt"}
RESOLVE_AFTER = Settings.load().resolve_after_seconds


def seed_text(game: str) -> str:
    """The help page ``game``'s seed file holds: the specification these tests check the
    rules page against, so its absence fails them, naming where it was looked for."""
    path = SEEDS / SEED_FILES[game]
    if not path.is_file():
        pytest.fail(
            f"the seed help page {path} is missing: the workplace's shared folder lies beside "
            "the repository, or REELSMITH_SHARED_DIR names it"
        )
    return path.read_text(encoding="utf-8")


@dataclass(frozen=True)
class Rewording:
    """What the page says in place of a seed sentence (``page``: the text, or the text for a
    market), and why."""

    page: str | Callable[[Market], str]
    why: str

    def text(self, market: Market) -> str:
        return self.page(market) if callable(self.page) else self.page


def _autoplay(sentence: str) -> Callable[[Market], str]:
    return lambda market: sentence if market.autoplay else "Autoplay is not available"


def _gamble_limit(market: Market) -> str:
    limit = market.game(TSAR).gamble_limit
    assert limit is not None
    # written in the page's locale (English for the market's country) with the market's sign
    amount = market.currency.format(
        market.currency.to_minor(limit), page_locale("en", market.locale)
    )
    return f"The gamble amount limit is {amount}"


AUTOPLAY_ICON = "Autoplay is started and stopped by clicking the autoplay icon where applicable."
#: Every seed sentence the page words differently, by title, with the reason.
REWORDINGS: dict[str, dict[str, Rewording]] = {
    TSAR: {
        "Days of the Tsar is a five reel, twenty-five payline, and five hundred coin slot "
        "machine.": Rewording(
            "Days of the Tsar is a 5 reel, 25 payline, 500 coin slot machine.",
            "the figures are the model's (reels, paylines, most coins), written as figures",
        ),
        "This means it acts as a wild symbol to substitute for other symbols to complete "
        "winning combinations.": Rewording(
            "The Tsar symbol acts as a wild symbol to substitute for other symbols to complete "
            "winning combinations.",
            "a list item cannot lean on the sentence before it; the seed's rules list says so",
        ),
        "To see a list of possible Tsar symbol winning combination payouts, go to the Regular "
        "Payout Schedule.": Rewording(
            "To see a list of possible Tsar symbol winning combination payouts, go to the "
            "paytable.",
            "the page's Regular Payout Schedule is its paytable",
        ),
        "This means it does not need to appear in a line on an enabled payline to win.": Rewording(
            "The Fabergé Egg symbol does not need to appear in a line on an enabled payline to "
            "win.",
            "a list item cannot lean on the sentence before it; the seed's rules list says so",
        ),
        "Winnings are calculated by multiplying the Fabergé Egg symbols combination payout, "
        "according to the Regular Payout Schedule, by the total number of coins bet.": Rewording(
            "Scatter wins are calculated by multiplying the Fabergé Egg symbols combination "
            "payout by the total number of coins bet.",
            "the seed's own shorter wording of the same rule; the payout schedule is the "
            "paytable beside it",
        ),
        "Winnings are calculated by multiplying the Fabergé Egg symbols combination payout "
        "according to the Regular Payout Schedule, by the total number of coins bet.": Rewording(
            "Scatter wins are calculated by multiplying the Fabergé Egg symbols combination "
            "payout by the total number of coins bet.",
            "as the sentence above, repeated in the free spins section",
        ),
        "Two Fabergé Egg symbols scattered anywhere on the five reels, and three Ace symbols "
        "displayed on reels 1, 2 and 3 on an enabled payline, complete two winning combinations "
        "according to the Regular Payout Schedule.": Rewording(
            "Two Fabergé Egg symbols scattered anywhere on the five reels, and three Ace "
            "symbols displayed on reels 1, 2 and 3 on an enabled payline, complete two winning "
            "combinations according to the paytable.",
            "the page's Regular Payout Schedule is its paytable",
        ),
        "The Fabergé Egg symbols that activated the bonus game, reveal random numbers.": Rewording(
            "The Fabergé Egg symbols that activated the bonus game reveal random numbers.",
            "the comma between subject and verb is dropped",
        ),
        "In the Free Spins bonus game, the Fabergé Egg symbols that activated the bonus game, "
        "reveal random numbers.": Rewording(
            "In the Free Spins bonus game, the Fabergé Egg symbols that activated the bonus "
            "game reveal random numbers.",
            "the comma between subject and verb is dropped",
        ),
        "All the bets and paylines played in the free spins are the same as the game that "
        "activated the Free Spins bonus game.": Rewording(
            "All the bets and paylines played in the free spins are the same as the spin that "
            "activated the Free Spins bonus game.",
            "the seed's rules list says 'spin'; a round's free spins are part of its game",
        ),
        "If Fabergé Egg symbols are scattered on the reels during a free spin, you win an "
        "additional free spin for each Fabergé Egg symbol displayed.": Rewording(
            "If Fabergé Egg symbols are scattered anywhere on the reels during a free spin, you "
            "win an extra free spin for every Fabergé Egg symbol displayed.",
            "the seed's rules list words the same rule so",
        ),
        "Winnings are automatically collected at the end of the Free Spins bonus game.": Rewording(
            "At the end of the Free Spins bonus game its winnings are added to the round's win, "
            "which you may then gamble or collect.",
            "the seed's gamble follows any win, free spins included: the win is collected "
            "then, or after the gamble",
        ),
        "Click the Gamble button.": Rewording(
            "Click the Gamble button: the Gamble screen is displayed.",
            "two steps of one instruction in one sentence",
        ),
        "The Gamble screen is displayed.": Rewording(
            "Click the Gamble button: the Gamble screen is displayed.",
            "two steps of one instruction in one sentence",
        ),
        "Choose one of the gamble options.": Rewording(
            "The gamble options are: Color - Black / Red; Suit - Heart / Diamond / Spade / Club.",
            "the list of options in one sentence",
        ),
        "Color - Black / Red": Rewording(
            "Color - Black / Red;", "the list of options in one sentence"
        ),
        "Suit - Heart / Diamond / Spade / Club": Rewording(
            "Suit - Heart / Diamond / Spade / Club.", "the list of options in one sentence"
        ),
        "The gamble options are:": Rewording(
            "The gamble options are: Color", "the list of options in one sentence"
        ),
        "Any winnings are automatically collected after each gamble.": Rewording(
            "Winnings are automatically collected when a gamble limit is reached; the Collect "
            "button collects them at any time.",
            "a won gamble may be gambled again until a limit, as the seed's 'gamble your "
            "winnings until the gamble limit is reached' says; the win is collected "
            "automatically at the limit",
        ),
        "Winnings are automatically collected after each gamble.": Rewording(
            "Winnings are automatically collected when a gamble limit is reached",
            "as the sentence above, from the seed's rules list",
        ),
        "The Payout Schedule summarizes the game Payout Table.": Rewording(
            "The paytable summarizes the game's payouts.",
            "the page's payout schedule is its paytable",
        ),
        "Multiple Tsar symbols on a payline create winning combinations, as shown in the "
        "Regular Payout Schedule.": Rewording(
            "Multiple Tsar symbols on an enabled payline create Tsar symbol winning combinations.",
            "the seed's other wording of the rule; the payout schedule is the paytable",
        ),
        "Three or more Fabergé Egg symbols, scattered anywhere on the reels, activate Free Spins "
        "bonus game.": Rewording(
            "Three or more Fabergé Egg symbols scattered anywhere on the reels activate the "
            "Free Spins bonus game.",
            "the seed's other wording of the same rule",
        ),
        "The Tsar symbol does not substitute for a Fabergé Egg symbol to complete a winning "
        "scatter combination.": Rewording(
            "The Tsar symbol does not substitute for the Fabergé Egg symbol to complete winning "
            "scatter combinations.",
            "the seed's other wording of the same rule",
        ),
        "The symbols do not need to appear in a line on an enabled payline to win.": Rewording(
            "The Fabergé Egg symbol does not need to appear in a line on an enabled payline to "
            "win.",
            "a criterion of the scatter, said of its symbol",
        ),
        "The Fabergé Egg symbols can appear in any position on the reels.": Rewording(
            "The Fabergé Egg symbol can appear in any position on the reels.",
            "the seed's other wording of the same rule",
        ),
        "The Fabergé Egg symbol does not need to appear on an enabled payline to win.": Rewording(
            "The Fabergé Egg symbol does not need to appear in a line on an enabled payline to "
            "win.",
            "the seed's other wording of the same rule",
        ),
        "You can bet twenty coins per payline.": Rewording(
            "You can bet 1 to 20 coins per payline.",
            "the model's range of coins per payline, of which twenty is the most",
        ),
        "The following general rules apply:": Rewording(
            "General", "a list's lead-in: the page's section heading (labels) carries it"
        ),
        "The following Free Spins bonus game rules apply:": Rewording(
            "Free spins", "a list's lead-in: the page's section heading carries it"
        ),
        "The following substitute symbol rules apply:": Rewording(
            "Substitute symbol", "a list's lead-in: the page's section heading carries it"
        ),
        "The following scatter symbol rules apply:": Rewording(
            "Scatter", "a list's lead-in: the page's section heading carries it"
        ),
        "The following Gamble bonus game rules apply:": Rewording(
            "Gamble bonus game", "a list's lead-in: the page's section heading carries it"
        ),
        "The following payout rules apply:": Rewording(
            "Payouts", "a list's lead-in: the page's section heading carries it"
        ),
        "Days of the Tsar has the following features:": Rewording(
            "Days of the Tsar is a 5 reel",
            "a list's lead-in: the features follow the page's first sentence",
        ),
        "To play the Gamble bonus game, do the following:": Rewording(
            "To play the Gamble bonus game, choose either a card color or a card suit.",
            "the steps follow the seed's rules list's own sentence",
        ),
        "For a combination of regular symbols to produce a winning regular combination, the "
        "following criteria must be met:": Rewording(
            "To produce a regular winning combination, the symbols must be next to each other on "
            "an enabled payline.",
            "a list's lead-in: the seed's payout rules say the criteria in sentences",
        ),
        "For a combination of Fabergé Egg symbols to produce a winning scatter combination, the "
        "following criteria must be met:": Rewording(
            "The Fabergé Egg symbol can be scattered anywhere on the five reels to complete "
            "winning combinations, provided two or more Fabergé Egg symbols appear.",
            "a list's lead-in: the scatter section says the criteria in sentences",
        ),
        "Two or more Fabergé Egg symbols must be displayed.": Rewording(
            "provided two or more Fabergé Egg symbols appear",
            "the seed's scatter rule says it so",
        ),
        "The gamble limit is set at five gambles per game, or until the gamble amount limit is "
        "reached.": Rewording(
            _gamble_limit,
            "the page also states the gamble amount limit the market enforces, in its money",
        ),
    },
    SULTAN: {
        "The Wild symbol substitutes for all symbols on the reels for pay line wins.": Rewording(
            "The Wild symbol substitutes for all paying symbols on the reels for pay line wins.",
            "it does not substitute for the Bonus and Gem symbols (the page says so too)",
        ),
        "The theoretical RTP (return to player) in this game is 94.00%.": Rewording(
            lambda market: (
                "The theoretical RTP (return to player) in this game is "
                f"{market.game(SULTAN).variant}%, jackpots included"
            ),
            "the market's variant; the jackpots' share is part of it",
        ),
        "(Applicable based on market)": Rewording(
            "The applicable bet sizes are those your market offers.",
            "the seed's note as a sentence",
        ),
        "The Free Spins includes the Local Jackpot Feature and multipliers only applies to the "
        "line wins.": Rewording(
            "The Free Spins include the Local Jackpot Feature, and the multipliers apply only "
            "to the line wins.",
            "grammar",
        ),
        "Once the Jackpot has been updated the gem will reveal one of the following": Rewording(
            "Once the Jackpot has been updated the gem will reveal one of the following:",
            "the list in one sentence",
        ),
        "The Jackpot Spin is played out on the main game area and once a Jackpot has been won "
        "that prize will reset.": Rewording(
            "The Jackpot Spin is played out on the main game area and once a Jackpot has been "
            "won that prize will reset to its seed value.",
            "says what the prize resets to",
        ),
        "To use autoplay, press the Autoplay button and select the desired number of "
        "rounds.": Rewording(
            _autoplay(
                "To use autoplay, press the Autoplay button and select the desired number of "
                "rounds."
            ),
            "a market without autoplay says so instead",
        ),
        AUTOPLAY_ICON: Rewording(
            _autoplay(AUTOPLAY_ICON),
            "a market without autoplay says so instead",
        ),
        "While playing, you can always see how many autoplay spins you have left.": Rewording(
            _autoplay("While playing, you can always see how many autoplay spins you have left."),
            "a market without autoplay says so instead",
        ),
    },
}


def normal(text: str) -> str:
    text = text.replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"')
    return re.sub(r"\s+", " ", text).strip().casefold()


def seed_sentences(game: str) -> list[str]:
    """Every sentence of the title's seed (see the module's docstring), once each."""
    text = seed_text(game)
    if game == TSAR:  # the payout table, compared number by number below
        start = text.index("| Symbol Names |")
        text = text[:start] + text[text.index("FREE SPINS BONUS GAME PAYOUT SCHEDULE") :]
    out: list[str] = []
    for line in text.splitlines():
        line = line.strip()
        if not line or "|" in line:
            continue
        item = re.match(r"^[-•]\s*", line)
        if item:
            line = line[item.end() :]
        elif not line.endswith((".", ":")):
            continue  # a heading
        if line.endswith(":") and len(line.split()) == 1:
            continue  # "Note:", "Example:": a heading
        sentences = re.split(r"(?<=\.)\s+(?=[A-Z0-9(“\"])", line)
        # "(Applicable based on market)" is a note of its own after a sentence
        sentences = [p for s in sentences for p in re.split(r"(?<=\.)\s+(?=\()", s)]
        for sentence in sentences:
            if sentence and sentence not in out:
                out.append(sentence)
    return out


def page_text(doc: dict[str, Any]) -> str:
    parts = [doc["name"], doc["description"]]
    labels = doc["labels"]
    parts += labels["sections"].values()
    parts.append(labels["paylines_lead"])
    for value in doc["rules"].values():
        parts += value if isinstance(value, list) else value.get("text", [])
    return normal("\n".join(parts))


def rendered(market: Market, game: str, language: str = "en") -> dict[str, Any]:
    title = TitleRegistry.load()[game]
    return title.rules(market, language, RESOLVE_AFTER)


def offering(game: str) -> list[Market]:
    return [m for m in load_markets().values() if game in m.games]


def _case(game: str) -> list[Any]:
    return [pytest.param(m, game, id=f"{game}-{m.id}") for m in offering(game)]


@pytest.mark.parametrize(("market", "game"), _case(TSAR) + _case(SULTAN))
def test_every_seed_sentence_is_on_the_page(market: Market, game: str) -> None:
    text = page_text(rendered(market, game))
    missing = []
    for sentence in seed_sentences(game):
        rewording = REWORDINGS[game].get(sentence)
        expected = rewording.text(market) if rewording else sentence
        if normal(expected).rstrip(".:") not in text:
            missing.append(sentence if rewording is None else f"{sentence} -> {expected}")
    assert not missing, "\n".join(missing)


@pytest.mark.parametrize("game", [TSAR, SULTAN])
def test_every_rewording_is_of_a_seed_sentence(game: str) -> None:
    stale = set(REWORDINGS[game]) - set(seed_sentences(game))
    assert not stale, stale


def test_the_sentences_are_read_from_the_seed() -> None:
    """The extraction finds the seeds' sentences (so the test above checks something)."""
    tsar, sultan = seed_sentences(TSAR), seed_sentences(SULTAN)
    assert len(tsar) > 100 and len(sultan) > 35
    assert "Malfunctions void all plays and pays." in tsar
    assert "The English version of the game rules prevails." in sultan
    assert "Level 5: 7 Free Spins with 8x Multiplier" in sultan
    assert "Color - Black / Red" in tsar
    assert not any(s.isupper() or "|" in s for s in tsar + sultan)


def test_the_paytable_is_the_help_pages() -> None:
    """Days of the Tsar's payout table (the seed's table cells) is the page's paytable."""
    text = seed_text(TSAR)
    start = text.index("| Symbol Names |")
    table = text[start : text.index("| Fabergé Egg Symbol |", start)]
    cells = [c.strip() for c in table.replace("\n", " ").split("|") if c.strip()]
    cells = cells[cells.index("5 Symbols") + 1 :]
    doc = rendered(load_markets()["default"], TSAR)
    by_name = {entry["name"]: entry["pays"] for entry in doc["paytable"]}
    rows = [cells[i : i + 5] for i in range(0, len(cells), 5)]
    assert len(rows) == len(by_name) == 11
    for name, *pays in rows:
        expected = {
            str(n): int(p.replace(",", ""))
            for n, p in zip(range(2, 6), pays, strict=True)
            if p != "-"
        }
        assert by_name[name] == expected, name


# ---------------------------------------------------------------------------------------
# the market's and the settings' terms
# ---------------------------------------------------------------------------------------

AURORA = "aurora-fox"


def sentences(doc: dict[str, Any]) -> list[str]:
    out: list[str] = []
    for value in doc["rules"].values():
        out += value if isinstance(value, list) else value.get("text", [])
    return out


def test_the_gb_page_states_the_gb_limits_in_pounds() -> None:
    gb, default = load_markets()["gb"], load_markets()["default"]
    tsar = sentences(rendered(gb, TSAR))
    assert "The gamble amount limit is £250.00: a gamble never takes a win above it." in tsar
    assert "Coin sizes: £0.01, £0.02, £0.05, £0.10, £0.20." in tsar
    assert "The total bet is at most £5.00 in your market." in tsar
    assert "Winnings are presented in the user's currency: British Pound." in tsar
    assert "Autoplay is not available in your market." in tsar
    assert "Turbo play and slam stop are not available in your market." in tsar
    assert not any("2,500" in s for s in tsar)
    sultan = sentences(rendered(gb, SULTAN))
    assert (
        "Bet sizes: £0.20, £0.40, £0.60, £0.80, £1.00, £1.20, £1.60, £2.00, £3.00, £4.00, £5.00."
        in sultan
    )
    assert not any("autoplay button" in s.lower() for s in sultan)
    euro = sentences(rendered(default, TSAR))
    assert "The gamble amount limit is €2,500.00: a gamble never takes a win above it." in euro
    assert "Coin sizes: €0.01, €0.02, €0.05, €0.10, €0.20, €0.25." in euro
    assert "Turbo play shortens the spin and the presentation of wins." in euro
    assert any(s.startswith("To use autoplay") for s in sentences(rendered(default, SULTAN)))


@pytest.mark.parametrize("game", [TSAR, SULTAN, AURORA])
def test_every_title_states_resolution_maximum_win_and_the_prevailing_english(game: str) -> None:
    for market in offering(game):
        text = sentences(rendered(market, game))
        assert "Incomplete games will be automatically resolved after 2 days." in text
        assert "There is no maximum win: every win is paid in full, whatever its size." in text
        assert "The English version of the game rules prevails." in text
        assert any(s.startswith("The highest combination on one payline") for s in text)


def test_a_market_that_requires_autoplay_stops_says_so() -> None:
    market = load_markets()["default"]
    strict = replace(
        market, autoplay_requires_loss_limit=True, autoplay_requires_stop_on_jackpot=True
    )
    text = sentences(rendered(strict, SULTAN))
    assert (
        "In your market an autoplay needs a loss limit: it stops when the loss limit is reached."
        in text
    )
    assert "In your market an autoplay always stops when a jackpot is won." in text
    assert not any("loss limit is reached" in s for s in sentences(rendered(market, SULTAN)))


def test_the_route_reads_the_resolution_period_and_the_language(tmp_path: Any) -> None:
    from tests.server.conftest import build

    for api in build("sqlite", tmp_path, resolve_after_seconds=3 * 86_400):
        api.login(api.player(market="gb"))
        doc = api.as_player("GET", f"/api/games/{TSAR}/rules").json()
        assert doc["language"] == "en" and doc["locale"] == "en_GB"
        assert "Incomplete games will be automatically resolved after 3 days." in sentences(doc)
        german = api.as_player("GET", f"/api/games/{TSAR}/rules?lang=de-AT").json()
        assert german["language"] == "de"
        refused = api.as_player("GET", f"/api/games/{TSAR}/rules?lang=fr")
        assert refused.status_code == 400 and refused.json()["code"] == "unknown_language"
        assert "the languages are en, de" in refused.json()["message"]


# ---------------------------------------------------------------------------------------
# German
# ---------------------------------------------------------------------------------------

HELP = Path(__file__).resolve().parents[2] / "src" / "reelsmith" / "help"
GAMES = HELP.parent / "games"


def keys(path: Path) -> set[str]:
    import tomllib

    def walk(table: dict[str, Any], prefix: str = "") -> set[str]:
        out: set[str] = set()
        for key, value in table.items():
            if isinstance(value, dict) and not set(value) <= {"one", "other"}:
                out |= walk(value, f"{prefix}{key}.")
            else:
                out.add(f"{prefix}{key}")
        return out

    return walk(tomllib.loads(path.read_text(encoding="utf-8")))


@pytest.mark.parametrize(
    "english",
    [HELP / "en.toml", *sorted(GAMES.glob("*/messages.en.toml"))],
    ids=lambda path: f"{path.parent.name}/{path.name}",
)
def test_the_german_catalogues_have_every_english_sentence(english: Path) -> None:
    german = english.with_name(english.name.replace(".en.", ".de.").replace("en.toml", "de.toml"))
    assert german.exists(), german
    missing = keys(english) - keys(german)
    assert not missing, sorted(missing)


@pytest.mark.parametrize("game", [TSAR, SULTAN, AURORA])
def test_the_german_page_is_german_and_says_the_english_prevails(game: str) -> None:
    for market in offering(game):
        english, german = rendered(market, game), rendered(market, game, "de")
        text = sentences(german)
        # the German page has one sentence more: it is a translation
        assert german["language"] == "de" and len(text) == len(sentences(english)) + 1
        assert "Maßgeblich ist die englische Fassung der Spielregeln." in text
        assert not set(text) & set(sentences(english))  # no sentence left in English
        assert german["description"] != english["description"]
        assert german["labels"]["sections"]["general"] == "Allgemeines"
        assert "Nicht abgeschlossene Spiele werden nach 2 Tagen automatisch abgeschlossen." in text


def test_the_german_page_formats_numbers_and_money_for_german() -> None:
    gb, default = load_markets()["gb"], load_markets()["default"]
    tsar = rendered(gb, TSAR, "de")
    text = [s.replace("\xa0", " ") for s in sentences(tsar)]  # the locale's spaces
    assert tsar["locale"] == "de"  # the locale library has no German for Great Britain
    limit = "Das Betragslimit des Risikospiels beträgt 250,00 £: "
    assert limit + "Ein Risikospiel bringt nie einen höheren Gewinn." in text
    assert "Münzgrößen: 0,01 £, 0,02 £, 0,05 £, 0,10 £, 0,20 £." in text
    assert any("10.000 Münzen" in s for s in text)
    names = {s["id"]: s["name"] for s in tsar["symbols"]}
    assert names["tsar"] == "Zar" and names["egg"] == "Fabergé-Ei"
    # a no-break space before the sign keeps "96,00 %" on one line
    assert tsar["labels"]["rtp"] == "Theoretische Auszahlungsquote: 96,00\u00a0%"
    sultan = rendered(default, SULTAN, "de")
    assert [p["pot"] for p in sultan["rules"]["jackpots"]["pots"]] == [
        "Türkis", "Blau", "Grün", "Lila", "Rot"
    ]  # fmt: skip
    assert [p["id"] for p in sultan["rules"]["jackpots"]["pots"]] == [
        "teal", "blue", "green", "purple", "red"
    ]  # fmt: skip
    sizes = [s.replace("\xa0", " ") for s in sentences(sultan)]
    assert any(s.startswith("Einsätze: 0,20 €, 0,40 €") for s in sizes)


def test_worked_examples_naming_what_the_model_lacks_are_refused(tmp_path: Path) -> None:
    import shutil

    from reelsmith.engine.model import load_model
    from reelsmith.server.registry import TitleError, title_for

    folder = tmp_path / "aurora"
    shutil.copytree(GAMES / "aurora_fox", folder)
    (folder / "examples.toml").write_text(
        '[[examples]]\nsection = "payouts"\ncoin_size = "0.10"\ncoins_per_line = 1\nlines = 20\n'
        'line_wins = [{ symbol = "dragon", count = 3, payline = 1 }]\n',
        encoding="utf-8",
    )
    with pytest.raises(
        TitleError, match=re.escape("examples[1]: unknown symbol 'dragon'; the symbols are")
    ):
        title_for(load_model(folder))
    (folder / "examples.toml").write_text(
        '[[examples]]\nsection = "jackpots"\ncoin_size = "0.10"\ncoins_per_line = 1\nlines = 20\n',
        encoding="utf-8",
    )
    with pytest.raises(TitleError, match="section 'jackpots' takes no worked example"):
        title_for(load_model(folder))
