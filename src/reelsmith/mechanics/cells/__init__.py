"""Cells drawn one by one: instead of reel strips, every cell of the window is drawn on its own
from its reel set's weighted symbol table (the model's ``[cells]``; each reel set of the
variants gives ``cells = { symbol = weight, ... }``, one table for every reel or one per reel).
A reel's positions are then every window it can show, weighing the product of their cells'
weights (:class:`reelsmith.engine.model.ReelSet`), so live play, the kernel and the exact
analysis read one table of windows, as they do a strip's, and every figure stays exact."""

from reelsmith.mechanics.base import Mechanic

MECHANIC = Mechanic(
    name="cells",
    role="window",
    summary="cells drawn one by one: each cell of the window from a weighted symbol table",
    tables=frozenset({"cells"}),
    declared=lambda raw: "cells" in raw,
    part="reelsmith.mechanics.cells.live:part",
    problems="reelsmith.mechanics.cells.live:problems",
    # its screens are told by the window's one event, ``spin_stopped`` (the strips' kind and
    # schema: an event kind has one owner)
    rules_section="reelsmith.mechanics.cells.help:rules",
    excludes=(
        ("heights", "variable rows draw a height and a strip's stop; drawn cells have no strip"),
        ("hold_and_spin", "the hold-and-spin kernel draws its base window from strips"),
        ("mystery", "the mystery's reveal is played by the chain kernel, which draws strips"),
        ("ladder", "the ladder's gems and its kernel read strips"),
        ("pots", "the pots' trigger points are played on strips"),
    ),
)
