"""Free spins: a trigger count of a symbol starts spins on their own reel set and pay tables
(a multiplier, exceptions), awarded by a table or revealed per symbol, retriggered, capped."""

from reelsmith.mechanics.base import Mechanic

MECHANIC = Mechanic(
    name="free_spins",
    role="spin feature",
    summary="free spins: trigger, award table or reveals, retriggers, cap, multiplier",
    tables=frozenset({"free_spins"}),
    declared=lambda raw: "free_spins" in raw,
    problems="reelsmith.modelio.validate:catalogue_problems",
    part="reelsmith.mechanics.free_spins.live:part",
    server="reelsmith.mechanics.free_spins.server:FreeSpinsMoney",
    events=("free_spins_awarded", "free_spin"),
    event_schemas="reelsmith.mechanics.free_spins.events:SCHEMAS",
)
