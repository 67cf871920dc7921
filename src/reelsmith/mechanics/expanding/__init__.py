"""The expanding symbol in free spins (the "book" mechanic): one symbol drawn by weight when
the free spins start expands, on each free spin where it would pay, to fill the reels showing
it and pays on every payline played, beside the spin's other wins; see
:mod:`reelsmith.mechanics.expanding.rules`."""

from reelsmith.mechanics.base import Mechanic

_NOT_WRITTEN = "the expanding symbol is played on the paylines' screen alone"

MECHANIC = Mechanic(
    name="expanding",
    role="evaluator",
    summary="a free spins' symbol drawn by weight that expands on its reels and pays every line",
    tables=frozenset({"expanding"}),
    declared=lambda raw: "expanding" in raw,
    part="reelsmith.mechanics.expanding.live:part",
    problems="reelsmith.mechanics.expanding.rules:problems",
    events=("expanding_symbol_drawn", "symbol_expanded"),
    event_schemas="reelsmith.mechanics.expanding.events:SCHEMAS",
    requires=("paylines", "free_spins"),
    excludes=(
        ("ways", f"{_NOT_WRITTEN} (it pays on paylines, not ways)"),
        ("anywhere", f"{_NOT_WRITTEN} (it pays on paylines, not a count anywhere)"),
        ("cascade", "a cascade's refill would change the reels showing the expanding symbol"),
        ("heights", "variable rows are paid by ways, not on the paylines the symbol pays on"),
        ("mystery", "a mystery's reveal would change the reels showing the expanding symbol"),
        ("pots", "the pots' gems reveal symbols of their own on the screen the symbol expands on"),
        ("ladder", "the ladder's spins are not free spins: nothing draws the expanding symbol"),
        (
            "hold_and_spin",
            "the hold-and-spin's respins are not free spins: nothing draws the expanding symbol",
        ),
        ("plugin", "a plug-in's win modifier is not played with the expanding symbol"),
        (
            "max_win",
            "the capped law of free spins with an expanding symbol is not written yet",
        ),
        (
            "modes",
            "a bought feature starts the free spins without the base spin the symbol is drawn "
            "after (not written yet)",
        ),
    ),
    # the chain kernel plays the spin whole and pays the expansion (kernel.py here)
    kernel="reelsmith.mechanics.cascade.kernel",
    rtp="reelsmith.mechanics.expanding.exact:expanding_rtp",
    rules_section="reelsmith.mechanics.expanding.help:rules",
    # the RTP route is exact (a mixture over the drawn symbol); the full analysis' second
    # moments and hit frequency of the mixture are not written yet
    in_full_analysis=False,
)
