"""The modes' section of the rules page (``[modes]`` in the help files, English and German):
each mode the player's market offers, its price in bets, what it changes and its own RTP. A
market that offers none of the title's modes gets one sentence saying so."""

from __future__ import annotations

from decimal import Decimal
from functools import cache
from typing import Any

from reelsmith.engine.catalogue import mechanics
from reelsmith.engine.model import GameModel
from reelsmith.help import Phrases
from reelsmith.mechanics.modes.rules import Mode, modes_of


@cache
def _rtp_percent(model: GameModel, variant_id: str | None, name: str) -> Decimal:
    """The mode's RTP in percent to two places: as the variant file states it (the exact
    figure ``tune`` wrote, re-derived by a test), else worked out exactly."""
    stated = model.variant(variant_id).figures.get(f"mode_{name}_rtp")
    if stated is not None:
        return (Decimal(str(stated)) * 100).quantize(Decimal("0.01"))
    from reelsmith.mechanics.modes.exact import figures

    rtp = figures(model, variant_id, name).rtp
    return (Decimal(rtp.numerator) / Decimal(rtp.denominator) * 100).quantize(Decimal("0.01"))


def offered(model: GameModel, terms: Any) -> list[Mode]:
    """The modes of ``model`` the terms' market offers (every mode where no market is
    given)."""
    allowed = getattr(terms, "modes_offered", None)
    return [m for m in modes_of(model).modes.values() if allowed is None or m.name in allowed]


def rules(
    p: Phrases, model: GameModel, variant_id: str | None = None, terms: Any = None
) -> list[str]:
    shown = offered(model, terms)
    if not shown:
        return [p("modes.none")]
    text = [p("modes.intro")]
    for mode in shown:
        price = p.number(Decimal(mode.price_text))
        if mode.kind == "ante":
            # what the ante's reels make more frequent: the free spins, the hold-and-spin
            key = (
                "modes.ante"
                if "free_spins" in model.raw
                else "modes.ante_hold"
                if "hold_and_spin" in model.raw
                else "modes.ante_reels"
            )
            text.append(p(key, name=mode.name, price=price))
        else:
            free = mechanics(model).free_spins
            assert free is not None
            text.append(
                p(
                    "modes.buy",
                    name=mode.name,
                    price=price,
                    count=mode.triggers,
                    symbol=p.symbol_at(free.symbol),
                )
            )
        rtp = _rtp_percent(model, variant_id, mode.name)
        text.append(p("modes.rtp", name=mode.name, rtp=p.number(rtp, 2)))
    return text
