"""The kernel plays ways: its rounds replay through live play draw for draw and field for field
(a free spin's drawn wild weights, the trigger's multiplier, the required reels and the per-coin
scatter included), and its simulated RTP holds the exact one inside the 99.9% interval, on the
test suite's tiny ways title and on a reel set of each game of the external ways corpus."""

from __future__ import annotations

import io
import os
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from rich.console import Console

from reelsmith.analysis import kernel as k
from reelsmith.analysis.catalogue_exact import analyze_rtp
from reelsmith.analysis.kernel import rounds as kr
from reelsmith.analysis.pcg64 import stream_state
from reelsmith.analysis.simulation import simulate, simulation_report
from reelsmith.engine import round as core
from reelsmith.engine.bets import CoinBet
from reelsmith.engine.model import GameModel, load_model
from reelsmith.mechanics import composition
from reelsmith.mechanics.gamble.live import OPTIONS, RoundOptions
from reelsmith.mechanics.ways.rules import ways_rules
from reelsmith.rng import ReplaySource
from tests.catalogue.slotopol_ways import CORPUS, convert, corpus_games
from tests.mechanics.test_ways import tiny

#: The 99.9% two-sided normal quantile.
Z_999 = 3.2905


def _corpus(name: str, root: Path) -> GameModel:
    game = CORPUS / f"{name}.json"
    if not game.is_file():  # pragma: no cover - CI always has it
        if os.environ.get("CI"):
            raise RuntimeError(f"the ways corpus is missing: {CORPUS}")
        pytest.skip(f"the ways corpus is not at {CORPUS}")
    convert(game, root / name)
    return load_model(root / name)


def tiny_lines(folder: Path) -> Path:
    """The tiny title paid by two paylines instead of ways, its free spins' multipliers by
    count, required reels and per-coin scatter kept."""
    tiny(folder)
    path = folder / "model.toml"
    text = path.read_text(encoding="utf-8")
    start, end = text.index("[ways]"), text.index("[ways_pays]")
    text = text[:start] + text[end:].replace("[ways_pays]", "[line_pays]", 1)
    text = text.replace("rows = 2\n", "rows = 2\npaylines = [[0, 0, 0], [1, 1, 1]]\n")
    text = text.replace("min = 10, max = 10", "min = 1, max = 2").replace(
        "lines = 10,", "lines = 2,"
    )
    text = text.replace('retrigger = "none"\n', 'retrigger = "none"\nrequired_reels = [1]\n')
    text = text.replace("max_total_coins = 30", "max_total_coins = 6")
    path.write_text(text, encoding="utf-8")
    return folder


def _models(root: Path, name: str) -> GameModel:
    if name == "tiny-lines":
        return load_model(tiny_lines(root / name))
    if name.startswith("tiny-"):
        return load_model(tiny(root / name, name.removeprefix("tiny-")))
    return _corpus(name, root)


CORPUS_GAMES = tuple(p.stem for p in corpus_games()) or (
    "aristocrat-redroo",
    "novomatic-africansimba",
    "novomatic-jaguarmoon",
)
TINY = ("tiny-every_symbol", "tiny-none", "tiny-wild")


def observed(played: core.Round) -> tuple[int, ...]:
    """A live round's figures in the kernel's ``R_*`` order."""
    base = played.spins[0]
    scatter = base.parts.get("scatter")
    award = base.parts.get("free_spins")
    free = played.spins[1:]
    return (
        played.win_coins,
        (base.parts.get("ways") or base.parts["paylines"]).coins,
        scatter.win.coins if scatter is not None and scatter.win else 0,
        award.triggers if award is not None else 0,
        award.spins_added if award is not None else 0,
        len(free),
        sum(s.win_coins for s in free),
        sum(s.parts["free_spins"].triggers for s in free),
        sum(s.parts["free_spins"].spins_added for s in free),
    )


def replay(model: GameModel, rounds: int, seed: int) -> tuple[int, int]:
    """Replay ``rounds`` kernel rounds through live play; returns (rounds with free spins,
    free spins whose wild weights were drawn)."""
    game = k.KernelGame.build(model)
    results, draws, _stats, _floats = game.trace(stream_state(seed), rounds)
    comp = composition(model)
    cost = ways_rules(model).cost if "ways" in model.raw else model.line_count
    bet = CoinBet(cost, 1, Decimal(str(model.bet["coin_sizes"][0])))
    stake = core.Stake(cost, 1)
    featured = weighted = 0
    for i in range(rounds):
        recorded = game.draws_of(draws[i])
        source = ReplaySource(recorded)
        played = core.start_round(
            comp, bet, stake, source, parts={OPTIONS: RoundOptions(gamble_allowed=False)}
        )
        played = core.finish(comp, played, source)
        assert source.remaining == 0, f"round {i}: {source.remaining} draws left unused"
        assert observed(played) == tuple(int(x) for x in results[i]), f"round {i}"
        featured += len(played.spins) > 1
        weighted += sum(d.purpose == "wild_weight" for d in recorded)
    return featured, weighted


