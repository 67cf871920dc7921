"""Mystery symbols: every cell of a screen showing the mystery symbol turns, before the screen
is paid, into one and the same symbol drawn for the spin from a weighted table (the free
spins' own where the model gives one); see :mod:`reelsmith.mechanics.mystery.rules`."""

from reelsmith.mechanics.base import Mechanic

MECHANIC = Mechanic(
    name="mystery",
    role="window modifier",
    summary="mystery symbols that all turn into one symbol drawn by weight",
    tables=frozenset({"mystery"}),
    declared=lambda raw: "mystery" in raw,
    part="reelsmith.mechanics.mystery.live:part",
    problems="reelsmith.mechanics.mystery.rules:problems",
    events=("mystery_revealed",),
    event_schemas="reelsmith.mechanics.mystery.events:SCHEMAS",
    excludes=(
        (
            "cascade",
            "a cascade's refill would bring mysteries the spin's one reveal has not drawn for",
        ),
        ("pots", "the pots' gems reveal symbols of their own on the screen the mysteries change"),
        ("ladder", "the ladder's carried meter is not played with mystery symbols"),
        ("hold_and_spin", "the hold-and-spin's kernel plays its own spin without the reveal"),
        ("plugin", "a plug-in's win modifier is not played with mystery symbols"),
        (
            "max_win",
            "the capped law of a round with mystery symbols is not written yet (the cap's exact "
            "figures read the strips as they are)",
        ),
    ),
    # the chain kernel plays the spin whole and reveals its mysteries (kernel.py here)
    kernel="reelsmith.mechanics.cascade.kernel",
    rtp="reelsmith.mechanics.mystery.exact:mystery_rtp",
    rules_section="reelsmith.mechanics.mystery.help:rules",
    # the RTP route is exact (a mixture over the reveal table); the full analysis' second
    # moments and hit frequency of the mixture are not written yet
    in_full_analysis=False,
)
