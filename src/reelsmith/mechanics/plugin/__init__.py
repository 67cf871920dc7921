"""A plug-in: a module of the title's folder mapping a spin's win to a new win with one draw
of its own (:mod:`reelsmith.engine.plugins`)."""

from reelsmith.mechanics.base import Mechanic

MECHANIC = Mechanic(
    name="plugin",
    role="win modifier",
    summary="a plug-in module acting on each spin's win",
    tables=frozenset({"plugin"}),
    declared=lambda raw: "plugin" in raw,
    part="reelsmith.mechanics.plugin.live:part",
    problems="reelsmith.mechanics.plugin.live:problems",
    events=("win_modified",),
    event_schemas="reelsmith.mechanics.plugin.events:SCHEMAS",
)
