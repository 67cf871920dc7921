"""Weighted reel stops (``stop_weights``) through every face of a catalogue title.

The invariant: a stop of weight ``w`` is drawn as often as ``w`` unweighted stops, so the window
whose top row is stop ``s`` shows with probability ``w_s / W``. The exact analysis of the
weighted test model (tests/catalogue/models/weighted-fox) must equal a brute-force sum over
every stop combination through live play's evaluator, each counted with its stops' weights;
on one row (where a window is its stop alone) a weighted model must equal, figure for figure,
the unweighted model with each stop repeated ``w`` times; simulation must agree within its 99%
interval; the kernel and live play give identical rounds for identical draws; the validator
names every problem of a ``stop_weights`` table; and weights of 1 change nothing at all.
"""

from __future__ import annotations

import json
import shutil
from decimal import Decimal
from fractions import Fraction
from itertools import product
from pathlib import Path

import numpy as np
import pytest

from reelsmith.analysis import kernel as k
from reelsmith.analysis.catalogue_exact import analyze_full, analyze_rtp
from reelsmith.analysis.pcg64 import stream_state
from reelsmith.analysis.simulation import Z_99, chunk_stream, simulate
from reelsmith.analysis.tuning import tune
from reelsmith.engine.bets import CoinBet
from reelsmith.engine.catalogue import award_spins, mechanics
from reelsmith.engine.evaluation import evaluate_screen
from reelsmith.engine.lines import count_symbol_on
from reelsmith.engine.model import GameModel, ModelError, ReelSet, load_model
from reelsmith.engine.screen import window
from reelsmith.engine.stops import stop_for_draw
from reelsmith.modelio.validate import validate_folder
from reelsmith.rng import Draw, ReplaySource, SeededSource
from tests import catalogue_rounds as live
from tests.catalogue.test_kernel_parity import observed, play_live

FIXTURE = Path(__file__).parent / "models" / "weighted-fox"


@pytest.fixture(scope="module")
def fox() -> GameModel:
    return load_model(FIXTURE)


def _copy(tmp_path: Path, name: str = "fox") -> Path:
    folder = tmp_path / name
    shutil.copytree(FIXTURE, folder)
    return folder


def _variant_text(folder: Path) -> str:
    return (folder / "variants" / "weighted.toml").read_text(encoding="utf-8")


# ---------------------------------------------------------------------------------------
# Brute force: every stop combination through live play's evaluator, with its weight
# ---------------------------------------------------------------------------------------


def _brute_force(
    model: GameModel, reel_set: ReelSet, free: bool
) -> tuple[int, dict[int, list[int]], int, int]:
    """(cycle, {k: [ways, win sum, squared win sum]} by trigger count, no-win ways, line pay
    sum) over every stop combination, each counted with the product of its stops' weights;
    wins in coins at one coin on every payline."""
    rules = mechanics(model)
    lines = model.line_count
    by_count: dict[int, list[int]] = {}
    cycle = no_win = line_sum = 0
    stops_per_reel = [range(int(n)) for n in reel_set.lengths]
    for stops in product(*stops_per_reel):
        weight = 1
        for reel, stop in enumerate(stops):
            weight *= int(reel_set.stop_weights(reel)[stop])
        if weight == 0:
            continue
        grid = window(reel_set, stops, model.rows)
        kwargs = (
            {"line_pays": rules.free_line_pays, "scatter_pays": rules.free_scatter_pays}
            if free
            else {}
        )
        wins = evaluate_screen(model, grid, lines, 1, lines, **kwargs)
        assert rules.free_spins is not None
        shown = int(count_symbol_on(grid, rules.free_spins.symbol, rules.trigger_mask))
        win = wins.total_coins
        row = by_count.setdefault(shown, [0, 0, 0])
        row[0] += weight
        row[1] += weight * win
        row[2] += weight * win * win
        cycle += weight
        line_sum += weight * wins.line_coins
        if win == 0 and (free or shown < rules.free_spins.trigger):
            no_win += weight
    return cycle, by_count, no_win, line_sum


