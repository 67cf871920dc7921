"""Tuning any catalogue title: new reel strips for a target RTP, verified by the exact analyzer
and written as a variant file with its figures beside the strips.

What the search may change
--------------------------
A *move* replaces the symbol of one stop by another regular symbol, on one reel of one reel set.
Wilds, scatters and bonus symbols never move, so the trigger frequency, the retrigger rate and
the reveal tables stay as they are, and each reel keeps at least one of every regular symbol it
had (every award stays possible). Under those moves the RTP is

    RTP = L_base(counts) + S + c * L_free(counts')

with ``S`` the scatter's return and ``c`` the expected free spins per round (both fixed), and
``L`` a payline's expected pay, which is linear in each reel's symbol counts with the other
reels fixed. So the exact effect of every move on reel ``r`` is read off one table per reel
set, ``grad[r, x]`` (the line pay summed over the other reels' combinations with reel ``r``
showing ``x``), computed with the same pruned walk the analyzer uses. The search takes, step by
step, the move that lands closest to the target, until the RTP is within tolerance or no move
brings it closer. Among the stops of the symbol taken out, the one whose neighbours differ most
from the symbol put in is changed, so symbols do not bunch.

The result is written through :func:`reelsmith.engine.model.format_variant`, loaded back through
the model loader and analysed again; the figures stored are the analyzer's.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from reelsmith.analysis.catalogue_exact import analyze_full, analyze_rtp, line_pay_sum
from reelsmith.analysis.exact import symbol_counts
from reelsmith.analysis.report import write_text_atomically
from reelsmith.engine.catalogue import mechanics
from reelsmith.engine.model import GameModel, format_variant, load_model

#: The search stops when the RTP is this close to the target (prints as the target at two
#: decimals of a percent).
TOLERANCE = Fraction(1, 40_000)
MAX_STEPS = 2_000


@dataclass(frozen=True)
class TuneResult:
    game: str
    variant_id: str
    path: Path
    start_rtp: float
    rtp: float
    moves: int
    seconds: float
    figures: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "variant": self.variant_id,
            "file": str(self.path),
            "start_rtp": self.start_rtp,
            "rtp": self.rtp,
            "moves": self.moves,
            "seconds": round(self.seconds, 3),
            "figures": self.figures,
        }

    def render(self, console: Any) -> None:
        console.print(
            f"{self.game} {self.variant_id}: RTP {self.start_rtp:.6%} -> {self.rtp:.6%} "
            f"in {self.moves} moves ({self.seconds:.1f} s); written to {self.path}",
            soft_wrap=True,
        )
        for key, value in self.figures.items():
            console.print(f"  {key} = {value}")


def _gradient(model: GameModel, counts: npt.NDArray[np.int64], pays: Any) -> Any:
    """``grad[r, x]`` = pay_sum(counts + e_rx) - pay_sum(counts): exact, by linearity."""
    base = line_pay_sum(model, counts, pays)
    grad = np.zeros(counts.shape, dtype=object)
    for reel in range(counts.shape[0]):
        for symbol in range(counts.shape[1]):
            bumped = counts.copy()
            bumped[reel, symbol] += 1
            grad[reel, symbol] = line_pay_sum(model, bumped, pays) - base
    return base, grad


def _pick_stop(strip: list[int], old: int, new: int) -> int:
    """The stop showing ``old`` whose neighbours are least like ``new``."""
    n = len(strip)
    best, best_score = -1, -1
    for i, s in enumerate(strip):
        if s != old:
            continue
        score = sum(strip[(i + d) % n] != new for d in (-2, -1, 1, 2))
        if score > best_score:
            best, best_score = i, score
    return best


def tune_variant(
    model: GameModel,
    folder: Path,
    target_rtp: Fraction,
    variant_id: str,
    *,
    base_variant: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> TuneResult:
    """Search strips for ``target_rtp`` starting from ``base_variant`` and write
    ``folder/variants/<variant_id>.toml``. Raises ``ValueError`` when the moves cannot reach
    the target."""
    started = time.perf_counter()
    rules = mechanics(model)
    source = model.variant(base_variant)
    start = analyze_rtp(model, source.id)
    free = rules.free_spins
    names = ["base"] + ([free.reel_set] if free and free.reel_set != "base" else [])
    strips = {name: [list(map(int, s)) for s in source.reel_sets[name].strips] for name in names}
    regular = [s.index for s in model.symbols if s.role == "regular"]
    # Fixed parts: the scatter's return and the free spins per round.
    fixed = start.scatter_rtp
    per_round = (
        start.free_spins_rtp / start.free_spin_win if free and start.free_spin_win else Fraction(0)
    )
    free_scatter = start.free_spin_win - _line_rtp(model, source.reel_sets, free, rules)
    fixed += per_round * free_scatter if free else 0
    moves = 0
    rtp = start.rtp
    for _step in range(MAX_STEPS):
        if abs(rtp - target_rtp) <= TOLERANCE:
            break
        best: tuple[Fraction, str, int, int, int] | None = None
        for name in names:
            counts = _counts(model, strips[name])
            cycle = int(np.prod(counts.sum(axis=1)))
            tables = []
            if name == "base":
                tables.append((model.line_pays, Fraction(1)))
            if free and free.reel_set == name:
                tables.append((rules.free_line_pays, per_round))
            grads = [(_gradient(model, counts, pays)[1], weight) for pays, weight in tables]
            for reel in range(model.reels):
                for old in regular:
                    if counts[reel, old] <= 1:
                        continue
                    for new in regular:
                        if new == old:
                            continue
                        delta = sum(
                            (
                                weight * Fraction(int(g[reel, new] - g[reel, old]), cycle)
                                for g, weight in grads
                            ),
                            Fraction(0),
                        )
                        after = rtp + delta
                        if best is None or abs(after - target_rtp) < abs(best[0] - target_rtp):
                            best = (after, name, reel, old, new)
        if best is None or abs(best[0] - target_rtp) >= abs(rtp - target_rtp):
            break
        _after, name, reel, old, new = best
        stop = _pick_stop(strips[name][reel], old, new)
        strips[name][reel][stop] = new
        moves += 1
        rtp = _rtp_of(model, strips, source, names, fixed, per_round, rules, free)
        if progress is not None:
            progress(1)
    if abs(rtp - target_rtp) > TOLERANCE:
        raise ValueError(
            f"tuning stopped at RTP {float(rtp):.6%}, {float(target_rtp):.4%} is out of reach "
            "with strip moves of the regular symbols"
        )
    symbol_ids = model.symbol_ids
    reel_sets_out = {
        name: [[symbol_ids[s] for s in strip] for strip in source.reel_sets[name].strips]
        for name in source.reel_sets
    }
    for name in names:
        reel_sets_out[name] = [[symbol_ids[s] for s in strip] for strip in strips[name]]
    parameters = {k: v for k, v in source.parameters.items() if isinstance(v, dict)}
    path = folder / "variants" / f"{variant_id}.toml"
    description = f"{model.name} at {float(target_rtp) * 100:.2f}% return to player."
    header = (
        f"{model.name}, RTP variant {variant_id}: made by `reelsmith tune` from variant "
        f"{source.id}; the figures below are the exact analyzer's."
    )
    text = format_variant(variant_id, description, reel_sets_out, parameters, {}, header)
    write_text_atomically(path, text)
    loaded = load_model(folder)
    analysis = analyze_full(loaded, variant_id)
    figures = variant_figures(analysis)
    text = format_variant(variant_id, description, reel_sets_out, parameters, figures, header)
    write_text_atomically(path, text)
    return TuneResult(
        model.id,
        variant_id,
        path,
        float(start.rtp),
        float(analysis.rtp),
        moves,
        time.perf_counter() - started,
        figures,
    )


def variant_figures(analysis: Any) -> dict[str, float]:
    """The figures stored beside a catalogue variant's strips (10 decimal places)."""
    f = analysis.figures
    return {
        "rtp": round(float(analysis.rtp), 10),
        "line_rtp": round(float(f.line_rtp), 10),
        "scatter_rtp": round(float(f.scatter_rtp), 10),
        "free_spins_rtp": round(float(f.free_spins_rtp), 10),
        "free_spins_frequency": round(float(f.trigger_probability), 10),
        "expected_free_spins_per_trigger": round(float(f.expected_free_spins), 10),
        "hit_frequency": round(float(analysis.hit_frequency), 10),
        "std_dev": round(analysis.std_dev, 10),
    }


