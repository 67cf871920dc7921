"""Full-cycle enumeration speed of a cascade game, beside baselines measured in the same run: the
same compiled enumeration reading every first screen in full (no payline or scatter decided
from the first reels), and the live engine's composed round (Python) played at stop
combinations of the cycle, its rate extrapolated to the cycle; and the simulation kernel's
rounds (free spins played out) per CPU second beside live play's base spins.

The game is a reel set of the external cascade corpus (``../shared/external/slotopol-cascade/``
or ``REELSMITH_SHARED_DIR``), converted at run time: CT Win Storm (5x3, 30 lines, a paying
scatter, cascades to 20 screens). The two enumerations must agree on every figure and give the
stated RTP before anything is reported (live play against the enumeration over a whole cycle is
the test suite's, on a small title). Times are wall seconds on every core and CPU seconds of
this process (``time.process_time``, all threads).
"""

from __future__ import annotations

import importlib.util
import itertools
import sys
import tempfile
import time
from decimal import Decimal
from pathlib import Path
from types import ModuleType

from reelsmith.analysis import kernel as k
from reelsmith.analysis.pcg64 import stream_state
from reelsmith.engine import round as core
from reelsmith.engine.bets import CoinBet
from reelsmith.engine.model import load_model
from reelsmith.mechanics import composition
from reelsmith.mechanics.cascade.exact import chain_law
from reelsmith.mechanics.gamble.live import OPTIONS, RoundOptions
from reelsmith.rng import Draw, ReplaySource

ROOT = Path(__file__).resolve().parents[1]
GAME = "ct-winstorm"
#: Stop combinations live play is timed on (spread over the cycle).
LIVE_SAMPLE = 20_000
#: Rounds the simulation kernel plays (free spins played out).
KERNEL_ROUNDS = 2_000_000


def converter() -> ModuleType:
    """The test suite's cascade corpus converter (``tests/catalogue/slotopol_cascade.py``)."""
    sys.path.insert(0, str(ROOT))
    path = ROOT / "tests" / "catalogue" / "slotopol_cascade.py"
    spec = importlib.util.spec_from_file_location("slotopol_cascade_converter", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def timed(run):  # type: ignore[no-untyped-def]
    wall, cpu = time.perf_counter(), time.process_time()
    result = run()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    convert = converter()
    with tempfile.TemporaryDirectory() as folder:
        stated = convert.convert(convert.corpus_game(GAME), Path(folder) / GAME)
        model = load_model(Path(folder) / GAME)
        key = min(stated, key=lambda k: stated[k]["reshuffles"])
        reel_set = model.variant(key).reel_sets["base"]
        cycle = stated[key]["reshuffles"]
        print(f"{GAME} reel set {key}: {cycle:,} stop combinations")
        # compile both routes on the same signature before timing
        chain_law.cache_clear()
        _, compile_wall, _ = timed(lambda: chain_law(model, key, False))
        print(f"  first call (compiling or loading the cached kernel): {compile_wall:.1f} s")
        chain_law.cache_clear()
        pruned, wall, cpu = timed(lambda: chain_law(model, key, False))
        chain_law.cache_clear()
        full, full_wall, full_cpu = timed(lambda: chain_law(model, key, False, False))
        assert pruned == full, "the pruned and the full enumeration disagree"
        rtp = pruned.pay / (pruned.cycle * model.line_count) * 100
        assert abs(rtp - stated[key]["rtp_pct"]) <= 0.5e-6, (rtp, stated[key]["rtp_pct"])
        comp = composition(model)
        bet, stake = CoinBet(model.line_count, 1, Decimal("1.00")), core.Stake(model.line_count, 1)
        lengths = [int(n) for n in reel_set.lengths]
        step = max(1, cycle // LIVE_SAMPLE)
        sample = itertools.islice(itertools.product(*(range(n) for n in lengths)), 0, None, step)
        combos = list(itertools.islice(sample, LIVE_SAMPLE))

        def live() -> int:
            total = 0
            for stops in combos:
                draws = [Draw("reel_stop", n, s) for n, s in zip(lengths, stops, strict=True)]
                played = core.start_round(
                    comp, bet, stake, ReplaySource(draws), parts={OPTIONS: RoundOptions(False)}
                )
                total += played.spins[0].win_coins
            return total

        _, live_wall, live_cpu = timed(live)
        live_rate = len(combos) / live_cpu
        game = k.KernelGame.build(model, key)
        game.run(stream_state(0), 1_000)  # compiled or loaded before it is timed
        (stats, _squares, _), kernel_wall, kernel_cpu = timed(
            lambda: game.run(stream_state(1), KERNEL_ROUNDS)
        )
        simulated = stats[k.S_WIN] / (KERNEL_ROUNDS * game.total_bet) * 100
        print(f"  RTP {rtp:.6f}% (stated {stated[key]['rtp_pct']:.6f}%)")
        print(
            f"  enumeration, first reels decide:  {wall:6.1f} s wall, {cpu:6.1f} s CPU, "
            f"{cycle / cpu:>13,.0f} combinations per CPU s"
        )
        print(
            f"  enumeration, every screen read:   {full_wall:6.1f} s wall, {full_cpu:6.1f} s CPU, "
            f"{cycle / full_cpu:>13,.0f} combinations per CPU s (x{full_cpu / cpu:.2f} slower)"
        )
        print(
            f"  live play ({len(combos):,} combinations): {live_wall:6.1f} s wall, "
            f"{live_rate:>13,.0f} combinations per CPU s; the cycle would take "
            f"{cycle / live_rate / 3600:,.1f} CPU hours (x{cycle / live_rate / cpu:,.0f} the "
            "enumeration)"
        )
        print(
            f"  simulation kernel ({KERNEL_ROUNDS:,} rounds, RTP {simulated:.4f}%): "
            f"{kernel_wall:6.1f} s wall, {KERNEL_ROUNDS / kernel_cpu:>13,.0f} rounds per CPU s "
            f"(x{KERNEL_ROUNDS / kernel_cpu / live_rate:,.0f} live play's base spins)"
        )


if __name__ == "__main__":
    main()
