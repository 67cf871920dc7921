"""Variable rows per reel (:mod:`reelsmith.mechanics.heights`): a reel's positions (a stop and
a height, drawn together), the exact expected pay and trigger law against every position of
every reel played through live play, live rounds and kernel rounds replayed, the kernel's RTP
against the exact one, the rules page, and the model's refusals by key."""

from __future__ import annotations

import itertools
import math
import re
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from reelsmith.analysis.catalogue_exact import analyze_rtp, trigger_ways
from reelsmith.analysis.simulation import simulate
from reelsmith.engine import round as core
from reelsmith.engine.bets import CoinBet
from reelsmith.engine.catalogue import mechanics
from reelsmith.engine.events import round_events
from reelsmith.engine.model import BLANK, load_model
from reelsmith.engine.screen import GridError, from_screen, parse_grid, to_screen, window
from reelsmith.mechanics import composition
from reelsmith.mechanics.gamble.live import OPTIONS, RoundOptions
from reelsmith.mechanics.heights.live import shown_heights
from reelsmith.mechanics.ways.exact import mean_pay
from reelsmith.mechanics.ways.live import way_wins
from reelsmith.mechanics.ways.rules import ways_rules
from reelsmith.modelio.validate import validate_folder
from reelsmith.rng import SeededSource
from tests.mechanics.heights_title import TINY_MODEL, tiny_heights, tumble_heights
from tests.mechanics.test_ways_kernel import Z_999, replay


def test_a_reel_s_positions_are_its_stops_at_each_height(tmp_path: Path) -> None:
    model = load_model(tiny_heights(tmp_path / "t"))
    reel_set = model.variant().reel_sets["base"]
    # reel 1: 5 stops at heights 1, 2, 3 (weights 1, 2, 1); reel 2: 6 stops at 2, 3;
    # reel 3: 4 stops at 1, 3
    assert reel_set.position_counts.tolist() == [15, 12, 8]
    assert reel_set.totals.tolist() == [20, 24, 12]
    assert reel_set.cycle == 20 * 24 * 12
    assert reel_set.position_weights(0).tolist() == [1] * 5 + [2] * 5 + [1] * 5
    assert reel_set.position(0, 7) == (2, 2) and reel_set.position(2, 5) == (1, 3)
    grid = window(reel_set, (7, 0, 5), model.rows)
    assert to_screen(model, grid) == (
        ("star", "wild", "bird"),
        ("wild", "bird", "wild"),
        ("-", "-", "star"),
    )
    assert shown_heights(grid) == (2, 2, 3)
    assert (from_screen(model, to_screen(model, grid)) == grid).all()


def test_a_typed_screen_shows_each_reel_s_heights(tmp_path: Path) -> None:
    """Reel 1 shows 1, 2 or 3 symbols, reel 2 2 or 3, reel 3 1 or 3, from the top, blanks
    below: a typed screen that does otherwise is refused naming the reel."""
    model = load_model(tiny_heights(tmp_path / "t"))
    assert shown_heights(parse_grid(model, "bird,bird,bird/-,bird,-/-,-,-")) == (1, 2, 1)
    for text, problem in [
        ("bird,bird,bird/-,bird,bird/-,-,-", "reel 3 shows 2 symbols; its heights are 1, 3"),
        ("bird,bird,bird/-,-,-/-,-,-", "reel 2 shows 1 symbol; its heights are 2, 3"),
        ("bird,-,bird/-,bird,-/-,-,-", "reel 2: a blank (-) above a symbol"),
    ]:
        with pytest.raises(GridError, match=re.escape(problem)):
            parse_grid(model, text)


def _positions(reel_set):  # type: ignore[no-untyped-def]
    """Every position combination with its weight."""
    weights = [reel_set.position_weights(r) for r in range(len(reel_set.strips))]
    for positions in itertools.product(*(range(int(n)) for n in reel_set.position_counts)):
        yield positions, math.prod(int(weights[r][p]) for r, p in enumerate(positions))


