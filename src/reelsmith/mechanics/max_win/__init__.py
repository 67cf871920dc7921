"""The max-win cap: a round's total win is capped at a multiple of its total bet; the round
that reaches the cap pays exactly the cap and ends at once (its remaining free spins are not
played, no gamble is offered)."""

from reelsmith.mechanics.base import Mechanic

MECHANIC = Mechanic(
    name="max_win",
    role="round limit",
    summary="a cap on a round's total win, in multiples of the total bet",
    tables=frozenset({"max_win"}),
    declared=lambda raw: "max_win" in raw,
    part="reelsmith.mechanics.max_win.live:part",
    problems="reelsmith.mechanics.max_win.rules:problems",
    events=("cap_reached",),
    event_schemas="reelsmith.mechanics.max_win.events:SCHEMAS",
    simulation_exact="reelsmith.mechanics.max_win.exact:simulation_exact",
    cap_figures="reelsmith.mechanics.max_win.exact:cap_figures",
    general_rules="reelsmith.mechanics.max_win.help:general",
    # the market's lower cap travels in a coin bet's round options, recorded with the round
    requires=("coins",),
    excludes=(
        (
            "ladder",
            "the cap ends a round at once, and the ladder's carried meter has no rule "
            "for a round ended mid-level",
        ),
        ("pots", "a local pot's win is carried between rounds and is not capped"),
    ),
)
