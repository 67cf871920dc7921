"""Whole-game simulation speed of the shipped catalogue titles (Days of the Tsar: egg reveals
and per-egg retriggers; Aurora Fox: a doubling wild, spins by table, retriggers and a free-spin
multiplier) on one core: the generic catalogue kernel against a naive pure-Python evaluator of
the same model, measured in the same run.

The naive evaluator is written from the catalogue's rules (no tables, no numba, none of the
engine's functions): symbol ids, dicts and lists. It draws from the same seeded numpy stream in
the same order as live play; before anything is timed its rounds are compared with the
kernel's over the same draws, and must agree exactly.

Rates are per CPU second of this process (``time.process_time``): the figure per core, and
one that other work on the machine disturbs much less than wall-clock time.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from reelsmith.analysis.kernel import S_WIN, KernelGame
from reelsmith.analysis.simulation import chunk_stream
from reelsmith.engine.catalogue import RETRIGGER_PER_SYMBOL, RETRIGGER_TABLE, mechanics
from reelsmith.engine.model import GameModel
from reelsmith.games import load_game

TITLES = ("days-of-the-tsar", "aurora-fox")
Draw = Callable[[int], int]


class NaiveCatalogue:
    """A catalogue model in plain Python, one coin on every payline."""

    def __init__(self, model: GameModel, variant_id: str | None = None) -> None:
        rules = mechanics(model)
        variant = model.variant(variant_id)
        ids = model.symbol_ids
        self.rows = model.rows
        self.reels = model.reels
        self.strips = {
            name: [[ids[int(s)] for s in strip] for strip in rs.strips]
            for name, rs in variant.reel_sets.items()
        }
        self.paylines = model.paylines.tolist()
        self.lines = model.line_count
        self.wild = ids[model.wild] if model.wild >= 0 else None
        self.substitutable = {ids[i] for i, ok in enumerate(model.substitutable) if ok}
        self.wild_multiplier = model.wild_multiplier
        self.ties_to_wild = model.ties_to_wild
        self.scatter = ids[model.scatter] if model.scatter >= 0 else None
        self.scatter_reels = set(model.scatter_reels)
        free = rules.free_spins
        self.free = free
        pays = {
            ids[s]: {c: int(model.line_pays[s, c]) for c in range(1, self.reels + 1)}
            for s in range(len(ids))
        }
        scatter_pays = [int(p) for p in model.scatter_pays]
        self.pays = {"base": (pays, scatter_pays)}
        if free is None:
            return
        free_pays = {s: {c: p * free.multiplier for c, p in row.items()} for s, row in pays.items()}
        for symbol, count, multiplier in free.exceptions:
            free_pays[ids[symbol]][count] = pays[ids[symbol]][count] * multiplier
        if not model.scatter_pays_in_free_spins:
            free_scatter = [0] * len(scatter_pays)
        elif free.multiply_scatter:
            free_scatter = [p * free.multiplier for p in scatter_pays]
        else:
            free_scatter = scatter_pays
        self.pays["free"] = (free_pays, free_scatter)
        self.free_set = free.reel_set
        self.trigger_symbol = ids[free.symbol]
        self.trigger_reels = {r for r in range(self.reels) if rules.trigger_mask[r]}
        self.spins_table = [int(x) for x in free.spins]
        self.retrigger_table = [int(x) for x in free.retrigger_spins]
        self.reveal = None
        if free.reveal is not None:
            values, weights = free.reveal_table(variant)
            self.reveal = (list(zip(values, weights, strict=True)), sum(weights))

    def line_pay(self, cells: list[str], pays: dict[str, dict[int, int]]) -> int:
        """One payline: the wild run or the substituted run, the higher pays (ties as the
        model says); a run the wild completes pays the wild multiplier."""
        wild = self.wild
        wild_run = 0
        while wild is not None and wild_run < len(cells) and cells[wild_run] == wild:
            wild_run += 1
        wild_pay = pays[wild].get(wild_run, 0) if wild is not None else 0
        if wild_run == len(cells) or cells[wild_run] not in self.substitutable:
            return wild_pay
        symbol = cells[wild_run]
        run = wild_run + 1
        while run < len(cells) and cells[run] in (symbol, wild):
            run += 1
        pay = pays[symbol].get(run, 0)
        if wild is not None and wild in cells[:run]:
            pay *= self.wild_multiplier
        if pay > wild_pay or (pay == wild_pay and not self.ties_to_wild):
            return pay
        return wild_pay

    def screen(self, name: str, kind: str, draw: Draw) -> tuple[int, int]:
        strips = self.strips[name]
        stops = [draw(len(strip)) for strip in strips]
        grid = [
            [strip[(stop + row) % len(strip)] for strip, stop in zip(strips, stops, strict=True)]
            for row in range(self.rows)
        ]
        pays, scatter_pays = self.pays[kind]
        win = sum(
            self.line_pay([grid[row][reel] for reel, row in enumerate(line)], pays)
            for line in self.paylines
        )
        if self.scatter is not None:
            scattered = sum(
                grid[row][reel] == self.scatter
                for row in range(self.rows)
                for reel in self.scatter_reels
            )
            win += scatter_pays[min(scattered, len(scatter_pays) - 1)] * self.lines
        shown = 0
        if self.free is not None:
            shown = sum(
                grid[row][reel] == self.trigger_symbol
                for row in range(self.rows)
                for reel in self.trigger_reels
            )
        return win, shown

    def round(self, draw: Draw) -> int:
        win, shown = self.screen("base", "base", draw)
        free = self.free
        if free is None or shown < free.trigger:
            return win
        if self.reveal is None:
            awarded = self.spins_table[min(shown, len(self.spins_table) - 1)]
        else:
            table, total = self.reveal
            awarded = 0
            for _ in range(shown):
                value = draw(total)
                for spins, weight in table:
                    if value < weight:
                        awarded += spins
                        break
                    value -= weight
        if free.max_spins:
            awarded = min(awarded, free.max_spins)
        remaining = awarded
        while remaining > 0:
            free_win, shown = self.screen(self.free_set, "free", draw)
            win += free_win
            if free.retrigger == RETRIGGER_TABLE:
                added = self.retrigger_table[min(shown, len(self.retrigger_table) - 1)]
            elif free.retrigger == RETRIGGER_PER_SYMBOL:
                added = shown * free.spins_per_symbol
            else:
                added = 0
            if free.max_spins:
                added = max(0, min(added, free.max_spins - awarded))
            awarded += added
            remaining += added - 1
        return win


def main() -> None:
    n_check, n_naive, n_kernel = 20_000, 50_000, 20_000_000
    print(f"{'whole game (free spins included)':<44}{'rounds/CPU s':>14}")
    for title in TITLES:
        model = load_game(title)
        game = KernelGame.build(model)
        naive = NaiveCatalogue(model)

        # Agreement first (this also compiles the kernel): same stream, same rounds.
        results, _draws, _, _ = game.trace(chunk_stream(2024, 0), n_check)
        generator = np.random.Generator(
            np.random.PCG64(np.random.SeedSequence(2024, spawn_key=(0,)))
        )

        def draw(bound: int, generator: np.random.Generator = generator) -> int:
            return int(generator.integers(0, bound))

        naive_wins = [naive.round(draw) for _ in range(n_check)]
        assert naive_wins == [int(w) for w in results[:, 0]], f"{title}: naive and kernel differ"

        start = time.process_time()
        for _ in range(n_naive):
            naive.round(draw)
        naive_rate = n_naive / (time.process_time() - start)

        best = 0.0
        for repeat in range(3):
            start = time.process_time()
            stats, _ = game.run(chunk_stream(7, repeat), n_kernel)
            best = max(best, n_kernel / (time.process_time() - start))
        rtp = stats[S_WIN] / (n_kernel * game.total_bet)
        print(f"{title} ({model.line_count} lines)")
        print(f"  {'naive pure Python':<42}{naive_rate:>14,.0f}")
        print(
            f"  {'generic catalogue kernel (1 core)':<42}{best:>14,.0f}   x{best / naive_rate:,.0f}"
        )
        print(f"  (last run RTP {rtp:.4%})")
    print(f"(kernel: {n_kernel:,} rounds per run, best of 3; naive: {n_naive:,} rounds)")


if __name__ == "__main__":
    main()
