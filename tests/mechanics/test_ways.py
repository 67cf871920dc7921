"""Ways to win (:mod:`reelsmith.mechanics.ways`): the live rule on hand-made screens, the exact
expected pay against a brute force over every stop (and every drawn wild weight) through live
play, the draws of a free spin's wild weights replayed, and the model's refusals by key."""

from __future__ import annotations

import itertools
import shutil
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from reelsmith.analysis.catalogue_exact import analyze_rtp
from reelsmith.engine import round as core
from reelsmith.engine.bets import CoinBet
from reelsmith.engine.model import ModelError, load_model
from reelsmith.engine.screen import from_screen, window
from reelsmith.mechanics import composition
from reelsmith.mechanics.gamble.live import OPTIONS, RoundOptions
from reelsmith.mechanics.ways.exact import mean_pay
from reelsmith.mechanics.ways.live import way_wins
from reelsmith.mechanics.ways.rules import ways_rules
from reelsmith.modelio.validate import validate_folder
from reelsmith.rng import SeededSource

MODEL = """\
id = "tiny-ways"
name = "Tiny Ways"
reels = 3
rows = 2
default_variant = "main"

[[symbols]]
id = "wild"
name = "Wild"
role = "wild"

[[symbols]]
id = "bird"
name = "Bird"
role = "regular"

[[symbols]]
id = "fish"
name = "Fish"
role = "regular"

[[symbols]]
id = "star"
name = "Star"
role = "scatter"

[ways]
cost = 10
min_run = 2
wild_weights = [1, 2, 1]
pure_wild_ways = "{pure}"

[ways.free_spins_wild_weights]
"2" = {{ 2 = 1, 3 = 2 }}

[ways_pays]
wild = {{ 2 = 1, 3 = 4 }}
bird = {{ 2 = 1, 3 = 5 }}
fish = {{ 3 = 2 }}

[scatter]
symbol = "star"
pays = {{ 3 = 20 }}
pays_per = "coin"

[free_spins]
trigger = 2
spins = {{ 2 = 3, 3 = 5 }}
retrigger = "none"
multipliers = {{ 2 = 2, 3 = 3 }}

[bet]
lines = {{ min = 10, max = 10 }}
coins_per_line = {{ min = 1, max = 3 }}
coin_sizes = ["0.01"]
max_total_coins = 30
default = {{ lines = 10, coins_per_line = 1, coin_size = "0.01" }}
"""

VARIANT = """\
id = "main"

[reel_sets.base]
strips = [
  ["bird", "fish", "star", "wild", "bird"],
  ["wild", "bird", "star", "fish", "fish"],
  ["fish", "bird", "wild", "star"],
]

[figures]
rtp = 5.20432
"""


def tiny(folder: Path, pure: str = "every_symbol") -> Path:
    (folder / "variants").mkdir(parents=True)
    (folder / "model.toml").write_text(MODEL.format(pure=pure), encoding="utf-8")
    (folder / "variants" / "main.toml").write_text(VARIANT, encoding="utf-8")
    return folder


def test_the_rule_on_a_screen(tmp_path: Path) -> None:
    model = load_model(tiny(tmp_path / "t"))
    rules = ways_rules(model)
    grid = from_screen(model, [["bird", "wild", "bird"], ["fish", "bird", "wild"]])
    found = way_wins(model, rules, grid, 1, model.line_pays, rules.weights)
    wins = {w.symbol: (w.count, w.ways, w.coins) for w in found.wins}
    # bird: reel 1 one bird; reel 2 a bird and a wild of weight 2 (3); reel 3 a bird and a
    # wild (2): 3 reels, 1 x 3 x 2 = 6 ways at 5
    assert wins["bird"] == (3, 6, 30)
    # fish: reel 1 one fish; reel 2 the wild (2); reel 3 the wild (1): 3 reels, 2 ways at 2
    assert wins["fish"] == (3, 2, 4)
    assert found.coins == 34


@pytest.mark.parametrize("pure", ["every_symbol", "none", "wild"])
@pytest.mark.parametrize("free", [False, True])
def test_the_expected_pay_is_every_screen_s_through_live_play(
    tmp_path: Path, pure: str, free: bool
) -> None:
    """Exact per-reel sums against every stop combination (and, in a free spin, every wild
    weight the second reel can draw, by its odds), each screen paid by the live rule."""
    model = load_model(tiny(tmp_path / "t", pure))
    rules = ways_rules(model)
    reel_set = model.variant().reel_sets["base"]
    laws = [[(int(w), 1)] for w in rules.weights]
    if free:
        values, odds = rules.free_weights[1]
        laws[1] = list(zip(values, odds, strict=True))
    total = Fraction(0)
    for stops in itertools.product(*(range(int(n)) for n in reel_set.lengths)):
        grid = window(reel_set, stops, model.rows)
        for drawn in itertools.product(*laws):
            weights = np.array([w for w, _ in drawn], dtype=np.int64)
            odds = int(np.prod([o for _, o in drawn]))
            paid = way_wins(model, rules, grid, 1, model.line_pays, weights).coins
            total += Fraction(paid * odds, sum(o for _, o in laws[1]) if free else 1)
    brute = total / reel_set.cycle
    assert mean_pay(model, reel_set, model.line_pays, free) == brute
    assert brute > 0


