"""Bet modes: an ante (a higher price for the base game on its own reel set) and a bought
feature (a price in total bets that starts the free spins directly), each sold beside the base
game and proven on its own."""

from reelsmith.mechanics.base import Mechanic

MECHANIC = Mechanic(
    name="modes",
    role="bet mode",
    summary="modes sold beside the base game: an ante, a bought feature",
    tables=frozenset({"modes"}),
    declared=lambda raw: "modes" in raw,
    part="reelsmith.mechanics.modes.live:part",
    problems="reelsmith.mechanics.modes.rules:problems",
    events=("feature_bought",),
    event_schemas="reelsmith.mechanics.modes.events:SCHEMAS",
    rules_section="reelsmith.mechanics.modes.help:rules",
    lab_rows="reelsmith.mechanics.modes.report:with_modes",
    excludes=(
        ("ladder", "the ladder's meter is carried between rounds at one price of the bet"),
        ("max_win", "the cap's exact law of a mode's round is not written yet"),
    ),
)
