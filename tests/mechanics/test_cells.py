"""Cells drawn one by one (:mod:`reelsmith.mechanics.cells`): a reel's windows and their
weights, the exact expected pay and trigger law of lines, ways and a count anywhere against
every screen played through the live rule, one ``cell`` draw per cell and rounds replayed,
kernel rounds replayed through live play, the kernel's RTP against the exact one, the full
analysis where the cycle is small and the honest fallback where it is not, the rules page, and
the refusals by key."""

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
from reelsmith.analysis.enumeration import BeyondEnumerationError
from reelsmith.analysis.simulation import simulate
from reelsmith.engine import round as core
from reelsmith.engine.bets import CoinBet
from reelsmith.engine.catalogue import mechanics
from reelsmith.engine.evaluation import paid_lines
from reelsmith.engine.model import GameModel, load_model
from reelsmith.engine.screen import from_screen, to_screen, window
from reelsmith.mechanics import composition, evaluation
from reelsmith.mechanics.anywhere.live import count_wins
from reelsmith.mechanics.anywhere.rules import anywhere_rules
from reelsmith.mechanics.gamble.live import OPTIONS, RoundOptions
from reelsmith.mechanics.ways.live import way_wins
from reelsmith.mechanics.ways.rules import ways_rules
from reelsmith.modelio.validate import validate_folder
from reelsmith.rng import SeededSource
from tests.mechanics import test_chain_kernel, test_ways_kernel
from tests.mechanics.cells_title import (
    TINY_MODEL,
    TINY_VARIANT,
    grand_cells,
    tiny_cells,
    tiny_cells_anywhere,
    tiny_cells_ways,
    write,
)

Z_999 = 3.2905


def test_a_reel_s_positions_are_every_window_its_cells_make(tmp_path: Path) -> None:
    model = load_model(tiny_cells(tmp_path / "t"))
    reel_set = model.variant().reel_sets["base"]
    # wild 1, bird 4, fish 6, star 2 on every cell of 2 rows: 16 windows per reel
    assert reel_set.position_counts.tolist() == [16, 16, 16]
    assert reel_set.totals.tolist() == [169, 169, 169]
    assert reel_set.cycle == 169**3
    assert reel_set.position_weights(0).tolist() == [
        a * b for a in (1, 4, 6, 2) for b in (1, 4, 6, 2)
    ]
    # position 9 = digits (2, 1): fish above bird; 3 = (0, 3): wild above star
    grid = window(reel_set, (9, 3, 0), model.rows)
    assert to_screen(model, grid) == (("fish", "wild", "wild"), ("bird", "star", "wild"))
    assert (from_screen(model, to_screen(model, grid)) == grid).all()
    free = model.variant().reel_sets["free"]
    assert free.position_counts.tolist() == [16, 16, 9]  # reel 3 lists three symbols


def _screens(model: GameModel, name: str):  # type: ignore[no-untyped-def]
    """Every screen of reel set ``name`` with its weight."""
    reel_set = model.variant().reel_sets[name]
    weights = [reel_set.position_weights(r) for r in range(model.reels)]
    for positions in itertools.product(*(range(int(n)) for n in reel_set.position_counts)):
        grid = window(reel_set, positions, model.rows)
        yield grid, math.prod(int(weights[r][p]) for r, p in enumerate(positions))


def _pay(model: GameModel, grid: np.ndarray, free: bool) -> int:
    """The screen's pay per coin unit by the live rule of the model's evaluator."""
    if "ways" in model.raw:
        rules = ways_rules(model)
        pays = mechanics(model).free_line_pays if free else model.line_pays
        return way_wins(model, rules, grid, 1, pays, rules.weights).coins
    if "anywhere" in model.raw:
        rules = anywhere_rules(model)
        return count_wins(model, rules, grid, 1, rules.pays, 2 if free else 1).coins
    pays = mechanics(model).free_line_pays if free else model.line_pays
    return sum(w.coins for w in paid_lines(model, grid, model.line_count, 1, pays))


