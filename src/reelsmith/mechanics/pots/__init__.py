"""Local must-hit-by pots: a gem on a reel raises the pot above it by one bet and reveals a
symbol, a wild, a wild reel or, at the pot's hidden trigger point, the pot itself."""

from reelsmith.mechanics.base import Mechanic

MECHANIC = Mechanic(
    name="pots",
    role="window modifier",
    summary="local must-hit-by pots raised by gems, which reveal symbols, wilds or the pot",
    tables=frozenset({"jackpots"}),
    declared=lambda raw: "jackpots" in raw,
    problems="reelsmith.modelio.validate:ladder_problems",
    part="reelsmith.mechanics.pots.live:part",
    server="reelsmith.mechanics.pots.server:PotsMoney",
    events=("gem_revealed", "pot_won"),
    event_schemas="reelsmith.mechanics.pots.events:SCHEMAS",
    requires=("ladder", "levels"),
    jackpots=True,
)
