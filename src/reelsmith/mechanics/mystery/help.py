"""The mystery symbols' sentences of the rules page (``[mystery]`` in the help files, English
and German): what a mystery becomes and when, the table's symbols (the free spins' own where
the model gives one) and that it never becomes the scatter."""

from __future__ import annotations

from typing import Any

from reelsmith.engine.model import GameModel
from reelsmith.help import Phrases
from reelsmith.mechanics.mystery.rules import RevealTable, mystery_rules


def _symbols(p: Phrases, table: RevealTable) -> str:
    return p.join(
        [p.symbol_at(s) for s, w in zip(table.symbols, table.weights, strict=True) if w], "or"
    )


def rules(
    p: Phrases, model: GameModel, variant_id: str | None = None, terms: Any = None
) -> list[str]:
    found = mystery_rules(model)
    mystery = p.symbol_at(found.symbol)
    text = [
        p("mystery.reveal", mystery=mystery),
        p("mystery.becomes", mystery=mystery, list=_symbols(p, found.base)),
    ]
    if found.free is not found.base:
        text.append(p("mystery.free_spins_becomes", mystery=mystery, list=_symbols(p, found.free)))
    if model.scatter >= 0:
        text.append(p("mystery.never_scatter", mystery=mystery, scatter=p.symbol_at(model.scatter)))
    text.append(p("mystery.paid"))
    return text
