"""Whole-game simulation speed of a game whose cells are drawn one by one (``[cells]``), one
core, beside baselines measured in the same run: the same game on reel strips (each reel's
strip its cell table's symbols, each as many times as its weight, in a fixed shuffled order:
the same symbol law per cell, one stop draw per reel instead of one draw per cell) on the same
kernel, and the live engine's round loop on the drawn cells.

The game is the test suite's ``grand_cells`` (5x3, nine symbols, 729 windows per reel, 10
paylines, free spins on their own tables). Rates are per CPU second of this process
(``time.process_time``), best of three kernel runs after one that compiles (or loads) it.
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from decimal import Decimal
from pathlib import Path

from reelsmith.analysis.catalogue_exact import analyze_rtp
from reelsmith.analysis.kernel import S_WIN, KernelGame
from reelsmith.analysis.simulation import chunk_stream
from reelsmith.engine import round as core
from reelsmith.engine.bets import CoinBet
from reelsmith.engine.model import GameModel, load_model
from reelsmith.mechanics import composition
from reelsmith.mechanics.gamble.live import OPTIONS, RoundOptions
from reelsmith.rng import SeededSource

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.mechanics.cells_title import GRAND_MODEL, grand_cells, write  # noqa: E402

KERNEL_ROUNDS = 5_000_000
LIVE_ROUNDS = 3_000


def strips_twin(model: GameModel, folder: Path) -> GameModel:
    """The game on strips: every reel's strip its table's symbols by weight, shuffled."""
    shuffle = random.Random(2026)
    out = ['id = "main"']
    for name, reel_set in model.variant().reel_sets.items():
        assert reel_set.cells is not None
        strips = []
        for table in reel_set.cells:
            strip = [model.symbol_id(s) for s, w in table for _ in range(w)]
            shuffle.shuffle(strip)
            strips.append("[" + ", ".join(f'"{s}"' for s in strip) + "]")
        out += ["", f"[reel_sets.{name}]", "strips = [", *(f"  {s}," for s in strips), "]"]
    model_text = GRAND_MODEL.replace("[cells]\n", "")
    return load_model(write(folder, model_text, "\n".join(out) + "\n[figures]\nrtp = 1.0\n"))


def kernel_rate(game: KernelGame, rounds: int) -> tuple[float, float]:
    game.run(chunk_stream(7, 99), 10_000)  # compile or load
    best, rtp = 0.0, 0.0
    for repeat in range(3):
        start = time.process_time()
        stats, _, _ = game.run(chunk_stream(7, repeat), rounds)
        best = max(best, rounds / (time.process_time() - start))
        rtp = stats[S_WIN] / (rounds * game.total_bet)
    return best, rtp


def live_rate(model: GameModel, rounds: int) -> float:
    comp = composition(model)
    bet = CoinBet(10, 1, Decimal("0.01"))
    stake = core.Stake(10, 1)
    options = {OPTIONS: RoundOptions(gamble_allowed=False)}
    source = SeededSource(5)
    start = time.process_time()
    for _ in range(rounds):
        core.finish(comp, core.start_round(comp, bet, stake, source, parts=options), source)
    return rounds / (time.process_time() - start)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        cells = load_model(grand_cells(Path(tmp) / "cells"))
        strips = strips_twin(cells, Path(tmp) / "strips")
        print(f"{'grand cells (5x3, 10 lines, free spins)':<52}{'rounds/CPU s':>14}{'RTP':>10}")
        exact = float(analyze_rtp(cells).rtp)
        rate, rtp = kernel_rate(KernelGame.build(cells), KERNEL_ROUNDS)
        print(f"{'kernel, drawn cells (15 cell draws a screen)':<52}{rate:>14,.0f}{rtp:>10.4%}")
        base, base_rtp = kernel_rate(KernelGame.build(strips), KERNEL_ROUNDS)
        label = "baseline: kernel, the same law on strips (5 draws)"
        print(f"{label:<52}{base:>14,.0f}{base_rtp:>10.4%}")
        live = live_rate(cells, LIVE_ROUNDS)
        print(f"{'baseline: live engine, drawn cells':<52}{live:>14,.0f}")
        print(
            f"exact RTP {exact:.4%}; drawn cells at {rate / base:.2f}x the strips' rate and "
            f"{rate / live:,.0f}x the live engine's"
        )


if __name__ == "__main__":
    main()