def test_exact_analysis_equals_the_weighted_brute_force(fox: GameModel) -> None:
    analysis = analyze_full(fox)
    rules = mechanics(fox)
    free = rules.free_spins
    assert free is not None
    variant = fox.variant()
    lines = fox.line_count
    laws = {}
    for name, is_free, law in (
        ("base", False, analysis.base),
        (free.reel_set, True, analysis.free),
    ):
        reel_set = variant.reel_sets[name]
        assert reel_set.weighted
        cycle, by_count, no_win, line_sum = _brute_force(fox, reel_set, is_free)
        assert law is not None
        assert cycle == reel_set.cycle == law.cycle
        counts = len(law.by_count)
        assert [tuple(by_count.get(c, [0, 0, 0])) for c in range(counts)] == list(law.by_count)
        assert set(by_count) <= set(range(counts))
        if not is_free:
            assert no_win == law.no_win_ways
            assert Fraction(line_sum, cycle * lines) == analysis.figures.line_rtp
        laws[name] = (cycle, by_count)
    # The round's return assembled from the brute-force screens by Wald's identity.
    base_cycle, base = laws["base"]
    free_cycle, free_screens = laws[free.reel_set]
    free_win = Fraction(sum(r[1] for r in free_screens.values()), free_cycle * lines)
    m = sum(
        (
            Fraction(r[0], free_cycle)
            * award_spins(free.retrigger, free.retrigger_spins, 0, c, 0, 0)
            for c, r in free_screens.items()
        ),
        Fraction(0),
    )
    initial = sum(
        (Fraction(r[0], base_cycle) * int(free.spins[c]) for c, r in base.items() if c >= 3),
        Fraction(0),
    )
    base_win = Fraction(sum(r[1] for r in base.values()), base_cycle * lines)
    assert analysis.figures.added_per_free_spin == m
    assert analysis.figures.free_spin_win == free_win
    assert analysis.rtp == base_win + initial / (1 - m) * free_win
    assert analysis.figures.trigger_probability == sum(
        (Fraction(r[0], base_cycle) for c, r in base.items() if c >= 3), Fraction(0)
    )
    assert analysis.hit_frequency == 1 - Fraction(analysis.base.no_win_ways, base_cycle)


# ---------------------------------------------------------------------------------------
# One row: a weighted stop is its stop repeated w times
# ---------------------------------------------------------------------------------------


def _one_row(folder: Path, strips: dict[str, list[list[str]]], weights: dict | None) -> Path:
    model = (FIXTURE / "model.toml").read_text(encoding="utf-8")
    model = model.replace("rows = 3", "rows = 1")
    start = model.index("paylines = [")
    end = model.index("]\n", model.index("[2, 1, 0]")) + 2
    model = model[:start] + "paylines = [[0, 0, 0]]\n" + model[end:]
    model = model.replace("lines = { min = 1, max = 5 }", "lines = { min = 1, max = 1 }")
    model = model.replace("lines = 5, coins_per_line", "lines = 1, coins_per_line")
    (folder / "variants").mkdir(parents=True)
    (folder / "model.toml").write_text(model, encoding="utf-8")
    text = ['id = "weighted"']
    for name, reel_strips in strips.items():
        text += ["", f"[reel_sets.{name}]", f"strips = {json.dumps(reel_strips)}"]
        if weights is not None:
            text.append(f"stop_weights = {json.dumps(weights[name])}")
    (folder / "variants" / "weighted.toml").write_text("\n".join(text) + "\n", encoding="utf-8")
    return folder


def test_on_one_row_weights_equal_repeated_stops(fox: GameModel, tmp_path: Path) -> None:
    variant = fox.variant()
    ids = fox.symbol_ids
    strips = {
        name: [[ids[int(s)] for s in strip] for strip in rs.strips]
        for name, rs in variant.reel_sets.items()
    }
    weights = {
        name: [[int(w) for w in rs.stop_weights(r)] for r in range(fox.reels)]
        for name, rs in variant.reel_sets.items()
    }
    repeated = {
        name: [
            [s for s, w in zip(strip, ws, strict=True) for _ in range(w)]
            for strip, ws in zip(strips[name], weights[name], strict=True)
        ]
        for name in strips
    }
    weighted = analyze_full(load_model(_one_row(tmp_path / "weighted", strips, weights)))
    plain = analyze_full(load_model(_one_row(tmp_path / "plain", repeated, None)))
    assert weighted.figures == plain.figures
    assert weighted.variance == plain.variance and weighted.rtp == plain.rtp
    assert weighted.hit_frequency == plain.hit_frequency
    assert weighted.base == plain.base and weighted.free == plain.free
    assert weighted.free_given == plain.free_given and weighted.spins_given == plain.spins_given
    assert weighted.awards == plain.awards
    assert weighted.base_wins == plain.base_wins
    mine, theirs = weighted.to_json(), plain.to_json()
    mine.pop("seconds"), theirs.pop("seconds")
    assert mine == theirs
    assert weighted.rtp > 0 and weighted.figures.trigger_probability > 0


# ---------------------------------------------------------------------------------------
# Live play, records and replay
# ---------------------------------------------------------------------------------------


