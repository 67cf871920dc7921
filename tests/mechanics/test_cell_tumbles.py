"""Cascades on drawn cells (``[cascade] refill = "cells"``): each new cell drawn from its reel's
table, in live play and in the kernel alike; a count anywhere's chain proven exactly by the
Markov chain of its counts (checked against every chain followed cell by cell through the live
rule); a chain of lines, which has no exact law, simulated and said to be."""

from __future__ import annotations

import itertools
import math
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from reelsmith.analysis.catalogue_exact import analyze_rtp
from reelsmith.analysis.enumeration import BeyondEnumerationError
from reelsmith.analysis.simulation import simulate
from reelsmith.engine import round as core
from reelsmith.engine.bets import CoinBet
from reelsmith.engine.catalogue import mechanics, spins_by_count
from reelsmith.engine.model import GameModel, load_model
from reelsmith.mechanics import composition
from reelsmith.mechanics.anywhere.live import count_wins
from reelsmith.mechanics.anywhere.rules import anywhere_rules
from reelsmith.mechanics.cascade.exact import chain_law
from reelsmith.mechanics.cascade.rules import cascade_rules, least_paid
from reelsmith.mechanics.gamble.live import OPTIONS, RoundOptions
from reelsmith.modelio.validate import check_folder, validate_folder
from reelsmith.rng import SeededSource
from tests.mechanics import test_chain_kernel
from tests.mechanics.cell_tumbles_title import (
    MODEL,
    VARIANT,
    cell_tumbles,
    cell_tumbles_lines,
    small_tumbles,
)
from tests.mechanics.cells_title import write

Z_999 = 3.2905


def _followed(model: GameModel, free: bool) -> dict[str, Fraction]:
    """Every chain of a spin of the reel set followed cell by cell: each first screen, then
    each draw of every refilled cell, paid by the live count rule and the scatter's table,
    the cells removed as the rules say; the moments the chain law sums, as chances."""
    rules = anywhere_rules(model)
    cascade = cascade_rules(model)
    free_rules = mechanics(model).free_spins
    assert free_rules is not None
    spins = np.asarray(free_rules.retrigger_spins if free else free_rules.spins)
    reel_set = model.variant().reel_sets["free" if free else "base"]
    table = dict(reel_set.cells[0])
    total = sum(table.values())
    least = least_paid(model.scatter_pays)
    unit = 5  # the scatter pays times the total bet, 5 coins
    screens: dict[bytes, tuple[int, int, int, set[tuple[int, int]]]] = {}

    def screen(grid: np.ndarray) -> tuple[int, int, int, set[tuple[int, int]]]:
        """A screen's count coins, scatter coins, awarded spins and removed cells."""
        key = grid.tobytes()
        if key not in screens:
            wins = count_wins(model, rules, grid, 1, rules.pays)
            stars = int((grid == model.scatter).sum())
            removed = {p for win in wins.wins for p in win.positions}
            if (least and stars >= least) or stars >= free_rules.trigger:
                removed |= {
                    (int(r), int(c))
                    for r, c in zip(*np.nonzero(grid == model.scatter), strict=True)
                }
            screens[key] = (
                wins.coins,
                int(model.scatter_pays[min(stars, 3)]) * unit,
                spins_by_count(spins, stars) if stars >= free_rules.trigger else 0,
                removed,
            )
        return screens[key]

    keys = ("pay", "pay2", "awards", "awards2", "pay_awards", "hits", "triggered")
    # each moment's weighted sum by the number of cells drawn (its chance's denominator:
    # the table's total to that power)
    sums: dict[str, dict[int, int]] = {key: {} for key in keys}
    most = 0

    def follow(grid: np.ndarray, weight: int, draws: int, step: int, pay: int, awards: int) -> None:
        nonlocal most
        coins, scattered, got, removed = screen(grid)
        pay += coins * cascade.multiplier(free, step) + scattered
        awards += got
        if not removed or step == cascade.limit:
            values = (
                pay,
                pay * pay,
                awards,
                awards * awards,
                pay * awards,
                int(pay > 0 or awards > 0),
                int(awards > 0),
            )
            for key, value in zip(keys, values, strict=True):
                sums[key][draws] = sums[key].get(draws, 0) + weight * value
            most = max(most, pay)
            return
        columns = [
            [int(grid[row, reel]) for row in range(model.rows) if (row, reel) not in removed]
            for reel in range(model.reels)
        ]
        empty = [model.rows - len(kept) for kept in columns]
        for drawn in itertools.product(list(table), repeat=sum(empty)):
            after = grid.copy()
            at = 0
            for reel, kept in enumerate(columns):
                after[:, reel] = [*drawn[at : at + empty[reel]], *kept]
                at += empty[reel]
            more = weight * math.prod(table[s] for s in drawn)
            follow(after, more, draws + len(drawn), step + 1, pay, awards)

    cells = model.reels * model.rows
    for shown in itertools.product(list(table), repeat=cells):
        grid = np.array(shown, dtype=np.int8).reshape(model.reels, model.rows).T.copy()
        follow(grid, math.prod(table[s] for s in shown), cells, 1, 0, 0)
    found = {
        key: sum((Fraction(v, total**d) for d, v in by_draws.items()), Fraction(0))
        for key, by_draws in sums.items()
    }
    found["most"] = Fraction(most)
    return found


