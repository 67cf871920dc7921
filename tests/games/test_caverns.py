"""Crystal Caverns (``games/crystal_caverns``), the shipped ways + cascades showcase title:
seeded rounds played live tumble with the climbing multiplier (x1 to x5 on a base spin, x2 to
x10 in free spins), each spin's win the sum of its screens' ways wins at their multipliers and
its scatter wins; a bought round plays no base spin and starts ten free spins; rounds replay
from their draws; the simulation kernel holds the exact RTP of each variant inside its 99.9%
interval; and live bought rounds hold the buy's exact RTP. (The mechanics themselves are
checked on the test suite's titles: ``tests/mechanics/test_cascade.py``, ``test_ways*.py``,
``test_modes*.py``.)"""

from __future__ import annotations

import math
import statistics
from decimal import Decimal

from reelsmith.analysis.analyzer import analyze
from reelsmith.analysis.simulation import simulate
from reelsmith.engine import round as core
from reelsmith.engine.bets import CoinBet
from reelsmith.engine.events import round_events
from reelsmith.engine.model import GameModel
from reelsmith.games import load_game
from reelsmith.mechanics import composition
from reelsmith.mechanics.gamble.live import OPTIONS, RoundOptions
from reelsmith.mechanics.modes.exact import figures
from reelsmith.rng import SeededSource
from tests.mechanics.replaying import replayed

GAME = "crystal-caverns"
#: The 99.9% two-sided normal quantile.
Z_999 = 3.2905
BASE = [1, 2, 3, 4, 5, 5, 5, 5, 5, 5]
FREE = [2, 4, 6, 8, 10, 10, 10, 10, 10, 10]


def _play(model: GameModel, source: object, mode: str | None = None) -> core.Round:
    """One round at one coin a way (20 coins), played to its end, no gamble."""
    comp = composition(model)
    bet = CoinBet(20, 1, Decimal("0.01"))
    parts: dict[str, object] = {OPTIONS: RoundOptions(gamble_allowed=False)}
    if mode is not None:
        parts["mode"] = mode
    started = core.start_round(comp, bet, core.Stake(20, 1), source, parts=parts)  # type: ignore[arg-type]
    return core.finish(comp, started, source)  # type: ignore[arg-type]


def _check_spin(model: GameModel, spin: core.Spin) -> int:
    """The spin's screens at their multipliers: returns the longest chain seen."""
    chain = spin.parts["cascade"]
    table = FREE if spin.kind == "free" else BASE
    assert chain.multiplier == table[0]
    total = spin.parts["ways"].coins
    for win in spin.parts["ways"].wins:
        pay = int(model.line_pays[model.symbol_index(win.symbol), win.count])
        assert win.coins == pay * win.ways * chain.multiplier
    if spin.parts["scatter"].win is not None:
        total += spin.parts["scatter"].win.coins
    for fallen in chain.fallen:
        assert fallen.multiplier == table[fallen.step - 1]
        assert fallen.removed
        for win in fallen.records["ways"].wins:
            pay = int(model.line_pays[model.symbol_index(win.symbol), win.count])
            assert win.coins == pay * win.ways * fallen.multiplier
        total += fallen.win_coins
    assert total == spin.win_coins
    return len(chain.fallen) + 1


def test_seeded_rounds_tumble_at_the_climbing_multiplier_and_replay() -> None:
    model = load_game(GAME)
    comp = composition(model)
    source = SeededSource(2026)
    longest = {"base": 0, "free": 0}
    featured = 0
    for _ in range(1_500):
        played = _play(model, source)
        for spin in played.spins:
            longest[spin.kind] = max(longest[spin.kind], _check_spin(model, spin))
        assert played.win_coins == sum(s.win_coins for s in played.spins)
        if len(played.spins) > 1:
            featured += 1
            assert len(played.spins) >= 11  # the base spin and ten free spins at least
            assert replayed(comp, played) == played
    assert featured >= 3  # about one round in 174
    assert longest["base"] >= 4 and longest["free"] >= 4  # the multiplier climbed to x4 / x8


def test_a_bought_round_starts_ten_free_spins_and_replays() -> None:
    model = load_game(GAME)
    comp = composition(model)
    source = SeededSource(7)
    for _ in range(20):
        played = _play(model, source, mode="buy")
        assert all(s.kind == "free" for s in played.spins) and len(played.spins) >= 10
        kinds = [e["type"] for e in round_events(comp, played)]
        assert kinds[:2] == ["round_started", "feature_bought"]
        assert replayed(comp, played, mode="buy") == played


def test_live_bought_rounds_hold_the_buy_s_exact_rtp() -> None:
    """3,000 bought rounds played live: the buy's exact RTP (the feature's exact mean from three
    Mine Carts over its 55-bet price) inside the 99.9% interval of their mean."""
    model = load_game(GAME)
    exact = figures(model, None, "buy")
    price = float(exact.price) * 20
    source = SeededSource(2027)
    wins = [_play(model, source, mode="buy").win_coins / price for _ in range(3_000)]
    mean = statistics.fmean(wins)
    half = Z_999 * statistics.stdev(wins) / math.sqrt(len(wins))
    assert mean - half <= float(exact.rtp) <= mean + half, (mean, half, float(exact.rtp))


def test_the_kernel_holds_the_exact_figures() -> None:
    """400,000 simulated rounds of each variant: the exact RTP inside the 99.9% interval, the
    free spins' frequency within five standard errors."""
    model = load_game(GAME)
    rounds = 400_000
    for variant in sorted(model.variants):
        exact = analyze(model, variant)
        result = simulate(model, rounds, 32, variant_id=variant, workers=1)
        assert result.exact["rtp"] == float(exact.rtp)
        found = result.interval(Z_999)
        assert found is not None
        low, high = found
        assert low <= float(exact.rtp) <= high, (variant, float(exact.rtp), low, high)
        p = float(exact.trigger_probability)
        assert abs(result.free_spins_frequency - p) < 5 * math.sqrt(p * (1 - p) / rounds)
