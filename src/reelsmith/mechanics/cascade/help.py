"""The cascade's sentences of the rules page (``[cascade]`` in the help files, English and
German): what a win removes, how the reels fill again, the step limit and the multipliers."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from reelsmith.engine.catalogue import mechanics
from reelsmith.engine.model import GameModel
from reelsmith.help import Phrases
from reelsmith.mechanics.cascade.rules import cascade_rules, least_paid


def _multipliers(p: Phrases, table: npt.NDArray[np.int64]) -> str:
    """``screen 1: x1, screen 2: x2 and screen 3 and later: x3``: each screen's multiplier up
    to the last change, then the one every later screen keeps."""
    values = [int(v) for v in table]
    last = len(values)
    while last > 1 and values[last - 2] == values[-1]:
        last -= 1
    items = [p("cascade.multiplier_at", step=k, multiplier=values[k - 1]) for k in range(1, last)]
    if last < len(values):
        items.append(p("cascade.multiplier_from", step=last, multiplier=values[-1]))
    else:
        items.append(p("cascade.multiplier_at", step=last, multiplier=values[-1]))
    return p.join(items)


def rules(
    p: Phrases, model: GameModel, variant_id: str | None = None, terms: Any = None
) -> list[str]:
    cascade = cascade_rules(model)
    text = [p("cascade.removed")]
    scatter = model.scatter >= 0
    if scatter:
        least = least_paid(model.scatter_pays)
        name = p.symbol_at(model.scatter)
        if least:
            text.append(p("cascade.scatter_removed_count", scatter=name, count=least))
        else:
            text.append(p("cascade.scatter_removed", scatter=name))
    text += [
        p("cascade.fall_drawn" if cascade.refill_cells else "cascade.fall"),
        p("cascade.again"),
        p("cascade.limit", count=cascade.limit),
    ]
    free = mechanics(model).free_spins if "free_spins" in model.raw else None
    family = next((kind for kind in ("ways", "anywhere") if kind in model.raw), "lines")
    wins = p(f"cascade.wins.{family}")
    constant = set(cascade.multipliers.tolist()) == {1}
    if not constant:
        text.append(p("cascade.multipliers", wins=wins, list=_multipliers(p, cascade.multipliers)))
    if free is not None and cascade.free_multipliers is not cascade.multipliers:
        text.append(
            p(
                "cascade.free_multipliers",
                wins=wins,
                list=_multipliers(p, cascade.free_multipliers),
            )
        )
    if scatter and not (constant and cascade.free_multipliers is cascade.multipliers):
        text.append(p("cascade.scatter_not_multiplied", scatter=p.symbol_at(model.scatter)))
    text.append(p("cascade.one_bet"))
    if free is not None:
        text.append(p("cascade.free_spins_every_screen", symbol=p.symbol_at(free.symbol)))
    return text