@pytest.mark.parametrize("free", [False, True])
def test_the_chain_of_counts_is_every_chain_followed_cell_by_cell(
    tmp_path: Path, free: bool
) -> None:
    model = load_model(small_tumbles(tmp_path / "t"))
    law = chain_law(model, "main", free)
    found = _followed(model, free)
    cycle = law.cycle
    assert Fraction(law.pay, cycle) == found["pay"]
    assert Fraction(law.awards, cycle) == found["awards"]
    assert Fraction(law.awards_squared, cycle) == found["awards2"]
    assert Fraction(law.pay_awards, cycle) == found["pay_awards"]
    assert Fraction(law.hits, cycle) == found["hits"]
    assert Fraction(law.triggered, cycle) == found["triggered"]
    assert law.max_pay == found["most"]
    assert law.pay_squared / cycle == pytest.approx(float(found["pay2"]), rel=1e-12)
    assert found["triggered"] > 0 and Fraction(law.reached[1], cycle) > Fraction(1, 20)


def test_a_round_draws_each_new_cell_and_replays(tmp_path: Path) -> None:
    """The first screen is one ``cell`` draw per cell; each later screen of a chain one per
    cell its wins removed; the chain shows the drawn symbols, and the round replays."""
    model = load_model(cell_tumbles(tmp_path / "t"))
    comp = composition(model)
    bet = CoinBet(5, 1, Decimal("0.01"))
    stake = core.Stake(5, 1)
    options = {OPTIONS: RoundOptions(gamble_allowed=False)}
    chained = 0
    for seed in range(200):
        source = SeededSource(seed)
        played = core.finish(
            comp, core.start_round(comp, bet, stake, source, parts=options), source
        )
        draws = [d for d in played.draws if d.purpose == "cell"]
        assert len(draws) == len(played.draws)  # nothing but cells is drawn
        removed = 0
        for spin in played.spins:
            chain = spin.parts["cascade"]
            removed += sum(len(f.removed) for f in chain.fallen)
            chained += bool(chain.fallen)
        assert len(draws) == model.reels * model.rows * len(played.spins) + removed
        assert all(d.bound == 13 for d in draws[: model.reels * model.rows])
        again = core.replay_from(
            comp, bet, stake, played.variant, played.actions, played.draws, parts=options
        )
        assert again == played
    assert chained > 50


@pytest.mark.parametrize("title", [cell_tumbles, cell_tumbles_lines])
def test_kernel_rounds_replay_through_live_play(tmp_path: Path, title) -> None:  # type: ignore[no-untyped-def]
    featured, chained = test_chain_kernel.replay(load_model(title(tmp_path / "t")), 2_000, 5)
    assert featured > 10 and chained > 200


def test_the_kernel_s_rtp_holds_the_exact_one(tmp_path: Path) -> None:
    """The chain of counts' exact RTP against 400,000 simulated rounds: inside the 99.9%
    interval."""
    model = load_model(cell_tumbles(tmp_path / "t"))
    exact = analyze_rtp(model).rtp
    result = simulate(model, 400_000, 2026, workers=1)
    found = result.interval(Z_999)
    assert found is not None
    low, high = found
    assert low <= float(exact) <= high, (float(exact), low, high)


def test_the_full_analysis_reads_the_chain_of_counts(tmp_path: Path) -> None:
    from reelsmith.analysis.analyzer import analyze as analyze_model

    model = load_model(cell_tumbles(tmp_path / "t"))
    analysis = analyze_model(model, None)
    assert analysis.cascade.rtp == analyze_rtp(model).rtp
    assert f"{float(analysis.cascade.rtp) * 100:.6f}" == "93.029496"
    law = chain_law(model, "main", False)
    assert law.reached[0] == law.cycle > law.reached[1] > law.reached[2] > 0


