"""What ``reelsmith analyze`` shows of a cascade variant: its exact figures (:mod:`.exact`) as
JSON, as text and as the PAR sheet: the summary, the chain's counters (how many spins reach
each screen, what each screen pays), the paytable and the strips."""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, partial
from typing import Any

from reelsmith.analysis.catalogue_exact import CatalogueFigures
from reelsmith.analysis.report import (
    LabReport,
    Rows,
    Section,
    Sheet,
    TextBlock,
    one_in,
    pct,
    rows,
    strips_section,
)
from reelsmith.analysis.volatility import volatility_class
from reelsmith.engine.model import GameModel
from reelsmith.mechanics.cascade.exact import CascadeFigures, ChainSums, cascade_figures

METHOD = (
    "exact: every stop combination of each reel set, its whole chain played out by the rules "
    "live play uses; free spins by Wald's identities"
)
#: The method of a count anywhere on drawn cells (:mod:`reelsmith.mechanics.cells.counts`).
CELLS_METHOD = (
    "exact: the law of each reel set's counts (every cell drawn on its own), each count paid "
    "by the rules live play uses; free spins by Wald's identities"
)


def method(model: GameModel) -> str:
    return CELLS_METHOD if "cells" in model.raw else METHOD


@dataclass(frozen=True)
class CascadeAnalysis:
    """A cascade variant's exact analysis, as ``reelsmith analyze`` gives it."""

    model: GameModel
    variant_id: str
    cascade: CascadeFigures
    seconds: float

    @property
    def figures(self) -> CatalogueFigures:
        return self.cascade.catalogue_figures()

    @property
    def rtp(self) -> Any:
        return self.cascade.rtp

    @property
    def hit_frequency(self) -> Any:
        return self.cascade.hit_frequency

    @property
    def trigger_probability(self) -> Fraction:
        """P(a round's base spin, its whole chain, starts the free spins)."""
        return self.figures.trigger_probability

    @property
    def std_dev(self) -> float:
        return self.cascade.std_dev

    @property
    def volatility(self) -> str:
        """The round's volatility class (:mod:`reelsmith.analysis.volatility`)."""
        from reelsmith.analysis.volatility import volatility_class

        return volatility_class(self.std_dev)

    @property
    def total_bet(self) -> int:
        return int(self.cascade.bet)

    @property
    def max_spin_win(self) -> Fraction:
        """The largest win of one base spin (its whole chain), per unit of total bet."""
        return Fraction(self.cascade.base.max_pay, self.cascade.bet)

    @cached_property
    def cap(self) -> Any:
        """The cap's figures of a capped model (``[max_win]``), None without a cap: the full
        cycle gives the uncapped round, so the capped RTP and the cap's odds are the kernel's
        (:func:`reelsmith.mechanics.max_win.exact.cap_figures` says why), computed once."""
        from reelsmith.mechanics.max_win.exact import cap_figures

        return cap_figures(self)


def analyze(model: GameModel, variant_id: str | None = None) -> CascadeAnalysis:
    started = time.perf_counter()
    variant = model.variant(variant_id)
    figures = cascade_figures(model, variant.id)
    return CascadeAnalysis(model, variant.id, figures, time.perf_counter() - started)


def _chain_rows(law: ChainSums, bet: int) -> list[tuple[str, str, str, str]]:
    """Per screen k: the spins whose chain reads it, as a share and "1 in", and what the k-th
    screens pay per unit bet."""
    out = []
    for k, (count, paid) in enumerate(zip(law.reached, law.by_step, strict=True), start=1):
        if count == 0:
            break
        share = count / law.cycle
        out.append((str(k), f"{count:,}", one_in(share), pct(paid / (law.cycle * bet), 4)))
    return out


def document(a: CascadeAnalysis) -> dict[str, Any]:
    """``analyze --json``: the full cycle's figures; for a capped model, the cap's figures
    beside them and ``rtp``/``std_dev`` null (the uncapped ones under ``uncapped``)."""
    if a.cap is None:
        return _figures(a)
    from reelsmith.analysis.analysis_report import capped_document

    found: dict[str, Any] = capped_document(_figures(a), a.cap)
    return found


def _figures(a: CascadeAnalysis) -> dict[str, Any]:
    c = a.cascade
    f = a.figures
    b = c.base

    def chain(law: ChainSums) -> dict[str, Any]:
        return {
            "stop_combinations": law.cycle,
            "reached": {str(k): n for k, n in enumerate(law.reached, start=1) if n},
            "paid_by_screen": {str(k): p for k, p in enumerate(law.by_step, start=1) if p},
            "hits": law.hits,
            "max_win_coins": law.max_pay,
        }

    out: dict[str, Any] = {
        "game": a.model.id,
        "variant": a.variant_id,
        "method": method(a.model),
        "rtp": float(c.rtp),
        "line_rtp": float(f.line_rtp),
        "scatter_rtp": float(f.scatter_rtp),
        "free_spins_rtp": float(f.free_spins_rtp),
        "free_spins_frequency": float(f.trigger_probability),
        "expected_free_spins_per_trigger": float(f.expected_free_spins),
        "hit_frequency": float(c.hit_frequency),
        "std_dev": c.std_dev,
        "volatility": volatility_class(c.std_dev),
        "max_base_spin_win_x_bet": b.max_pay / c.bet,
        "base_chain": chain(b),
        "seconds": round(a.seconds, 3),
    }
    if c.free is not None:
        out["free_chain"] = chain(c.free)
    return out


