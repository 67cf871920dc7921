"""The hold-and-spin's sentences of the rules page (``[hold_and_spin]`` in the help catalogues,
English and German), written from the model's own table: the trigger count, the respins and
their reset, how the feature ends, the coin values, the jackpot tiers, the full grid and how the
feature pays, and where the table has them the collector and multiplier coins (what they act
on, how several multipliers combine, and that jackpots are neither collected nor multiplied).
The page is the paylines' page (:mod:`reelsmith.engine.catalogue_help`) with this
section put before its payouts."""

from __future__ import annotations

from typing import Any

from reelsmith.engine import catalogue_help
from reelsmith.engine.model import GameModel
from reelsmith.help import Phrases, Terms
from reelsmith.mechanics.hold_and_spin.rules import KIND_PLAIN, hold_and_spin_rules


def rules(p: Phrases, model: GameModel) -> list[str]:
    """The section's sentences."""
    found = hold_and_spin_rules(model)
    symbol = p.symbol_at(found.symbol)
    respins = p.spell(found.respins)
    plain = sorted({v.amount for v in found.values if v.kind == KIND_PLAIN and v.weight})
    tiers = [t for t in found.jackpots if any(v.tier == t and v.weight for v in found.values)]
    text = [
        p("hold_and_spin.trigger", count=p.spell(found.trigger), symbol=symbol),
        # plural forms by the count: one respin reads "one respin begins" / "eine Extradrehung"
        p("hold_and_spin.stick", symbol=symbol, respins=respins, count=found.respins),
        p("hold_and_spin.reset", symbol=symbol, respins=respins, count=found.respins),
        p("hold_and_spin.end", symbol=symbol),
    ]
    if plain:
        amounts = ", ".join(p.number(a) for a in plain)
        key = "hold_and_spin.values_or_jackpot" if tiers else "hold_and_spin.values"
        text.append(p(key, symbol=symbol, values=amounts))
    elif tiers:
        text.append(p("hold_and_spin.jackpot_only", symbol=symbol))
    if found.collectors:
        text.append(p("hold_and_spin.collect", symbol=symbol))
    if found.multipliers:
        factors = sorted({v.factor for v in found.values if v.factor and v.weight})
        key = "hold_and_spin.multiplier_collect" if found.collectors else "hold_and_spin.multiplier"
        text.append(p(key, symbol=symbol, factors=", ".join(f"x{f}" for f in factors)))
        mode = (
            "hold_and_spin.multipliers_sum" if found.multiply_sum else "hold_and_spin.multipliers"
        )
        text.append(p(mode))
    special = found.collectors or found.multipliers
    shown = tiers + ([found.full_grid] if found.full_grid and found.full_grid not in tiers else [])
    for tier in shown:
        text.append(
            p("hold_and_spin.jackpot", tier=tier.capitalize(), times=p.number(found.jackpots[tier]))
        )
    if found.full_grid is not None:
        text.append(p("hold_and_spin.full_grid", symbol=symbol, tier=found.full_grid.capitalize()))
    if shown:
        text.append(p("hold_and_spin.fixed"))
        if special:
            text.append(p("hold_and_spin.jackpots_apart"))
    text.append(p("hold_and_spin.paid_special" if special else "hold_and_spin.paid", symbol=symbol))
    return text


def feature_rules(
    model: GameModel, variant_id: str | None, phrases: Phrases, terms: Terms | None = None
) -> dict[str, Any]:
    """The paylines' rules page with the hold-and-spin's section before the payouts."""
    page = catalogue_help.feature_rules(model, variant_id, phrases, terms)
    out: dict[str, Any] = {}
    for key, value in page.items():
        if key == "payouts":
            out["hold_and_spin"] = rules(phrases, model)
        out[key] = value
    return out