def test_a_weighted_reel_draws_below_its_total_weight(fox: GameModel) -> None:
    base = fox.variant().reel_sets["base"]
    bet = CoinBet(5, 1, Decimal("0.10"))
    played = live.start_round(fox, bet, SeededSource(3), options=live.RoundOptions(False))
    draws = played.draws[: fox.reels]
    assert [d.purpose for d in draws] == ["reel_stop"] * fox.reels
    assert [d.bound for d in draws] == [int(t) for t in base.totals] == [34, 34, 32]
    for reel, (draw, stop) in enumerate(zip(draws, played.spins[0].stops, strict=True)):
        cumulative = np.cumsum(base.stop_weights(reel))
        assert stop == int(np.searchsorted(cumulative, draw.value, side="right"))
    # every draw value maps as the cumulative weights say; weight 0 is never a stop
    for reel in range(fox.reels):
        weights = base.stop_weights(reel)
        landed = [
            stop_for_draw(base.cumulative[reel], int(base.lengths[reel]), value)
            for value in range(int(base.totals[reel]))
        ]
        assert np.bincount(landed, minlength=len(weights)).tolist() == weights.tolist()


def test_weighted_rounds_replay_identically_from_their_records(fox: GameModel) -> None:
    bet = CoinBet(5, 2, Decimal("0.10"))
    source = SeededSource(11)
    features = 0
    for _ in range(300):
        played = live.start_round(fox, bet, source, options=live.RoundOptions(False))
        played = live.finish(fox, played, source)
        record = json.loads(json.dumps(played.to_json()))
        draws = [Draw.from_json(d) for d in record["draws"]]
        again = live.replay_from(
            fox, bet, live.RoundOptions(False), record["variant"], record["actions"], draws
        )
        assert again.to_json() == played.to_json()
        features += len(played.spins) > 1
    assert features > 0


def _rewrite_weights(folder: Path, weights: str | None) -> GameModel:
    """The fixture with every ``stop_weights`` table replaced: each weight by ``weights``, or
    the tables left out (``None``)."""
    out: list[str] = []
    inside = False
    for line in _variant_text(folder).splitlines():
        if line.startswith("stop_weights"):
            inside = True
            if weights is not None:
                out.append(line)
            continue
        if inside and line.startswith("]"):
            inside = False
            if weights is not None:
                out.append(line)
            continue
        if inside:
            if weights is not None:
                count = line.count(",")
                out.append("  [" + ", ".join([weights] * count) + "],")
            continue
        out.append(line)
    (folder / "variants" / "weighted.toml").write_text("\n".join(out) + "\n", encoding="utf-8")
    return load_model(folder)


def test_weights_of_one_change_nothing(tmp_path: Path) -> None:
    """Explicit weights of 1 draw, record, simulate and analyse exactly as no weights."""
    ones = _rewrite_weights(_copy(tmp_path, "ones"), "1")
    plain = _rewrite_weights(_copy(tmp_path, "plain"), None)
    assert all(rs.weighted for rs in ones.variant().reel_sets.values())
    assert all((rs.totals == rs.lengths).all() for rs in ones.variant().reel_sets.values())
    assert not any(rs.weighted for rs in plain.variant().reel_sets.values())
    assert analyze_rtp(ones) == analyze_rtp(plain)
    a, b = (k.KernelGame.build(m) for m in (ones, plain))
    ra, da, sa, fa = a.trace(chunk_stream(9, 0), 5_000)
    rb, db, sb, fb = b.trace(chunk_stream(9, 0), 5_000)
    assert ra.tolist() == rb.tolist() and sa == sb and fa == fb
    assert all(x.tolist() == y.tolist() for x, y in zip(da, db, strict=True))
    bet = CoinBet(5, 1, Decimal("0.10"))
    for seed in range(50):
        one = live.start_round(ones, bet, SeededSource(seed), options=live.RoundOptions(False))
        two = live.start_round(plain, bet, SeededSource(seed), options=live.RoundOptions(False))
        assert one.to_json() == two.to_json()


# ---------------------------------------------------------------------------------------
# The kernel and simulation
# ---------------------------------------------------------------------------------------


