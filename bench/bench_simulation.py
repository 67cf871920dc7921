"""Whole-game simulation speed of every shipped title on one core: the one kernel against a
naive pure-Python evaluator of the same model, measured in the same run. The catalogue titles
(Days of the Tsar: egg reveals and per-egg retriggers; Aurora Fox: a doubling wild, spins by
table, retriggers and a free-spin multiplier) and the ladder titles (Sultan Spins: a player's
rounds carrying the local pots, their trigger points and the collection meter, free spins
included) are timed the same way.

The naive evaluators are written from the rules (no tables, no numba, none of the engine's
functions): symbol ids, dicts and lists. They draw from the same seeded numpy stream in the
same order as live play (a ladder player from the same long-run start state as the kernel's);
before anything is timed their rounds are compared with the kernel's over the same draws, and
must agree exactly.

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
from reelsmith.engine.ladder import WILD_REEL, ladder_rules
from reelsmith.engine.model import GameModel
from reelsmith.games import TITLE_FOLDERS, load_game

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


class NaiveLadder:
    """A ladder-and-pots title in plain Python, one player at one bet size (wins in line
    bets)."""

    def __init__(self, model, variant_id=None):
        rules = ladder_rules(model)
        variant = model.variant(variant_id)
        ids = model.symbol_ids
        self.strips = {
            name: [[ids[int(s)] for s in strip] for strip in rs.strips]
            for name, rs in variant.reel_sets.items()
        }
        self.free_name = rules.free_reel_set
        self.paylines = model.paylines.tolist()
        self.line_pays = {
            ids[s]: {
                c: int(model.line_pays[s, c])
                for c in range(model.reels + 1)
                if model.line_pays[s, c]
            }
            for s in range(len(ids))
        }
        self.substitutable = {s.id for s in model.symbols if s.role == "regular"}
        self.wild, self.gem, self.bonus = ids[model.wild], ids[rules.gem], ids[rules.bonus]
        reveal = rules.gem_reveal(variant)
        self.reveal = list(zip(reveal.outcomes, reveal.weights, strict=True))
        self.reveal_total = sum(reveal.weights)
        self.pots = [(j.seed, j.last_trigger) for j in rules.jackpots]
        self.reels, self.rows, self.lines = model.reels, model.rows, model.line_count
        self.multipliers = list(rules.multipliers)
        self.trigger_count = rules.trigger_count
        self.per_level = rules.spins_per_level
        self.spots = rules.spots
        self.per_spot = rules.main_game_bonus_per_spot

    def start(self, draw, raw, meter_cdf):
        """The long-run start state, drawn as the kernel draws it."""
        self.pot, self.trigger = [], []
        for seed, last in self.pots:
            k = last - seed
            index = draw(k * (k + 1) // 2)
            gap = 1
            while index >= gap * (gap + 1) // 2:
                gap += 1
            self.pot.append(seed + index - (gap - 1) * gap // 2)
            self.trigger.append(seed + gap)
        u = (raw() >> 11) / 9007199254740992.0
        self.meter = 0
        while self.meter < len(meter_cdf) - 1 and u >= meter_cdf[self.meter]:
            self.meter += 1

    def reveal_outcome(self, value):
        """The reveal a weighted draw picks."""
        for outcome, weight in self.reveal:
            if value < weight:
                return outcome
            value -= weight
        raise AssertionError("a draw below the total weight always picks a reveal")

    def spin(self, name, draw):
        """One spin: (line pay, jackpot in bets, bonus symbols landed)."""
        strips = self.strips[name]
        stops = [draw(len(strip)) for strip in strips]
        grid = [
            [strip[(stop + row) % len(strip)] for strip, stop in zip(strips, stops, strict=True)]
            for row in range(self.rows)
        ]
        bonus = sum(row.count(self.bonus) for row in grid)
        jackpot = 0
        for reel in range(self.reels):
            for row in range(self.rows):
                if grid[row][reel] != self.gem:
                    continue
                self.pot[reel] += 1
                if self.pot[reel] >= self.trigger[reel]:
                    jackpot += self.pot[reel]
                    seed, last = self.pots[reel]
                    self.pot[reel] = seed
                    self.trigger[reel] = seed + 1 + draw(last - seed)
                    continue
                outcome = self.reveal_outcome(draw(self.reveal_total))
                if outcome == WILD_REEL:
                    for r in range(self.rows):
                        grid[r][reel] = self.wild
                else:
                    grid[row][reel] = outcome
        lines = sum(
            naive_line_pay(
                [grid[row][reel] for reel, row in enumerate(line)],
                self.line_pays,
                self.wild,
                self.substitutable,
            )
            for line in self.paylines
        )
        return lines, jackpot, bonus

    def round(self, draw):
        """One round's win in line bets, carrying the pots and the meter."""
        lines, jackpot, bonus = self.spin("base", draw)
        win = lines + jackpot * self.lines
        if bonus < self.trigger_count:
            if bonus == self.per_spot:
                self.meter = min(self.meter + 1, self.spots)
            return win
        level, unlocked, left = 1, 1, self.per_level
        if self.meter >= self.spots:
            unlocked, self.meter = 2, self.meter - self.spots
        while True:
            lines, jackpot, bonus = self.spin(self.free_name, draw)
            win += lines * self.multipliers[level - 1] + jackpot * self.lines
            self.meter += bonus
            while self.meter >= self.spots and unlocked < len(self.multipliers):
                unlocked += 1
                self.meter -= self.spots
            self.meter = min(self.meter, self.spots)
            left -= 1
            if left == 0:
                if unlocked <= level:
                    return win
                level, left = level + 1, self.per_level


