"""The exact RTP of free spins with an expanding symbol: a mixture over the drawn symbol.

Given the special symbol ``s``, a free spin's expansion pays ``line_pays[s][n]`` on every
payline when ``n`` reels show ``s`` (anywhere in their window). Reels stop independently, so
``n`` is a sum of independent indicators, reel ``r`` showing ``s`` with probability ``q_r`` (the
weight of its stops whose window holds ``s`` over its total weight): its law is the
convolution of the reels' Bernoulli laws. The expansion's mean per free spin and per unit bet
is ``sum_n P(n) line_pays[s][n] x lines / cost`` (a payline's coin each).

The special symbol is never the scatter or the trigger symbol (:mod:`.rules`), so the free
spins' count law is the same whatever the draw, and the symbol is kept for the whole feature.
The expected number of free spins ``E[F]`` per round is the model's without the mechanic, and
by Wald's identity (each free spin's screen independent of the spins before it, ``F`` a
stopping time) the expansion returns ``E[F] x sum_s P(s) E[expansion | s]`` per round. The
line wins, the scatter and the trigger are the model's own route without ``[expanding]``, so
the figures are that route's, with the expansion added to ``free_spins_rtp`` and
``free_spin_win``.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING

from reelsmith.engine.model import GameModel, ReelSet
from reelsmith.mechanics.expanding.rules import expanding_rules, expansion_pay

if TYPE_CHECKING:
    from reelsmith.analysis.catalogue_exact import CatalogueFigures


@cache
def without_expanding(model: GameModel) -> GameModel:
    """``model`` without its ``[expanding]`` table: the law of everything but the expansion."""
    raw = {k: v for k, v in model.raw.items() if k != "expanding"}
    return replace(model, raw=raw)


def reels_law(model: GameModel, reel_set: ReelSet, symbol: int) -> list[Fraction]:
    """``law[n]``: the probability that ``n`` reels of ``reel_set`` show ``symbol``."""
    windows = reel_set.window_table(model.rows)
    law = [Fraction(1)]
    for reel in range(len(reel_set.strips)):
        count = int(reel_set.position_counts[reel])
        shows = (windows[reel, :count] == symbol).any(axis=1)
        weights = reel_set.position_weights(reel)
        q = Fraction(int(weights[shows].sum()), int(weights.sum()))
        law = [
            (law[n] if n < len(law) else 0) * (1 - q) + (law[n - 1] * q if n else 0)
            for n in range(len(law) + 1)
        ]
    return law


def expansion_mean(model: GameModel, variant_id: str, symbol: int) -> Fraction:
    """A free spin's expected expansion pay per unit bet, the special symbol ``symbol``."""
    from reelsmith.analysis.catalogue_exact import total_coins
    from reelsmith.engine.catalogue import mechanics

    rules = mechanics(model)
    assert rules.free_spins is not None
    reel_set = model.variant(variant_id).reel_sets[rules.free_spins.reel_set]
    law = reels_law(model, reel_set, symbol)
    per_line = sum(
        (p * expansion_pay(rules.free_line_pays, symbol, n) for n, p in enumerate(law)),
        Fraction(0),
    )
    return per_line * model.line_count / total_coins(model)


def expansion_by_symbol(model: GameModel, variant_id: str) -> dict[int, Fraction]:
    """Each drawable symbol's expected expansion pay per free spin and unit bet."""
    rules = expanding_rules(model)
    return {s: expansion_mean(model, variant_id, s) for s in rules.symbols}


def expanding_rtp(model: GameModel, variant_id: str) -> CatalogueFigures:
    """The exact RTP route's figures of ``variant_id`` (see the module)."""
    from reelsmith.analysis.catalogue_exact import analyze_rtp

    rules = expanding_rules(model)
    figures = analyze_rtp(without_expanding(model), variant_id)
    by_symbol = expansion_by_symbol(model, variant_id)
    mean = sum(
        (
            Fraction(w, rules.total) * by_symbol[s]
            for s, w in zip(rules.symbols, rules.weights, strict=True)
        ),
        Fraction(0),
    )
    spins = figures.trigger_probability * figures.expected_free_spins
    return replace(
        figures,
        free_spins_rtp=figures.free_spins_rtp + spins * mean,
        free_spin_win=figures.free_spin_win + mean,
    )
