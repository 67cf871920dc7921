"""Cascades (:mod:`reelsmith.mechanics.cascade`): the fall on a hand-made screen, a chain played
live step by step, the exact law of a small title against every stop combination played
through live play (base spins and free spins, their chains, awards and counters), the round's
events and replay, and the model's refusals by key."""

from __future__ import annotations

import itertools
import shutil
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from reelsmith.analysis.catalogue_exact import analyze_rtp
from reelsmith.engine import round as core
from reelsmith.engine.bets import CoinBet
from reelsmith.engine.model import GameModel, load_model
from reelsmith.mechanics import composition
from reelsmith.mechanics.cascade.exact import cascade_figures, chain_law
from reelsmith.mechanics.cascade.rules import fall
from reelsmith.mechanics.free_spins.live import FeatureSpins
from reelsmith.mechanics.gamble.live import OPTIONS, RoundOptions
from reelsmith.modelio.validate import validate_folder
from reelsmith.rng import Draw, ReplaySource
from tests.mechanics.anywhere_title import tiny_anywhere

MODEL = """\
id = "tiny-cascade"
name = "Tiny Cascade"
reels = 3
rows = 3
default_variant = "main"
paylines = [[0, 0, 0], [1, 1, 1], [2, 2, 2], [0, 1, 2]]

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
id = "leaf"
name = "Leaf"
role = "regular"

[[symbols]]
id = "star"
name = "Star"
role = "scatter"

[line_pays]
bird = { 2 = 1, 3 = 4 }
fish = { 3 = 3 }
leaf = { 3 = 2 }

[wild]
symbol = "wild"
reels = [2, 3]

[scatter]
symbol = "star"
pays = { 3 = 2 }
max_per_reel = 1

[cascade]
limit = 4
multipliers = [1, 2, 3, 3]
free_multipliers = [2, 4, 6, 6]

[free_spins]
trigger = 2
spins = { 2 = 2, 3 = 3 }
retrigger = "table"
retrigger_spins = { 3 = 1 }
reel_set = "base"

[bet]
lines = { min = 4, max = 4 }
coins_per_line = { min = 1, max = 2 }
coin_sizes = ["0.01"]
max_total_coins = 8
default = { lines = 4, coins_per_line = 1, coin_size = "0.01" }
"""

VARIANT = """\
id = "main"

[reel_sets.base]
strips = [
  ["bird", "fish", "star", "leaf", "bird", "leaf", "fish"],
  ["wild", "bird", "fish", "leaf", "star", "bird", "fish", "leaf"],
  ["fish", "bird", "leaf", "wild", "star", "bird"],
]

[figures]
rtp = 10.0379
"""


WAYS_MODEL = """\
id = "tiny-ways-cascade"
name = "Tiny Ways Cascade"
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
pure_wild_ways = "wild"

[ways_pays]
wild = { 2 = 1, 3 = 3 }
bird = { 2 = 1, 3 = 4 }
fish = { 3 = 2 }

[scatter]
symbol = "star"
pays = { 3 = 5 }
pays_per = "coin"
max_per_reel = 1

[cascade]
limit = 3
multipliers = [1, 2, 4]
free_multipliers = [2, 4, 8]

[free_spins]
trigger = 2
spins = { 2 = 2, 3 = 4 }
retrigger = "table"
retrigger_spins = { 3 = 1 }
reel_set = "base"

[bet]
lines = { min = 10, max = 10 }
coins_per_line = { min = 1, max = 2 }
coin_sizes = ["0.01"]
max_total_coins = 20
default = { lines = 10, coins_per_line = 1, coin_size = "0.01" }
"""

WAYS_VARIANT = """\
id = "main"

[reel_sets.base]
strips = [
  ["bird", "fish", "star", "wild", "bird", "fish"],
  ["wild", "bird", "star", "fish", "fish", "bird", "fish"],
  ["fish", "bird", "wild", "star", "bird"],
]

[figures]
rtp = 1.0
"""


def tiny_ways(folder: Path) -> Path:
    """A ways title with cascades: three reels of two rows, a wild counting twice on reel 2, the
    wild's own row paid, a scatter per coin, free spins whose screens multiply more."""
    return _title(folder, WAYS_MODEL, WAYS_VARIANT)


