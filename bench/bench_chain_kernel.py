"""Whole-game simulation speed of a cascade title on the kernel, one core, beside its baseline
measured in the same run: Crystal Caverns (5x3, 243 ways, cascades under a climbing
multiplier, free spins on their own reels), each spin's chain read from the table of every
stop combination's chain (:class:`reelsmith.mechanics.cascade.kernel.Outcomes`) against the
same kernel playing every chain screen by screen. Both play the same rounds from the same
streams and must give the same statistics; the table's build (every chain of both reel sets
played once, on every core) is timed apart, as the seconds it costs before the first round.

Rates are per CPU second of this process (``time.process_time``), best of three runs after a
compiling run.
"""

from __future__ import annotations

import dataclasses
import time

import numpy as np

from reelsmith.analysis.kernel import S_ROUNDS, S_WIN, KernelGame
from reelsmith.analysis.simulation import chunk_stream
from reelsmith.games import load_game

ROUNDS = 4_000_000
RUNS = 3


def rate(game: KernelGame, rounds: int) -> tuple[float, list[int]]:
    """The best rounds per CPU second of ``RUNS`` runs of ``rounds`` rounds, and the last
    run's statistics."""
    best = 0.0
    stats: list[int] = []
    for _ in range(RUNS):
        started = time.process_time()
        found, _floats, _batches = game.run(chunk_stream(2026, 0), rounds)
        best = max(best, rounds / (time.process_time() - started))
        stats = [int(x) for x in found]
    return best, stats


def main() -> None:
    model = load_game("crystal-caverns")
    for variant in ("96.00", "94.00"):
        wall, cpu = time.perf_counter(), time.process_time()
        game = KernelGame.build(model, variant)
        built = time.perf_counter() - wall, time.process_time() - cpu
        chain = game.chain
        assert chain.base_outcomes is not None and chain.free_outcomes is not None
        screens = dataclasses.replace(
            game, chain=dataclasses.replace(chain, base_outcomes=None, free_outcomes=None)
        )
        for warm in (game, screens):  # compile (or load) before anything is timed
            warm.run(chunk_stream(0, 0), 1_000)
        combinations = chain.base_outcomes.rows.shape[0] + chain.free_outcomes.rows.shape[0]
        baseline, played = rate(screens, ROUNDS // 4)
        read, stats = rate(game, ROUNDS)
        # the same rounds from the same stream: the table's first quarter against the baseline
        same, _f, _b = game.run(chunk_stream(2026, 0), ROUNDS // 4)
        assert np.array_equal(same, played), "the table and the chains disagree"
        print(f"crystal-caverns {variant} (5x3, 243 ways, cascades, free spins)   rounds/CPU s")
        print(f"  baseline: every chain played screen by screen   {baseline:14,.0f}")
        ratio = read / baseline
        print(f"  each spin's chain read from the table          {read:14,.0f}   x{ratio:.2f}")
        print(
            f"  (table: {combinations:,} stop combinations of both reel sets, built in "
            f"{built[0]:.1f} s wall, {built[1]:.1f} s CPU with the model's other tables; "
            f"{int(stats[S_ROUNDS]):,} rounds a run, last run RTP "
            f"{100 * stats[S_WIN] / (stats[S_ROUNDS] * game.total_bet):.4f}%)"
        )


if __name__ == "__main__":
    main()
