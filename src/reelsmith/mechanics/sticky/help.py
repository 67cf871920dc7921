"""The sticky wilds' sentences of the rules page (``[sticky]`` in the help files, English and
German): which wilds stick and for how long, that retriggers keep them, and that the scatter
and the trigger symbol show above them."""

from __future__ import annotations

from typing import Any

from reelsmith.engine.model import GameModel
from reelsmith.help import Phrases
from reelsmith.mechanics.sticky.rules import sticky_rules


def rules(
    p: Phrases, model: GameModel, variant_id: str | None = None, terms: Any = None
) -> list[str]:
    found = sticky_rules(model)
    wild = p.symbol_at(found.wild)
    text = [p("sticky.sticks", wild=wild)]
    if not all(found.reels):
        reels = [str(r + 1) for r, sticks in enumerate(found.reels) if sticks]
        text.append(p("sticky.reels", wild=wild, list=p.join(reels, "and")))
    text.append(p("sticky.retrigger"))
    covered = [s for s in dict.fromkeys((found.scatter, found.trigger)) if s >= 0]
    if covered:
        names = p.join([p.symbol_at(s) for s in covered], "or")
        text.append(p("sticky.not_covered", symbols=names))
    text.append(p("sticky.ends", wild=wild))
    return text
