"""Round-step machinery shared by the titles: record every draw, void on malfunction.

A title's round is an immutable dataclass with at least ``actions`` and ``draws`` tuples. Each
player action runs as a *step* through :func:`guarded_step`, which hands the step a recording
random source, appends the action and the draws to the round, and turns any unexpected error
into the title's voided round ("Malfunctions void all plays and pays").
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import fields, replace
from typing import Any, Protocol, TypeVar

from reelsmith.rng import Draw, RandomSource, RecordingSource, ReplayError


class RoundRecord(Protocol):
    actions: tuple[str, ...]
    draws: tuple[Draw, ...]


R = TypeVar("R", bound=Any)


@functools.cache
def _plain_fields(cls: type) -> frozenset[str] | None:
    """The field names of a dataclass whose instances `replaced` may copy directly: one with
    an instance dict, every field set by ``__init__`` and no ``__post_init__``; else None."""
    if "__slots__" in vars(cls) or hasattr(cls, "__post_init__"):
        return None
    found = fields(cls)
    if not all(f.init for f in found):
        return None
    return frozenset(f.name for f in found)


def replaced(round_: R, **changes: Any) -> R:
    """``dataclasses.replace(round_, **changes)``, for the rounds' frozen dataclasses.

    A round changes a few fields at each step of a spin, several times per request, and
    ``replace`` walks every field and runs the frozen ``__init__`` (one ``object.__setattr__``
    per field) each time: about a third of a spin's engine time. A plain frozen dataclass
    (see `_plain_fields`) is copied here by its instance dict, which gives the same object;
    any other goes through ``replace``."""
    cls: type = type(round_)
    names = _plain_fields(cls)
    if names is None:
        return replace(round_, **changes)
    unknown = changes.keys() - names
    if unknown:
        raise TypeError(f"{cls.__name__} has no field {sorted(unknown)[0]!r}")
    new: R = object.__new__(cls)
    new.__dict__.update(round_.__dict__)
    new.__dict__.update(changes)
    return new


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
        return replaced(
            voided,
            actions=(*round_.actions, action),
            draws=(*round_.draws, *recorder.draws),
        )
    return replaced(
        result, actions=(*round_.actions, action), draws=(*round_.draws, *recorder.draws)
    )
