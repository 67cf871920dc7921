"""Bet levels: a bet of whole stake units spread over every payline (a ways game: over its
cost); a round staked in levels settles in stake units (a market prices the stake unit)."""

from reelsmith.mechanics.base import Mechanic

MECHANIC = Mechanic(
    name="levels",
    role="bet",
    summary="a bet of whole stake units (a bet level) over every payline",
    tables=frozenset({"bet"}),
    declared=lambda raw: isinstance(raw.get("bet"), dict) and "levels" in raw["bet"],
    part="reelsmith.mechanics.levels.live:part",
    problems="reelsmith.mechanics.levels.live:problems",
    server="reelsmith.mechanics.levels.server:LevelBets",
)
