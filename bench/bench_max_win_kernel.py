"""What the max-win cap costs the kernel, one core, beside its baseline in the same run: each
shipped lines title without the ladder (Aurora Fox, Days of the Tsar) as shipped (no cap: the
loop compares each round with a cap of 0 and moves on), the same tables with a cap above any
round's win (the cap's test made on every screen, never biting) and with a cap of 20 x the
bet (rounds cut, free spins stopped). The rounds are the kernel's own loop; a cap is one
integer of the game tuple, so no variant of the loop is compiled for it.

Rates are per CPU second of this process (``time.process_time``).
"""

from __future__ import annotations

import dataclasses
import time

from reelsmith.analysis.kernel import S_CAP_HITS, S_WIN, KernelGame
from reelsmith.analysis.simulation import chunk_stream
from reelsmith.games import load_game

TITLES = ("aurora-fox", "days-of-the-tsar")
ROUNDS = 5_000_000


def rate(game: KernelGame, rounds: int, repeats: int = 3) -> tuple[float, float, float]:
    """Best rounds per CPU second over ``repeats`` runs; the last run's RTP and cap share."""
    best = rtp = hits = 0.0
    for repeat in range(repeats):
        start = time.process_time()
        stats, _, _ = game.run(chunk_stream(7, repeat), rounds)
        best = max(best, rounds / (time.process_time() - start))
        rtp = stats[S_WIN] / (rounds * game.total_bet)
        hits = stats[S_CAP_HITS] / rounds
    return best, rtp, hits


def main() -> None:
    print(f"{'kernel, whole game, one core':<52}{'rounds/CPU s':>14}{'RTP':>11}{'capped':>10}")
    for title in TITLES:
        game = KernelGame.build(load_game(title))
        game.run(chunk_stream(7, 9), 1_000)  # compiled (or loaded) before the clock starts
        cases = (
            ("as shipped, no cap (baseline)", game),
            ("cap above every win", dataclasses.replace(game, cap_coins=2**62)),
            ("cap at 20x bet", dataclasses.replace(game, cap_coins=20 * game.total_bet)),
        )
        base = 0.0
        print(title)
        for label, played in cases:
            found, rtp, hits = rate(played, ROUNDS)
            base = base or found
            print(
                f"  {label:<50}{found:>14,.0f}{rtp:>11.4%}{hits:>10.5%}"
                f"   x{found / base:.3f} baseline"
            )
    print(f"({ROUNDS:,} rounds per run, best of 3)")


if __name__ == "__main__":
    main()
