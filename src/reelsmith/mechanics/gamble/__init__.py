"""The card gamble: a win may be gambled on a card's colour (x2) or suit (x4) or collected."""

from reelsmith.mechanics.base import Mechanic

MECHANIC = Mechanic(
    name="gamble",
    role="closing",
    summary="the card gamble on a win (colour x2, suit x4), or collect",
    tables=frozenset({"gamble"}),
    declared=lambda raw: "gamble" in raw,
    problems="reelsmith.modelio.validate:catalogue_problems",
    part="reelsmith.mechanics.gamble.live:part",
    server="reelsmith.mechanics.gamble.server:GambleMoney",
    events=("gamble_card",),
    event_schemas="reelsmith.mechanics.gamble.events:SCHEMAS",
    requires=("coins",),
)
