"""Simulation speed of every shipped title with the free-spins ladder and local pots (a
player's rounds carrying pots, trigger points and meter; free spins included) on one core: the
ladder kernel against a naive pure-Python evaluator of the same game, measured in the same run.

The naive evaluator is written from the rules (no tables, no numba): symbol ids, dicts and
lists. It starts from the same long-run state and draws from the same seeded numpy stream in
the same order as the kernel (and live play); before anything is timed its rounds are
compared with the kernel's over the same draws, and must agree exactly.

Rates are per CPU second of this process (``time.process_time``): the figure per core, and
one that other work on the machine disturbs much less than wall-clock time.
"""

from __future__ import annotations

import time

import numpy as np

from reelsmith.analysis.chunks import chunk_stream
from reelsmith.analysis.ladder_kernel import S_WIN
from reelsmith.analysis.ladder_simulation import KernelGame
from reelsmith.engine.ladder import WILD_REEL, ladder_rules
from reelsmith.engine.title import LADDER_KIND, kind_of
from reelsmith.games import TITLE_FOLDERS, load_game


def ladder_titles() -> list[str]:
    """The shipped titles the ladder kernel plays."""
    return [g for g in sorted(TITLE_FOLDERS) if kind_of(load_game(g)) is LADDER_KIND]


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


def bench(game_id: str, n_check: int, n_naive: int, n_kernel: int) -> None:
    """One title: agreement first, then the naive rate and the kernel's best of three."""
    model = load_game(game_id)
    game = KernelGame.build(model)
    naive = NaiveLadder(model)

    # Agreement first (this also compiles the kernel): same stream, same start, same rounds.
    _start, results, _draws = game.trace(chunk_stream(2024, 0), n_check)
    bit_generator = np.random.PCG64(np.random.SeedSequence(2024, spawn_key=(0,)))
    generator = np.random.Generator(bit_generator)

    def draw(bound):
        return int(generator.integers(0, bound))

    naive.start(draw, lambda: int(bit_generator.random_raw()), game.meter_cdf)
    naive_wins = [naive.round(draw) for _ in range(n_check)]
    assert naive_wins == [int(w) for w in results[:, 0]], f"{game_id}: naive and kernel differ"
    game.run(chunk_stream(1, 0), 1000)

    start = time.process_time()
    for _ in range(n_naive):
        naive.round(draw)
    naive_rate = n_naive / (time.process_time() - start)

    best = 0.0
    for repeat in range(3):
        start = time.process_time()
        stats, _, _ = game.run(chunk_stream(7, repeat), n_kernel)
        best = max(best, n_kernel / (time.process_time() - start))
    rtp = stats[S_WIN] / (n_kernel * model.line_count)
    print(f"{model.name}: whole rounds (free spins, pots, meter)")
    print(f"{'':<40}{'rounds/CPU s':>14}")
    print(f"{'naive pure Python':<40}{naive_rate:>14,.0f}")
    print(f"{'ladder kernel (1 core)':<40}{best:>14,.0f}   x{best / naive_rate:,.0f}")
    print(f"(kernel: {n_kernel:,} rounds per run, best of 3; last run RTP {rtp:.4%})")


def main() -> None:
    titles = ladder_titles()
    if not titles:
        raise SystemExit("no shipped title declares the free-spins ladder with local pots")
    for game_id in titles:
        bench(game_id, n_check=20_000, n_naive=20_000, n_kernel=10_000_000)


if __name__ == "__main__":
    main()
