"""The exact RTP of a title with mystery symbols: a mixture over the reveal table.

A spin's mysteries all become one symbol drawn independently of the stops, so the spin's law is
the mixture, over the reveal table, of the law of the same spin on strips where the mystery is
replaced by the symbol drawn. This holds for any evaluator that reads the screen (paylines,
ways, pays anywhere): the replaced strips are analysed by the evaluator's own exact route.

The free spins compose exactly with the mixture because a mystery never reveals the scatter or
the trigger symbol (:mod:`.rules`): the scatter's pays, the trigger and the retriggers are the
same whatever the draw, so the round's RTP is linear in a base spin's mean win (mixed over
``reveal``) and a free spin's (mixed over ``free_spins_reveal``), each free spin drawing its
own reveal. Each symbol's replaced model is analysed once: the base fields of the figures are
mixed by the base table, the free spins' fields by the free spins' table.
"""

from __future__ import annotations

from dataclasses import fields, replace
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING

import numpy as np

from reelsmith.engine.model import GameModel, ReelSet
from reelsmith.mechanics.mystery.rules import RevealTable, mystery_rules

if TYPE_CHECKING:
    from reelsmith.analysis.catalogue_exact import CatalogueFigures

#: The figures a base spin's reveal changes, mixed by the base table.
BASE_FIELDS = ("line_rtp", "base_spin_rtp", "plugin_rtp")
#: The figures a free spin's reveal changes, mixed by the free spins' table.
FREE_FIELDS = ("free_spins_rtp", "free_spin_win", "plugin_free_spins_rtp")


def replaced_reel_set(reel_set: ReelSet, mystery: int, symbol: int, rows: int) -> ReelSet:
    """``reel_set`` with every stop showing ``mystery`` showing ``symbol`` (same weights)."""
    strips = [np.where(s == mystery, np.int8(symbol), s).astype(np.int8) for s in reel_set.strips]
    return ReelSet.build(reel_set.name, strips, rows, reel_set.weights)


@cache
def revealed_model(model: GameModel, symbol: int) -> GameModel:
    """``model`` with the mystery replaced by ``symbol`` on every strip of every variant and
    without its ``[mystery]`` table: the law of a spin whose reveal drew ``symbol``."""
    mystery = mystery_rules(model).symbol
    variants = {
        vid: replace(
            variant,
            reel_sets={
                name: replaced_reel_set(rs, mystery, symbol, model.rows)
                for name, rs in variant.reel_sets.items()
            },
        )
        for vid, variant in model.variants.items()
    }
    raw = {k: v for k, v in model.raw.items() if k != "mystery"}
    return replace(model, raw=raw, variants=variants)


def _mixed(
    model: GameModel, variant_id: str, table: RevealTable
) -> dict[int, tuple[Fraction, CatalogueFigures]]:
    from reelsmith.analysis.catalogue_exact import analyze_rtp

    total = table.total
    return {
        symbol: (Fraction(weight, total), analyze_rtp(revealed_model(model, symbol), variant_id))
        for symbol, weight in zip(table.symbols, table.weights, strict=True)
        if weight
    }


def mystery_rtp(model: GameModel, variant_id: str) -> CatalogueFigures:
    """The exact RTP route's figures of ``variant_id``: each field the mixture, over the table
    of the spins it describes, of the replaced models' figures (see the module)."""
    rules = mystery_rules(model)
    base = _mixed(model, variant_id, rules.base)
    free = base if rules.free is rules.base else _mixed(model, variant_id, rules.free)
    first = next(iter(base.values()))[1]
    values: dict[str, Fraction] = {}
    for f in fields(first):
        name = f.name
        if name in BASE_FIELDS or name in FREE_FIELDS:
            mix = base if name in BASE_FIELDS else free
            values[name] = sum((p * getattr(fig, name) for p, fig in mix.values()), Fraction(0))
            continue
        # the scatter and the trigger's law never depend on the draw (rules.py): every
        # replaced model gives the same figure, which is checked rather than assumed
        found = {getattr(fig, name) for _, fig in (*base.values(), *free.values())}
        if len(found) != 1:
            raise AssertionError(f"{model.id} {variant_id}: {name} depends on the mystery's draw")
        values[name] = found.pop()
    return replace(first, **values)