def _counts(model: GameModel, strips: list[list[int]]) -> npt.NDArray[np.int64]:
    counts = np.zeros((model.reels, len(model.symbols)), dtype=np.int64)
    for reel, strip in enumerate(strips):
        counts[reel] = np.bincount(np.asarray(strip), minlength=len(model.symbols))
    return counts


def _line_rtp(model: GameModel, reel_sets: Any, free: Any, rules: Any) -> Fraction:
    if free is None:
        return Fraction(0)
    counts = symbol_counts(model, reel_sets[free.reel_set])
    total = line_pay_sum(model, counts, rules.free_line_pays)
    return Fraction(total, int(np.prod(counts.sum(axis=1))))


def _rtp_of(
    model: GameModel,
    strips: dict[str, list[list[int]]],
    source: Any,
    names: list[str],
    fixed: Fraction,
    per_round: Fraction,
    rules: Any,
    free: Any,
) -> Fraction:
    counts = _counts(model, strips["base"])
    cycle = int(np.prod(counts.sum(axis=1)))
    rtp = Fraction(line_pay_sum(model, counts, model.line_pays), cycle) + fixed
    if free is not None:
        fs = _counts(model, strips[free.reel_set])
        fs_cycle = int(np.prod(fs.sum(axis=1)))
        rtp += per_round * Fraction(line_pay_sum(model, fs, rules.free_line_pays), fs_cycle)
    return rtp
