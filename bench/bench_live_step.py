"""The live engine's cost per round step, for every title: starting a round (the spin), each
free spin, each gamble, the collect, in microseconds per step, beside the cost of drawing the
same random numbers alone, measured in the same run.

Rounds are played as the game server plays them, through its ``Title`` adapters (the one
registry ``reelsmith.server.registry.TitleRegistry``): the smallest bet of the default market, the
player's carried state handed from round to round, every action picked at random among those
offered. Draws come from a seeded PCG64 stream (``SeededSource``); the baseline draws the same
numbers (the same bounds, in the same order, from the same kind of source) and nothing else,
so the difference is the engine's own work: reels, lines, reveals, ladder, pots, the round's
record.

Times are CPU time of this process per step (``time.process_time_ns`` around each call), so
other work on the machine disturbs them much less than wall-clock time would. ``BENCH_ROUNDS``
sets the rounds per title (default 20,000, after 500 untimed ones).
"""

from __future__ import annotations

import os
import random
import time
from collections import defaultdict
from typing import Any

from reelsmith.rng import Draw, SeededSource
from reelsmith.server.markets import load_markets
from reelsmith.server.registry import TitleRegistry
from reelsmith.server.titles import Title

ROUNDS = int(os.environ.get("BENCH_ROUNDS", "20000"))
WARM_UP = 500


class Steps:
    """CPU nanoseconds and draws per kind of step."""

    def __init__(self) -> None:
        self.count: dict[str, int] = defaultdict(int)
        self.ns: dict[str, int] = defaultdict(int)
        self.draws: dict[str, list[tuple[Draw, ...]]] = defaultdict(list)

    def add(self, kind: str, ns: int, draws: tuple[Draw, ...]) -> None:
        self.count[kind] += 1
        self.ns[kind] += ns
        self.draws[kind].append(draws)


def draws_of(title: Title, round_: Any) -> tuple[Draw, ...]:
    """The draws a round has made so far, read from its record (outside the timed steps)."""
    return tuple(Draw.from_json(d) for d in title.record(round_)["draws"])


def play(title: Title, rounds: int, seed: int, steps: Steps | None) -> None:
    """Play ``rounds`` rounds, timing each step into ``steps`` (None: untimed)."""
    market = load_markets()["default"]
    bet = title.sample_bet(market)
    rng = SeededSource(seed)
    pick = random.Random(seed)
    state: Any = title.load_state(None)
    clock = time.process_time_ns
    for _ in range(rounds):
        began = clock()
        round_ = title.start(market, bet, state, rng)
        spent = clock() - began
        if steps is not None:
            steps.add("start", spent, draws_of(title, round_))
        while offered := title.actions(round_):
            action = pick.choice(offered)
            known = len(draws_of(title, round_)) if steps is not None else 0
            began = clock()
            round_ = title.act(round_, action, rng)
            spent = clock() - began
            if steps is not None:
                steps.add(action.split()[0], spent, draws_of(title, round_)[known:])
        kept = title.kept_state(round_)
        if kept is not None:
            state = title.load_state(kept[1])


def draws_alone(draws: list[tuple[Draw, ...]], seed: int) -> int:
    """CPU nanoseconds to draw the same numbers (bounds and purposes) from a seeded source,
    timed per step as the engine's steps are."""
    source = SeededSource(seed)
    clock = time.process_time_ns
    total = 0
    for step in draws:
        began = clock()
        for draw in step:
            source.randbelow(draw.bound, draw.purpose)
        total += clock() - began
    return total


def clock_cost(calls: int = 100_000) -> float:
    """CPU microseconds that timing one call costs by itself (in both columns alike)."""
    clock = time.process_time_ns
    total = 0
    for _ in range(calls):
        began = clock()
        total += clock() - began
    return total / calls / 1000


def main() -> None:
    print(
        f"live round steps, one core, CPU time; {ROUNDS:,} rounds per title at the default "
        "market's smallest bet, seeded draws"
    )
    header = (
        f"{'title':<18} {'step':<10} {'steps':>8} {'draws/step':>10} "
        f"{'engine us/step':>14} {'draws alone us/step':>19} {'engine / draws':>14}"
    )
    print(header)
    for game_id, title in TitleRegistry.load().items():
        play(title, WARM_UP, 1, None)
        steps = Steps()
        play(title, ROUNDS, 2, steps)
        for kind in sorted(steps.count, key=lambda k: (k != "start", k)):
            n = steps.count[kind]
            engine_us = steps.ns[kind] / n / 1000
            drawn = sum(len(d) for d in steps.draws[kind])
            baseline_us = draws_alone(steps.draws[kind], 3) / n / 1000
            ratio = f"{engine_us / baseline_us:,.1f}x" if drawn else "-"
            print(
                f"{game_id:<18} {kind:<10} {n:>8,} {drawn / n:>10.2f} "
                f"{engine_us:>14.1f} {baseline_us:>19.2f} {ratio:>14}"
            )
    print(f"timing one call costs {clock_cost():.2f} us by itself, in both columns")


if __name__ == "__main__":
    main()
