"""Lucky Lanterns (``games/lucky_lanterns``), the shipped hold-and-spin title: a forced round
triggers the feature and pays exactly what its draws say; seeded rounds played live trigger and
pay it, each replaying from its draws; and the simulation kernel (``reelsmith simulate``)
holds the exact RTP inside its 99.9% interval and the feature's frequency within five standard
errors. (The mechanic itself is checked on the test suite's titles:
``tests/mechanics/test_hold_and_spin.py`` and ``test_hold_kernel.py``.)"""

from __future__ import annotations

import math
from collections import deque
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
from reelsmith.mechanics.hold_and_spin.rules import hold_and_spin_rules
from reelsmith.rng import SeededSource
from tests.mechanics.replaying import replayed

GAME = "lucky-lanterns"
#: The 99.9% two-sided normal quantile.
Z_999 = 3.2905


class Forced:
    """A random source answering each purpose from its own queue of draws (QA's forced
    outcome): the reel stops, the coins' values and the respins' cells."""

    def __init__(self, **queues: list[int]) -> None:
        self.queues = {purpose: deque(values) for purpose, values in queues.items()}

    def randbelow(self, bound: int, purpose: str) -> int:
        value = self.queues[purpose].popleft()
        assert 0 <= value < bound, (purpose, value, bound)
        return value


def _play(model: GameModel, source: object) -> core.Round:
    """One round at one coin on each of the twenty paylines (20 coins), no gamble."""
    bet = CoinBet(model.line_count, 1, Decimal("0.01"))
    return core.start_round(
        composition(model),
        bet,
        core.Stake(model.line_count, 1),
        source,  # type: ignore[arg-type]
        parts={OPTIONS: RoundOptions(gamble_allowed=False)},
    )


def _stop_showing(strip: list[int], lantern: int, lanterns: int) -> int:
    """The first stop whose window (three rows) shows exactly ``lanterns`` Lanterns (the
    symbol index ``lantern``)."""
    n = len(strip)
    return next(
        s for s in range(n) if sum(strip[(s + r) % n] == lantern for r in range(3)) == lanterns
    )


def test_a_forced_round_triggers_the_feature_and_pays_what_its_draws_say() -> None:
    """Two Lanterns on each of reels 1-3: six stick, each worth 1x the bet; the first respin
    lands a seventh on the first empty cell carrying the Major (250x) and resets the respins
    to three, which then land nothing: 256 total bets beside the screen's line pays."""
    model = load_game(GAME)
    rules = hold_and_spin_rules(model)
    assert model.symbols[rules.symbol].id == "lantern"
    reels = [list(strip) for strip in model.variant().reel_sets["base"].strips]
    stops = [_stop_showing(reels[r], rules.symbol, 2) for r in range(3)]
    stops += [_stop_showing(reels[r], rules.symbol, 0) for r in range(3, 5)]
    total = sum(v.weight for v in rules.values)
    assert [v.label for v in rules.values][-1] == "major"
    land = rules.coin_weight + rules.blank_weight
    blank = land - 1
    source = Forced(
        reel_stop=stops,
        hold_and_spin_value=[0] * 6 + [total - 1],
        hold_and_spin_cell=[0] + [blank] * (3 * rules.cells),
    )
    played = _play(model, source)
    assert played.phase == core.COMPLETE
    base = played.spins[0]
    record = base.parts["hold_and_spin"]
    assert len(record.start) == 6 and all(v.amount == 1 for _, v in record.start)
    assert [len(r.landed) for r in record.respins] == [1, 0, 0, 0]
    assert [r.left for r in record.respins] == [3, 2, 1, 0]
    assert record.jackpots() == ["major"] and record.full_grid is None
    assert record.total_bets == 6 + 250
    assert record.win_coins == 256 * 20
    assert played.win_coins == base.parts["paylines"].coins + 256 * 20
    kinds = [e["type"] for e in round_events(composition(model), played)]
    assert kinds.count("hold_and_spin_respin") == 4
    assert kinds.index("hold_and_spin_start") < kinds.index("hold_and_spin_end")


def test_seeded_rounds_trigger_and_pay_the_feature_and_replay() -> None:
    model = load_game(GAME)
    comp = composition(model)
    source = SeededSource(2026)
    triggered = []
    for _ in range(3_000):
        played = _play(model, source)
        if "hold_and_spin" in played.spins[0].parts:
            triggered.append(played)
    assert len(triggered) >= 10  # about one round in 105
    for played in triggered:
        base = played.spins[0]
        record = base.parts["hold_and_spin"]
        assert len(record.start) >= 6
        assert record.win_coins == record.total_bets * 20 > 0
        assert played.win_coins == base.parts["paylines"].coins + record.win_coins
        again = replayed(comp, played)
        assert again == played


def test_the_kernel_holds_the_exact_figures() -> None:
    """400,000 simulated rounds of each variant: the exact RTP inside the 99.9% interval, the
    feature's frequency within five standard errors."""
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


def test_evaluate_reports_the_hold_and_spin_trigger() -> None:
    """``reelsmith evaluate``: a screen showing the trigger count of Lanterns says the
    hold-and-spin starts and with how many, one Lantern fewer does not."""
    import json

    from typer.testing import CliRunner

    from reelsmith.cli import app

    six = (
        "lantern,lantern,lantern,ten,ten/lantern,lantern,lantern,jack,jack/ace,king,queen,ace,king"
    )
    five = six.replace("lantern,jack", "ace,jack")
    runner = CliRunner()
    result = runner.invoke(app, ["evaluate", GAME, "--json", "--grid", six, "--grid", five])
    assert result.exit_code == 0, result.output
    triggered, short = (json.loads(line)["hold_and_spin"] for line in result.stdout.splitlines())
    assert triggered == {"symbol": "lantern", "coins": 6, "trigger": 6, "triggered": True}
    assert short == {"symbol": "lantern", "coins": 5, "trigger": 6, "triggered": False}
    result = runner.invoke(app, ["evaluate", GAME, "--grid", six, "--grid", five])
    assert result.exit_code == 0, result.output
    assert result.stdout.count("hold-and-spin triggered: 6 x Lantern") == 1
    assert "free spins triggered" not in result.stdout
