"""The ladder's family of the one tuner (:func:`reelsmith.analysis.tuning.tune`): the moves that
give a ladder-and-pots title new reel strips (and gem-reveal weights) for a target RTP and,
optionally, a volatility class. :func:`plan` sets the family up; the search, the checks, the
variant file (with the exact analyzer's figures beside the strips) and the result are the
tuner's.

What the search may change
--------------------------
A *move* replaces the symbol of one stop by another paying symbol, on one reel of the base or
the free-spin reel set. Gems and bonus symbols never move (their spacing, the jackpots, the
trigger frequency and the ladder stay as they are), each reel keeps at least one of every
paying symbol (every award stays possible), and the pots (seeds, caps) are the model's, not
the variant's. So only the line pays change, and:

* RTP: the expected line pay of a spin is linear in each reel's column law with the other
  reels fixed, and additive over the reel's rows (each payline crosses one row of it), so a
  table ``W[reel, row, symbol]`` (the expected line pay credited to a cell of that row
  showing that symbol) gives every move's exact effect: a stop appears at row ``r`` of the
  window starting ``r`` stops above it, with that window's probability (excluding the gem
  reveals that turn the whole reel wild). A free-spin move is scaled by the expected sum of
  multipliers per trigger times the trigger probability (unchanged: bonus symbols do not
  move). The search greedily takes the move that lands closest to the target, recomputing
  the exact RTP after each, until it is within tolerance. Wild moves are left out of this
  phase: they are the volatility lever.
* Volatility: the jackpots alone give ``E[X^2] >= sum_i g_i q_i E[a_i^2]`` (gems per round,
  hit probability, pot won), so the standard deviation has a floor no move can lower
  (:attr:`reelsmith.analysis.ladder_exact.RtpParts.std_dev_floor`); a class below it is
  refused with that floor. To raise the standard deviation a
  regular symbol on a free-spin reel becomes a wild; to lower it, a wild becomes a regular
  symbol; the RTP phase then restores the target and the exact analysis decides.
* Fine steps: if no strip move lands within tolerance, the gem-reveal weights are refined
  (multiplied by ten) and single weight units are moved between reveal outcomes.

The written file is checked by loading it back through the model loader (gem and bonus
spacing, reveal table) and re-deriving its figures.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from reelsmith.analysis import ladder_exact as exact
from reelsmith.analysis.ladder_spin import (
    STATIONARY,
    Columns,
    LinePatterns,
    build_columns,
    jackpot_hit_probability,
    line_first,
    line_patterns,
    set_membership,
    single_tables,
)
from reelsmith.analysis.tuning import (
    Candidate,
    Plan,
    all_pairs,
    refine_weights,
    volatility_bounds,
    wild_move,
)
from reelsmith.engine.ladder import (
    RULES_VERSION,
    WILD_REEL,
    LadderRules,
    ladder_rules,
)
from reelsmith.engine.model import GameModel, ModelError, ReelSet, Variant

#: The tuned RTP must be within this of the target (0.01 percentage points).
TOLERANCE = 1e-4
#: The search aims well inside the tolerance when it can.
AIM = 1e-5
#: How close the search gets before and between the volatility moves.
COARSE = 1e-3
MAX_VOLATILITY_STEPS = 60


@dataclass
class Strips:
    """The mutable state of the search: strips as symbol indices, reveal weights."""

    reel_sets: dict[str, list[list[int]]]
    outcomes: list[str]
    weights: list[int]
    moves: int = 0

    def parameters(self) -> dict[str, dict[str, Any]]:
        """The variant's tables besides its strips: the rules version it is tuned for (the
        current one) and the gem-reveal weights."""
        return {
            "rules": {"version": RULES_VERSION},
            "gem_reveal": {"outcomes": list(self.outcomes), "weights": list(self.weights)},
        }

    def variant(self, model: GameModel, variant_id: str) -> Variant:
        reel_sets = {
            name: ReelSet.build(name, [np.array(s, dtype=np.int8) for s in strips], model.rows)
            for name, strips in self.reel_sets.items()
        }
        return Variant(
            id=variant_id,
            description="",
            reel_sets=reel_sets,
            parameters=self.parameters(),
            figures={},
        )

    def model(self, model: GameModel, variant_id: str) -> GameModel:
        variant = self.variant(model, variant_id)
        return dataclasses.replace(
            model, variants={variant_id: variant}, default_variant=variant_id
        )


@njit(cache=True, nogil=True)
def _cell_values(
    tables: npt.NDArray[np.float64],
    paylines: npt.NDArray[np.int8],
    types: npt.NDArray[np.int64],
    pay: npt.NDArray[np.int64],
    member: npt.NDArray[np.float64],
    out: npt.NDArray[np.float64],
) -> None:
    """``out[reel, row, symbol]``: the expected line pay (line bets) of the patterns whose
    cell on ``reel`` is at ``row`` and admits ``symbol``, the other reels random; the line pay
    is the sum over rows of the value of the symbol shown there (for one reel at a time)."""
    reels = tables.shape[0]
    for line in range(paylines.shape[0]):
        for pattern in range(types.shape[0]):
            for reel in range(reels):
                others = 1.0
                for other in range(reels):
                    if other == reel:
                        continue
                    t = types[pattern, other]
                    row = paylines[line, other]
                    others *= tables[other, row, t, 0] + tables[other, row, t, 1]
                    if others == 0.0:
                        break
                if others == 0.0:
                    continue
                row = paylines[line, reel]
                t = types[pattern, reel]
                for symbol in range(member.shape[1]):
                    out[reel, row, symbol] += pay[pattern] * others * member[t, symbol]


class Search:
    """The ladder's part of the tuner (:class:`reelsmith.analysis.tuning.Family`): the exact
    RTP of a candidate and every move's exact effect on it (floats: the columns' laws are)."""

    def __init__(
        self, model: GameModel, variant_id: str, start: Strips, base_variant: str | None = None
    ) -> None:
        self.model = model
        self.variant_id = variant_id
        #: The variant the search started from, as the written file's header names it.
        self.base_variant = base_variant if base_variant is not None else variant_id
        self.rules = ladder_rules(model)
        self.member = set_membership(model)
        self.patterns: LinePatterns = line_patterns(model)
        self.regular = [s.index for s in model.symbols if s.role == "regular"]
        parts = exact.rtp_parts(start.model(model, variant_id), variant_id)
        # Fixed by the moves (gems, bonus symbols and pots do not move):
        self.jackpot_rtp = parts.jackpot_rtp
        self.free_scale = parts.free_scale
        self.std_dev_floor = parts.std_dev_floor
        self.free_name = self.rules.free_reel_set

    def _columns(self, state: Strips, name: str) -> tuple[Columns, ReelSet]:
        rs = ReelSet.build(
            name, [np.array(s, dtype=np.int8) for s in state.reel_sets[name]], self.model.rows
        )
        reveal = dict(zip(state.outcomes, state.weights, strict=True))
        return build_columns(self.rules, rs, reveal, STATIONARY), rs

    def line_mean(self, state: Strips, name: str) -> float:
        columns, _ = self._columns(state, name)
        tables = single_tables(columns, self.member, np.ones_like(columns.prob))
        return (
            float(line_first(self.model, self.patterns, tables).pay.sum()) / self.model.line_count
        )

    def rtp(self, state: Strips) -> float:
        return (
            self.line_mean(state, "base")
            + self.free_scale * self.line_mean(state, self.free_name)
            + self.jackpot_rtp
        )

    def candidates(self, state: Strips, rtp: float, target: float) -> list[Candidate]:
        """Every allowed move between the regular symbols, with how far from ``target`` it
        leaves the RTP (now ``rtp``)."""
        model = self.model
        symbols = self.regular
        gap = target - rtp
        out = []
        wild_reel_share = _wild_reel_share(state)
        for name, strips in state.reel_sets.items():
            columns, _ = self._columns(state, name)
            tables = single_tables(columns, self.member, np.ones_like(columns.prob))
            values = np.zeros((model.reels, model.rows, len(model.symbols)))
            _cell_values(
                tables,
                model.paylines,
                self.patterns.types,
                self.patterns.pay,
                self.member,
                values,
            )
            scale = (1.0 if name == "base" else self.free_scale) / model.line_count
            for reel, strip in enumerate(strips):
                n = len(strip)
                jackpot = self.rules.jackpots[reel]
                q = jackpot_hit_probability(jackpot)
                # probability that the window starting at each stop shows its cells as landed
                # (a gem turning the reel wild hides them)
                shown = np.full(n, 1.0 / n)
                for start in range(n):
                    window = [strip[(start + r) % n] for r in range(model.rows)]
                    if self.rules.gem in window:
                        shown[start] = (1.0 - (1.0 - q) * wild_reel_share) / n
                counts = np.bincount(np.array(strip), minlength=len(model.symbols))
                for stop, old in enumerate(strip):
                    if old not in symbols or counts[old] <= 1:
                        continue
                    weights = [shown[(stop - r) % n] for r in range(model.rows)]
                    for new in symbols:
                        if new == old:
                            continue
                        change = sum(
                            w * (values[reel, r, new] - values[reel, r, old])
                            for r, w in enumerate(weights)
                        )
                        delta = change * scale
                        order = (name, reel, stop, old, new)
                        out.append(
                            Candidate(name, reel, old, new, delta, abs(gap - delta), order, stop)
                        )
        return out

    def apply(self, state: Strips, move: Candidate) -> None:
        strip = state.reel_sets[move.reel_set][move.reel]
        # pragma: no cover - a stale move must never be applied
        if move.stop is None or strip[move.stop] != move.old:  # pragma: no cover
            raise AssertionError("the move's stop no longer shows its symbol")
        strip[move.stop] = move.new
        state.moves += 1

    def std_dev(self, state: Strips) -> float:
        return exact.analyze_full(state.model(self.model, self.variant_id), self.variant_id).std_dev

    def volatility_move(self, state: Strips, up: bool) -> bool:
        """One wild more (``up``) or fewer on a free-spin reel, at a stop that rotates with the
        moves made and, where it can, has no neighbour showing the new symbol."""
        strips = state.reel_sets[self.free_name]
        move = wild_move(self.model, strips, up, wild_reels_only=False)
        if move is None:
            return False
        reel, old, new = move
        strip = strips[reel]
        n = len(strip)
        start = (state.moves * 17 + reel * 7) % n
        stops = [(start + i) % n for i in range(n) if strip[(start + i) % n] == old]
        chosen = next(
            (s for s in stops if strip[(s - 1) % n] != new and strip[(s + 1) % n] != new),
            stops[0],
        )
        strip[chosen] = new
        state.moves += 1
        return True

    def refine(self, state: Strips, target: float) -> float:
        """The gem-reveal weights, units moved between any two outcomes."""
        return refine_weights(state.weights, lambda: self.rtp(state), target, AIM, all_pairs)

    def can_refine(self, state: Strips) -> bool:
        return True

    def tuned(self, state: Strips) -> GameModel:
        return state.model(self.model, self.variant_id)

    def tables(self, state: Strips) -> tuple[dict[str, list[list[str]]], dict[str, Any]]:
        ids = self.model.symbol_ids
        reel_sets = {
            name: [[ids[s] for s in strip] for strip in strips]
            for name, strips in state.reel_sets.items()
        }
        return reel_sets, state.parameters()

    def notes(self, state: Strips, target: Decimal, volatility: str | None) -> tuple[str, str]:
        model = self.model
        asked = f" --volatility {volatility}" if volatility else ""
        return (
            f"{model.name} at {target:.2f}% return to player, jackpots included.",
            f"{model.name}, RTP variant {self.variant_id}.\n"
            f"Tuned by `reelsmith tune {model.id} --target-rtp {target:.2f}{asked}` from "
            f"variant {self.base_variant} ({state.moves} stops changed).\n"
            f"Played under rules version {RULES_VERSION}: every pot is won before its cap.\n"
            f"Gems and bonus symbols keep their stops, never closer than {model.rows} (the\n"
            "window's height), so a reel shows at most one of each. gem_reveal: what a gem\n"
            "reveals when it does not hit its pot's trigger\n"
            "point (a paying symbol, wild, or wild_reel) and the integer weights.",
        )

    def reveal_weights(self, state: Strips) -> tuple[int, ...]:
        return tuple(state.weights)


def _wild_reel_share(state: Strips) -> float:
    total = sum(state.weights)
    return sum(w for o, w in zip(state.outcomes, state.weights, strict=True) if o == WILD_REEL) / (
        total
    )


def plan(
    model: GameModel,
    source: Variant,
    variant_id: str,
    target: Decimal,
    volatility: str | None,
) -> Plan:
    """The ladder family set up to tune ``source`` into ``variant_id`` (see the module):
    floats, a coarse pass before the volatility moves and a fine one after. Refuses a
    volatility class below the standard deviation the jackpots alone give, and a ladder on
    ways (the tuner's moves are priced on paylines)."""
    from reelsmith.analysis.ladder_window import on_window

    if on_window(model):
        raise ModelError(
            f"{model.source or model.id}: the ladder's tuner prices its moves on paylines; it "
            "does not tune a ladder on ways yet (reelsmith analyze gives its exact figures)"
        )
    rules: LadderRules = ladder_rules(model)
    reveal = rules.gem_reveal(source)
    state = Strips(
        reel_sets={
            name: [[int(s) for s in strip] for strip in rs.strips]
            for name, rs in source.reel_sets.items()
        },
        outcomes=list(reveal.outcomes),
        weights=list(reveal.weights),
    )
    family = Search(model, variant_id, state, base_variant=source.id)
    if volatility is not None:
        floor = family.std_dev_floor
        if floor >= volatility_bounds(volatility)[1]:
            raise ValueError(
                f"{volatility} volatility is out of reach: the jackpots alone give a standard "
                f"deviation of at least {floor:.2f} per round (tuning moves line symbols; gems, "
                "pots and bonus symbols stay)"
            )
    return Plan(
        family=family,
        state=state,
        target=float(target) / 100,
        coarse=COARSE,
        aim=AIM,
        tolerance=TOLERANCE,
        volatility_steps=MAX_VOLATILITY_STEPS,
        method="greedy exact moves (per-cell line-pay values), verified by the exact analyzer",
        reach="strip moves of the paying symbols and the gem-reveal weights",
    )
