"""The hold-and-spin's simulation kernel (:mod:`reelsmith.mechanics.hold_and_spin.kernel`) on
the test suite's titles: its rounds replay through live play draw for draw and figure for
figure (the respins' every cell and value included), its simulated RTP holds the round's exact
one inside the 99.9% interval and its feature frequency and respins per feature lie within
five standard errors of the exact ones, and ``reelsmith simulate`` reports the hold-and-spin
round's exact figures beside the simulated ones. The titles with collector and multiplier coins
likewise: their rounds replay (each coin's kind and the grid's pay by the one compiled rule) and
their simulated RTP holds the exact one."""

from __future__ import annotations

import io
import math
from collections import Counter
from collections.abc import Callable
from decimal import Decimal
from functools import cache, partial
from math import comb
from pathlib import Path

import pytest
from rich.console import Console

from reelsmith.analysis import kernel as k
from reelsmith.analysis.pcg64 import stream_state
from reelsmith.analysis.simulation import simulate, simulation_report
from reelsmith.engine import round as core
from reelsmith.engine.bets import CoinBet
from reelsmith.engine.model import GameModel, load_model
from reelsmith.mechanics import composition
from reelsmith.mechanics.gamble.live import OPTIONS, RoundOptions
from reelsmith.mechanics.hold_and_spin.exact import analyze_full
from reelsmith.mechanics.hold_and_spin.rules import hold_and_spin_rules
from reelsmith.rng import ReplaySource
from tests.mechanics.hold_title import (
    coins_hold_title,
    hold_title,
    tiny_coins_title,
    tiny_hold_title,
)

#: The 99.9% two-sided normal quantile.
Z_999 = 3.2905

TITLES: dict[str, Callable[[Path], Path]] = {
    "hold": hold_title,
    "tiny-hold": tiny_hold_title,
    "coins-hold": coins_hold_title,
    "coins-hold-sum": partial(coins_hold_title, sum_mode=True),
    "tiny-coins": tiny_coins_title,
}


def observed(played: core.Round, coin: int) -> tuple[int, ...]:
    """A live round's figures in the kernel's ``R_*`` order: its win, its line win, the coins
    (symbol ``coin``) its window showed, the respins awarded, played, the feature's win, the
    coins held at the end, and the respins that landed a coin."""
    base = played.spins[0]
    record = base.parts.get("hold_and_spin")
    assert base.grid is not None
    shown = int((base.grid == coin).sum())
    if record is None:
        return (played.win_coins, base.win_coins, shown, 0, 0, 0, 0, 0)
    return (
        played.win_coins,
        base.win_coins - record.win_coins,
        shown,
        record.respins_full,
        len(record.respins),
        record.win_coins,
        len(record.coins),
        sum(1 for respin in record.respins if respin.landed),
    )


def kernel_figures(row: list[int]) -> tuple[int, ...]:
    return (
        row[k.R_WIN],
        row[k.R_BASE_LINE],
        row[k.R_BASE_TRIGGERS],
        row[k.R_AWARDED],
        row[k.R_FREE_SPINS],
        row[k.R_FREE_WIN],
        row[k.R_FREE_TRIGGERS],
        row[k.R_ADDED],
    )


def replay(
    model: GameModel, rounds: int, seed: int, every: int, kinds: Counter[str] | None = None
) -> tuple[int, int, int]:
    """Play ``rounds`` kernel rounds and replay through live play the first ``every`` of them
    and each later one that played the feature, each draw asked for with the purpose and bound
    the kernel drew it with and none left over, each round's figures equal; returns (rounds
    replayed that played the feature, respins among them that landed a coin, features ending
    with a full grid; ``kinds`` counts the replayed features holding a collector, a multiplier
    coin and both)."""
    game = k.KernelGame.build(model)
    results, draws, stats, _floats = game.trace(stream_state(seed), rounds)
    comp = composition(model)
    cost = game.total_bet
    bet = CoinBet(cost, 1, Decimal(str(model.bet["coin_sizes"][0])))
    stake = core.Stake(cost, 1)
    rules = hold_and_spin_rules(model)
    featured = resets = full = 0
    for i in range(rounds):
        if i >= every and results[i][k.R_AWARDED] == 0:
            continue
        source = ReplaySource(game.draws_of(draws[i]))
        played = core.start_round(
            comp, bet, stake, source, parts={OPTIONS: RoundOptions(gamble_allowed=False)}
        )
        played = core.finish(comp, played, source)
        assert source.remaining == 0, f"round {i}: {source.remaining} draws left unused"
        assert observed(played, rules.symbol) == kernel_figures([int(x) for x in results[i]]), (
            f"round {i}"
        )
        record = played.spins[0].parts.get("hold_and_spin")
        if record is not None:
            featured += 1
            resets += sum(1 for respin in record.respins if respin.landed)
            full += len(record.coins) == rules.cells
            if kinds is not None:
                collects = any(value.collects for _, value in record.coins)
                multiplies = any(value.factor for _, value in record.coins)
                kinds.update(
                    name
                    for name, seen in (
                        ("collect", collects),
                        ("multiplier", multiplies),
                        ("both", collects and multiplies),
                    )
                    if seen
                )
    assert stats[k.S_ROUNDS] == rounds
    assert stats[k.S_WIN] == sum(int(row[k.R_WIN]) for row in results)
    assert stats[k.S_TRIGGERS] == featured
    assert stats[k.S_FREE_WIN] == sum(int(row[k.R_FREE_WIN]) for row in results)
    assert stats[k.S_FREE_SPINS] == sum(int(row[k.R_FREE_SPINS]) for row in results)
    return featured, resets, full