def _wins(model: GameModel) -> str:
    """What the model's evaluator pays, as the summary names it."""
    if "anywhere" in model.raw:
        return "count wins"
    return "way wins" if "ways" in model.raw else "line wins"


def _cap_rows(a: CascadeAnalysis) -> list[tuple[str, str, str]]:
    """The cap's rows of the summary: the cap, and the capped RTP and the cap's odds with how
    they were found."""
    cap = a.cap
    if cap is None:
        return []
    sim = cap.simulated
    low, high = sim["rtp_ci99"]
    how = f"simulated, {sim['rounds']:,} rounds, seed {sim['seed']}"
    return [
        ("max win cap", f"{cap.multiplier:,}x bet", "model"),
        ("RTP (capped)", f"{sim['rtp']:.4%} (99% CI {low:.4%} - {high:.4%})", how),
        ("P(round reaches the cap)", f"{sim['probability']:.6g}", how),
    ]


def _summary(a: CascadeAnalysis) -> list[tuple[str, str, str]]:
    c, f = a.cascade, a.figures
    capped = a.cap is not None
    out = [
        *_cap_rows(a),
        ("RTP (uncapped)" if capped else "RTP", pct(c.rtp), "exact"),
        (
            f"{_wins(a.model)} (every screen)" if "cascade" in a.model.raw else _wins(a.model),
            pct(f.line_rtp),
            "exact",
        ),
        ("scatter wins", pct(f.scatter_rtp), "exact"),
    ]
    if c.free is not None:
        out += [
            ("free spins", pct(f.free_spins_rtp), "exact"),
            ("free spins frequency", one_in(float(f.trigger_probability)), "exact"),
            ("free spins per trigger", f"{float(f.expected_free_spins):.4f}", "exact"),
        ]
    out += [
        ("hit frequency", pct(c.hit_frequency, 3), "exact"),
        (
            "standard deviation (uncapped)" if capped else "standard deviation",
            f"{c.std_dev:.4f}",
            "exact (double precision)",
        ),
        ("volatility", volatility_class(c.std_dev), ""),
        ("max base spin win", f"{c.base.max_pay / c.bet:,.1f}x bet", "exact"),
    ]
    return out


def _tables(a: CascadeAnalysis) -> list[Rows]:
    """The chains' counters; none for a title without cascades (every spin reads one screen)."""
    if "cascade" not in a.model.raw:
        return []
    c = a.cascade
    headers = ("screen", "stop combinations reaching it", "frequency", "pays (RTP)")
    tables = [rows(headers, _chain_rows(c.base, c.bet), title="Base game chain")]
    if c.free is not None:
        tables.append(rows(headers, _chain_rows(c.free, c.bet), title="Free spin chain"))
    return tables


def report(a: CascadeAnalysis) -> LabReport:
    summary = rows(("figure", "value", "method"), _summary(a), classes="text")
    kind = "cascade" if "cascade" in a.model.raw else "pays anywhere"
    over = "every count" if method(a.model) == CELLS_METHOD else "every stop combination"
    head = f"{a.model.name} variant {a.variant_id} - {kind}, exact over {over}"
    cap_lines: list[str] = []
    if a.cap is not None:
        from reelsmith.analysis.analysis_report import _cap_lines

        cap_lines = _cap_lines(a.cap)
    text: tuple[TextBlock, ...] = (
        head,
        *cap_lines,
        summary,
        *_tables(a),
        f"Computed in {a.seconds:.2f} s ({method(a.model)}).",
    )
    return LabReport(document(a), text, partial(_sheet, a), a)


def _sheet(a: CascadeAnalysis) -> Sheet:
    return Sheet(
        title=f"{a.model.name} PAR sheet {a.variant_id}",
        heading=f"{a.model.name} - PAR sheet, variant {a.variant_id}",
        note=method(a.model),
        sections=(
            Section("Summary", (rows(("figure", "value", "method"), _summary(a), classes="text"),)),
            *((Section("Cascade", tuple(_tables(a))),) if "cascade" in a.model.raw else ()),
            strips_section(a.model, a.variant_id),
        ),
        closing=f"Computed in {a.seconds:.2f} s.",
    )


def stored_figures(a: CascadeAnalysis) -> dict[str, float]:
    d = _figures(a)
    keys = (
        "rtp",
        "line_rtp",
        "scatter_rtp",
        "free_spins_rtp",
        "free_spins_frequency",
        "expected_free_spins_per_trigger",
        "hit_frequency",
        "std_dev",
    )
    return {key: round(float(d[key]), 10) for key in keys}
