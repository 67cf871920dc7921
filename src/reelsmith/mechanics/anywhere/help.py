"""The sentences a player reads about paying anywhere, written from the mechanic's own tables
(its cost, least paying count, the wild's part and the rule for wilds alone), in the words of
the help catalogues' ``[anywhere]`` messages.

The catalogue's rules page (:mod:`reelsmith.engine.catalogue_help`) takes these in place of
its paylines' sentences when the model pays anywhere; its shared sentences of a bet played as
a cost times a multiplier come from the same ``[anywhere]`` messages (:data:`KEYS`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from reelsmith.engine.model import GameModel
from reelsmith.help import Phrases
from reelsmith.mechanics.anywhere.rules import EVERY_SYMBOL, anywhere_rules

#: The help catalogues' section of this evaluator's messages.
KEYS = "anywhere"


def machine(p: Phrases, model: GameModel, coins: int) -> str:
    return p("anywhere.machine", name=p.name(), reels=model.reels, rows=model.rows, coins=coins)


def general(p: Phrases, model: GameModel) -> list[str]:
    """In place of the paylines' "highest per line, enabled lines, left to right"."""
    rules = anywhere_rules(model)
    return [
        p("anywhere.anywhere"),
        p("anywhere.counted"),
        p("anywhere.several_symbols"),
        p("anywhere.least_count", count=rules.least),
    ]


def substitute(p: Phrases, model: GameModel) -> list[str]:
    """What the wild does when symbols pay by count."""
    rules = anywhere_rules(model)
    wild = p.symbol_at(model.wild)
    text = [p("anywhere.wild_counts", wild=wild)]
    if rules.pure_wild == EVERY_SYMBOL:
        text.append(p("anywhere.pure_wild_every_symbol", wild=wild))
    else:
        text.append(p("anywhere.pure_wild_none", wild=wild))
    if rules.wild_pays:
        text.append(p("anywhere.wild_own", wild=wild))
    return text


def payouts(p: Phrases, model: GameModel) -> list[str]:
    rules = anywhere_rules(model)
    text = [
        p("anywhere.depend_on_symbols"),
        p("anywhere.anywhere"),
        p("payouts.summary"),
        p("anywhere.coins_shown"),
        p("anywhere.regular", cost=rules.cost),
        p("payouts.credits_depend"),
        p("payouts.credits_amount"),
        p("payouts.formula"),
    ]
    if model.scatter >= 0:
        text.append(p("anywhere.scatter_added"))
    return text


def max_win(p: Phrases, model: GameModel) -> list[str]:
    """The paytable's top pay (the count from which it pays it), and that no win is capped."""
    pays = anywhere_rules(model).pays
    coins, _, symbol = max((int(pays[s.index].max()), -s.index, s.index) for s in model.symbols)
    row = pays[symbol]
    count = int(np.flatnonzero(row == coins)[0])
    return [
        p("anywhere.top_count", count=count, symbol=p.symbol_at(symbol), coins=coins),
        p("max_win.uncapped"),
    ]


def bets(p: Phrases, model: GameModel, low: int, high: int, coins: int) -> list[str]:
    """A bet is the cost times a multiplier."""
    rules = anywhere_rules(model)
    return [
        p("anywhere.cost", cost=rules.cost),
        p("anywhere.multiplier", low=low, high=high),
        p("anywhere.total", cost=rules.cost, coins=coins),
    ]


def count_tiers(table: Any) -> list[tuple[str, int]]:
    """A pay-anywhere table's columns: ``(key, count)`` for each count from which some row
    pays differently, a key naming the counts it covers (``"5"``, ``"8-9"``, the last
    ``"12+"``), each read at ``count``."""
    top = table.shape[1] - 1
    starts = [c for c in range(1, top + 1) if (table[:, c] != table[:, c - 1]).any()]
    tiers = []
    for i, low in enumerate(starts):
        high = starts[i + 1] - 1 if i + 1 < len(starts) else top
        key = str(low) if low == high else f"{low}+" if high == top else f"{low}-{high}"
        tiers.append((key, low))
    return tiers


def page(model: GameModel, p: Phrases) -> dict[str, Any]:
    """What the rules page's document takes from the count: its paytable by count tier (the
    columns :func:`count_tiers` reads), the pay unit's label and its section (the cost, the
    least paying count)."""
    rules = anywhere_rules(model)
    table = rules.pays
    tiers = count_tiers(table)
    paytable = [
        {
            "symbol": s.id,
            "name": p.symbol(s.id),
            "role": s.role,
            "pays": {k: int(table[s.index, c]) for k, c in tiers if table[s.index, c] > 0},
        }
        for s in model.symbols
        if s.role in ("regular", "wild") and int(table[s.index].sum()) > 0
    ]
    return {
        "paytable": paytable,
        "unit_label": "labels.count_pay_unit",
        "pay_column": "count_on_screen",
        "sections": {"anywhere": {"cost": rules.cost, "least_count": rules.least}},
    }
