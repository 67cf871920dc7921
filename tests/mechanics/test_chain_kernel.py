"""The kernel plays a spin read as a chain of screens (cascades on lines, ways and counts, a
scatter counted on the final screen) and a window paid anywhere by count: its rounds replay
through live play draw for draw and figure for figure, its simulated RTP holds the exact one
inside the 99.9% interval, and ``reelsmith simulate`` reports such a title as any other."""

from __future__ import annotations

import dataclasses
import io
import math
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from rich.console import Console

from reelsmith.analysis import kernel as k
from reelsmith.analysis.catalogue_exact import analyze_rtp, total_coins
from reelsmith.analysis.pcg64 import stream_state
from reelsmith.analysis.simulation import simulate, simulation_report
from reelsmith.engine import round as core
from reelsmith.engine.bets import CoinBet
from reelsmith.engine.model import GameModel, ModelError, load_model
from reelsmith.mechanics import composition
from reelsmith.mechanics.cascade import kernel as chain_kernel
from reelsmith.mechanics.gamble.live import OPTIONS, RoundOptions
from reelsmith.rng import ReplaySource
from tests.mechanics.anywhere_title import tiny_anywhere
from tests.mechanics.test_cascade import tiny, tiny_counts, tiny_final, tiny_ways

#: The 99.9% two-sided normal quantile.
Z_999 = 3.2905

TITLES: dict[str, Callable[[Path], Path]] = {
    "cascade-lines": tiny,
    "cascade-ways": tiny_ways,
    "cascade-final-scatter": tiny_final,
    "cascade-anywhere": tiny_counts,
    "anywhere": tiny_anywhere,
}


def observed(played: core.Round) -> tuple[int, ...]:
    """A live round's figures in the kernel's ``R_*`` order, the base spin's line and scatter
    parts together (a chain's scatter is paid on several screens)."""
    base = played.spins[0]
    award = base.parts.get("free_spins")
    free = played.spins[1:]
    return (
        played.win_coins,
        base.win_coins,
        award.triggers if award is not None else 0,
        award.spins_added if award is not None else 0,
        len(free),
        sum(s.win_coins for s in free),
        sum(s.parts["free_spins"].triggers for s in free),
        sum(s.parts["free_spins"].spins_added for s in free),
    )


def kernel_figures(row: list[int]) -> tuple[int, ...]:
    return (
        row[k.R_WIN],
        row[k.R_BASE_LINE] + row[k.R_BASE_SCATTER],
        row[k.R_BASE_TRIGGERS],
        row[k.R_AWARDED],
        row[k.R_FREE_SPINS],
        row[k.R_FREE_WIN],
        row[k.R_FREE_TRIGGERS],
        row[k.R_ADDED],
    )


def replay(model: GameModel, rounds: int, seed: int) -> tuple[int, int]:
    """Replay ``rounds`` kernel rounds through live play; returns (rounds with free spins,
    rounds whose base spin read more than one screen)."""
    game = k.KernelGame.build(model)
    results, draws, stats, _floats = game.trace(stream_state(seed), rounds)
    comp = composition(model)
    cost = total_coins(model)
    bet = CoinBet(cost, 1, Decimal(str(model.bet["coin_sizes"][0])))
    stake = core.Stake(cost, 1)
    featured = chained = 0
    for i in range(rounds):
        recorded = game.draws_of(draws[i])
        source = ReplaySource(recorded)
        played = core.start_round(
            comp, bet, stake, source, parts={OPTIONS: RoundOptions(gamble_allowed=False)}
        )
        played = core.finish(comp, played, source)
        assert source.remaining == 0, f"round {i}: {source.remaining} draws left unused"
        assert observed(played) == kernel_figures([int(x) for x in results[i]]), f"round {i}"
        featured += len(played.spins) > 1
        chain = played.spins[0].parts.get("cascade")
        chained += chain is not None and len(chain.fallen) > 0
    assert stats[k.S_ROUNDS] == rounds
    assert stats[k.S_WIN] == sum(int(r[k.R_WIN]) for r in results)
    return featured, chained


def replay_capped(model: GameModel, rounds: int, seed: int) -> int:
    """Replay ``rounds`` kernel rounds of a capped model through live play: every draw used,
    the round's win (never past the cap), its free spins and their win as the kernel counted
    them, and as many rounds reaching the cap; returns how many did."""
    game = k.KernelGame.build(model)
    results, draws, stats, _floats = game.trace(stream_state(seed), rounds)
    comp = composition(model)
    cost = total_coins(model)
    bet = CoinBet(cost, 1, Decimal(str(model.bet["coin_sizes"][0])))
    stake = core.Stake(cost, 1)
    reached = 0
    for i in range(rounds):
        source = ReplaySource(game.draws_of(draws[i]))
        played = core.start_round(
            comp, bet, stake, source, parts={OPTIONS: RoundOptions(gamble_allowed=False)}
        )
        played = core.finish(comp, played, source)
        row = [int(x) for x in results[i]]
        assert source.remaining == 0, f"round {i}: {source.remaining} draws left unused"
        assert played.win_coins == row[k.R_WIN] <= game.cap_coins, f"round {i}"
        assert len(played.spins) - 1 == row[k.R_FREE_SPINS], f"round {i}"
        assert sum(s.win_coins for s in played.spins[1:]) == row[k.R_FREE_WIN], f"round {i}"
        capped = played.part("max_win")
        reached += capped is not None and capped.reached
    assert reached == stats[k.S_CAP_HITS]
    return reached


@pytest.mark.parametrize("name", TITLES)
def test_chain_rounds_replay_through_live_play(tmp_path: Path, name: str) -> None:
    model = load_model(TITLES[name](tmp_path / name))
    featured, chained = replay(model, 2_000, seed=7)
    assert featured > 50
    if name.startswith("cascade"):
        assert chained > 100