@pytest.mark.parametrize("title", [tiny_cells, tiny_cells_ways, tiny_cells_anywhere])
@pytest.mark.parametrize("free", [False, True])
def test_the_exact_screen_pay_is_every_screen_s_through_live_play(
    tmp_path: Path,
    title,  # type: ignore[no-untyped-def]
    free: bool,
) -> None:
    """The exact route's screen RTP against every screen of the reel set (4,096 base, 2,304
    free), each paid by the evaluator's live rule and weighed by its cells' weights."""
    model = load_model(title(tmp_path / "t"))
    name = "free" if free else "base"
    reel_set = model.variant().reel_sets[name]
    total = paying = 0
    for grid, weight in _screens(model, name):
        pay = _pay(model, grid, free)
        total += pay * weight
        paying += pay > 0
    cost = evaluation(model).cost(model)
    pays = mechanics(model).free_line_pays if free else model.line_pays
    exact = evaluation(model).screen_rtp(model, reel_set, pays, free)
    assert exact == Fraction(total, reel_set.cycle * cost)
    assert paying > 100


def test_the_trigger_law_is_every_screen_s(tmp_path: Path) -> None:
    model = load_model(tiny_cells(tmp_path / "t"))
    reel_set = model.variant().reel_sets["base"]
    brute = [0] * (model.reels * model.rows + 1)
    for grid, weight in _screens(model, "base"):
        brute[int((grid == model.scatter).sum())] += weight
    exact = trigger_ways(model, reel_set, mechanics(model))
    assert exact == brute[: len(exact)] and sum(exact) == reel_set.cycle


def test_a_round_draws_each_cell_and_replays(tmp_path: Path) -> None:
    """Each screen is one ``cell`` draw per cell, each reel's rows top to bottom, below its
    table's total; the screen shows the drawn symbols and the round replays from its draws."""
    model = load_model(tiny_cells(tmp_path / "t"))
    comp = composition(model)
    bet = CoinBet(3, 1, Decimal("0.01"))
    stake = core.Stake(3, 1)
    options = {OPTIONS: RoundOptions(gamble_allowed=False)}
    free = 0
    symbols = model.variant().reel_sets["base"].strips[0].tolist()
    for seed in range(150):
        source = SeededSource(seed)
        played = core.finish(
            comp, core.start_round(comp, bet, stake, source, parts=options), source
        )
        cells = [d for d in played.draws if d.purpose == "cell"]
        assert len(cells) == model.reels * model.rows * len(played.spins)
        assert not any(d.purpose == "reel_stop" for d in played.draws)
        base = played.spins[0]
        for reel in range(model.reels):
            for row in range(model.rows):
                draw = cells[reel * model.rows + row]
                assert draw.bound == 13
                cumulative = np.cumsum([1, 4, 6, 2])
                drawn = symbols[int(np.searchsorted(cumulative, draw.value, side="right"))]
                assert base.landed[row][reel] == model.symbol_id(drawn)
        free += len(played.spins) - 1
        again = core.replay_from(
            comp, bet, stake, played.variant, played.actions, played.draws, parts=options
        )
        assert again == played
    assert free > 0


@pytest.mark.parametrize("title", [tiny_cells, tiny_cells_ways, grand_cells])
def test_kernel_rounds_replay_through_live_play(tmp_path: Path, title) -> None:  # type: ignore[no-untyped-def]
    featured, _weighted = test_ways_kernel.replay(load_model(title(tmp_path / "t")), 2_000, seed=3)
    assert featured > 10


def test_kernel_rounds_of_a_count_replay_through_live_play(tmp_path: Path) -> None:
    model = load_model(tiny_cells_anywhere(tmp_path / "t"))
    featured, _chained = test_chain_kernel.replay(model, 2_000, seed=3)
    assert featured > 10


@pytest.mark.parametrize("title", [tiny_cells, tiny_cells_ways, tiny_cells_anywhere, grand_cells])
def test_the_kernel_s_rtp_holds_the_exact_one(tmp_path: Path, title) -> None:  # type: ignore[no-untyped-def]
    """The exact RTP route against 400,000 simulated rounds: inside the 99.9% interval."""
    model = load_model(title(tmp_path / "t"))
    exact = analyze_rtp(model).rtp
    result = simulate(model, 400_000, 2026, workers=1)
    found = result.interval(Z_999)
    assert found is not None
    low, high = found
    assert low <= float(exact) <= high, (float(exact), low, high)


