"""Tuning Days of the Tsar: new reel strips (and reveal weights) for a target RTP and,
optionally, a volatility class; the result is verified by the exact analyzer and written as a
variant file with its figures beside the strips.

How the search works
--------------------
A *move* replaces the symbol of one stop: symbol ``a`` by ``b`` on one reel of the base or the
free-spin reel set. Eggs are never moved (their spacing, the egg-count distribution and so the
trigger frequency stay as they are), each reel keeps at least one of every paying symbol (so
every award stays possible) and a move avoids putting a symbol next to itself.

* RTP: the line pay over a full cycle is linear in each reel's symbol counts, so every move's
  exact effect on the RTP follows from one gradient pass per reel set
  (:func:`reelsmith.analysis.exact.line_gradient`); a free-spin move is scaled by the expected
  free spins per game (unchanged, since eggs do not move). The search greedily takes the move
  that lands closest to the target, recomputing the exact RTP after each, until it is within
  tolerance. Tsar moves are left out of this phase: they are the volatility lever.
* Volatility: the standard deviation is driven by the free spins' Tsars. To raise it a regular
  symbol on a free-spin reel becomes a Tsar; to lower it a Tsar becomes a regular symbol; the
  RTP phase then restores the target, and the full exact analysis (full-cycle enumeration)
  decides whether the class is reached.
* Fine steps: if no strip move lands within tolerance, the egg-reveal weights are refined
  (multiplied by ten) and single weight units are moved between neighbouring values.

The written file is checked by loading it back through the model loader (egg spacing, reveal
table) and re-deriving its figures.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console

from reelsmith.analysis import days_of_the_tsar as tsar
from reelsmith.analysis.exact import line_gradient
from reelsmith.analysis.report import write_text_atomically
from reelsmith.analysis.volatility import VOLATILITY_CLASSES
from reelsmith.engine.model import GameModel, ReelSet, Variant, format_variant, load_model
from reelsmith.games.days_of_the_tsar.rules import tsar_rules

#: The tuned RTP must be within this of the target (0.01 percentage points).
TOLERANCE = Fraction(1, 10_000)
#: The search aims well inside the tolerance when it can.
AIM = Fraction(1, 100_000)
MAX_MOVES = 2_000
MAX_VOLATILITY_STEPS = 40

ProgressCallback = Callable[[int], None]


@dataclass
class Strips:
    """The mutable state of the search: strips as symbol indices, reveal weights."""

    reel_sets: dict[str, list[list[int]]]
    values: list[int]
    weights: list[int]
    moves: int = 0

    def variant(self, model: GameModel, variant_id: str) -> Variant:
        reel_sets = {
            name: ReelSet.build(name, [np.array(s, dtype=np.int8) for s in strips], model.rows)
            for name, strips in self.reel_sets.items()
        }
        return Variant(
            id=variant_id,
            description="",
            reel_sets=reel_sets,
            parameters={"egg_reveal": {"values": list(self.values), "weights": list(self.weights)}},
            figures={},
        )

    def model(self, model: GameModel, variant_id: str) -> GameModel:
        variant = self.variant(model, variant_id)
        return dataclasses.replace(
            model, variants={variant_id: variant}, default_variant=variant_id
        )


@dataclass(frozen=True)
class Move:
    reel_set: str
    reel: int
    old: int
    new: int
    delta: Fraction


def _candidate_moves(
    model: GameModel,
    state: Strips,
    figures: tsar.TsarFigures,
    symbols: set[int],
    free_name: str,
) -> list[Move]:
    """Every allowed move between ``symbols`` with its exact RTP change."""
    spins_per_game = figures.expected_free_spins * figures.trigger_probability
    moves = []
    for name, strips in state.reel_sets.items():
        reel_set = ReelSet.build(name, [np.array(s, dtype=np.int8) for s in strips], model.rows)
        gradient = line_gradient(model, reel_set)
        scale = Fraction(1, reel_set.cycle) * (spins_per_game if name == free_name else 1)
        for reel, strip in enumerate(strips):
            counts = np.bincount(np.array(strip), minlength=len(model.symbols))
            for old in symbols:
                if counts[old] <= 1:
                    continue
                for new in symbols:
                    if new == old:
                        continue
                    delta = int(gradient[reel, new] - gradient[reel, old]) * scale
                    moves.append(Move(name, reel, old, new, delta))
    return moves


def _apply(state: Strips, move: Move) -> None:
    """Replace one stop showing ``move.old``, preferring one whose neighbours differ from the
    new symbol; stops are tried from a position that walks around the strip move by move."""
    strip = state.reel_sets[move.reel_set][move.reel]
    n = len(strip)
    start = (state.moves * 17 + move.reel * 7) % n
    candidates = [(start + i) % n for i in range(n) if strip[(start + i) % n] == move.old]
    if not candidates:
        raise AssertionError("a move needs a stop with its symbol")
    for stop in candidates:
        if strip[(stop - 1) % n] != move.new and strip[(stop + 1) % n] != move.new:
            break
    else:
        stop = candidates[0]
    strip[stop] = move.new
    state.moves += 1


def _rtp(model: GameModel, state: Strips, variant_id: str) -> tsar.TsarFigures:
    return tsar.analyze(state.model(model, variant_id), variant_id)


def _rtp_phase(
    model: GameModel,
    state: Strips,
    target: Fraction,
    variant_id: str,
    tolerance: Fraction,
    progress: ProgressCallback | None,
) -> Fraction:
    """Greedy exact moves among the regular symbols until the RTP is within ``tolerance``."""
    free_name = str(tsar_rules(model).free_reel_set)
    regular = {s.index for s in model.symbols if s.role == "regular"}
    for _ in range(MAX_MOVES):
        figures = _rtp(model, state, variant_id)
        gap = target - figures.rtp
        if abs(gap) <= tolerance:
            return figures.rtp
        moves = _candidate_moves(model, state, figures, regular, free_name)
        best = min(moves, key=lambda m: (abs(gap - m.delta), m.reel_set, m.reel, m.old, m.new))
        if abs(gap - best.delta) >= abs(gap):
            return figures.rtp
        _apply(state, best)
        if progress:
            progress(1)
    return _rtp(model, state, variant_id).rtp


def _refine_reveal(model: GameModel, state: Strips, target: Fraction, variant_id: str) -> Fraction:
    """Close a last gap with the reveal weights: refine them (x10) and move single units
    between neighbouring reveal values, exactly evaluated."""
    rtp = _rtp(model, state, variant_id).rtp
    if sum(state.weights) < 10_000:
        state.weights = [w * 10 for w in state.weights]
    for _ in range(200):
        gap = target - rtp
        if abs(gap) <= AIM:
            break
        best: tuple[Fraction, int, int] | None = None
        for i in range(len(state.weights) - 1):
            for source, sink in ((i, i + 1), (i + 1, i)):
                if state.weights[source] <= 1:
                    continue
                state.weights[source] -= 1
                state.weights[sink] += 1
                trial = _rtp(model, state, variant_id).rtp
                state.weights[source] += 1
                state.weights[sink] -= 1
                if best is None or abs(target - trial) < best[0]:
                    best = (abs(target - trial), source, sink)
        if best is None or best[0] >= abs(gap):
            break
        _, source, sink = best
        state.weights[source] -= 1
        state.weights[sink] += 1
        rtp = _rtp(model, state, variant_id).rtp
    return rtp


def _volatility_move(model: GameModel, state: Strips, up: bool, free_name: str) -> bool:
    """One Tsar more (``up``) or fewer on a free-spin reel; False when none is possible."""
    wild = model.wild
    regular = [s.index for s in model.symbols if s.role == "regular"]
    strips = state.reel_sets[free_name]
    best: tuple[int, int, int] | None = None  # (count key, reel, symbol)
    for reel, strip in enumerate(strips):
        counts = np.bincount(np.array(strip), minlength=len(model.symbols))
        if up:
            # the most plentiful regular symbol on the reel with the fewest Tsars
            symbol = max(regular, key=lambda s: (counts[s], -s))
            if counts[symbol] <= 1:
                continue
            key = -int(counts[wild])
        else:
            if counts[wild] <= 1:
                continue
            symbol = min(regular, key=lambda s: (counts[s], s))
            key = int(counts[wild])
        if best is None or key > best[0]:
            best = (key, reel, symbol)
    if best is None:
        return False
    _, reel, symbol = best
    old, new = (symbol, wild) if up else (wild, symbol)
    _apply(state, Move(free_name, reel, old, new, Fraction(0)))
    return True


@dataclass(frozen=True)
class TuneResult:
    """What ``tune`` wrote and its exact figures."""

    path: Path
    variant_id: str
    base_variant: str
    target: Decimal
    volatility: str | None
    analysis: tsar.TsarAnalysis
    moves: int
    reveal_weights: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        a = self.analysis
        return {
            "game": a.model.id,
            "variant": self.variant_id,
            "file": str(self.path),
            "from": self.base_variant,
            "target_rtp": float(self.target) / 100,
            "rtp": round(float(a.rtp), 10),
            "rtp_fraction": f"{a.rtp.numerator}/{a.rtp.denominator}",
            "std_dev": round(a.std_dev, 6),
            "volatility_class": a.volatility,
            "volatility_requested": self.volatility,
            "hit_frequency": round(float(a.hit_frequency), 10),
            "free_spins_frequency": round(float(a.free_spins_frequency), 10),
            "stops_changed": self.moves,
            "egg_reveal_weights": list(self.reveal_weights),
            "method": "greedy exact moves (line-pay gradient), verified by the exact analyzer",
        }

    def render(self, console: Console) -> None:
        a = self.analysis
        console.print(
            f"wrote {self.path}: RTP {float(a.rtp) * 100:.5f}% (target {self.target}%), "
            f"standard deviation {a.std_dev:.4f} ({a.volatility}), hit frequency "
            f"{float(a.hit_frequency) * 100:.3f}%, free spins every "
            f"{1 / float(a.free_spins_frequency):,.1f} spins; {self.moves} stops changed "
            f"from variant {self.base_variant}"
        )


def tune(
    model: GameModel,
    folder: Path,
    target_percent: Decimal,
    *,
    volatility: str | None = None,
    base_variant: str | None = None,
    progress: ProgressCallback | None = None,
) -> TuneResult:
    """Search, verify and write ``folder/variants/<target>.toml``; raises ``ValueError`` when
    the target cannot be reached."""
    start = model.variant(base_variant)
    variant_id = f"{target_percent:.2f}"
    target = Fraction(target_percent) / 100
    free_name = str(tsar_rules(model).free_reel_set)
    classes = {name: (low, high) for name, low, high in VOLATILITY_CLASSES}
    if volatility is not None and volatility not in classes:
        raise ValueError(f"volatility must be one of {', '.join(classes)}, got {volatility!r}")
    reveal = start.parameters["egg_reveal"]
    state = Strips(
        reel_sets={
            name: [[int(s) for s in strip] for strip in rs.strips]
            for name, rs in start.reel_sets.items()
        },
        values=[int(v) for v in reveal["values"]],
        weights=[int(w) for w in reveal["weights"]],
    )

    _rtp_phase(model, state, target, variant_id, Fraction(1, 1000), progress)
    if volatility is not None:
        low, high = classes[volatility]
        for _ in range(MAX_VOLATILITY_STEPS):
            std_dev = tsar.analyze_full(state.model(model, variant_id), variant_id).std_dev
            if low <= std_dev < high:
                break
            if not _volatility_move(model, state, std_dev < low, free_name):
                break
            _rtp_phase(model, state, target, variant_id, Fraction(1, 1000), progress)
    rtp = _rtp_phase(model, state, target, variant_id, AIM, progress)
    if abs(target - rtp) > AIM:
        rtp = _refine_reveal(model, state, target, variant_id)

    tuned = state.model(model, variant_id)
    analysis = tsar.analyze_full(tuned, variant_id)
    if abs(analysis.rtp - target) > TOLERANCE:
        raise ValueError(
            f"could not reach RTP {target_percent}%: the closest found is "
            f"{float(analysis.rtp) * 100:.4f}%"
        )
    if volatility is not None and analysis.volatility != volatility:
        raise ValueError(
            f"could not reach {volatility} volatility at RTP {target_percent}%: the closest "
            f"found has standard deviation {analysis.std_dev:.3f} ({analysis.volatility})"
        )
    rare = [f"{w.count} x {w.symbol}" for w in analysis.awards if w.below_gli_limit]
    if rare:
        raise ValueError(f"the tuned strips make awards rarer than GLI-11 allows: {rare}")

    ids = model.symbol_ids
    text = format_variant(
        variant_id,
        f"Days of the Tsar at {target_percent}% return to player.",
        {
            name: [[ids[s] for s in strip] for strip in strips]
            for name, strips in state.reel_sets.items()
        },
        {"egg_reveal": {"values": state.values, "weights": state.weights}},
        tsar.figures_from_analysis(analysis),
        header=(
            f"Days of the Tsar, RTP variant {variant_id}.\n"
            f"Tuned by `reelsmith tune --target-rtp {target_percent}"
            + (f" --volatility {volatility}" if volatility else "")
            + f"` from variant {start.id} ({state.moves} stops changed).\n"
            "Eggs sit at least three stops apart, so a reel shows at most one egg.\n"
            "egg_reveal: the number of free spins each triggering egg reveals (values) and\n"
            "their integer weights."
        ),
    )
    path = folder / "variants" / f"{variant_id}.toml"
    write_text_atomically(path, text)

    # Read it back the way the game will: the loader's checks, then the figures again.
    reloaded = load_model(folder)

    tsar_rules(reloaded)
    stored = reloaded.variant(variant_id).figures
    if stored != tsar.figures_from_analysis(tsar.analyze_full(reloaded, variant_id)):
        raise AssertionError(f"{path}: the stored figures do not re-derive")  # pragma: no cover
    return TuneResult(
        path=path,
        variant_id=variant_id,
        base_variant=start.id,
        target=target_percent,
        volatility=volatility,
        analysis=analysis,
        moves=state.moves,
        reveal_weights=tuple(state.weights),
    )
