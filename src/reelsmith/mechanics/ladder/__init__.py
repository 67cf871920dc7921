"""The free-spins ladder: bonus symbols start level 1 and fill a meter carried between rounds;
a full meter unlocks the next level, each with its spins and its multiplier on line wins."""

from reelsmith.mechanics.base import Mechanic

MECHANIC = Mechanic(
    name="ladder",
    role="spin feature",
    summary="a free-spins ladder of levels with a collection meter carried between rounds",
    tables=frozenset({"ladder"}),
    declared=lambda raw: "ladder" in raw,
    problems="reelsmith.mechanics.ladder.live:problems",
    part="reelsmith.mechanics.ladder.live:part",
    server="reelsmith.mechanics.ladder.server:LadderMoney",
    events=("ladder_step",),
    event_schemas="reelsmith.mechanics.ladder.events:SCHEMAS",
    requires=("pots", "levels"),
    excludes=(
        ("free_spins", "a round has one spin feature"),
        ("scatter", "the ladder's exact analysis and kernel pay no scatter yet"),
        ("plugin", "the ladder's exact analysis and kernel play no plug-in yet"),
    ),
    client="ladder",
    help="reelsmith.engine.ladder_help",
    exact="reelsmith.analysis.ladder_exact",
    simulate="reelsmith.analysis.ladder:simulate_title",
    tuner="reelsmith.analysis.ladder_tuning:plan",
    kernel_game="reelsmith.analysis.kernel.game:ladder_game",
    table_problems="reelsmith.mechanics.ladder.live:table_problems",
)