def test_kernel_rounds_replay_through_live_play(tmp_path: Path) -> None:
    model = load_model(hold_title(tmp_path / "hold"))
    featured, resets, _full = replay(model, 60_000, seed=7, every=2_000)
    assert featured > 150  # the feature is played, and its respins reset on new coins
    assert resets > 150


def test_tiny_kernel_rounds_replay_through_live_play_full_grids_included(
    tmp_path: Path,
) -> None:
    model = load_model(tiny_hold_title(tmp_path / "tiny"))
    featured, resets, full = replay(model, 2_000, seed=11, every=2_000)
    assert featured > 100
    assert resets > 100
    assert full > 20  # the full-grid tier is paid as live play pays it


@pytest.mark.parametrize("sum_mode", [False, True])
def test_kernel_rounds_with_collectors_and_multipliers_replay_through_live_play(
    tmp_path: Path, sum_mode: bool
) -> None:
    model = load_model(coins_hold_title(tmp_path / "coins", sum_mode=sum_mode))
    kinds: Counter[str] = Counter()
    featured, _resets, _full = replay(model, 40_000, seed=13, every=1_000, kinds=kinds)
    assert featured > 100
    assert kinds["collect"] > 20 and kinds["multiplier"] > 20 and kinds["both"] > 5, kinds


def test_tiny_kernel_rounds_with_collectors_and_multipliers_replay_through_live_play(
    tmp_path: Path,
) -> None:
    model = load_model(tiny_coins_title(tmp_path / "tiny"))
    kinds: Counter[str] = Counter()
    featured, _resets, full = replay(model, 2_000, seed=17, every=2_000, kinds=kinds)
    assert featured > 100 and full > 20
    assert kinds["both"] > 20, kinds


@pytest.mark.parametrize("name", TITLES)
def test_the_kernel_holds_the_round_s_exact_figures(tmp_path: Path, name: str) -> None:
    """300,000 simulated rounds: the RTP inside the 99.9% interval around it, the feature's
    frequency and the respins per feature within five standard errors of the exact ones."""
    model = load_model(TITLES[name](tmp_path / name))
    exact = analyze_full(model)
    rounds = 300_000
    result = simulate(model, rounds, 2026, workers=1)
    assert result.exact["rtp"] == float(exact.rtp)  # the whole round's, not the lines' alone
    assert float(exact.rtp) > float(exact.line_rtp)
    found = result.interval(Z_999)
    assert found is not None
    low, high = found
    assert low <= float(exact.rtp) <= high, (name, float(exact.rtp), low, high)
    p = float(exact.trigger_probability)
    assert abs(result.free_spins_frequency - p) < 5 * math.sqrt(p * (1 - p) / rounds)
    triggers = result.stats[k.S_TRIGGERS]
    per_feature = result.free_spins_per_trigger
    assert per_feature is not None
    moments = [_respin_moments(model, start) for start in exact.features]
    for start, (first, _second) in zip(exact.features, moments, strict=True):
        assert first == pytest.approx(float(exact.features[start].respins), rel=1e-12)
    p_k = [float(exact.probability(start) / exact.trigger_probability) for start in exact.features]
    mean = float(exact.expected_free_spins)
    second = sum(q * m2 for q, (_m1, m2) in zip(p_k, moments, strict=True))
    std = math.sqrt(second - mean * mean)
    assert abs(per_feature - mean) < 5 * std / math.sqrt(triggers), (per_feature, mean)


def _respin_moments(model: GameModel, start: int) -> tuple[float, float]:
    """E[R] and E[R^2] of the respins a feature started with ``start`` coins plays, by the
    recursion over (coins held, respins left) on the respins still to play, each empty cell
    landing a coin independently."""
    rules = hold_and_spin_rules(model)
    p = rules.coin_weight / (rules.coin_weight + rules.blank_weight)

    @cache
    def moments(held: int, left: int) -> tuple[float, float]:
        if left <= 0 or held >= rules.cells:
            return 0.0, 0.0
        empty = rules.cells - held
        first = second = 0.0
        for landed in range(empty + 1):
            chance = comb(empty, landed) * p**landed * (1 - p) ** (empty - landed)
            after = (held + landed, rules.respins) if landed else (held, left - 1)
            m1, m2 = moments(*after)
            first += chance * (1 + m1)
            second += chance * (1 + 2 * m1 + m2)
        return first, second

    return moments(start, rules.respins)


def test_simulate_reports_the_hold_and_spin_round(tmp_path: Path) -> None:
    model = load_model(hold_title(tmp_path / "hold"))
    exact = analyze_full(model)
    result = simulate(model, 20_000, 5, workers=1)
    report = simulation_report(model.name, result, result.exact)
    out = io.StringIO()
    report.render(Console(file=out, width=140))
    text = out.getvalue()
    assert f"{float(exact.rtp):.4%}" in text, text
    assert f"{float(exact.feature_rtp):.4%}" in text
    assert "hold-and-spin frequency" in text and "respins per trigger" in text
    assert "free spins" not in text
    document = report.to_json()
    assert document["exact"]["rtp"] == float(exact.rtp)
    assert document["exact"]["free_spins"] == float(exact.feature_rtp)