def test_the_full_analysis_enumerates_a_small_cycle_and_refuses_a_large_one(
    tmp_path: Path,
) -> None:
    from reelsmith.analysis.analyzer import analyze as analyze_model

    tiny = load_model(tiny_cells(tmp_path / "tiny"))
    analysis = analyze_model(tiny, None)
    assert float(analysis.rtp) == pytest.approx(float(analyze_rtp(tiny).rtp), abs=1e-12)
    grand = load_model(grand_cells(tmp_path / "grand"))
    with pytest.raises(BeyondEnumerationError, match="beyond what the lab enumerates"):
        analyze_model(grand, None)


def test_a_count_s_full_law_is_every_screen_s(tmp_path: Path) -> None:
    """A count anywhere on drawn cells: the full analysis reads the law of the counts; its
    hit frequency, largest base win and RTP equal every screen played by the live rule."""
    from reelsmith.analysis.analyzer import analyze as analyze_model
    from reelsmith.mechanics.cascade.exact import chain_law

    model = load_model(tiny_cells_anywhere(tmp_path / "t"))
    rules = anywhere_rules(model)
    free = mechanics(model).free_spins
    assert free is not None
    hits = pay_sum = most = 0
    squares = 0
    for grid, weight in _screens(model, "base"):
        pay = count_wins(model, rules, grid, 1, rules.pays).coins
        scattered = int((grid == model.scatter).sum())
        pay += int(model.scatter_pays[min(scattered, len(model.scatter_pays) - 1)]) * 5
        hits += weight if pay > 0 or scattered >= free.trigger else 0
        pay_sum += pay * weight
        squares += pay * pay * weight
        most = max(most, pay)
    law = chain_law(model, "main", False)
    assert (law.hits, law.pay, law.max_pay) == (hits, pay_sum, most)
    assert law.pay_squared == pytest.approx(squares, rel=1e-12)
    analysis = analyze_model(model, None)
    assert analysis.cascade.hit_frequency == Fraction(hits, law.cycle)
    assert analysis.cascade.rtp == analyze_rtp(model).rtp


def test_the_titles_are_valid_and_state_their_rtp(tmp_path: Path) -> None:
    for title in (tiny_cells, tiny_cells_ways, tiny_cells_anywhere, grand_cells):
        assert validate_folder(title(tmp_path / title.__name__)) == []
    assert load_model(tmp_path / "grand_cells").variant().rtp_percent() == Decimal("94.42")
    exact = analyze_rtp(load_model(tmp_path / "grand_cells")).rtp
    assert f"{float(exact):.6f}" == "0.944164"


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_rules_page_states_each_symbol_s_chance(tmp_path: Path, language: str) -> None:
    from reelsmith.help import language_of
    from reelsmith.rules_page import rules_document

    model = load_model(tiny_cells(tmp_path / "t"))
    document = rules_document(model, None, language=language_of(language))
    section = document["rules"]["cells"]
    text = " ".join(section if isinstance(section, list) else section["text"])
    words = {
        "en": [
            "drawn at random on its own for each spin, free spins included",
            "Each position shows Wild (7.69%), Bird (30.77%), Fish (46.15%) or Star (15.38%).",
            "In free spins, each position of reel 3 shows Bird (50.00%), Fish (40.00%) or "
            "Star (10.00%).",
        ],
        "de": [
            "auch in Freispielen",
            "Jede Position zeigt Wild (7,69\u00a0%), Bird (30,77\u00a0%), Fish (46,15\u00a0%) "
            "oder Star (15,38\u00a0%).",
        ],
    }[language]
    for word in words:
        assert word in text, (word, text)


