"""The kernel plays a spin read as a chain of screens (cascades on lines, ways and counts, a
scatter counted on the final screen) and a window paid anywhere by count: its rounds replay
through live play draw for draw and figure for figure, its simulated RTP holds the exact one
inside the 99.9% interval, and ``reelsmith simulate`` reports such a title as any other."""

from __future__ import annotations

import io
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path

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


@pytest.mark.parametrize("name", TITLES)
def test_chain_rounds_replay_through_live_play(tmp_path: Path, name: str) -> None:
    model = load_model(TITLES[name](tmp_path / name))
    featured, chained = replay(model, 2_000, seed=7)
    assert featured > 50
    if name.startswith("cascade"):
        assert chained > 100


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
