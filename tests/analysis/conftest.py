"""Small Days of the Tsar models whose every stop combination the live evaluator can visit."""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
import pytest

from reelsmith.engine.evaluation import evaluate_screen
from reelsmith.engine.model import GameModel, ReelSet, Variant
from reelsmith.engine.screen import window

SMALL_BASE = [
    "tsar ace egg king queen",
    "ace tsar king egg",
    "tsarina ace tsar egg nine ten",
    "ace king egg queen tsar",
    "egg ace tsar king",
]
# Eggs on reels 1 and 5 only (3/8 each): 0.75 eggs per free spin, 4,096 combinations.
SMALL_FREE = [
    "egg ace tsar king queen nine tsarina ten",
    "ace tsar king queen",
    "tsar ace king tsarina",
    "king queen ace tsar",
    "egg king tsar ace queen cathedral nine ace",
]
SMALL_REVEAL = {"values": [1, 2], "weights": [3, 1]}


def make_variant(model: GameModel, variant_id: str, base, free, reveal) -> GameModel:
    def reel_set(name, strips):
        arrays = [
            np.array([model.symbol_index(s) for s in strip.split()], dtype=np.int8)
            for strip in strips
        ]
        return ReelSet.build(name, arrays, model.rows)

    variant = Variant(
        id=variant_id,
        description="a small model for brute force",
        reel_sets={"base": reel_set("base", base), "free_spins": reel_set("free_spins", free)},
        parameters={"egg_reveal": reveal},
        figures={},
    )
    return dataclasses.replace(model, variants={variant_id: variant}, default_variant=variant_id)


@pytest.fixture(scope="session")
def small(tsar_model):
    return make_variant(tsar_model, "small", SMALL_BASE, SMALL_FREE, SMALL_REVEAL)


def brute_screens(model: GameModel, reel_set: ReelSet, stop_lists=None, lines=25):
    """Every stop combination through the live evaluator (1 coin per line on ``lines``):
    ``{(eggs, line coins): ways}``, ``{(eggs, award): ways}`` and the screen wins."""
    lists = stop_lists or [range(int(n)) for n in reel_set.lengths]
    joint: dict[tuple[int, int], int] = {}
    awards: dict[tuple[int, tuple[str, int]], int] = {}
    wins: list[tuple[int, int]] = []  # (win coins, eggs)
    for stops in itertools.product(*lists):
        grid = window(reel_set, stops, model.rows)
        result = evaluate_screen(model, grid, lines, 1, lines)
        key = (result.scatter_count, result.line_coins)
        joint[key] = joint.get(key, 0) + 1
        for award in {(w.symbol, w.count) for w in result.line_wins}:
            awards[(result.scatter_count, award)] = awards.get((result.scatter_count, award), 0) + 1
        wins.append((result.total_coins, result.scatter_count))
    return joint, awards, wins
