"""``[view]``: the names a title's client reads a round's fields by (renames only)."""

from reelsmith.mechanics.base import Mechanic

MECHANIC = Mechanic(
    name="view",
    role="presentation",
    summary="renames of a round's fields for the title's client",
    tables=frozenset({"view"}),
    declared=lambda raw: "view" in raw,
    part=None,
    problems="reelsmith.mechanics.view.server:problems",
    server="reelsmith.mechanics.view.server:Renames",
)
