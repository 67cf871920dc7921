"""The hold-and-spin's exact analysis of a 5x3 lines game with ten coin values (a 12-stop reel
set, its 248,832 stop combinations enumerated by coin count, and the absorbing chain over
(coins held, respins left) for every count that triggers), beside its baseline measured in the
same run: live play's rounds per second, and the time live play would take to give the RTP to
within 0.1 percentage point at 99% (``(2.5758 sigma / 0.001)^2`` rounds, ``sigma`` the round's
exact standard deviation). The chain alone is timed too. Times are wall seconds, best of three,
after one run that compiles (or loads) the enumeration. The simulation kernel is measured in
the same run beside live play, in rounds per CPU second of this process (best of three runs
of ``KERNEL_ROUNDS`` rounds, after one that compiles or loads it), with the time it would take
to give the RTP to the same precision.
"""

from __future__ import annotations

import sys
import tempfile
import time
from decimal import Decimal
from pathlib import Path

from reelsmith.analysis import kernel as k
from reelsmith.analysis.analyzer import analyze
from reelsmith.analysis.chunks import chunk_stream
from reelsmith.engine import round as core
from reelsmith.engine.bets import CoinBet
from reelsmith.engine.model import load_model
from reelsmith.mechanics import composition
from reelsmith.mechanics.gamble.live import OPTIONS, RoundOptions
from reelsmith.mechanics.hold_and_spin.chain import feature_moments
from reelsmith.mechanics.hold_and_spin.rules import hold_and_spin_rules
from reelsmith.rng import SeededSource

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.mechanics.hold_title import MODEL as TEST_MODEL  # noqa: E402
from tests.mechanics.hold_title import VARIANT as TEST_VARIANT  # noqa: E402

TEN_VALUES = """
[hold_and_spin.values]  # ten coin values: total bets, or a jackpot tier
1 = 1500
2 = 300
3 = 150
5 = 100
8 = 60
10 = 50
25 = 40
mini = 30
minor = 15
major = 5
"""


def _replaced(text: str, *pairs: tuple[str, str]) -> str:
    """``text`` with each ``(old, new)`` replaced; AssertionError when an ``old`` is missing
    (the test title changed under the bench)."""
    for old, new in pairs:
        assert old in text, old
        text = text.replace(old, new)
    return text


#: The test suite's 5x3 hold-and-spin title with ten coin values, coins landing one time in 41
#: and one coin size; its strips with a second coin on reels 2 and 4.
MODEL = (
    _replaced(
        TEST_MODEL,
        ('id = "hold"', 'id = "bench-hold"'),
        ('name = "Hold"', 'name = "Bench Hold"'),
        ("land = { coin = 1, blank = 24 }", "land = { coin = 1, blank = 40 }"),
        ("values = { 2 = 40, 5 = 25, 10 = 15, 20 = 10, 50 = 5, mini = 4, minor = 1 }\n", ""),
        ("coins_per_line = { min = 1, max = 2 }", "coins_per_line = { min = 1, max = 1 }"),
        ('coin_sizes = ["0.01", "0.10"]', 'coin_sizes = ["0.01"]'),
        ("max_total_coins = 10", "max_total_coins = 5"),
    )
    + TEN_VALUES
)
VARIANT = _replaced(
    TEST_VARIANT,
    ('"wild", "lime", "plum", "lime"]', '"wild", "lime", "plum", "lime", "coin"]'),
    ('"plum", "lime", "bell", "lime"]', '"plum", "lime", "bell", "lime", "coin"]'),
    ("{rtp}", "0.9"),
)

LIVE_ROUNDS = 20_000
KERNEL_ROUNDS = 5_000_000
Z_99 = 2.5758
PRECISION = 0.001  # the RTP to within 0.1 percentage point


def best(run: object, repeats: int = 3) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    folder = Path(tempfile.mkdtemp()) / "bench-hold"
    (folder / "variants").mkdir(parents=True)
    (folder / "model.toml").write_text(MODEL, encoding="utf-8")
    (folder / "variants" / "main.toml").write_text(VARIANT, encoding="utf-8")
    model = load_model(folder)
    rules = hold_and_spin_rules(model)
    exact = analyze(model)  # compiles (or loads) the enumeration before the clock starts
    whole = best(lambda: analyze(model))
    chain = best(lambda: [feature_moments(rules, k) for k in range(rules.trigger, rules.cells + 1)])
    comp = composition(model)
    source = SeededSource(5)
    options = {OPTIONS: RoundOptions(gamble_allowed=False)}
    start = time.perf_counter()
    for _ in range(LIVE_ROUNDS):
        core.start_round(
            comp, CoinBet(5, 1, Decimal("0.01")), core.Stake(5, 1), source, parts=options
        )
    rate = LIVE_ROUNDS / (time.perf_counter() - start)
    game = k.KernelGame.build(model)
    game.run(chunk_stream(0, 0), 1_000)  # compiles (or loads) the kernel
    cpu = []
    for index in range(3):
        began = time.process_time()
        game.run(chunk_stream(1, index), KERNEL_ROUNDS)
        cpu.append(time.process_time() - began)
    kernel_rate = KERNEL_ROUNDS / min(cpu)
    needed = (Z_99 * exact.std_dev / PRECISION) ** 2
    print(
        f"{model.name}: 5x3, {len(rules.values)} coin values, {exact.cycle:,} stop combinations; "
        f"exact RTP {float(exact.rtp):.6%}, standard deviation {exact.std_dev:.4f}"
    )
    print(f"  exact analysis (enumeration and chain)   {whole:>10.3f} s")
    print(f"  the chain alone, every start count       {chain:>10.3f} s")
    print(f"  live play (baseline)                     {rate:>10,.0f} rounds/s")
    print(
        f"  live play to +-0.1 point at 99%          {needed / rate:>10,.0f} s "
        f"({needed:,.0f} rounds)   x{needed / rate / whole:,.0f} the exact analysis"
    )
    print(
        f"  simulation kernel                        {kernel_rate:>10,.0f} rounds per CPU s "
        f"(x{kernel_rate / rate:,.0f} live play)"
    )
    print(
        f"  kernel to +-0.1 point at 99%             {needed / kernel_rate:>10,.1f} s "
        f"x{needed / kernel_rate / whole:,.1f} the exact analysis"
    )


if __name__ == "__main__":
    main()