@pytest.mark.parametrize("name", TITLES)
def test_a_spin_read_from_the_chain_table_is_the_chain_played(tmp_path: Path, name: str) -> None:
    """Where a spin's stops decide its chain, the kernel reads it from the table of every stop
    combination's chain: the same rounds, draws and statistics as playing each chain screen
    by screen, on the same stream."""
    model = load_model(TITLES[name](tmp_path / name))
    game = k.KernelGame.build(model)
    assert game.chain.base_outcomes is not None and game.chain.free_outcomes is not None
    screens = dataclasses.replace(
        game, chain=dataclasses.replace(game.chain, base_outcomes=None, free_outcomes=None)
    )
    read = game.trace(stream_state(11), 3_000)
    assert same_trace(read, screens.trace(stream_state(11), 3_000))
    assert read[2][k.S_TRIGGERS] > 50


def test_a_reel_set_past_the_table_s_limit_is_played_screen_by_screen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    model = load_model(tiny_ways(tmp_path / "ways"))
    table = k.KernelGame.build(model).trace(stream_state(5), 1_000)
    monkeypatch.setattr(chain_kernel, "OUTCOME_LIMIT", 10)
    game = k.KernelGame.build(model)
    assert game.chain.base_outcomes is None and game.chain.free_outcomes is None
    assert same_trace(table, game.trace(stream_state(5), 1_000))


def same_trace(left: tuple[Any, ...], right: tuple[Any, ...]) -> bool:
    """Whether two kernel traces hold the same rounds, each round's draws, and statistics."""
    results, draws, stats, floats = left
    return (
        np.array_equal(results, right[0])
        and [np.asarray(d).tolist() for d in draws] == [np.asarray(d).tolist() for d in right[1]]
        and np.array_equal(stats, right[2])
        and np.array_equal(floats, right[3])
    )


@pytest.mark.parametrize("name", TITLES)
def test_the_kernel_s_rtp_holds_the_exact_one(tmp_path: Path, name: str) -> None:
    """The exact figures against 300,000 simulated rounds: the RTP inside the 99.9% interval,
    the hit frequency and the free spins' frequency within five standard errors."""
    model = load_model(TITLES[name](tmp_path / name))
    exact = analyze_rtp(model)
    rounds = 300_000
    result = simulate(model, rounds, 2026, workers=1)
    found = result.interval(Z_999)
    assert found is not None
    low, high = found
    assert low <= float(exact.rtp) <= high, (name, float(exact.rtp), low, high)
    p = float(exact.trigger_probability)
    assert abs(result.free_spins_frequency - p) < 5 * (p * (1 - p) / rounds) ** 0.5


def test_simulate_reports_a_count_title_by_its_cost(tmp_path: Path) -> None:
    model = load_model(tiny_anywhere(tmp_path / "t"))
    result = simulate(model, 20_000, 5, workers=1)
    report = simulation_report(model.name, result, result.exact)
    out = io.StringIO()
    report.render(Console(file=out, width=140))
    text = out.getvalue()
    assert f"({total_coins(model)} coins a round, counted anywhere)" in text, text
    assert "lines x 1 coin" not in text
    assert report.to_json()["bet"]["total_coins"] == total_coins(model)


def test_trigger_multipliers_on_counts_are_refused_by_name(tmp_path: Path) -> None:
    folder = tiny_anywhere(tmp_path / "t")
    path = folder / "model.toml"
    text = path.read_text(encoding="utf-8")
    assert "multiplier = 2\n" in text
    path.write_text(
        text.replace("multiplier = 2\n", "multipliers = { 2 = 2, 3 = 3 }\n"), encoding="utf-8"
    )
    with pytest.raises(ModelError, match=r"free_spins\.multipliers: the simulation kernel"):
        k.KernelGame.build(load_model(folder))


def _capped(tmp_path: Path, name: str) -> GameModel:
    """A chain title capped at the smallest cap its paytable allows (the largest single pay,
    rounded up), so that many rounds reach it."""
    from reelsmith.mechanics.max_win.rules import largest_single_pay

    folder = TITLES[name](tmp_path / name)
    multiplier = math.ceil(largest_single_pay(load_model(folder)))
    path = folder / "model.toml"
    path.write_text(
        path.read_text(encoding="utf-8") + f"\n[max_win]\nmultiplier = {multiplier}\n",
        encoding="utf-8",
    )
    return load_model(folder)


@pytest.mark.parametrize("name", ["cascade-lines", "cascade-ways", "anywhere"])
def test_a_capped_chain_title_replays_and_is_not_called_exact(tmp_path: Path, name: str) -> None:
    """The kernel caps a chain title's rounds as live play does (a base chain at the cap plays
    no free spin; a free spin's excess is cut and the feature ends); ``simulate`` and
    ``analyze`` give the capped figures as simulated, never the uncapped RTP as the RTP."""
    from reelsmith.analysis.analysis_report import analysis_report
    from reelsmith.analysis.analyzer import analyze

    model = _capped(tmp_path, name)
    game = k.KernelGame.build(model)
    assert game.cap_coins > 0 and game.cap_coins % total_coins(model) == 0
    assert replay_capped(model, 2_000, seed=11) > 20
    result = simulate(model, 50_000, 3, workers=1)
    assert result.exact["rtp"] is None and "full-cycle" in result.exact["why_not_exact"]
    assert result.stats[k.S_MAX_WIN] == game.cap_coins
    report = analysis_report(analyze(model))
    assert report.document["rtp"] is None and report.document["max_win"]["exact"] is False
    assert report.document["uncapped"]["rtp"] == float(analyze_rtp(model).rtp)
