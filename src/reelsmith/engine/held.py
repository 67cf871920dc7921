"""Compiled functions that take arrays without touching their reference counts.

numba takes a reference to every array argument when a compiled function starts and releases
each after its last use. Where the last uses differ from path to path (an early ``return``, a
branch that reads an array the other does not), the releases land in several blocks, its
reference-count pruning cannot pair them with the start, and every call pays two atomic
updates per array argument: in a hot loop (a line rule called for every payline of every
screen of a full cycle) they cost several times the rule's own work.

A function written with one exit that reads every array argument at that exit, through
:func:`held`, has its releases in one block that every path reaches: the pruning pairs them
with the start and removes both, and the call costs what its body costs
(``docs/performance.md``, "Reference counts of array arguments")."""

from __future__ import annotations

from numba import njit


@njit(cache=True, nogil=True)
def held(_reads: int) -> None:
    """Nothing: the caller passes a sum of its array arguments' shapes, read at its one exit,
    so that each argument's last use is there on every path (see the module's account)."""
    return None
