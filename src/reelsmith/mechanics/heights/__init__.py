"""Variable rows per reel (as in Megaways games): each reel draws the height of its window
every spin from the model's weighted table, and shows that many consecutive stops; the ways are
the product of the per-reel counts, so the ways evaluator pays the window as it does a fixed
one. The draw is over each reel's positions (a stop and a height together: see
:class:`reelsmith.engine.model.ReelSet`), so live play, the kernel and the exact analysis read
the one table of windows and every figure stays exact."""

from reelsmith.mechanics.base import Mechanic

MECHANIC = Mechanic(
    name="heights",
    role="window modifier",
    summary="variable rows: each reel's height drawn per spin, ways the product of the counts",
    tables=frozenset({"heights"}),
    declared=lambda raw: "heights" in raw,
    part="reelsmith.mechanics.heights.live:part",
    events=("heights_drawn",),
    event_schemas="reelsmith.mechanics.heights.events:SCHEMAS",
    rules_section="reelsmith.mechanics.heights.help:rules",
    requires=("ways",),
    excludes=(
        (
            "paylines",
            "a payline names a row of every reel, and variable rows leave rows empty: pay "
            "variable rows by ways",
        ),
        (
            "anywhere",
            "a count anywhere on variable rows has no exact law written yet: pay them by ways",
        ),
        (
            "cascade",
            "a cascade's refill on reels of a drawn height is not written yet",
        ),
        ("hold_and_spin", "the coins' respins fill every cell of a fixed window"),
        ("ladder", "the ladder's kernel draws every stop of a reel alike, with no height"),
        (
            "mystery",
            "the mystery's reveal is played by the chain kernel, which draws no heights yet",
        ),
    ),
)
