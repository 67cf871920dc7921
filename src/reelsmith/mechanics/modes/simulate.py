"""``reelsmith simulate --mode``: rounds of one mode played by live play, checked against the
mode's exact RTP.

The compiled kernel plays the base game's round loop; a bought round starts in the feature,
which its loop does not, so a mode's rounds are played here by the engine's own round
(:mod:`reelsmith.engine.round`) with a seeded source, one process, at the model's default coin
bet. Each round's win is counted in multiples of what it cost (the bet x the mode's price); the
report gives the mean with its 99% interval (the rounds' own standard deviation) beside the
exact RTP, and says whether the exact figure lies inside it.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from reelsmith.engine.model import GameModel
from reelsmith.engine.round import Stake, finish, start_round
from reelsmith.mechanics.modes.exact import figures
from reelsmith.mechanics.modes.rules import MODE
from reelsmith.rng import SeededSource

#: The normal quantile of a two-sided 99% interval.
Z99 = 2.5758293035489


@dataclass(frozen=True)
class ModeSimulation:
    mode: str
    rounds: int
    seed: int
    rtp: float
    interval: tuple[float, float]
    exact_rtp: float
    hit_frequency: float
    std_dev: float
    seconds: float

    @property
    def inside(self) -> bool:
        return self.interval[0] <= self.exact_rtp <= self.interval[1]

    def to_json(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "rounds": self.rounds,
            "seed": self.seed,
            "rtp": self.rtp,
            "rtp_interval_99": list(self.interval),
            "exact_rtp": self.exact_rtp,
            "exact_inside_interval": self.inside,
            "hit_frequency": self.hit_frequency,
            "std_dev": self.std_dev,
            "seconds": round(self.seconds, 3),
            "played_by": "live play",
        }

    def lines(self) -> list[str]:
        low, high = self.interval
        return [
            f"mode {self.mode}: {self.rounds:,} rounds by live play (seed {self.seed}) in "
            f"{self.seconds:.1f} s",
            f"RTP {self.rtp * 100:.4f}%  99% interval {low * 100:.4f}% - {high * 100:.4f}%  "
            f"exact {self.exact_rtp * 100:.4f}% "
            f"({'inside' if self.inside else 'OUTSIDE'} the interval)",
            f"hit frequency {self.hit_frequency * 100:.4f}%  std dev {self.std_dev:.4f} "
            "(per unit of the price x the bet; simulated)",
        ]


def simulate_mode(
    model: GameModel,
    variant_id: str | None,
    name: str,
    rounds: int,
    seed: int,
    progress: Callable[[int], None] | None = None,
) -> ModeSimulation:
    """``rounds`` rounds of mode ``name`` played by live play (see the module's account)."""
    from reelsmith import mechanics
    from reelsmith.mechanics.coins.live import bet_options

    exact = figures(model, variant_id, name)
    composition = mechanics.composition(model)
    bet = bet_options(model).default
    stake = Stake(bet.lines, bet.coins_per_line)
    cost = stake.total_coins * exact.price
    rng = SeededSource(seed)
    variant = model.variant(variant_id).id
    total = squares = 0.0
    hits = 0
    started = time.perf_counter()
    for done in range(1, rounds + 1):
        played = start_round(composition, bet, stake, rng, variant=variant, parts={MODE: name})
        played = finish(composition, played, rng)
        won = float(played.win_coins / cost)
        total += won
        squares += won * won
        hits += played.win_coins > 0
        if progress is not None and done % 1000 == 0:
            progress(1000)
    mean = total / rounds
    variance = max(squares / rounds - mean * mean, 0.0) * rounds / max(rounds - 1, 1)
    half = Z99 * math.sqrt(variance / rounds)
    return ModeSimulation(
        mode=name,
        rounds=rounds,
        seed=seed,
        rtp=mean,
        interval=(mean - half, mean + half),
        exact_rtp=float(exact.rtp),
        hit_frequency=hits / rounds,
        std_dev=math.sqrt(variance),
        seconds=time.perf_counter() - started,
    )
