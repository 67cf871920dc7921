"""Pay anywhere (:mod:`reelsmith.mechanics.anywhere`): the count rule on hand-made screens, the
exact screen pay against every stop combination played live, whole rounds against the exact
RTP, the rules page in both languages, and the model's refusals, each naming its key."""

from __future__ import annotations

import itertools
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from reelsmith.analysis.catalogue_exact import analyze_rtp
from reelsmith.engine import round as core
from reelsmith.engine.bets import CoinBet
from reelsmith.engine.model import GameModel, load_model
from reelsmith.help import Phrases
from reelsmith.mechanics import composition
from reelsmith.mechanics.anywhere.exact import mean_pay
from reelsmith.mechanics.anywhere.live import count_wins
from reelsmith.mechanics.anywhere.rules import anywhere_rules, count_range
from reelsmith.mechanics.gamble.live import OPTIONS, RoundOptions
from reelsmith.modelio.validate import check_folder, validate_folder
from reelsmith.rng import SeededSource
from reelsmith.rules_page import rules_document
from tests.mechanics.anywhere_title import tiny_anywhere


def _grid(model: GameModel, rows: list[str]) -> np.ndarray:
    index = {s.id: s.index for s in model.symbols}
    return np.array([[index[c] for c in row.split(",")] for row in rows], dtype=np.int8)


@pytest.fixture
def model(tmp_path: Path) -> GameModel:
    return load_model(tiny_anywhere(tmp_path / "t"))


def test_counts_pay_anywhere_with_the_wilds(model: GameModel) -> None:
    grid = _grid(model, ["bird,wild,bird", "fish,bird,star", "star,fish,wild"])
    found = count_wins(model, anywhere_rules(model), grid, 1)
    # 3 birds + 2 wilds = 5 (pays 5); 2 fish + 2 wilds = 4 (pays 1); leaf 0 + 2 wilds: nothing;
    # 2 wilds alone: below the wild's 3
    assert [(w.symbol, w.count, w.coins) for w in found.wins] == [("bird", 5, 5), ("fish", 4, 1)]
    assert set(found.wins[0].positions) == {(0, 0), (0, 1), (0, 2), (1, 1), (2, 2)}
    # the top tier: 7 fish and wilds pay "7+"; the wilds' own row pays from 3
    grid = _grid(model, ["fish,wild,fish", "fish,wild,fish", "fish,fish,wild"])
    found = count_wins(model, anywhere_rules(model), grid, 2)
    by_symbol = {w.symbol: (w.count, w.coins) for w in found.wins}
    assert by_symbol == {"fish": (9, 20), "wild": (3, 100)}


def test_wilds_alone_count_for_a_symbol_only_where_the_model_says(tmp_path: Path) -> None:
    grid_rows = ["bird,wild,wild", "bird,wild,wild", "bird,fish,wild"]
    every = load_model(tiny_anywhere(tmp_path / "every"))
    leafs = {
        w.symbol for w in count_wins(every, anywhere_rules(every), _grid(every, grid_rows), 1).wins
    }
    assert "leaf" in leafs  # 0 leaves + 5 wilds reach leaf's 5
    folder = tiny_anywhere(tmp_path / "none")
    path = folder / "model.toml"
    path.write_text(
        path.read_text().replace("cost = 10\n", 'cost = 10\npure_wild_counts = "none"\n'),
        encoding="utf-8",
    )
    none = load_model(folder)
    found = count_wins(none, anywhere_rules(none), _grid(none, grid_rows), 1)
    assert "leaf" not in {w.symbol for w in found.wins}


def test_the_exact_screen_pay_is_every_stop_combination_played_live(model: GameModel) -> None:
    reel_set = model.variant().reel_sets["base"]
    rules = anywhere_rules(model)
    lengths = [int(n) for n in reel_set.lengths]
    for free in (False, True):
        pays = rules.pays * (2 if free else 1)
        total = 0
        for stops in itertools.product(*(range(n) for n in lengths)):
            grid = np.array(
                [[reel_set.padded[r, stops[r] + row] for r in range(3)] for row in range(3)],
                dtype=np.int8,
            )
            total += count_wins(model, rules, grid, 1, pays).coins
        assert mean_pay(model, reel_set, free) == Fraction(total, reel_set.cycle)


def test_whole_rounds_hold_the_exact_rtp(model: GameModel) -> None:
    """20,000 whole rounds (free spins at x2 played out): inside the 99.9% interval."""
    comp = composition(model)
    bet, stake = CoinBet(10, 1, Decimal("0.01")), core.Stake(10, 1)
    wins = []
    for seed in range(20_000):
        source = SeededSource(seed)
        played = core.finish(
            comp,
            core.start_round(comp, bet, stake, source, parts={OPTIONS: RoundOptions(False)}),
            source,
        )
        wins.append(played.win_coins / stake.total_coins)
    mean = float(np.mean(wins))
    half = 3.2905 * float(np.std(wins)) / len(wins) ** 0.5
    exact = float(analyze_rtp(model).rtp)
    assert abs(mean - exact) < half, (mean, exact, half)


