"""Shared fixtures and helpers for the reelsmith suite."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pytest

from reelsmith.engine.model import GameModel, ReelSet
from reelsmith.engine.screen import parse_grid
from reelsmith.games import load_game


@pytest.fixture(scope="session")
def tsar_model() -> GameModel:
    return load_game("days-of-the-tsar")


class ScriptedSource:
    """Hands out chosen values in order, checking each fits its bound: forced outcomes."""

    def __init__(self, values: Sequence[int]) -> None:
        self.values = list(values)
        self.asked: list[tuple[str, int]] = []

    def randbelow(self, bound: int, purpose: str) -> int:
        self.asked.append((purpose, bound))
        if not self.values:
            raise AssertionError(f"scripted source exhausted at {purpose} below {bound}")
        value = self.values.pop(0)
        assert 0 <= value < bound, f"scripted {value} does not fit {purpose} below {bound}"
        return value


class PrefixedSource:
    """Chosen values first (e.g. the reel stops of a forced screen), then another source."""

    def __init__(self, values: Sequence[int], then: object) -> None:
        self.values = list(values)
        self.then = then

    def randbelow(self, bound: int, purpose: str) -> int:
        if self.values:
            value = self.values.pop(0)
            assert 0 <= value < bound
            return value
        return self.then.randbelow(bound, purpose)  # type: ignore[attr-defined]


def find_stop(reel_set: ReelSet, reel: int, rows: int, wanted: Callable[[list[int]], bool]) -> int:
    """First stop of ``reel`` whose window (top to bottom) satisfies ``wanted``."""
    for stop in range(int(reel_set.lengths[reel])):
        window = [int(reel_set.padded[reel, stop + r]) for r in range(rows)]
        if wanted(window):
            return stop
    raise AssertionError(f"no stop on reel {reel + 1} fits")


def stops_with_eggs(model: GameModel, reel_set: ReelSet, egg_reels: Sequence[int]) -> list[int]:
    """Stops showing one egg on each reel in ``egg_reels`` and none on the others."""
    egg = model.scatter
    stops = []
    for reel in range(model.reels):
        if reel in egg_reels:
            stops.append(find_stop(reel_set, reel, model.rows, lambda w: egg in w))
        else:
            stops.append(find_stop(reel_set, reel, model.rows, lambda w: egg not in w))
    return stops


def grid(model: GameModel, text: str) -> np.ndarray:
    return parse_grid(model, text)


@pytest.fixture(scope="session")
def sultan_model() -> GameModel:
    return load_game("sultan-spins")
