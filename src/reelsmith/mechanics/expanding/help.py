"""The expanding symbol's sentences of the rules page (``[expanding]`` in the help files,
English and German): when the symbol is drawn and from which symbols, when it expands and what
it pays, and that a wild does not count as it."""

from __future__ import annotations

from typing import Any

from reelsmith.engine.model import GameModel
from reelsmith.help import Phrases
from reelsmith.mechanics.expanding.rules import expanding_rules


def rules(
    p: Phrases, model: GameModel, variant_id: str | None = None, terms: Any = None
) -> list[str]:
    found = expanding_rules(model)
    symbols = [p.symbol_at(s) for s, w in zip(found.symbols, found.weights, strict=True) if w]
    text = [
        p("expanding.drawn", list=p.join(symbols, "or")),
        p("expanding.expands"),
        p("expanding.pays"),
    ]
    if model.wild >= 0:
        text.append(p("expanding.not_wild", wild=p.symbol_at(model.wild)))
    return text