def test_a_sound_title_is_valid_and_its_page_is_written(tmp_path: Path) -> None:
    model = load_model(tiny_anywhere(tmp_path / "probe"))
    rtp = analyze_rtp(model).rtp * 100
    folder = tiny_anywhere(tmp_path / "t", rtp=f"{float(rtp) / 100:.8f}")
    problems = [p for p in validate_folder(folder) if "no shipped market" not in p]
    assert problems == []
    model = load_model(folder)
    for language in ("en", "de"):
        document = rules_document(model, language=language)
        assert document["pay_counts"] == ["3", "4", "5", "6", "7+"]
        bird = next(e for e in document["paytable"] if e["symbol"] == "bird")
        assert bird["pays"] == {"4": 2, "5": 5, "6": 20, "7+": 20}
        text = " ".join(" ".join(v) for v in document["rules"].values() if isinstance(v, list))
        phrase = Phrases(model, language)("anywhere.anywhere")
        assert phrase in text


def test_count_keys() -> None:
    assert list(count_range("5", "t", 15)) == [5]
    assert list(count_range("8-9", "t", 15)) == [8, 9]
    assert list(count_range("12+", "t", 15)) == [12, 13, 14, 15]


@pytest.mark.parametrize(
    ("old", "new", "problem"),
    [
        ('bird = { 4 = 2, 5 = 5, "6+" = 20 }', "bird = { x = 2 }", "anywhere_pays.bird: count 'x'"),
        ('bird = { 4 = 2, 5 = 5, "6+" = 20 }', 'bird = { 5 = 2, "5-6" = 3 }', "both cover 5"),
        ('bird = { 4 = 2, 5 = 5, "6+" = 20 }', "bird = { 10 = 2 }", "outside 1..9"),
        ("cost = 10\n", "", "anywhere.cost must be a whole number"),
        ("cost = 10\n", "cost = 10\nmin_run = 3\n", "unknown key 'min_run'"),
        ('leaf = { "5+" = 2 }', 'leaf = { "5+" = 2 }\nstar = { 3 = 1 }', "a scatter symbol"),
        (
            'default_variant = "main"\n',
            'default_variant = "main"\npaylines = [[0, 0, 0]]\n',
            "paylines",
        ),
        ('leaf = { "5+" = 2 }', 'leaf = { "5+" = 2 }\nowl = { 5 = 1 }', "'owl' is not a"),
    ],
)
def test_bad_tables_are_named(tmp_path: Path, old: str, new: str, problem: str) -> None:
    folder = tiny_anywhere(tmp_path / "t")
    path = folder / "model.toml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    problems = validate_folder(folder)
    assert any(problem in p for p in problems), problems


def test_a_count_no_key_covers_is_warned(tmp_path: Path) -> None:
    folder = tiny_anywhere(tmp_path / "t")
    path = folder / "model.toml"
    path.write_text(
        path.read_text().replace('leaf = { "5+" = 2 }', "leaf = { 5 = 2, 6 = 3 }"),
        encoding="utf-8",
    )
    warnings = check_folder(folder).warnings
    assert any("anywhere_pays.leaf lists no pay for 7, 8 or 9" in w for w in warnings), warnings


def test_the_full_analysis_enumerates_the_window(model: GameModel) -> None:
    """Without cascades the full analysis reads each stop combination's one screen: its RTP is
    the per-reel route's, its hits and largest pay those of every screen played live."""
    from reelsmith.analysis.analyzer import analyze
    from reelsmith.mechanics.cascade.exact import cascade_figures

    figures = cascade_figures(model, "main")
    assert figures.rtp == analyze_rtp(model).rtp
    reel_set = model.variant().reel_sets["base"]
    rules = anywhere_rules(model)
    hits = top = 0
    for stops in itertools.product(*(range(int(n)) for n in reel_set.lengths)):
        grid = np.array(
            [[reel_set.padded[r, stops[r] + row] for r in range(3)] for row in range(3)],
            dtype=np.int8,
        )
        paid = count_wins(model, rules, grid, 1).coins
        scatters = int((grid == model.scatter).sum())
        paid += int(model.scatter_pays[min(scatters, len(model.scatter_pays) - 1)])
        hits += paid > 0 or scatters >= 2
        top = max(top, paid)
    assert (figures.base.hits, figures.base.max_pay) == (hits, top)
    assert analyze(model, "main").rtp == figures.rtp