def test_a_free_spin_draws_its_wild_weights_and_replays(tmp_path: Path) -> None:
    model = load_model(tiny(tmp_path / "t"))
    comp = composition(model)
    bet = CoinBet(10, 2, Decimal("0.01"))
    stake = core.Stake(10, 2)
    options = {OPTIONS: RoundOptions(gamble_allowed=False)}
    seen = 0
    for seed in range(300):
        source = SeededSource(seed)
        played = core.finish(
            comp, core.start_round(comp, bet, stake, source, parts=options), source
        )
        purposes = [d.purpose for d in played.draws]
        assert purposes.count("wild_weight") == len(played.spins) - 1
        for spin in played.spins[1:]:
            way = spin.parts["ways"]
            assert way.weights is not None and way.weights[1] in (2, 3)
            multiplier = played.part("free_spins").multiplier
            assert all(w.coins % (2 * multiplier) == 0 for w in way.wins)
            seen += 1
        again = core.replay_from(
            comp, bet, stake, played.variant, played.actions, played.draws, parts=options
        )
        assert again == played
        json = core.round_json(comp, played)
        assert "way_wins" in json["spins"][0] and "free_spins_trigger_multiplier" in json
    assert seen > 0


def test_the_rtp_route_composes_ways_with_free_spins(tmp_path: Path) -> None:
    """The free spins' RTP is the trigger's law times each count's spins and multiplier times
    a free spin's expected pay (Wald), with the scatter paid per coin."""
    model = load_model(tiny(tmp_path / "t"))
    figures = analyze_rtp(model)
    reel_set = model.variant().reel_sets["base"]
    assert figures.line_rtp == mean_pay(model, reel_set, model.line_pays) / 10
    assert figures.free_spins_rtp > 0 and figures.scatter_rtp > 0


@pytest.mark.parametrize(
    ("old", "new", "problem"),
    [
        ("cost = 10\n", "", "ways.cost must be a whole number >= 1"),
        ("min_run = 2\n", "min_run = 2\nspeed = 3\n", "ways: unknown key 'speed'"),
        ("min = 10, max = 10", "min = 1, max = 10", "bet.lines of a ways game is its cost"),
        ('"2" = {{ 2 = 1, 3 = 2 }}', '"7" = {{ 2 = 1 }}', "reel 7 is outside 1..3"),
    ],
)
def test_bad_ways_tables_are_named(tmp_path: Path, old: str, new: str, problem: str) -> None:
    folder = tiny(tmp_path / "t")
    path = folder / "model.toml"
    text = MODEL.format(pure="every_symbol")
    old, new = old.replace("{{", "{").replace("}}", "}"), new.replace("{{", "{").replace("}}", "}")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")
    problems = validate_folder(folder)
    assert any(problem in p for p in problems), problems


def test_paylines_beside_ways_are_refused(tmp_path: Path) -> None:
    folder = tiny(tmp_path / "t")
    path = folder / "model.toml"
    text = path.read_text()
    path.write_text(text.replace("reels = 3\n", "reels = 3\npaylines = [[0, 0, 0]]\n"), "utf-8")
    with pytest.raises(ModelError, match="paylines and ways: a model pays by paylines or by ways"):
        composition(load_model(folder))
    shutil.rmtree(folder)


def test_a_ways_title_is_valid_and_its_rtp_stated(tmp_path: Path) -> None:
    folder = tiny(tmp_path / "t")
    assert validate_folder(folder) == []
    assert load_model(folder).variant().rtp_percent() == Decimal("520.43")


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_rules_page_speaks_of_ways(tmp_path: Path, language: str) -> None:
    """A ways title's page states its ways, cost, multiplier range, wild weights (fixed and
    drawn in free spins, with their odds), the trigger multipliers, the per-coin scatter and
    the pure-wild rule, and says nothing of paylines; it renders in the terminal."""
    from reelsmith.help import language_of
    from reelsmith.rules_page import render_rules, rules_document

    model = load_model(tiny(tmp_path / "t"))
    document = rules_document(model, None, language=language_of(language))
    assert document["ways"] == {"ways": 8, "cost": 10, "min_run": 2, "wild_weights": [1, 2, 1]}
    assert document["scatter"]["pays_per"] == "coin"
    assert document["rtp_percent"] == "520.43"
    text = " ".join(
        sentence
        for section in document["rules"].values()
        for sentence in (section if isinstance(section, list) else section["text"])
    )
    words = {
        "en": [
            "8 ways",
            "10 coins",
            "1 to 3",
            "reel 2 counts as 2",
            "2 (33.33%) and 3 (66.67%)",
            "by 2.",
            "or more Star symbols multiply every win except scatter wins by 3",
            "Star symbols: 20 coins",
            "pay for every symbol they stand in for",
        ],
        "de": [
            "8 Gewinnwegen",
            "10 Münzen",
            "1 bis 3",
            "Walze 2 zählt als 2",
            "2 (33,33\u00a0%) und 3 (66,67\u00a0%)",
            "20 Münzen",
            "zahlen für jedes Symbol, das sie ersetzen",
        ],
    }[language]
    for word in words:
        assert word in text, word
    assert "payline" not in text.lower() and "gewinnlinie" not in text.lower()
    from rich.console import Console

    console = Console(width=100, record=True)
    console.print(render_rules(document))
    shown = console.export_text()
    assert "Paylines" not in shown and "Gewinnlinien" not in shown


@pytest.mark.parametrize("pure", ["none", "wild"])
def test_the_pure_wild_rule_is_stated(tmp_path: Path, pure: str) -> None:
    from reelsmith.help import language_of
    from reelsmith.rules_page import rules_document

    model = load_model(tiny(tmp_path / "t", pure))
    text = " ".join(rules_document(model, None, language=language_of("en"))["rules"]["substitute"])
    expected = {"none": "alone do not pay", "wild": "alone pay once, as Wild symbol combinations"}
    assert expected[pure] in text
