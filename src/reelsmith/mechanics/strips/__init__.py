"""Reel strips: each reel stops at a stop of its strip (drawn uniformly, or by the reel set's
stop weights) and shows the rows below it; every model's window but one whose cells are drawn
one by one (``[cells]``)."""

from reelsmith.mechanics.base import Mechanic

MECHANIC = Mechanic(
    name="strips",
    role="window",
    summary="reel strips: one stop per reel, the window below it",
    tables=frozenset(),
    declared=lambda raw: "cells" not in raw,
    part="reelsmith.mechanics.strips.live:part",
    events=("spin_stopped",),
    event_schemas="reelsmith.mechanics.strips.events:SCHEMAS",
)