@pytest.mark.parametrize("name", TINY)
def test_tiny_ways_rounds_replay_through_live_play(tmp_path: Path, name: str) -> None:
    featured, weighted = replay(_models(tmp_path, name), 3_000, seed=7)
    assert featured > 100 and weighted > 100


@pytest.mark.parametrize("name", CORPUS_GAMES)
def test_corpus_ways_rounds_replay_through_live_play(tmp_path: Path, name: str) -> None:
    model = _models(tmp_path, name)
    featured, _weighted = replay(model, 4_000, seed=11)
    assert featured > 0


def test_a_lines_title_with_multipliers_required_reels_and_a_per_coin_scatter(
    tmp_path: Path,
) -> None:
    model = _models(tmp_path, "tiny-lines")
    featured, weighted = replay(model, 3_000, seed=5)
    assert featured > 100 and weighted == 0


@pytest.mark.parametrize("name", (*TINY[:1], "tiny-lines", *CORPUS_GAMES))
def test_the_kernel_s_rtp_holds_the_exact_one(tmp_path: Path, name: str) -> None:
    """The exact RTP route against 400,000 simulated rounds: inside the 99.9% interval."""
    model = _models(tmp_path, name)
    exact = analyze_rtp(model).rtp
    result = simulate(model, 400_000, 2026, workers=1)
    found = result.interval(Z_999)
    assert found is not None
    low, high = found
    assert low <= float(exact) <= high, (name, float(exact), low, high)
    assert result.exact["rtp"] == pytest.approx(float(exact))


def test_the_trigger_multiplier_and_required_reels_reach_the_kernel(tmp_path: Path) -> None:
    """A free spin of the tiny title pays its way wins times the trigger's multiplier (2 for
    2 stars, 3 for 3), and a required reel without a star starts nothing: the kernel's free
    win over its rounds equals live play's on the same draws, and with reel 1 required a
    screen whose stars sit on reels 2 and 3 triggers in neither."""
    folder = tiny(tmp_path / "t")
    path = folder / "model.toml"
    path.write_text(
        path.read_text().replace(
            'retrigger = "none"\n', 'retrigger = "none"\nrequired_reels = [1]\n'
        ),
        encoding="utf-8",
    )
    model = load_model(folder)
    featured, _ = replay(model, 3_000, seed=3)
    assert featured > 0
    game = k.KernelGame.build(model)
    assert game.required.tolist() == [True, False, False]
    assert game.trigger_multipliers.tolist()[2:4] == [2, 3]
    figures = analyze_rtp(model)
    free = model.variant().reel_sets["base"]
    assert figures.trigger_probability < Fraction(1) and free.cycle > 0
    assert np.all(game.present[0].sum(axis=1) > 0)


def test_the_simulation_report_names_a_ways_bet(tmp_path: Path) -> None:
    """The report's heading states the title's coins a round and that every way plays, where a
    lines title's states its lines: a ways title has no lines to count."""
    model = load_model(tiny(tmp_path / "t"))
    result = simulate(model, 20_000, 5, workers=1)
    report = simulation_report(model.name, result, result.exact)
    out = io.StringIO()
    report.render(Console(file=out, width=140))
    text = out.getvalue()
    assert "20,000 simulated rounds, seed 5" in text, text
    assert "(10 coins a round, every way)" in text and "lines x 1 coin" not in text
    assert report.to_json()["bet"]["total_coins"] == 10


@pytest.mark.parametrize("name", TINY + CORPUS_GAMES)
def test_the_alive_symbols_walk_plays_the_rounds_of_the_full_rule(
    tmp_path: Path, name: str
) -> None:
    """The round loop pays a ways screen by walking only the symbols alive on the first
    ``min_run`` reels; the loop paying every symbol by ``ways_pay_counts`` (the benchmark's
    baseline) plays the same rounds from the same stream: the same results and draws."""
    game = k.KernelGame.build(_models(tmp_path, name))
    rounds = 20_000
    traced = []
    for play in (kr.play_rounds, kr.play_ways_reference):
        results = np.zeros((rounds, game.round_fields), dtype=np.int64)
        log = np.zeros((rounds * 64, 3), dtype=np.int64)
        ends = np.zeros(rounds, dtype=np.int64)
        stats = np.zeros(game.n_stats, dtype=np.int64)
        floats = np.zeros(kr.N_FLOAT_STATS, dtype=np.float64)
        args = (stream_state(3), rounds, game.kernel_args(), game.start_state(stream_state(0)))
        played = play(*args, 1, np.zeros(1, np.int64), stats, floats, True, results, log, ends)
        assert played == rounds
        traced.append((results, log[: ends[-1]], stats, floats))
    for fast, full in zip(*traced, strict=True):
        assert (fast == full).all()