@pytest.mark.parametrize("free", [False, True])
def test_the_expected_pay_is_every_position_s_through_live_play(tmp_path: Path, free: bool) -> None:
    """The per-reel exact sums against every position combination (and, in a free spin, each
    wild weight reel 3 can draw, by its odds), each screen paid by the live ways rule."""
    model = load_model(tiny_heights(tmp_path / "t"))
    rules = ways_rules(model)
    reel_set = model.variant().reel_sets["base"]
    laws = [[(int(w), 1)] for w in rules.weights]
    if free:
        values, odds = rules.free_weights[2]
        laws[2] = list(zip(values, odds, strict=True))
    total = Fraction(0)
    paying = 0
    for positions, weight in _positions(reel_set):
        grid = window(reel_set, positions, model.rows)
        for drawn in itertools.product(*laws):
            weights = np.array([w for w, _ in drawn], dtype=np.int64)
            odds = math.prod(o for _, o in drawn)
            paid = way_wins(model, rules, grid, 1, model.line_pays, weights).coins
            paying += paid > 0
            total += Fraction(paid * weight * odds, sum(o for _, o in laws[2]))
    brute = total / reel_set.cycle
    assert mean_pay(model, reel_set, model.line_pays, free) == brute
    assert paying > 100


def test_the_trigger_law_is_every_position_s(tmp_path: Path) -> None:
    model = load_model(tiny_heights(tmp_path / "t"))
    reel_set = model.variant().reel_sets["base"]
    brute = [0] * (model.reels * model.rows + 1)
    for positions, weight in _positions(reel_set):
        grid = window(reel_set, positions, model.rows)
        brute[int((grid == model.scatter).sum())] += weight
    exact = trigger_ways(model, reel_set, mechanics(model))
    assert exact == brute[: len(exact)] and sum(exact) == reel_set.cycle
    assert not any(brute[len(exact) :])


def test_a_round_draws_one_position_per_reel_and_replays(tmp_path: Path) -> None:
    """Each screen is one ``reel_stop`` draw per reel; the spin records each reel's stop on its
    strip, the screen shows the drawn heights and blanks below, the ``heights_drawn`` event
    tells them and the ways, and the round replays from its draws."""
    model = load_model(tiny_heights(tmp_path / "t"))
    comp = composition(model)
    bet = CoinBet(10, 1, Decimal("0.01"))
    stake = core.Stake(10, 1)
    options = {OPTIONS: RoundOptions(gamble_allowed=False)}
    heights_seen: set[tuple[int, ...]] = set()
    free = 0
    for seed in range(200):
        source = SeededSource(seed)
        played = core.finish(
            comp, core.start_round(comp, bet, stake, source, parts=options), source
        )
        stops = [d for d in played.draws if d.purpose == "reel_stop"]
        assert len(stops) == model.reels * len(played.spins)
        events = round_events(comp, played)
        drawn = [e for e in events if e["type"] == "heights_drawn"]
        assert len(drawn) == len(played.spins)
        for spin, event in zip(played.spins, drawn, strict=True):
            heights = shown_heights(spin.grid)
            assert event["heights"] == list(heights) and event["ways"] == math.prod(heights)
            assert event["stops"] == list(spin.stops)
            assert all(0 <= s < 6 for s in spin.stops)
            for reel, height in enumerate(heights):
                assert (spin.grid[height:, reel] == BLANK).all()
                assert (spin.grid[:height, reel] != BLANK).all()
            heights_seen.add(heights)
        free += len(played.spins) - 1
        again = core.replay_from(
            comp, bet, stake, played.variant, played.actions, played.draws, parts=options
        )
        assert again == played
    assert len(heights_seen) == 3 * 2 * 2 and free > 0


@pytest.mark.parametrize("title", [tiny_heights, tumble_heights])
def test_kernel_rounds_replay_through_live_play(tmp_path: Path, title) -> None:  # type: ignore[no-untyped-def]
    featured, _weighted = replay(load_model(title(tmp_path / "t")), 3_000, seed=3)
    assert featured > 10


@pytest.mark.parametrize("title", [tiny_heights, tumble_heights])
def test_the_kernel_s_rtp_holds_the_exact_one(tmp_path: Path, title) -> None:  # type: ignore[no-untyped-def]
    """The exact RTP route against 400,000 simulated rounds: inside the 99.9% interval."""
    model = load_model(title(tmp_path / "t"))
    exact = analyze_rtp(model).rtp
    result = simulate(model, 400_000, 2026, workers=1)
    found = result.interval(Z_999)
    assert found is not None
    low, high = found
    assert low <= float(exact) <= high, (float(exact), low, high)
    assert result.exact["rtp"] == pytest.approx(float(exact))


def test_the_titles_are_valid_and_state_their_rtp(tmp_path: Path) -> None:
    for title in (tiny_heights, tumble_heights):
        assert validate_folder(title(tmp_path / title.__name__)) == []
    assert load_model(tmp_path / "tumble_heights").variant().rtp_percent() == Decimal("94.71")