def tiny_final(folder: Path) -> Path:
    """The tiny title with its scatter counted on a chain's final screen alone."""
    tiny(folder)
    path = folder / "model.toml"
    path.write_text(
        path.read_text(encoding="utf-8").replace("[cascade]\n", '[cascade]\nscatter = "final"\n'),
        encoding="utf-8",
    )
    return folder


def tiny(folder: Path) -> Path:
    return _title(folder, MODEL, VARIANT)


def tiny_counts(folder: Path) -> Path:
    """A pay-anywhere title with cascades (:mod:`tests.mechanics.anywhere_title`)."""
    return tiny_anywhere(folder, cascade=True)


def _title(folder: Path, model: str, variant: str) -> Path:
    """A title folder of ``model.toml`` and its one variant, ``main``."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "model.toml").write_text(model, encoding="utf-8")
    (folder / "variants").mkdir(exist_ok=True)
    (folder / "variants" / "main.toml").write_text(variant, encoding="utf-8")
    return folder


def _stops(model: GameModel, stops: tuple[int, ...]) -> ReplaySource:
    lengths = model.variant().reel_sets["base"].lengths
    return ReplaySource([Draw("reel_stop", int(n), s) for n, s in zip(lengths, stops, strict=True)])


def _base(model: GameModel) -> tuple[CoinBet, core.Stake]:
    cost = 10 if "ways" in model.raw or "anywhere" in model.raw else 4
    return CoinBet(cost, 1, Decimal("0.01")), core.Stake(cost, 1)


def test_the_fall_keeps_order_and_refills_from_above() -> None:
    grid = np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]], dtype=np.int8)
    removed = np.array([[0, 0, 0], [1, 0, 1], [0, 0, 1]], dtype=np.bool_)
    strips = np.array([[10, 11, 12, 13, 14], [20, 21, 22, 23, 24], [30, 31, 32, 33, 34]], np.int8)
    lengths = np.array([5, 5, 5], dtype=np.int64)
    tops = np.array([0, 2, 1], dtype=np.int64)
    fall(grid, removed, strips, lengths, tops)
    # reel 1 lost its middle cell: the top cell drops, the cell above the window (the strip's
    # last, position 4) falls in; reel 3 lost two: the survivor drops, positions 4 and 0 fill
    assert grid.tolist() == [[14, 2, 34], [1, 5, 30], [7, 8, 3]]
    assert tops.tolist() == [4, 2, 4]


def test_a_chain_played_live(tmp_path: Path) -> None:
    """Stops (1, 1, 1): bird on reel 1's middle... each screen's wins removed, the rest fallen,
    each later screen at its own multiplier, the spin's win the chain's sum."""
    model = load_model(tiny(tmp_path / "t"))
    comp = composition(model)
    bet, stake = _base(model)
    seen = 0
    for stops in itertools.product(range(7), range(8), range(6)):
        played = core.start_round(
            comp, bet, stake, _stops(model, stops), parts={OPTIONS: RoundOptions(False)}
        )
        spin = played.spins[0]
        chain = spin.parts["cascade"]
        assert chain.multiplier == 1
        total = sum(w.coins for w in spin.parts["paylines"].wins)
        if spin.parts["scatter"].win is not None:
            total += spin.parts["scatter"].win.coins
        for k, fallen in enumerate(chain.fallen, start=2):
            assert fallen.step == k and fallen.multiplier == (2 if k == 2 else 3)
            assert fallen.removed  # a screen is read again only after cells went
            total += fallen.win_coins
            for win in getattr(fallen.records["paylines"], "wins", ()):
                base = int(model.line_pays[model.symbol_index(win.symbol), win.count])
                assert win.coins == base * fallen.multiplier
        assert total == spin.win_coins
        assert len(spin.grids) == len(chain.fallen) + 1
        seen += len(chain.fallen) >= 2
    assert seen > 0  # some chains read three screens or more


def _live_sums(model: GameModel) -> tuple[dict[str, Any], dict[str, Any]]:
    """Every stop combination through live play: a base spin's (pay, awards, chain lengths,
    the spins that pay nothing by the spins they award) and a free spin's, each summed as
    :class:`ChainSums` sums them."""
    comp = composition(model)
    bet, stake = _base(model)
    lengths = [int(n) for n in model.variant().reel_sets["base"].lengths]
    combos = list(itertools.product(*(range(n) for n in lengths)))
    # a round in free spins to play free spins from, at each stop combination
    in_free = None
    for stops in combos:
        played = core.start_round(
            comp, bet, stake, _stops(model, stops), parts={OPTIONS: RoundOptions(False)}
        )
        if played.phase == "free_spins":
            in_free = played
            break
    assert in_free is not None
    out = []
    for free in (False, True):
        limit = int(model.raw["cascade"]["limit"])
        sums = {"pay": 0, "awards": 0, "pay_awards": 0, "hits": 0, "reached": [0] * limit}
        quiet: dict[int, int] = {}  # spins that pay nothing, by the spins they award
        for stops in combos:
            if free:
                played = core.act(comp, in_free, "free_spin", _stops(model, stops))
                spin = played.spins[-1]
                awarded = spin.parts["free_spins"].spins_added
            else:
                played = core.start_round(
                    comp, bet, stake, _stops(model, stops), parts={OPTIONS: RoundOptions(False)}
                )
                spin = played.spins[0]
                state: FeatureSpins = played.part("free_spins")
                awarded = state.awarded
            pay = spin.win_coins
            sums["pay"] += pay
            sums["awards"] += awarded
            sums["pay_awards"] += pay * awarded
            sums["hits"] += pay > 0 or awarded > 0
            if pay == 0 and awarded > 0:
                quiet[awarded] = quiet.get(awarded, 0) + 1
            for k in range(len(spin.grids)):
                sums["reached"][k] += 1
        sums["quiet"] = quiet
        out.append(sums)
    return out[0], out[1]


@pytest.mark.parametrize(
    "make",
    [tiny, tiny_ways, tiny_final, tiny_counts],
    ids=["lines", "ways", "scatter-on-the-final-screen", "pay-anywhere"],
)
def test_the_exact_law_is_every_stop_combination_played_live(tmp_path: Path, make) -> None:  # type: ignore[no-untyped-def]
    model = load_model(make(tmp_path / "t"))
    lengths = [int(n) for n in model.variant().reel_sets["base"].lengths]
    cycle = int(np.prod(lengths))
    base, free = _live_sums(model)
    for sums, law in (
        (base, chain_law(model, "main", False)),
        (free, chain_law(model, "main", True)),
    ):
        assert law.cycle == cycle
        assert (law.pay, law.awards, law.pay_awards, law.hits) == (
            sums["pay"],
            sums["awards"],
            sums["pay_awards"],
            sums["hits"],
        )
        assert {a: n for a, n in enumerate(law.quiet_awards or ()) if n} == sums["quiet"]
        if make is not tiny_final:  # a final-screen scatter leaves one screen to count on
            assert list(law.reached)[: len(sums["reached"])] == sums["reached"][: len(law.reached)]
        assert law.reached[1] > 0  # some chains read a second screen
    figures = cascade_figures(model, "main")
    bet = _base(model)[1].total_coins
    expected_free = Fraction(free["pay"], cycle) / (1 - Fraction(free["awards"], cycle))
    rtp = (Fraction(base["pay"], cycle) + Fraction(base["awards"], cycle) * expected_free) / bet
    assert figures.rtp == rtp
    assert analyze_rtp(model, "main").rtp == rtp


@pytest.mark.parametrize(
    "make", [tiny, tiny_ways, tiny_counts], ids=["lines", "ways", "pay-anywhere"]
)
def test_the_round_s_rtp_holds_in_play(tmp_path: Path, make) -> None:  # type: ignore[no-untyped-def]
    """20,000 whole rounds (free spins played out) against the exact RTP: inside the 99.9%
    interval."""
    from reelsmith.rng import SeededSource

    model = load_model(make(tmp_path / "t"))
    comp = composition(model)
    bet, stake = _base(model)
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
    exact = float(cascade_figures(model, "main").rtp)
    assert abs(mean - exact) < half, (mean, exact, half)
    assert cascade_figures(model, "main").std_dev == pytest.approx(float(np.std(wins)), rel=0.1)


@pytest.mark.parametrize(
    ("old", "new", "problem"),
    [
        ("limit = 4", "limit = 5", "cascade.multipliers has 4 entries for a limit of 5 screens"),
        ("limit = 4", "limit = 0", "cascade.limit must be a whole number of screens from 1"),
        ("[cascade]\n", '[cascade]\nrefill = "random"\n', "cascade.refill = 'random'"),
        (
            "[cascade]\n",
            '[cascade]\nrefill = "cells"\n',
            'cascade.refill = "cells" draws each new cell from the reel sets\' cell tables: '
            "the model declares no [cells]",
        ),
        ('retrigger = "table"', 'retrigger = "per_symbol"\nspins_per_symbol = 1', "per_symbol"),
        ("trigger = 2\n", "trigger = 2\nmax_spins = 10\n", "free_spins.max_spins"),
    ],
)
def test_bad_cascade_tables_are_named(tmp_path: Path, old: str, new: str, problem: str) -> None:
    folder = tiny(tmp_path / "t")
    path = folder / "model.toml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    problems = validate_folder(folder)
    assert any(problem in p for p in problems), problems


def test_stop_weights_are_refused(tmp_path: Path) -> None:
    folder = tiny(tmp_path / "t")
    variant = folder / "variants" / "main.toml"
    variant.write_text(
        variant.read_text().replace(
            "\n[figures]",
            "stop_weights = [[1, 1, 1, 1, 1, 1, 2], [1, 1, 1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1]]"
            "\n\n[figures]",
        ),
        encoding="utf-8",
    )
    problems = validate_folder(folder)
    assert any("stop_weights" in p and "counts every stop" in p for p in problems), problems


def test_a_valid_cascade_title(tmp_path: Path) -> None:
    folder = tiny(tmp_path / "t")
    assert validate_folder(folder) == []
    shutil.rmtree(folder)


@pytest.mark.parametrize(
    ("language", "sentences"),
    [
        (
            "en",
            [
                "the symbols of each winning combination disappear",
                "Star symbols disappear when 3 or more of them show, or when they start free",
                "A spin pays at most 4 screens.",
                "screen 1: ×1, screen 2: ×2 and screen 3 and every later one: ×3",
                "In free spins the line wins of each screen are multiplied: screen 1: ×2",
                "Star wins are not multiplied by the screen's multiplier.",
                "Every screen of a spin that shows enough Star symbols to trigger awards free",
            ],
        ),
        (
            "de",
            [
                "verschwinden die Symbole jeder Gewinnkombination",
                "Ein Spiel zahlt höchstens 4 Bilder aus.",
                "Bild 1: ×1, Bild 2: ×2 und Bild 3 und jedes weitere: ×3",
                "Star-Gewinne werden nicht mit dem Multiplikator des Bildes multipliziert.",
            ],
        ),
    ],
)
def test_the_rules_page_explains_the_cascade(
    tmp_path: Path, language: str, sentences: list[str]
) -> None:
    from reelsmith.rules_page import rules_document

    model = load_model(tiny(tmp_path / "t"))
    document = rules_document(model, language=language)
    text = " ".join(document["rules"]["cascade"])
    for sentence in sentences:
        assert sentence in text, (sentence, text)


def test_analyze_gives_the_exact_figures_and_the_chain(tmp_path: Path) -> None:
    """``reelsmith analyze`` on a cascade title: the exact figures and the chain's counters as
    JSON, text and a PAR sheet."""
    import io

    from rich.console import Console

    from reelsmith.analysis.analysis_report import analysis_report
    from reelsmith.analysis.analyzer import analyze, stored_figures

    model = load_model(tiny(tmp_path / "t"))
    report = analysis_report(analyze(model))
    data = report.to_json()
    exact = cascade_figures(model, "main")
    assert data["rtp"] == float(exact.rtp)
    assert data["base_chain"]["reached"] == {"1": 336, "2": 262, "3": 170, "4": 111}
    assert data["hit_frequency"] == float(exact.hit_frequency)
    assert sum(data["base_chain"]["paid_by_screen"].values()) == exact.base.pay
    out = io.StringIO()
    report.render(Console(file=out, width=120))
    assert "Base game chain" in out.getvalue() and "Free spin chain" in out.getvalue()
    assert "<h2>Cascade</h2>" in report.to_html()
    assert stored_figures(analyze(model))["rtp"] == round(float(exact.rtp), 10)


def test_the_terminal_shows_every_screen_of_a_chain(tmp_path: Path) -> None:
    """``reelsmith play``: each later screen of a chain under its own heading with its
    multiplier, its wins listed, the spin's win the chain's sum."""
    from rich.console import Console

    from reelsmith.rng import SeededSource
    from reelsmith.terminal.game import TerminalGame

    model = load_model(tiny(tmp_path / "t"))
    console = Console(record=True, width=120)
    commands = iter(["s"] * 30)

    def read(prompt: str) -> str:
        if prompt.startswith("Free spin"):
            return ""
        try:
            return next(commands)
        except StopIteration:
            raise EOFError from None

    terminal = TerminalGame(model, console, SeededSource(5), Decimal("10.00"), read)
    terminal.run()
    text = console.export_text()
    assert "Cascade 2 (wins x2)" in text and "Cascade 3 (wins x3)" in text
    assert "Cascade 2 (wins x4)" in text  # a free spin's second screen
    chained = [r for r in terminal.history if r.spins[0].parts["cascade"].fallen]
    assert chained
    for round_ in terminal.history:
        for spin in round_.spins:
            chain = spin.parts["cascade"]
            assert spin.win_coins == sum(w.coins for w in spin.parts["paylines"].wins) + (
                spin.parts["scatter"].win.coins if spin.parts["scatter"].win else 0
            ) + sum(f.win_coins for f in chain.fallen)


def test_free_chains_read_off_the_base_game_s(tmp_path: Path) -> None:
    """Free spins on the base reels whose line pays are the base ones times 3 (and whose
    screens multiply twice as much), with a scatter that pays nothing and the same award on a
    retrigger, are the base chains paid 6 times: read off them, they equal the free reel set
    enumerated on its own."""
    from reelsmith.mechanics.cascade.exact import scaled_free_law

    folder = tiny(tmp_path / "t")
    path = folder / "model.toml"
    text = path.read_text(encoding="utf-8")
    for old, new in (
        ("pays = { 3 = 2 }", "pays = {}"),
        ("retrigger_spins = { 3 = 1 }", "retrigger_spins = { 2 = 2, 3 = 3 }\nmultiplier = 3"),
    ):
        assert old in text
        text = text.replace(old, new)
    path.write_text(text, encoding="utf-8")
    model = load_model(folder)
    base = chain_law(model, "main", False)
    derived = scaled_free_law(model, base)
    assert derived is not None and derived.pay == base.pay * 6
    assert derived == chain_law(model, "main", True)
    assert scaled_free_law(load_model(tiny(tmp_path / "other")), base) is None


def test_a_full_cycle_spread_over_a_ray_cluster_sums_the_same(tmp_path: Path) -> None:
    """``analyze --cluster``: the full cycle enumerated by Ray tasks of a few first-reel stops
    each gives the very sums this machine's cores give, base and free."""
    ray = pytest.importorskip("ray")
    from reelsmith.mechanics.cascade.exact import CLUSTER_SLICE, ENUMERATION_CLUSTER

    model = load_model(tiny(tmp_path / "t"))
    here = [chain_law(model, "main", free) for free in (False, True)]
    assert int(model.variant().reel_sets["base"].lengths[0]) > CLUSTER_SLICE  # 2+ tasks
    chain_law.cache_clear()
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    token = ENUMERATION_CLUSTER.set("local")
    try:
        spread = [chain_law(model, "main", free) for free in (False, True)]
    finally:
        ENUMERATION_CLUSTER.reset(token)
        ray.shutdown()
        chain_law.cache_clear()
    assert spread == here


def test_analyze_refuses_a_cluster_where_no_full_cycle_is_enumerated(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from reelsmith.cli import app
    from tests.mechanics.cells_title import tiny_cells_anywhere

    runner = CliRunner()
    cells = tiny_cells_anywhere(tmp_path / "cells")
    shown = runner.invoke(app, ["analyze", str(cells), "--cluster", "local"])
    assert shown.exit_code == 2
    assert "--cluster spreads the enumeration of a full cycle of stop combinations" in (
        shown.output
    )
    shown = runner.invoke(app, ["analyze", str(tiny(tmp_path / "t")), "--cluster", " "])
    assert shown.exit_code == 2 and "--cluster needs a Ray address" in shown.output
