"""Sticky wilds in free spins: every wild landing in a free spin stays wild where it landed for
the rest of the feature (retriggers keep them) and clears when it ends; see
:mod:`reelsmith.mechanics.sticky.rules`."""

from reelsmith.mechanics.base import Mechanic

_NOT_WRITTEN = "the sticky wilds' exact chain is written for the paylines' screen alone"

MECHANIC = Mechanic(
    name="sticky",
    role="window modifier",
    summary="wilds landing in free spins stay where they landed until the feature ends",
    tables=frozenset({"sticky_wilds"}),
    declared=lambda raw: "sticky_wilds" in raw,
    part="reelsmith.mechanics.sticky.live:part",
    problems="reelsmith.mechanics.sticky.rules:problems",
    events=("wilds_stuck",),
    event_schemas="reelsmith.mechanics.sticky.events:SCHEMAS",
    requires=("paylines", "wild", "free_spins"),
    excludes=(
        (
            "ways",
            f"{_NOT_WRITTEN} (a way's pay reads every row of a reel; the per-line walk given "
            "the stuck cells does not carry it)",
        ),
        ("anywhere", f"{_NOT_WRITTEN} (not a count anywhere)"),
        ("cells", f"{_NOT_WRITTEN} of reel strips (not cells drawn one by one)"),
        ("cascade", "a cascade's fall would move the cells the wilds are stuck on"),
        ("heights", "variable rows are paid by ways, not on the paylines the wilds stick for"),
        ("mystery", "a mystery's reveal would change the wilds that land and stick"),
        ("expanding", "the expanding symbol's mixture is not written with stuck wilds"),
        ("pots", "the pots' gems reveal wilds of their own on the screen the wilds stick to"),
        ("ladder", "the ladder's spins are not free spins: nothing sticks"),
        ("hold_and_spin", "the hold-and-spin's respins are not free spins: nothing sticks"),
        ("plugin", "a plug-in's win modifier is not played with sticky wilds"),
        ("max_win", "the capped law of free spins with sticky wilds is not written yet"),
        (
            "modes",
            "a bought feature's and an ante's figures with sticky wilds are not written yet",
        ),
    ),
    # the chain kernel plays the spin whole and sticks the wilds (kernel.py here)
    kernel="reelsmith.mechanics.cascade.kernel",
    rtp="reelsmith.mechanics.sticky.exact:sticky_rtp",
    rules_section="reelsmith.mechanics.sticky.help:rules",
    # the RTP route is exact (a Markov chain over the stuck cells); the chain's second moments
    # and hit frequency are not written yet
    in_full_analysis=False,
)
