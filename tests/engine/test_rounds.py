"""`replaced`: the same round as ``dataclasses.replace`` gives, faster, for plain frozen
dataclasses; anything else goes through ``replace`` itself."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import pytest

from reelsmith.engine.rounds import replaced


@dataclass(frozen=True)
class Plain:
    name: str
    items: tuple[int, ...] = ()
    count: int = 0


@dataclass(frozen=True, slots=True)
class Slotted:
    name: str
    count: int = 0


@dataclass(frozen=True)
class Derived:
    count: int
    double: int = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "double", 2 * self.count)


def test_a_plain_round_is_copied_with_its_changes():
    original = Plain("a", (1, 2), 3)
    changed = replaced(original, items=(1, 2, 3), count=4)
    assert changed == dataclasses.replace(original, items=(1, 2, 3), count=4)
    assert type(changed) is Plain
    assert original == Plain("a", (1, 2), 3)  # untouched
    with pytest.raises(dataclasses.FrozenInstanceError):
        changed.count = 5  # type: ignore[misc]
    assert replaced(original) == original and replaced(original) is not original


def test_an_unknown_field_is_refused_by_name():
    with pytest.raises(TypeError, match="Plain has no field 'colour'"):
        replaced(Plain("a"), colour="red")


def test_other_dataclasses_go_through_replace():
    assert replaced(Slotted("a"), count=2) == Slotted("a", 2)
    assert replaced(Derived(2), count=5).double == 10  # __post_init__ ran
    with pytest.raises(TypeError):
        replaced(Slotted("a"), colour="red")


def test_composed_rounds_and_spins_are_plain():
    """The engine's round and spin take the fast copy (every step replaces a few fields)."""
    from reelsmith.engine.round import Round, Spin
    from reelsmith.engine.rounds import _plain_fields

    names = _plain_fields(Round)
    assert names is not None and {"spins", "draws", "phase", "win_coins", "parts"} <= names
    spin = _plain_fields(Spin)
    assert spin is not None and {"parts", "win_coins"} <= spin