@pytest.mark.parametrize(
    ("old", "new", "problem"),
    [
        (
            "wild = 1, bird = 4",
            "wild = 1, crow = 4",
            "reel_sets.base.cells: 'crow' is not a declared",
        ),
        ("wild = 1, bird = 4", "wild = -1, bird = 4", "reel_sets.base.cells.wild must be a whole"),
        (
            "wild = 1, bird = 4, fish = 6, star = 2",
            "wild = 0, bird = 0",
            "the weights must be whole numbers >= 0, not all 0",
        ),
        ("  { bird = 5, fish = 4, star = 1 },\n", "", "cells must be one table of symbol"),
        (
            "cells = { wild = 1, bird = 4, fish = 6, star = 2 }",
            'strips = [["bird", "fish"], ["bird", "fish"], ["bird", "fish"]]',
            "a model with [cells] draws every cell",
        ),
    ],
)
def test_bad_cells_are_named(tmp_path: Path, old: str, new: str, problem: str) -> None:
    assert old in TINY_VARIANT
    folder = write(tmp_path / "t", TINY_MODEL, TINY_VARIANT.replace(old, new, 1))
    problems = validate_folder(folder)
    assert any(problem in p for p in problems), problems


def test_cells_refuse_what_they_do_not_compose_with(tmp_path: Path) -> None:
    model = TINY_MODEL.replace("[cells]\n", "[cells]\nshape = 1\n")
    problems = validate_folder(write(tmp_path / "keys", model, TINY_VARIANT))
    assert any("cells: unknown key 'shape'" in p for p in problems), problems
    model = TINY_MODEL.replace("[cells]\n", "[cells]\n\n[cascade]\nlimit = 3\n")
    model = model.replace(
        "[cascade]\nlimit = 3\n", "[cascade]\nlimit = 3\nmultipliers = [1, 2, 3]\n"
    )
    problems = validate_folder(write(tmp_path / "cascade", model, TINY_VARIANT))
    assert any(
        "cascade.refill: the model's cells are drawn one by one ([cells]) and have no strip "
        'above the window: set refill = "cells"' in p
        for p in problems
    ), problems
    strips = TINY_VARIANT.replace("[reel_sets.base]\ncells", "[reel_sets.base]\nstops")
    no_cells = TINY_MODEL.replace("[cells]\n", "")
    problems = validate_folder(write(tmp_path / "plain", no_cells, TINY_VARIANT))
    assert any("cells are drawn only in a model with a [cells] table" in p for p in problems)
    assert strips != TINY_VARIANT


def test_too_many_windows_are_refused(tmp_path: Path) -> None:
    """A reel of 9 symbols over 6 rows would show 531,441 windows: refused by name."""
    model = TINY_MODEL.replace("rows = 2", "rows = 6").replace(
        "paylines = [[0, 0, 0], [1, 1, 1], [0, 1, 0]]", "paylines = [[0, 0, 0], [1, 1, 1]]"
    )
    model = (
        model.replace("{ min = 3, max = 3 }", "{ min = 2, max = 2 }")
        .replace("lines = 3,", "lines = 2,")
        .replace("max_total_coins = 6", "max_total_coins = 4")
    )
    symbols = "".join(
        f'\n[[symbols]]\nid = "s{i}"\nname = "S{i}"\nrole = "regular"\n' for i in range(5)
    )
    model = model.replace("[line_pays]", symbols + "\n[line_pays]")
    variant = TINY_VARIANT.replace(
        "cells = { wild = 1, bird = 4, fish = 6, star = 2 }",
        "cells = { wild = 1, bird = 4, fish = 6, star = 2, s0 = 1, s1 = 1, s2 = 1, s3 = 1, "
        "s4 = 1 }",
    )
    problems = validate_folder(write(tmp_path / "t", model, variant))
    assert any(
        re.search(r"9 symbols over 6 rows make 531,441 windows, above the 131,072", p)
        for p in problems
    ), problems


def test_tune_refuses_drawn_cells_by_name(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from reelsmith.cli import app

    folder = grand_cells(tmp_path / "t")
    result = CliRunner().invoke(app, ["tune", str(folder), "--target-rtp", "96"])
    assert result.exit_code != 0
    assert "variant main draws every cell (cells on reel_sets.base, reel_sets.free)" in (
        result.output
    )