@pytest.mark.parametrize(
    ("old", "new", "problem"),
    [
        ("{ 2 = 3, 3 = 1 }", "{ 2 = 3, 9 = 1 }", "heights.reels[2]: height '9' is outside 1..8"),
        ("{ 2 = 3, 3 = 1 }", "{ 2 = 3, 4 = 1 }", "height 4 is more than the model's 3 rows"),
        ("{ 2 = 3, 3 = 1 }", "{ 2 = 0 }", "heights.reels[2]: every weight is 0"),
        ("{ 2 = 3, 3 = 1 }", "{ 2 = -1 }", "heights.reels[2].2 must be a whole number >= 0"),
        (", { 1 = 2, 3 = 1 }]", "]", "heights.reels must list 3 tables"),
        ("[heights]\n", "[heights]\nshape = 1\n", "heights: unknown key 'shape'"),
        (
            'default_variant = "main"\n',
            'default_variant = "main"\npaylines = [[0, 0, 0]]\n',
            "heights and paylines: a payline",
        ),
    ],
)
def test_bad_heights_are_named(tmp_path: Path, old: str, new: str, problem: str) -> None:
    assert old in TINY_MODEL
    folder = tiny_heights(tmp_path / "t", TINY_MODEL.replace(old, new, 1))
    problems = validate_folder(folder)
    assert any(problem in p for p in problems), problems


def test_heights_need_ways(tmp_path: Path) -> None:
    """A lines model with heights: refused for want of the ways, and beside the paylines."""
    start, end = TINY_MODEL.index("[ways]"), TINY_MODEL.index("[ways_pays]")
    text = (TINY_MODEL[:start] + TINY_MODEL[end:]).replace("[ways_pays]", "[line_pays]")
    text = text.replace(
        'default_variant = "main"\n', 'default_variant = "main"\npaylines = [[0, 0, 0]]\n'
    )
    text = text.replace("lines = { min = 10, max = 10 }", "lines = { min = 1, max = 1 }")
    problems = " ".join(validate_folder(tiny_heights(tmp_path / "t", text)))
    assert "heights needs ways" in problems and "heights and paylines" in problems


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_rules_page_states_each_reel_s_heights(tmp_path: Path, language: str) -> None:
    from rich.console import Console

    from reelsmith.help import language_of
    from reelsmith.rules_page import render_rules, rules_document

    model = load_model(tumble_heights(tmp_path / "t"))
    document = rules_document(model, None, language=language_of(language))
    section = document["rules"]["heights"]
    text = " ".join(section if isinstance(section, list) else section["text"])
    words = {
        "en": [
            "drawn at random for each spin, free spins included",
            "Reel 6: 2 symbols (7.14%), 3 symbols (21.43%), 4 symbols (28.57%), 5 symbols "
            "(21.43%), 6 symbols (14.29%) and 7 symbols (7.14%).",
            "from 64 to 117,649 ways",
        ],
        "de": [
            "auch in Freispielen",
            "Walze 6: 2 Symbole (7,14\u00a0%)",
            "von 64 bis 117.649 Wegen",
        ],
    }[language]
    for word in words:
        assert word in text, (word, text)
    page = " ".join(
        s
        for part in document["rules"].values()
        for s in (part if isinstance(part, list) else part["text"])
    )
    assert {
        "en": "6 reel slot machine whose reels show 2 to 7 symbols each, with up to 117,649 ways",
        "de": "mit 6 Walzen, die je 2 bis 7 Symbole zeigen, mit bis zu 117.649 Gewinnwegen",
    }[language] in page
    console = Console(width=100, record=True)
    console.print(render_rules(document))
    assert ("Variable rows" if language == "en" else "Variable Reihen") in console.export_text()


def test_the_terminal_shows_each_reel_s_height_and_the_ways(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from reelsmith.cli import app

    folder = tumble_heights(tmp_path / "play")
    result = CliRunner().invoke(
        app, ["play", str(folder), "--seed", "3", "--balance", "50"], input="s\n" * 3 + "q\n"
    )
    assert result.exit_code == 0, result.output
    shown = re.findall(r"heights ((?:\d ){5}\d): ([\d,]+) ways", result.output)
    assert len(shown) >= 3
    for heights, ways in shown:
        assert math.prod(int(h) for h in heights.split()) == int(ways.replace(",", ""))
