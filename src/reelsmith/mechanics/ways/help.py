"""The sentences a player reads about ways to win, written from the ways' own tables (their
cost, least run, wild weights and the rule for ways made of wilds alone), in the words of the
help catalogues' ``[ways]`` messages.

The catalogue's rules page (:mod:`reelsmith.engine.catalogue_help`) takes these in place of
its paylines' sentences when the model pays by ways; everything else on the page (the scatter,
the free spins, the gamble, the bets' coin sizes) is the same mechanics' own.
"""

from __future__ import annotations

import math
from decimal import Decimal
from typing import Any

from reelsmith.engine.model import GameModel
from reelsmith.help import Phrases
from reelsmith.mechanics.ways.rules import EVERY_SYMBOL, NO_PURE_WILD, ways_rules

#: The help catalogues' section of this evaluator's messages.
KEYS = "ways"


def most_ways(model: GameModel) -> int:
    """The ways a screen of one symbol in every cell shows: rows to the power of reels (on
    variable rows, the product of each reel's highest height)."""
    if model.heights is not None:
        return math.prod(max(h for h, w in law if w) for law in model.heights)
    return int(model.rows**model.reels)


def machine(p: Phrases, model: GameModel, coins: int) -> str:
    if model.heights is not None:  # variable rows: the least and most symbols a reel shows
        shown = [h for law in model.heights for h, w in law if w]
        return p(
            "heights.machine",
            name=p.name(),
            reels=model.reels,
            least=min(shown),
            most=max(shown),
            ways=p.number(most_ways(model)),
            coins=coins,
        )
    return p(
        "ways.machine",
        name=p.name(),
        reels=model.reels,
        rows=model.rows,
        ways=most_ways(model),
        coins=coins,
    )


def general(p: Phrases, model: GameModel) -> list[str]:
    """In place of the paylines' "highest per line, enabled lines, left to right"."""
    rules = ways_rules(model)
    return [
        p("ways.adjacent"),
        p("ways.counted"),
        p("ways.longest_only"),
        p("ways.several_symbols"),
        p("ways.least_run", count=rules.min_run),
    ]


def substitute(p: Phrases, model: GameModel) -> list[str]:
    """What the wild does in a ways game: its weight on each reel, the weights a free spin
    draws, and how ways made of wilds alone pay."""
    rules = ways_rules(model)
    wild = p.symbol_at(model.wild)
    text = []
    by_weight: dict[int, list[int]] = {}
    for reel, weight in enumerate(rules.weights.tolist()):
        if weight > 1:
            by_weight.setdefault(int(weight), []).append(reel + 1)
    for weight, reels in sorted(by_weight.items()):
        text.append(
            p(
                "ways.wild_weight",
                wild=wild,
                weight=weight,
                reels=p.join([str(r) for r in reels]),
                count=len(reels),
            )
        )
    for reel, (values, odds) in sorted(rules.free_weights.items()):
        total = sum(odds)
        choices = [
            p("ways.weight_chance", weight=v, percent=p.number(Decimal(100 * o) / total, 2))
            for v, o in zip(values, odds, strict=True)
            if o
        ]
        text.append(
            p("ways.free_spins_wild_weight", wild=wild, reel=reel + 1, choices=p.join(choices))
        )
    if rules.pure_wild == EVERY_SYMBOL:
        text.append(p("ways.pure_wild_every_symbol", wild=wild))
    elif rules.pure_wild == NO_PURE_WILD:
        text.append(p("ways.pure_wild_none", wild=wild))
    else:
        text.append(p("ways.pure_wild_own", wild=wild))
    return text


def payouts(p: Phrases, model: GameModel) -> list[str]:
    """In place of the paylines' payout sentences: how a ways win is counted and paid."""
    rules = ways_rules(model)
    text = [
        p("ways.depend_on_symbols"),
        p("ways.adjacent"),
        p("payouts.first_reel"),
        *(
            [p("ways.example", reels=model.reels, rows=model.rows, ways=most_ways(model))]
            if model.heights is None  # the heights' own section gives the ways' range
            else []
        ),
        p("payouts.summary"),
        p("ways.coins_shown"),
        p("ways.regular", cost=rules.cost),
        p("payouts.credits_depend"),
        p("payouts.credits_amount"),
        p("payouts.formula"),
    ]
    if model.scatter >= 0:
        text.append(p("ways.scatter_added"))
    return text


def max_win(p: Phrases, model: GameModel) -> list[str]:
    """The paytable's top way (what one way of it pays), and that no win is capped."""
    pays = model.line_pays[:, model.reels]
    coins, _, symbol = max((int(pays[s.index]), -s.index, s.index) for s in model.symbols)
    return [
        p("ways.top_way", count=model.reels, symbol=p.symbol_at(symbol), coins=coins),
        p("max_win.uncapped"),
    ]


def bets(p: Phrases, model: GameModel, low: int, high: int, coins: int) -> list[str]:
    """In place of the paylines' bet sentences: a bet is the ways' cost times a multiplier."""
    rules = ways_rules(model)
    return [
        p("ways.cost", cost=rules.cost),
        p("ways.multiplier", low=low, high=high),
        p("ways.total", cost=rules.cost, coins=coins),
    ]


def page(model: GameModel, p: Phrases) -> dict[str, Any]:
    """What the rules page's document takes from the ways: the pay unit's label and their
    section (the ways a screen shows, the cost, the least run, the wild's weight per reel)."""
    rules = ways_rules(model)
    section = {
        "ways": most_ways(model),
        "cost": rules.cost,
        "min_run": rules.min_run,
        "wild_weights": rules.weights.tolist(),
    }
    return {"unit_label": "labels.way_pay_unit", "sections": {"ways": section}}