def test_kernel_rounds_replay_identically_through_live_play(fox: GameModel) -> None:
    game = k.KernelGame.build(fox)
    assert game.tables.weighted
    results, draws, _stats, _ = game.trace(chunk_stream(2026, 0), 10_000)
    triggers = 0
    for result, log in zip(results, draws, strict=True):
        source = ReplaySource(game.draws_of(log))
        played = play_live(fox, fox.default_variant, source)
        assert observed(played) == tuple(int(x) for x in result)
        assert source.remaining == 0
        sets = ["base"] + ["free_spins"] * (len(played.spins) - 1)
        values = [d for d in log if d[0] == k.DRAW_REEL_STOP]
        for spin, name, at in zip(played.spins, sets, range(0, len(values), 3), strict=True):
            rs = fox.variant().reel_sets[name]
            assert [int(d[1]) for d in values[at : at + 3]] == [int(t) for t in rs.totals]
            for reel, (stop, d) in enumerate(zip(spin.stops, values[at : at + 3], strict=True)):
                assert rs.stop_weights(reel)[stop] > 0
                assert int(np.searchsorted(rs.cumulative[reel], d[2], side="right")) == stop
        triggers += result[k.R_AWARDED] > 0
    assert triggers >= 20


def test_kernel_stream_is_a_seeded_source_draw_for_draw(fox: GameModel) -> None:
    """Live play drawing from ``SeededSource(seed)`` plays the kernel's rounds from
    ``PCG64(SeedSequence(seed))``, weighted draws included."""
    game = k.KernelGame.build(fox)
    results, _draws, _stats, _ = game.trace(stream_state(np.random.SeedSequence(77)), 2_000)
    source = SeededSource(77)
    for result in results:
        played = play_live(fox, fox.default_variant, source)
        assert observed(played) == tuple(int(x) for x in result)


def test_exact_rtp_inside_the_simulated_99_percent_interval(fox: GameModel) -> None:
    figures = analyze_rtp(fox)
    result = simulate(fox, 2_000_000, 14)
    low, high = result.interval(Z_99)
    assert low <= float(figures.rtp) <= high, (result.rtp, float(figures.rtp))
    assert high - low < 0.03
    p = float(figures.trigger_probability)
    assert abs(result.free_spins_frequency - p) <= Z_99 * (p * (1 - p) / result.rounds) ** 0.5


# ---------------------------------------------------------------------------------------
# Bad weights, refused by name; tuning refuses a weighted variant
# ---------------------------------------------------------------------------------------


def test_validate_names_each_problem_of_the_weights(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    text = _variant_text(folder)
    text = text.replace(
        "  [2, 5, 3, 1, 4, 2, 3, 1, 6, 2, 2, 3],", "  [2, 5, 3, 1, 4, 2, 3, 1, 6, 2, 2],"
    )
    text = text.replace(
        "  [4, 3, 2, 3, 5, 1, 3, 2, 1, 2, 4, 1, 3],",
        "  [4, -3, 2, 3, 5, 1, 3, 2, 1.5, 2, 4, 1, 3],",
    )
    text = text.replace(
        "  [3, 2, 3, 1, 0, 4, 2, 1, 3, 5, 2, 1, 2, 3],",
        "  [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],",
    )
    text += "\n[reel_sets.bonus]\nstop_weights = [[1], [1], [1]]\n"
    (folder / "variants" / "weighted.toml").write_text(text, encoding="utf-8")
    problems = validate_folder(folder)
    where = f"{folder / 'variants' / 'weighted.toml'}: reel_sets"
    assert problems == [
        f"{where}.base.stop_weights[0] (reel 1) lists 11 weights; its strip has 12 stops",
        f"{where}.base.stop_weights[1] (reel 2): stop 1 weight -3 is negative",
        f"{where}.base.stop_weights[1] (reel 2): stop 8 weight 1.5 is not an integer",
        f"{where}.base.stop_weights[2] (reel 3): every weight is 0; a reel needs a stop it "
        "can stop at",
        f"{where}.bonus.stop_weights weighs a reel set that does not exist: reel_sets.bonus "
        "has no strips",
    ]
    with pytest.raises(ModelError, match=r"stop_weights\[0\] \(reel 1\) lists 11 weights"):
        load_model(folder)


def test_validate_passes_the_weighted_model_and_refuses_weights_of_a_misspelt_key(
    tmp_path: Path,
) -> None:
    assert validate_folder(FIXTURE) == []
    folder = _copy(tmp_path)
    text = _variant_text(folder).replace("stop_weights = [", "stop_weight = [", 1)
    (folder / "variants" / "weighted.toml").write_text(text, encoding="utf-8")
    (problem,) = validate_folder(folder)
    assert "reel_sets.base: unknown key 'stop_weight'" in problem


def test_tune_refuses_a_weighted_variant(fox: GameModel, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"variant weighted weighs its stops .*reel_sets\.base"):
        tune(fox, tmp_path, Decimal("95.00"))
