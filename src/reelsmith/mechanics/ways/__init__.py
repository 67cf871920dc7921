"""Ways to win, left to right: for each paying symbol, its run over consecutive reels from
reel 1 where the window shows it or a wild, paid per way (the product of the per-reel counts,
a wild counting with its reel's weight)."""

from reelsmith.mechanics.base import Mechanic

MECHANIC = Mechanic(
    name="ways",
    role="evaluator",
    cost_buys="every way",
    summary="ways to win left to right, paid per way",
    tables=frozenset({"ways", "ways_pays"}),
    declared=lambda raw: "ways" in raw,
    part="reelsmith.mechanics.ways.live:part",
    problems="reelsmith.mechanics.ways.rules:problems",
    excludes=(("paylines", "a model pays by paylines or by ways, not both"),),
    events=("wild_weights_drawn", "way_win"),
    event_schemas="reelsmith.mechanics.ways.events:SCHEMAS",
    help="reelsmith.engine.catalogue_help",
    exact="reelsmith.analysis.catalogue_exact",
    simulate="reelsmith.analysis.catalogue:simulate_title",
    tuner="reelsmith.analysis.exact_tuning:plan",
    evaluation="reelsmith.mechanics.ways.exact",
    needs_tables=("ways_pays",),
    window_help="reelsmith.mechanics.ways.help",
)