def titles(ladder: bool) -> list[str]:
    """The shipped titles that play the ladder (``ladder``), or the others."""
    from reelsmith.mechanics import declared_names

    return [
        g for g in sorted(TITLE_FOLDERS) if ("ladder" in declared_names(load_game(g))) is ladder
    ]


def kernel_rate(game: KernelGame, rounds: int) -> tuple[float, float]:
    """The kernel's best rounds per CPU second of three runs, and the last run's RTP."""
    best = 0.0
    stats: list[int] = []
    for repeat in range(3):
        start = time.process_time()
        stats, _, _ = game.run(chunk_stream(7, repeat), rounds)
        best = max(best, rounds / (time.process_time() - start))
    return best, stats[S_WIN] / (rounds * game.total_bet)


def print_rates(title: str, lines: int, naive_rate: float, best: float, rtp: float) -> None:
    print(f"{title} ({lines} lines)")
    print(f"  {'naive pure Python':<42}{naive_rate:>14,.0f}")
    print(f"  {'kernel (1 core)':<42}{best:>14,.0f}   x{best / naive_rate:,.0f}")
    print(f"  (last run RTP {rtp:.4%})")


def bench_catalogue(title: str, n_check: int, n_naive: int, n_kernel: int) -> None:
    model = load_game(title)
    game = KernelGame.build(model)
    naive = NaiveCatalogue(model)

    # Agreement first (this also compiles the kernel): same stream, same rounds.
    results, _draws, _, _ = game.trace(chunk_stream(2024, 0), n_check)
    generator = np.random.Generator(np.random.PCG64(np.random.SeedSequence(2024, spawn_key=(0,))))

    def draw(bound: int) -> int:
        return int(generator.integers(0, bound))

    naive_wins = [naive.round(draw) for _ in range(n_check)]
    assert naive_wins == [int(w) for w in results[:, 0]], f"{title}: naive and kernel differ"

    start = time.process_time()
    for _ in range(n_naive):
        naive.round(draw)
    naive_rate = n_naive / (time.process_time() - start)
    print_rates(title, model.line_count, naive_rate, *kernel_rate(game, n_kernel))


def bench_ladder(title: str, n_check: int, n_naive: int, n_kernel: int) -> None:
    model = load_game(title)
    game = KernelGame.build(model)
    assert game.ladder is not None
    naive = NaiveLadder(model)

    # Agreement first (this also compiles the kernel): same stream, same start, same rounds.
    results, _draws, _, _ = game.trace(chunk_stream(2024, 0), n_check)
    bit_generator = np.random.PCG64(np.random.SeedSequence(2024, spawn_key=(0,)))
    generator = np.random.Generator(bit_generator)

    def draw(bound: int) -> int:
        return int(generator.integers(0, bound))

    naive.start(draw, lambda: int(bit_generator.random_raw()), game.ladder.meter_cdf)
    naive_wins = [naive.round(draw) for _ in range(n_check)]
    assert naive_wins == [int(w) for w in results[:, 0]], f"{title}: naive and kernel differ"

    start = time.process_time()
    for _ in range(n_naive):
        naive.round(draw)
    naive_rate = n_naive / (time.process_time() - start)
    print_rates(title, model.line_count, naive_rate, *kernel_rate(game, n_kernel))


def main() -> None:
    print(f"{'whole game (free spins included)':<44}{'rounds/CPU s':>14}")
    for title in titles(ladder=False):
        bench_catalogue(title, n_check=20_000, n_naive=50_000, n_kernel=20_000_000)
    for title in titles(ladder=True):
        bench_ladder(title, n_check=20_000, n_naive=20_000, n_kernel=10_000_000)
    print("(kernel: 20,000,000 rounds per catalogue run and 10,000,000 per ladder run, best of 3;")
    print(" naive: 50,000 and 20,000 rounds)")


if __name__ == "__main__":
    main()
