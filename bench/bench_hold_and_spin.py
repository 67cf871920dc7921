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

MODEL = """\
id = "bench-hold"
name = "Bench Hold"
reels = 5
rows = 3
default_variant = "main"
paylines = [[1, 1, 1, 1, 1], [0, 0, 0, 0, 0], [2, 2, 2, 2, 2], [0, 1, 2, 1, 0], [2, 1, 0, 1, 2]]

[[symbols]]
id = "wild"
name = "Wild"
role = "wild"

[[symbols]]
id = "bell"
name = "Bell"
role = "regular"

[[symbols]]
id = "plum"
name = "Plum"
role = "regular"

[[symbols]]
id = "lime"
name = "Lime"
role = "regular"

[[symbols]]
id = "coin"
name = "Coin"
role = "bonus"

[line_pays]
wild = { 5 = 50 }
bell = { 3 = 5, 4 = 15, 5 = 40 }
plum = { 3 = 2, 4 = 6, 5 = 20 }
lime = { 3 = 1, 4 = 3, 5 = 10 }

[hold_and_spin]
symbol = "coin"
trigger = 6
respins = 3
land = { coin = 1, blank = 40 }
full_grid = "grand"
jackpots = { mini = 20, minor = 50, major = 250, grand = 1000 }

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

[bet]
lines = { min = 5, max = 5 }
coins_per_line = { min = 1, max = 1 }
coin_sizes = ["0.01"]
max_total_coins = 5
default = { lines = 5, coins_per_line = 1, coin_size = "0.01" }
"""

VARIANT = """\
id = "main"

[reel_sets.base]
strips = [
  ["bell", "coin", "plum", "lime", "wild", "lime", "plum", "lime", "bell", "lime", "plum", "coin"],
  ["plum", "coin", "lime", "bell", "plum", "lime", "plum", "wild", "lime", "plum", "lime", "coin"],
  ["lime", "coin", "bell", "plum", "lime", "wild", "lime", "plum", "bell", "lime", "coin", "plum"],
  ["bell", "lime", "coin", "plum", "lime", "plum", "wild", "plum", "lime", "bell", "lime", "coin"],
  ["lime", "coin", "plum", "bell", "lime", "plum", "wild", "lime", "bell", "plum", "lime", "coin"],
]

[figures]
rtp = 0.9
"""

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
