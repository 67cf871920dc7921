"""Cascades (tumbles): after a screen pays, the cells of its wins are removed, the symbols
above fall, the strips refill from above the window, and the new screen is paid at the next
step's multiplier, until a screen pays nothing or the step limit."""

from reelsmith.mechanics.base import Mechanic

MECHANIC = Mechanic(
    name="cascade",
    role="spin modifier",
    summary="cascades: winning cells removed, the strip above falls in, a multiplier per step",
    tables=frozenset({"cascade"}),
    declared=lambda raw: "cascade" in raw,
    part="reelsmith.mechanics.cascade.live:part",
    problems="reelsmith.mechanics.cascade.rules:problems",
    events=("cascade",),
    event_schemas="reelsmith.mechanics.cascade.events:SCHEMAS",
    excludes=(
        ("pots", "the pots' gems change the screen the cascade refills"),
        ("ladder", "the ladder's carried meter is not played with cascades"),
        ("plugin", "a plug-in's win modifier is not played with cascades"),
    ),
    help="reelsmith.engine.catalogue_help",
    exact="reelsmith.analysis.catalogue_exact",
    tuner="reelsmith.analysis.exact_tuning:plan",
    kernel="reelsmith.mechanics.cascade.kernel",
    full_cycle=True,
    report="reelsmith.mechanics.cascade.report",
    rtp="reelsmith.mechanics.cascade.exact:cascade_rtp",
    rules_section="reelsmith.mechanics.cascade.help:rules",
)