def test_a_chain_of_lines_is_simulated_and_said_not_exact(tmp_path: Path) -> None:
    """Lines refilled cell by cell have no exact law: ``analyze`` says so on its first line
    and simulates; ``simulate`` sets no exact figure beside its own; ``validate`` warns that
    the stated RTP is not checked."""
    import json

    from typer.testing import CliRunner

    from reelsmith.analysis import commands
    from reelsmith.cli import app

    folder = cell_tumbles_lines(tmp_path / "l")
    model = load_model(folder)
    with pytest.raises(BeyondEnumerationError, match="a cascade of lines refilled cell by cell"):
        analyze_rtp(model)
    runner = CliRunner()
    original = commands.BEYOND_ROUNDS
    commands.BEYOND_ROUNDS = 300_000
    try:
        shown = runner.invoke(app, ["analyze", str(folder)])
        data = json.loads(runner.invoke(app, ["analyze", str(folder), "--json"]).output)
    finally:
        commands.BEYOND_ROUNDS = original
    assert shown.exit_code == 0, shown.output
    first = shown.output.splitlines()[0]
    assert first.startswith("not exact: cell-tumbles-lines: reel set base: a cascade of lines")
    assert "Every figure below is simulated (300,000 rounds, seed 2026)" in shown.output
    assert "the RTP is not exact for this title" in shown.output
    assert data["full_analysis"] == "beyond enumeration"
    assert data["exact"]["rtp"] is None and data["simulated"]["exact_inside_ci99"] is None
    low, high = data["simulated"]["rtp_ci99"]
    assert low < 0.9984 < high
    found = check_folder(folder)
    assert found.problems == []
    assert any("stated RTP not checked" in w and "cell by cell" in w for w in found.warnings)
    assert any(
        "free_spins.retrigger: without an exact law nothing shows that the free spins end" in w
        for w in found.warnings
    ), found.warnings


def test_refills_by_cells_are_declared_with_drawn_cells(tmp_path: Path) -> None:
    variant = VARIANT.replace("RTP", "0.930295")
    assert validate_folder(write(tmp_path / "ok", MODEL, variant)) == []
    strip = MODEL.replace('refill = "cells"\n', "")
    problems = validate_folder(write(tmp_path / "strip", strip, variant))
    assert any(
        "cascade.refill: the model's cells are drawn one by one ([cells]) and have no strip "
        'above the window: set refill = "cells"' in p
        for p in problems
    ), problems
    no_cells = MODEL.replace("[cells]\n\n", "")
    strips = variant.replace(
        "cells = { wild = 1, bird = 4, fish = 6, star = 2 }",
        'strips = [["bird", "fish", "star", "wild"], ["fish", "bird", "fish"], '
        '["bird", "star", "fish"]]',
    ).replace(
        "cells = { wild = 2, bird = 4, fish = 5, star = 1 }",
        'strips = [["bird", "fish", "star"], ["fish", "bird", "wild"], ["bird", "fish", "fish"]]',
    )
    problems = validate_folder(write(tmp_path / "strips", no_cells, strips))
    assert any(
        'cascade.refill = "cells" draws each new cell from the reel sets\' cell tables: the '
        "model declares no [cells]" in p
        for p in problems
    ), problems
    unknown = MODEL.replace('refill = "cells"', 'refill = "random"')
    problems = validate_folder(write(tmp_path / "unknown", unknown, variant))
    assert any("cascade.refill = 'random'" in p for p in problems), problems


def test_reels_of_their_own_tables_are_simulated_and_said_so(tmp_path: Path) -> None:
    own = VARIANT.replace("RTP", "0.93").replace(
        "cells = { wild = 1, bird = 4, fish = 6, star = 2 }",
        "cells = [\n  { wild = 1, bird = 4, fish = 6, star = 2 },\n"
        "  { wild = 1, bird = 5, fish = 5, star = 2 },\n"
        "  { wild = 1, bird = 4, fish = 6, star = 2 },\n]",
    )
    model = load_model(write(tmp_path / "own", MODEL, own))
    with pytest.raises(BeyondEnumerationError, match="when every reel draws from one table"):
        analyze_rtp(model)


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_rules_page_says_new_cells_are_drawn(tmp_path: Path, language: str) -> None:
    from reelsmith.help import language_of
    from reelsmith.rules_page import rules_document

    model = load_model(cell_tumbles(tmp_path / "t"))
    document = rules_document(model, None, language=language_of(language))
    section = document["rules"]["cascade"]
    text = " ".join(section if isinstance(section, list) else section["text"])
    expected = {
        "en": "each empty position above them shows a new symbol drawn at random on its own",
        "de": "jede leere Position darüber zeigt ein neues, einzeln zufällig gezogenes Symbol",
    }[language]
    assert expected in text
    assert "from the reel above" not in text and "von der Walze darüber" not in text
