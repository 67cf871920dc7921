"""Pays anywhere (by count): each paying symbol pays by how many times the window shows it,
anywhere, the wilds counting for every symbol they stand in for; several symbols pay on one
screen."""

from reelsmith.mechanics.base import Mechanic

MECHANIC = Mechanic(
    name="anywhere",
    role="evaluator",
    cost_buys="counted anywhere",
    summary="pays anywhere: a symbol's count on the whole window, wilds included",
    tables=frozenset({"anywhere", "anywhere_pays"}),
    declared=lambda raw: "anywhere" in raw,
    part="reelsmith.mechanics.anywhere.live:part",
    problems="reelsmith.mechanics.anywhere.rules:problems",
    excludes=(
        ("paylines", "a model pays by paylines or anywhere by count, not both"),
        ("ways", "a model pays by ways or anywhere by count, not both"),
        ("ladder", "the ladder's meter reads line wins; it is not played on counts"),
        ("plugin", "a plug-in's win modifier reads line wins; it is not played on counts"),
    ),
    events=("count_win",),
    event_schemas="reelsmith.mechanics.anywhere.events:SCHEMAS",
    help="reelsmith.engine.catalogue_help",
    exact="reelsmith.analysis.catalogue_exact",
    tuner="reelsmith.analysis.exact_tuning:plan",
    simulate="reelsmith.analysis.catalogue:simulate_title",
    kernel="reelsmith.mechanics.cascade.kernel",
    evaluation="reelsmith.mechanics.anywhere.exact",
    window_help="reelsmith.mechanics.anywhere.help",
    full_cycle=True,
    report="reelsmith.mechanics.cascade.report",
    warnings="reelsmith.mechanics.anywhere.rules:warnings",
)
