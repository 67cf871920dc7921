"""A random win multiplier, a mechanic the catalogue lacks, as a reelsmith plug-in module.

After a spin that wins, a multiplier is drawn from the weighted table ``[plugin.params]
multipliers`` (``{multiplier = weight}``) and multiplies the spin's whole win (its paylines and
its scatter). A spin that pays nothing draws nothing.

Why its exact contribution is exact: the multiplier is one draw below the table's total
weight, made after the screen is paid and independent of it, so given the spin's win ``x > 0``
the new win is ``m x`` with probability ``weight(m) / total``; :func:`win_law` returns exactly
that law, and the exact analysis composes it with the law of ``x`` (so ``E[new] = E[M] E[x]``
and ``E[new^2] = E[M^2] E[x^2]``, the hit frequency unchanged since every multiplier is at
least 1). The rule scales with the bet: ``m (c x) = c (m x)``.

Table layout (``table``): ``[n, m_1..m_n, cumulative weight_1..weight_n]``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

PURPOSE = "win_multiplier"
NAME = "win multiplier"


def _entries(params: Mapping[str, Any]) -> list[tuple[int, int]]:
    """``(multiplier, weight)`` pairs, smallest multiplier first (params already checked)."""
    return sorted((int(m), int(w)) for m, w in params["multipliers"].items())


def check(params: Mapping[str, Any]) -> list[str]:
    """Every problem of the parameters, each naming its key."""
    problems = [
        f"{key}: unknown key; the keys are: multipliers"
        for key in sorted(params)
        if key != "multipliers"
    ]
    table = params.get("multipliers")
    if not isinstance(table, dict) or not table:
        return [*problems, "multipliers: missing or empty; give { multiplier = weight, ... }"]
    for key, weight in table.items():
        if not key.isdigit() or int(key) < 1:
            problems.append(f"multipliers.{key}: a multiplier must be a whole number >= 1")
        if not isinstance(weight, int) or isinstance(weight, bool) or weight < 0:
            problems.append(
                f"multipliers.{key}: the weight must be a whole number >= 0, got {weight!r}"
            )
    weights = [w for w in table.values() if isinstance(w, int) and not isinstance(w, bool)]
    if not problems and sum(weights) == 0:
        problems.append("multipliers: the weights add up to 0; at least one must be positive")
    return problems


def table(params: Mapping[str, Any]) -> npt.NDArray[np.int64]:
    entries = _entries(params)
    multipliers = [m for m, _ in entries]
    cumulative = np.cumsum([w for _, w in entries]).tolist()
    return np.array([len(entries), *multipliers, *cumulative], dtype=np.int64)


@njit(cache=True, nogil=True)
def draw_bound(table: npt.NDArray[np.int64], free: bool, win: int, total_bet: int) -> int:
    """A winning spin draws below the total weight; a spin that pays nothing draws nothing."""
    if win <= 0:
        return 0
    return int(table[2 * table[0]])


@njit(cache=True, nogil=True)
def apply(
    table: npt.NDArray[np.int64], free: bool, win: int, total_bet: int, value: int
) -> tuple[int, int]:
    """The win times the multiplier whose cumulative weight first passes ``value``."""
    if win <= 0:
        return 0, 0
    n = table[0]
    i = 0
    while value >= table[1 + n + i]:
        i += 1
    return win * table[1 + i], table[1 + i]


def win_law(
    table: npt.NDArray[np.int64], free: bool, win: int, total_bet: int
) -> list[tuple[int, int]]:
    """``(new win, weight)``: each multiplier with its weight; no draw on a spin without a win."""
    if win <= 0:
        return [(win, 1)]
    n = int(table[0])
    law = []
    previous = 0
    for i in range(n):
        weight = int(table[1 + n + i]) - previous
        previous = int(table[1 + n + i])
        if weight:
            law.append((win * int(table[1 + i]), weight))
    return law


_SPINS = {"all": "spin", "base": "base-game spin", "free": "free spin"}


def rules(params: Mapping[str, Any], spins: str) -> list[str]:
    """The rules page's sentences; ``spins`` is where the model lets the plug-in act."""
    entries = [(m, w) for m, w in _entries(params) if w > 0]
    total = sum(w for _, w in entries)
    chances = ", ".join(f"x{m} ({100 * w / total:.2f}%)" for m, w in entries)
    return [
        f"After every winning {_SPINS[spins]} a win multiplier is drawn at random and multiplies "
        f"the whole win of that spin, line wins and scatter wins alike: {chances}.",
        "The multiplier is drawn independently of the symbols shown; a spin without a win draws "
        "no multiplier.",
    ]
