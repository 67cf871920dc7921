"""Round-step machinery shared by the titles: record every draw, void on malfunction.

A title's round is an immutable dataclass with at least ``actions`` and ``draws`` tuples. Each
player action runs as a *step* through :func:`guarded_step`, which hands the step a recording
random source, appends the action and the draws to the round, and turns any unexpected error
into the title's voided round ("Malfunctions void all plays and pays").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, Protocol, TypeVar

from reelsmith.rng import Draw, RandomSource, RecordingSource, ReplayError


class RoundRecord(Protocol):
    actions: tuple[str, ...]
    draws: tuple[Draw, ...]


R = TypeVar("R", bound=Any)


def guarded_step(
    round_: R,
    rng: RandomSource,
    action: str,
    step: Callable[[R, RecordingSource], R],
    void: Callable[[R, str], R],
) -> R:
    """Run ``step`` on ``round_``; record the action and every draw it made.

    If the step raises (other than a replay mismatch, which is the caller's error), the round
    is voided by ``void(round_, reason)`` and keeps the draws made before the failure.
    """
    recorder = RecordingSource(rng)
    try:
        result = step(round_, recorder)
    except ReplayError:
        raise
    except Exception as exc:  # a malfunction: void the round rather than half-apply it
        voided = void(round_, f"{type(exc).__name__}: {exc}")
        return replace(
            voided,
            actions=(*round_.actions, action),
            draws=(*round_.draws, *recorder.draws),
        )
    return replace(
        result, actions=(*round_.actions, action), draws=(*round_.draws, *recorder.draws)
    )
