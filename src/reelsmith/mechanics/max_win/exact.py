"""The cap's exact contribution: the capped RTP ``E[min(W, cap)]``, the capped round's standard
deviation and the cap's probability ``P(W >= cap)``, exactly wherever the lab carries the
round's whole win law, and said plainly where it does not.

Where the law is carried: a round that is its base spin alone (no free spins), paid by paylines
and a scatter (a plug-in's law of wins mixed in): the full-cycle enumeration of the base reel
set gives ``{win: ways}`` of the whole round (``CatalogueAnalysis.base_wins``), and the capped
figures are finite sums over it, in fractions.

Where it is not: free spins. The lab composes a feature's win from its spin law by Wald's
identities and compound sums, which carry the round's mean and variance, not its distribution;
``E[min(W, cap)]`` needs the distribution, so the capped figures there come from the kernel
(which caps its rounds as live play does), labelled simulated with their interval and rounds.
Ways titles have no full analysis yet (``analyze`` refuses them by name), so none is printed;
cascades and counts are analysed over the full cycle without the capped law, so theirs are
simulated too.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from reelsmith.engine.model import GameModel
from reelsmith.mechanics.max_win.rules import model_cap

#: Rounds the kernel plays for the capped figures where they are not exact, and its seed.
SIMULATED_ROUNDS = 1_000_000
SIMULATED_SEED = 1


@dataclass(frozen=True)
class CappedLaw:
    """The exact capped figures of a round law ``{win: ways}`` over ``cases`` equally likely
    cases, wins in coins of a bet of ``bet`` coins, capped at ``cap`` coins."""

    rtp: Fraction
    second: Fraction  # E[min(W, cap)^2] per unit bet squared
    probability: Fraction  # P(W >= cap)

    @property
    def std_dev(self) -> float:
        return math.sqrt(self.second - self.rtp * self.rtp)


def capped_law(wins: Mapping[int, int], cases: int, bet: int, cap: int) -> CappedLaw:
    """``E[min(W, cap)]``, ``E[min(W, cap)^2]`` (per unit bet) and ``P(W >= cap)`` of the law
    ``wins`` (``{win: ways}`` over ``cases``)."""
    paid = sum(min(w, cap) * n for w, n in wins.items())
    squares = sum(min(w, cap) ** 2 * n for w, n in wins.items())
    reached = sum(n for w, n in wins.items() if w >= cap)
    return CappedLaw(
        Fraction(paid, cases * bet),
        Fraction(squares, cases * bet * bet),
        Fraction(reached, cases),
    )


@dataclass(frozen=True)
class CapFigures:
    """What ``analyze`` says of a capped model: the cap, and either the exact capped figures
    (``exact``) or why they are not exact and the kernel's simulated ones (``simulated``)."""

    multiplier: int
    cap_coins: int  # at the analysis' bet (one coin on every payline)
    exact: CappedLaw | None
    why_not_exact: str | None = None
    simulated: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "multiplier": self.multiplier,
            "cap_coins": self.cap_coins,
            "exact": self.exact is not None,
        }
        if self.exact is not None:
            out |= {
                "rtp": float(self.exact.rtp),
                "std_dev": self.exact.std_dev,
                "probability": float(self.exact.probability),
                "method": "exact: the round's whole win law (the base reel set's full cycle), "
                "capped",
            }
        else:
            out |= {"why_not_exact": self.why_not_exact, "simulated": self.simulated}
        return out


def why_not_carried(model: GameModel) -> str | None:
    """Why the lab does not carry ``model``'s round win law whole (None: it does)."""
    if "cascade" in model.raw or "anywhere" in model.raw:
        return (
            "the round's win law is not carried here: the full-cycle analysis of a chain of "
            "screens or a count gives the round's figures, not its capped law"
        )
    if "ways" in model.raw:
        return (
            "the round's win law is not carried here: the cap on a ways screen's law (the "
            "ways' full cycle) is not composed yet"
        )
    if "free_spins" in model.raw:
        return (
            "the round's win law is not carried here: free spins are composed by Wald's "
            "identities, which give the round's mean and variance, not its distribution"
        )
    return None


def simulated_cap(model: GameModel, variant_id: str, rounds: int, seed: int) -> dict[str, Any]:
    """The kernel's capped figures (it caps each round as live play does) over ``rounds``
    rounds from ``seed``, each with its 99% interval."""
    from reelsmith.analysis import kernel as k
    from reelsmith.analysis.simulation import Z_99 as Z
    from reelsmith.analysis.simulation import simulate

    result = simulate(model, rounds, seed, variant_id=variant_id, workers=1)
    hits = result.stats[k.S_CAP_HITS] / rounds
    half = Z * math.sqrt(hits * (1 - hits) / rounds)
    interval = result.interval(Z)
    return {
        "rounds": rounds,
        "seed": seed,
        "rtp": result.rtp,
        "rtp_ci99": None if interval is None else list(interval),
        "std_dev": result.std_dev,
        "probability": hits,
        "probability_ci99": [max(hits - half, 0.0), min(hits + half, 1.0)],
        "method": "simulated: the simulation kernel, which caps each round as live play does",
    }


def cap_figures(
    analysis: Any, rounds: int = SIMULATED_ROUNDS, seed: int = SIMULATED_SEED
) -> CapFigures | None:
    """The capped figures of a catalogue analysis (None: the model has no cap): exact where the
    round's law is carried (:func:`why_not_carried`), else simulated over ``rounds``."""
    model = analysis.model
    cap = model_cap(model)
    if cap is None:
        return None
    bet = analysis.total_bet
    cap_coins = cap.cap_coins(bet)
    why = why_not_carried(model)
    if why is None:
        law = capped_law(analysis.base_wins, analysis.base.total, bet, cap_coins)
        return CapFigures(cap.multiplier, cap_coins, law)
    simulated = simulated_cap(model, analysis.variant_id, rounds, seed)
    return CapFigures(cap.multiplier, cap_coins, None, why, simulated)


def simulation_exact(model: GameModel, variant_id: str, uncapped_rtp: float) -> dict[str, Any]:
    """What ``reelsmith simulate`` sets beside a capped model's simulated figures: the exact
    capped RTP and cap probability where the round's law is carried, else ``None`` for both
    (the simulated capped RTP is then compared with nothing exact), and the uncapped exact RTP
    under its own name."""
    from reelsmith.analysis.catalogue_exact import analyze_full
    from reelsmith.engine.model import ModelError

    cap = model_cap(model)
    assert cap is not None
    out: dict[str, Any] = {
        "max_win_multiplier": cap.multiplier,
        "uncapped_rtp": uncapped_rtp,
        "rtp": None,
        "cap_probability": None,
    }
    why = why_not_carried(model)
    if why is None:
        try:
            figures = cap_figures(analyze_full(model, variant_id))
        except ModelError as exc:  # a full analysis the lab has not written (ways)
            why = str(exc)
        else:
            assert figures is not None and figures.exact is not None
            out["rtp"] = float(figures.exact.rtp)
            out["cap_probability"] = float(figures.exact.probability)
    out["why_not_exact"] = why
    return out
