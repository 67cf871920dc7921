"""Paylines: each payline pays its run from reel 1 by the line rule (the wild's substitution,
its multiplier and its tie rule are the wild mechanic's refinements of it)."""

from reelsmith.mechanics.base import Mechanic

MECHANIC = Mechanic(
    name="paylines",
    role="evaluator",
    summary="paylines paid left to right from reel 1",
    tables=frozenset({"paylines", "line_pays", "line_pay_unit"}),
    declared=lambda raw: "paylines" in raw,
    part="reelsmith.mechanics.paylines.live:part",
    events=("line_win",),
    event_schemas="reelsmith.mechanics.paylines.events:SCHEMAS",
    help="reelsmith.engine.catalogue_help",
    exact="reelsmith.analysis.catalogue_exact",
    simulate="reelsmith.analysis.catalogue:simulate_title",
    tuner="reelsmith.analysis.catalogue_tuning:plan",
    evaluation="reelsmith.mechanics.paylines.exact",
    needs_tables=("line_pays",),
)
