"""The heights' sentences of the rules page (``[heights]`` in the help files, English and
German): that each reel's height is drawn per spin, the chance of each height on each reel, the
empty positions below it, and the least and most ways a screen can show."""

from __future__ import annotations

import math
from decimal import Decimal
from typing import Any

from reelsmith.engine.model import GameModel, Heights
from reelsmith.help import Phrases


def heights_of(model: GameModel) -> Heights:
    if model.heights is None:
        raise ValueError(f"{model.id} has no [heights]")
    return model.heights


def ways_range(model: GameModel) -> tuple[int, int]:
    """The fewest and the most ways a screen can show (heights of weight 0 never show)."""
    shown = [[h for h, w in law if w] for law in heights_of(model)]
    return math.prod(min(h) for h in shown), math.prod(max(h) for h in shown)


def rules(
    p: Phrases, model: GameModel, variant_id: str | None = None, terms: Any = None
) -> list[str]:
    text = [p("heights.drawn")]
    for reel, law in enumerate(heights_of(model), start=1):
        total = sum(w for _, w in law)
        chances = [
            p(
                "heights.height_chance",
                count=h,
                percent=p.number(Decimal(100 * w) / total, 2),
            )
            for h, w in law
            if w
        ]
        text.append(p("heights.reel", reel=reel, list=p.join(chances)))
    least, most = ways_range(model)
    text += [
        p("heights.empty"),
        p("heights.ways", least=p.number(least), most=p.number(most)),
    ]
    return text
