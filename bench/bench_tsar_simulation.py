"""Whole-game simulation speed of Days of the Tsar (base spin, egg reveals, free spins with
retriggers) on one core: the generic catalogue kernel, on the title's catalogue model, against
a naive pure-Python evaluator of the same game, measured in the same run.

The naive evaluator is written from the rules (no tables, no numba) and draws from the same
seeded numpy stream in the same order as live play; before anything is timed its rounds are
compared with the kernel's over the same draws, and must agree exactly.

Rates are per CPU second of this process (``time.process_time``): the figure per core, and
one that other work on the machine disturbs much less than wall-clock time.
"""

from __future__ import annotations

import time

import numpy as np

from reelsmith.analysis.kernel import KernelGame
from reelsmith.analysis.simulation import chunk_stream
from reelsmith.games import load_game


def naive_line_pay(cells, line_pays, wild, substitutable):
    """One payline from the rules: the wild run or the substituted run, the higher pays."""
    wild_run = 0
    while wild_run < len(cells) and cells[wild_run] == wild:
        wild_run += 1
    best = line_pays[wild].get(wild_run, 0)
    if wild_run < len(cells) and cells[wild_run] in substitutable:
        symbol = cells[wild_run]
        run = wild_run + 1
        while run < len(cells) and cells[run] in (symbol, wild):
            run += 1
        best = max(best, line_pays[symbol].get(run, 0))
    return best


class NaiveTsar:
    """Days of the Tsar in plain Python: symbol ids, dicts and lists."""

    def __init__(self, model, variant_id=None):
        variant = model.variant(variant_id)
        ids = model.symbol_ids
        self.strips = {
            name: [[ids[int(s)] for s in strip] for strip in rs.strips]
            for name, rs in variant.reel_sets.items()
        }
        self.paylines = model.paylines.tolist()
        self.line_pays = {
            ids[s]: {c: int(model.line_pays[s, c]) for c in range(6) if model.line_pays[s, c]}
            for s in range(len(ids))
        }
        self.scatter_pays = [int(p) for p in model.scatter_pays]
        self.substitutable = {s.id for s in model.symbols if s.role == "regular"}
        self.wild, self.egg = ids[model.wild], ids[model.scatter]
        reveal = variant.parameters["egg_reveal"]
        self.reveal = list(zip(reveal["values"], reveal["weights"], strict=True))
        self.reveal_total = sum(reveal["weights"])

    def screen(self, name, draw):
        strips = self.strips[name]
        stops = [draw(len(strip)) for strip in strips]
        grid = [
            [strip[(stop + row) % len(strip)] for strip, stop in zip(strips, stops, strict=False)]
            for row in range(3)
        ]
        lines = sum(
            naive_line_pay(
                [grid[row][reel] for reel, row in enumerate(line)],
                self.line_pays,
                self.wild,
                self.substitutable,
            )
            for line in self.paylines
        )
        eggs = sum(row.count(self.egg) for row in grid)
        return lines + self.scatter_pays[min(eggs, 5)] * 25, eggs

    def round(self, draw):
        win, eggs = self.screen("base", draw)
        remaining = 0
        if eggs >= 3:
            for _ in range(eggs):
                value = draw(self.reveal_total)
                for spins, weight in self.reveal:
                    if value < weight:
                        remaining += spins
                        break
                    value -= weight
        while remaining:
            free_win, free_eggs = self.screen("free_spins", draw)
            win += free_win
            remaining += free_eggs - 1
        return win


def main() -> None:
    model = load_game("days-of-the-tsar")
    game = KernelGame.build(model)
    naive = NaiveTsar(model)
    n_check, n_naive, n_kernel = 20_000, 50_000, 20_000_000

    # Agreement first (this also compiles the kernel): same stream, same rounds.
    results, _draws, _, _ = game.trace(chunk_stream(2024, 0), n_check)
    generator = np.random.Generator(np.random.PCG64(np.random.SeedSequence(2024, spawn_key=(0,))))

    def draw(bound):
        return int(generator.integers(0, bound))

    naive_wins = [naive.round(draw) for _ in range(n_check)]
    assert naive_wins == [int(w) for w in results[:, 0]], "naive and kernel rounds differ"
    game.run(chunk_stream(1, 0), 1000)

    start = time.process_time()
    for _ in range(n_naive):
        naive.round(draw)
    naive_rate = n_naive / (time.process_time() - start)

    best = 0.0
    for repeat in range(3):
        start = time.process_time()
        stats, _ = game.run(chunk_stream(7, repeat), n_kernel)
        best = max(best, n_kernel / (time.process_time() - start))
    rtp = stats[1] / (n_kernel * 25)
    print(f"{'whole game (free spins included)':<36}{'rounds/CPU s':>14}")
    print(f"{'naive pure Python':<36}{naive_rate:>14,.0f}")
    print(f"{'generic kernel (1 core)':<36}{best:>14,.0f}   x{best / naive_rate:,.0f}")
    print(f"(kernel: {n_kernel:,} rounds per run, best of 3; last run RTP {rtp:.4%})")


if __name__ == "__main__":
    main()
