"""The ``[sticky_wilds]`` table, read and checked::

    [sticky_wilds]              # every wild landing in a free spin sticks
    reels = [2, 3, 4]           # optional: only wilds landing on these reels (from 1) stick

During free spins, every cell where the model's wild lands (on a reel of ``reels``, every
reel by default) stays wild for the rest of the feature, retriggered spins included: each
later free spin's screen is paid with those cells showing the wild. A stuck wild never covers
the scatter or the free spins' trigger symbol: where one of them lands on a stuck cell it shows
for that spin (paying and retriggering as usual) and the wild stays beneath it. The wilds of
the base spin that starts the feature do not stick, and the stuck cells clear when the feature
ends.

Because the trigger symbols are never covered, the free spins' length has the model's own law;
what the stuck wilds change is the line pay of each free spin, which depends on the set of
stuck cells. The exact analysis (:mod:`.exact`) is a Markov chain over that set and the
spins left, so it holds only where the set stays small: the free spins' wild may land on at
most :data:`EXACT_LIMIT` window positions (``2 ** EXACT_LIMIT`` sets), and the feature's length
is bounded (no retrigger, or ``free_spins.max_spins``). A model beyond either is refused by
``validate`` in one line naming the key.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

import numpy as np

from reelsmith.engine.model import GameModel, ModelError
from reelsmith.mechanics.free_spins.rules import trigger_symbol, unplayed_options

KEYS = frozenset({"reels"})
#: The most window positions the free spins' wild may land on for the exact chain (its state
#: the set of stuck positions: at most ``2 ** EXACT_LIMIT`` sets, times the spins left).
EXACT_LIMIT = 10


@dataclass(frozen=True)
class StickyWilds:
    """The mechanic's rules: the wild, whether a wild landing on each reel sticks, and the
    symbols a stuck wild never covers (the scatter and the trigger symbol; -1: none)."""

    wild: int
    reels: tuple[bool, ...]
    scatter: int
    trigger: int

    @property
    def sticks(self) -> np.ndarray:
        return np.asarray(self.reels, dtype=np.bool_)


def landing_positions(model: GameModel, rules: StickyWilds) -> list[tuple[int, int]]:
    """The cells ``(row, reel)`` where the free spins' wild can land and stick: a sticking
    reel's window rows that show the wild at some stop of the free spins' reel set (of the
    default variant's, and of every other variant's)."""
    from reelsmith.engine.catalogue import mechanics

    free = mechanics(model).free_spins
    assert free is not None
    found: set[tuple[int, int]] = set()
    for variant in model.variants.values():
        reel_set = variant.reel_sets[free.reel_set]
        windows = reel_set.window_table(model.rows)
        for reel in range(model.reels):
            if not rules.reels[reel]:
                continue
            count = int(reel_set.position_counts[reel])
            shown = (windows[reel, :count] == rules.wild).any(axis=0)
            found |= {(int(row), reel) for row in np.flatnonzero(shown)}
    return sorted(found, key=lambda cell: (cell[1], cell[0]))


def _free_spins_problems(model: GameModel, where: str) -> list[str]:
    """The free-spin options the sticky wilds are not played with, each by name."""
    free = model.raw.get("free_spins")
    if not isinstance(free, Mapping):
        return [f"{where}: wilds stick during free spins: add [free_spins]"]
    found = unplayed_options(free, where, "sticky wilds are")
    if free.get("retrigger", "table") != "none" and not free.get("max_spins"):
        found.append(
            f"{where}: free_spins.retrigger without free_spins.max_spins: the sticky-wild "
            "state (the stuck cells and the spins left) is unbounded, beyond the exact chain; "
            'set max_spins or retrigger = "none"'
        )
    return found


def read(model: GameModel) -> tuple[StickyWilds | None, list[str]]:
    """The rules and every problem of the table, one line each (rules None with problems)."""
    where = f"{model.source or model.id}: sticky_wilds"
    raw = model.raw.get("sticky_wilds")
    if not isinstance(raw, Mapping):
        return None, [f"{where} must be a table (empty: every wild sticks)"]
    problems: list[str] = []
    for key in sorted(set(raw) - KEYS):
        problems.append(f"{where}: unknown key {key!r}; the keys are: {', '.join(sorted(KEYS))}")
    if model.wild < 0:
        problems.append(f"{where}: the model has no wild symbol to stick")
    problems += _free_spins_problems(model, where)
    reels = [True] * model.reels
    if "reels" in raw:
        chosen = raw["reels"]
        ok = (
            isinstance(chosen, list)
            and chosen
            and all(
                isinstance(r, int) and not isinstance(r, bool) and 1 <= r <= model.reels
                for r in chosen
            )
        )
        if not ok:
            problems.append(
                f"{where}.reels must be a list of reels from 1 to {model.reels}, at least one"
            )
        else:
            reels = [r + 1 in chosen for r in range(model.reels)]
    if problems:
        return None, problems
    found = StickyWilds(model.wild, tuple(reels), model.scatter, trigger_symbol(model))
    try:
        positions = landing_positions(model, found)
    except (ModelError, KeyError):
        return found, []  # the free spins' own problems say why their reels cannot be read
    if len(positions) > EXACT_LIMIT:
        return None, [
            f"{where}: the free spins' wild can land on {len(positions)} window positions; the "
            f"exact sticky-wild chain holds at most {EXACT_LIMIT} (2^{EXACT_LIMIT} sets of stuck "
            "cells): a sticky-wild state beyond the exact limit (name fewer reels, or fewer "
            "wilds on the free spins' strips)"
        ]
    return found, []


def problems(model: GameModel) -> list[str]:
    return read(model)[1]


@cache
def sticky_rules(model: GameModel) -> StickyWilds:
    """The model's sticky-wild rules; ModelError naming every problem."""
    found, wrong = read(model)
    if found is None:
        raise ModelError("\n".join(wrong))
    return found
