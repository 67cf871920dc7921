"""The one RNG interface of reelsmith and its implementations.

Range scaling
-------------
Every draw asks for an integer uniform on ``[0, bound)``. Neither implementation uses the
biased ``random_value % bound``:

* :class:`SystemSource` calls :func:`secrets.randbelow`, which takes ``k = bound.bit_length()``
  bits from the OS CSPRNG (``os.urandom``: ``getrandom(2)`` on Linux) and rejects values
  ``>= bound``, so every value is equally likely; on average fewer than two attempts are needed.
* :class:`SeededSource` calls ``numpy.random.Generator.integers`` on a PCG64 stream, which uses
  Lemire's multiply-and-reject method: also exact, also unbiased.

Weighted choices (egg reveals, gem reveals) draw one integer below the total weight and look it
up in the cumulative weights, so a weight table of integers gives exact probabilities.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np


@dataclass(frozen=True, slots=True)
class Draw:
    """One random number a round consumed: why it was drawn, its range and its value."""

    purpose: str
    bound: int
    value: int

    def to_json(self) -> list[object]:
        return [self.purpose, self.bound, self.value]

    @classmethod
    def from_json(cls, data: Sequence[object]) -> Draw:
        if len(data) != 3:
            raise ValueError(f"a draw is [purpose, bound, value], got {list(data)!r}")
        purpose, bound, value = data
        if not isinstance(purpose, str) or not isinstance(bound, int) or not isinstance(value, int):
            raise ValueError(f"a draw is [purpose, bound, value], got {list(data)!r}")
        if not 0 <= value < bound:
            raise ValueError(f"draw {purpose!r}: value {value} is outside [0, {bound})")
        return cls(purpose, bound, value)


class RandomSource(Protocol):
    """Anything that can draw a uniform integer in ``[0, bound)`` for a named purpose."""

    def randbelow(self, bound: int, purpose: str) -> int: ...


def _check_bound(bound: int) -> None:
    if not isinstance(bound, int) or bound < 1:
        raise ValueError(f"a draw needs a positive integer bound, got {bound!r}")


class SystemSource:
    """Live play: the operating system's CSPRNG through :mod:`secrets`."""

    def randbelow(self, bound: int, purpose: str) -> int:
        _check_bound(bound)
        return secrets.randbelow(bound)


class SeededSource:
    """Simulation and tests: a reproducible PCG64 stream from a seed."""

    def __init__(self, seed: int | Sequence[int]) -> None:
        self.seed = seed
        self._generator = np.random.default_rng(np.random.SeedSequence(seed))

    def randbelow(self, bound: int, purpose: str) -> int:
        _check_bound(bound)
        return int(self._generator.integers(0, bound))


class RecordingSource:
    """Wraps a source and keeps every draw it hands out, in order."""

    def __init__(self, inner: RandomSource) -> None:
        self.inner = inner
        self.draws: list[Draw] = []

    def randbelow(self, bound: int, purpose: str) -> int:
        value = self.inner.randbelow(bound, purpose)
        self.draws.append(Draw(purpose, bound, value))
        return value


class ReplayError(RuntimeError):
    """Recorded draws do not fit the round being replayed (wrong order, range or count)."""


class ReplaySource:
    """Hands back recorded draws in order, checking each is asked for the same purpose and range.

    This is how a round is recalled for audit and how QA forces an outcome: a list of draws
    in, the identical round out.
    """

    def __init__(self, draws: Iterable[Draw]) -> None:
        self._draws = list(draws)
        self._position = 0

    @property
    def remaining(self) -> int:
        return len(self._draws) - self._position

    def randbelow(self, bound: int, purpose: str) -> int:
        _check_bound(bound)
        if self._position >= len(self._draws):
            raise ReplayError(
                f"draw {self._position + 1} ({purpose}, below {bound}) was asked for "
                f"but only {len(self._draws)} were recorded"
            )
        draw = self._draws[self._position]
        if draw.purpose != purpose or draw.bound != bound:
            raise ReplayError(
                f"draw {self._position + 1}: recorded {draw.purpose} below {draw.bound}, "
                f"but the round asked for {purpose} below {bound}"
            )
        if not 0 <= draw.value < bound:
            raise ReplayError(
                f"draw {self._position + 1}: value {draw.value} is outside [0, {bound})"
            )
        self._position += 1
        return draw.value


def weighted_index(source: RandomSource, weights: Sequence[int], purpose: str) -> int:
    """Pick an index with probability ``weights[i] / sum(weights)`` using one draw."""
    total = sum(weights)
    if total <= 0:
        raise ValueError(f"{purpose}: weights must sum to a positive number, got {list(weights)}")
    value = source.randbelow(total, purpose)
    for index, weight in enumerate(weights):
        if value < weight:
            return index
        value -= weight
    raise AssertionError("unreachable: value below the total weight")  # pragma: no cover
