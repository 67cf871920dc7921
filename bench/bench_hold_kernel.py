"""Whole-game simulation speed of a hold-and-spin title on the kernel, one core, beside a
baseline measured in the same run: Lucky Lanterns (5x3, 20 paylines, six Lanterns start three
respins of coins with values and four jackpot tiers). The kernel pays a base spin's paylines
as the catalogue kernel does (the line rule's automaton over the paylines its prefix entry
leaves open, :class:`~reelsmith.analysis.kernel.tables.ReelTables`); the baseline is a
straightforward compiled loop of the base game alone, each payline of each screen paid by the
line rule itself (:func:`~reelsmith.engine.lines.line_award`), on the same stop draws. Before
anything is timed both pay the same base spins: the baseline's total line win equals the
kernel's base line win over the same stream.

Rates are per CPU second of this process (``time.process_time``), best of three runs after a
compiling run.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from reelsmith.analysis.kernel import R_BASE_LINE, S_ROUNDS, S_WIN, KernelGame
from reelsmith.analysis.pcg64 import load_stream, store_stream, stream_bounded
from reelsmith.analysis.simulation import chunk_stream
from reelsmith.engine.lines import line_award
from reelsmith.games import load_game

ROUNDS = 6_000_000
RUNS = 3


@njit(cache=True, nogil=True)
def _line_rule_loop(rng: npt.NDArray[np.uint64], rounds: int, g: tuple[Any, ...]) -> int:
    """The base game's line win over ``rounds`` spins, each payline paid by the line rule
    (unweighted strips: one draw below each strip's length, as the kernel draws)."""
    padded, lengths, rows, paylines, line_pays, wild, substitutable, multiplier, ties = g
    reels = lengths.shape[0]
    grid = np.empty((rows, reels), dtype=np.int8)
    cells = np.empty(reels, dtype=np.int8)
    stream = load_stream(rng)
    total = 0
    for _ in range(rounds):
        for reel in range(reels):
            stream, stop = stream_bounded(stream, lengths[reel])
            for row in range(rows):
                grid[row, reel] = padded[reel, stop + row]
        for line in range(paylines.shape[0]):
            for reel in range(reels):
                cells[reel] = grid[paylines[line, reel], reel]
            total += line_award(cells, line_pays, wild, substitutable, multiplier, ties)[2]
    store_stream(stream, rng)
    return total


def check_lines(game: KernelGame, base: tuple[Any, ...], rounds: int = 3_000) -> None:
    """The kernel's base line win of each of ``rounds`` traced rounds against the line rule
    on every payline of the screen its recorded stops show."""
    padded, lengths, rows, paylines, line_pays, wild, substitutable, multiplier, ties = base
    results, draws, _stats, _floats = game.trace(chunk_stream(11, 0), rounds)
    for i in range(rounds):
        stops = [int(value) for _kind, _bound, value in np.asarray(draws[i])[: len(lengths)]]
        grid = np.array([[padded[r, s + row] for r, s in enumerate(stops)] for row in range(rows)])
        paid = 0
        for line in paylines:
            cells = np.array([grid[line[r], r] for r in range(len(stops))], dtype=np.int8)
            paid += line_award(cells, line_pays, wild, substitutable, multiplier, ties)[2]
        assert paid == results[i][R_BASE_LINE], f"round {i}: the line tables and the rule differ"


def best(run: Any, rounds: int) -> float:
    fastest = 0.0
    for _ in range(RUNS):
        started = time.process_time()
        run(rounds)
        fastest = max(fastest, rounds / (time.process_time() - started))
    return fastest


def main() -> None:
    model = load_game("lucky-lanterns")
    for variant in ("96.00", "94.00"):
        game = KernelGame.build(model, variant)
        h = game.chain
        assert not h.weighted, "the baseline draws unweighted stops"
        base = (
            h.padded,
            h.lengths,
            h.rows,
            h.paylines,
            h.line_pays,
            h.wild,
            h.substitutable,
            h.wild_multiplier,
            h.ties_to_wild,
        )
        check_lines(game, base)
        kernel = best(lambda n, g=game: g.run(chunk_stream(2026, 0), n), ROUNDS)
        straight = best(lambda n, b=base: _line_rule_loop(chunk_stream(2026, 0), n, b), ROUNDS // 6)
        stats, _floats, _batches = game.run(chunk_stream(2026, 0), ROUNDS)
        rtp = 100 * stats[S_WIN] / (stats[S_ROUNDS] * game.total_bet)
        print(f"lucky-lanterns {variant} (5x3, 20 lines, hold-and-spin)    rounds/CPU s")
        print(f"  baseline: base game only, line rule per payline  {straight:14,.0f}")
        print(
            f"  whole game: kernel, line tables                  {kernel:14,.0f}"
            f"   x{kernel / straight:.2f}"
        )
        print(f"  ({ROUNDS:,} rounds a kernel run, last run RTP {rtp:.4f}%)")


if __name__ == "__main__":
    main()
