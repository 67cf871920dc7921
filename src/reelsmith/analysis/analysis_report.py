"""What ``reelsmith analyze`` shows of any model's variant: its exact analysis
(:func:`reelsmith.analysis.analyzer.analyze`) as JSON, as rich text and as the PAR sheet (one
self-contained HTML page with its plots), built by one function, :func:`analysis_report`.

Every report has the same frame: the summary, the paytable with its GLI-11 check, the
sections of the features the analysis contains, the win distribution, the RTP confidence band
and the strips. What fills it is chosen by what the analysis holds, never by a title: the
catalogue's free spins (the spins a trigger plays, the reveal table, the base spin's exact win
bands) for an analysis of the base spin and free spins, and the local jackpots, the gem
reveals, the free-spins ladder and its carried meter, and the dependent rounds' confidence band
for an analysis of the ladder-and-pots round. Every section reads the model and the analysis
alone (symbol names, the scatter, the trigger symbol, the reveal table, the cap, the pots).
Each figure names its method; the one simulated figure (the ladder round's win distribution,
which is not computed exactly) says so.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import partial
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from reelsmith.analysis.catalogue_awards import spins_bands
from reelsmith.analysis.catalogue_exact import CatalogueAnalysis, initial_law
from reelsmith.analysis.chunks import band_labels
from reelsmith.analysis.exact import symbol_counts, symbol_weights
from reelsmith.analysis.ladder_exact import GLI_MIN_PROBABILITY, LadderAnalysis
from reelsmith.analysis.report import (
    Block,
    LabReport,
    Rows,
    Section,
    Sheet,
    TextBlock,
    band_text,
    bands_plot,
    confidence_plot,
    esc,
    figure_png,
    new_figure,
    one_in,
    pct,
    rows,
    strips_section,
)
from reelsmith.analysis.volatility import CONFIDENCE_SPINS, Z_90, Z_95, describe_classes
from reelsmith.engine.catalogue import mechanics
from reelsmith.engine.model import GameModel, ReelSet
from reelsmith.mechanics import cost_buys, each_face, full_cycle_report

if TYPE_CHECKING:
    from reelsmith.analysis.analyzer import Analysis


def _f(value: Fraction | float, digits: int = 10) -> float:
    return round(float(value), digits)


def _names(model: GameModel) -> dict[str, str]:
    """Each symbol's name as the player reads it, by its id."""
    return {s.id: s.name for s in model.symbols}


def award_name(award: Any, names: dict[str, str]) -> str:
    """An award as the paytable names it: ``count x symbol name``."""
    return f"{award.count} x {names[award.symbol]}"


# ---------------------------------------------------------------------------------------
# The frame every report shares
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TextParts:
    """The text ``analyze`` prints, in the frame's order: the headline figures, the GLI-11
    line, the features' own tables, the paytable, the RTP confidence band and the method."""

    headline: tuple[TextBlock, ...]
    gli: str
    feature_tables: tuple[TextBlock, ...]
    paytable: Rows
    band: Rows
    method: str


@dataclass(frozen=True)
class SheetParts:
    """The PAR sheet's content in the frame's order (see the module): the note under the
    heading, the summary rows, the paytable (its GLI-11 paragraph first), the features'
    sections, the win distribution and the confidence band."""

    note: str
    summary: list[tuple[str, str, str]]
    gli: str
    paytable: Rows
    features: tuple[Section, ...]
    wins: Section
    band: Section


def analysis_document(a: Analysis) -> dict[str, Any]:
    """The exact analysis as data (``analyze --json``)."""
    own_document: Any = getattr(a, "document", None)
    if callable(own_document):  # an analysis of a mechanic's own round law, which writes it
        found: dict[str, Any] = own_document()
        return found
    full = full_cycle_report(a.model)
    if full is not None:
        written: dict[str, Any] = full.document(a)
        return written
    # every other round law's analysis writes its own document (above)
    return free_spins_document(cast(CatalogueAnalysis, a))


def analysis_report(a: Analysis) -> LabReport:
    """``analyze``'s result for any model's variant: JSON, text and the PAR sheet (drawn only
    when asked for). The sections are those of what ``a`` contains; a ladder-and-pots round
    adds its seeded sample of the round-win distribution, labelled as simulated."""
    own_report: Any = getattr(a, "lab_report", None)
    if callable(own_report):  # an analysis of a mechanic's own round law, which writes its report
        report_: LabReport = own_report()
        return report_
    full = full_cycle_report(a.model)
    if full is not None:
        written: LabReport = full.report(a)
        return written
    catalogue = cast(CatalogueAnalysis, a)  # every other round law's writes its own report
    doc = free_spins_document(catalogue)
    text = _free_spins_text(catalogue)
    parts: Callable[[], SheetParts] = partial(_free_spins_sheet, catalogue, doc)
    for _mechanic, cap_figures in each_face(a.model, "cap_figures"):
        cap = cap_figures(a)
        doc = capped_document(doc, cap)
        text = capped_text(text, cap)
        parts = partial(capped_sheet, parts, cap)
    return LabReport(doc, _text(text), partial(_sheet, a.model, a.variant_id, a.seconds, parts), a)


def _ladder_spread(a: Any) -> str:
    """What a ladder round's bet is spread over: its paylines, or a ways game's cost."""
    model = a.model
    if model.line_count:
        return f"{model.line_count} lines"
    return f"{a.rules.lines} coins a spin, every way"


def _ladder_screens(a: Any) -> str:
    """How the ladder's spin law read the screens: payline patterns, or every ways screen."""
    if a.model.line_count:
        return "payline patterns"
    return "every ways screen after the gems' reveals"


def ladder_report(a: LadderAnalysis) -> LabReport:
    """``analyze``'s result for a ladder-and-pots round: its exact figures and a seeded sample
    of the round-win distribution, labelled as simulated."""
    sample = sample_win_distribution(a)
    doc = ladder_document(a, sample)
    text = _ladder_text(a)
    parts: Callable[[], SheetParts] = partial(_ladder_sheet, a, sample, doc)
    return LabReport(doc, _text(text), partial(_sheet, a.model, a.variant_id, a.seconds, parts), a)


# ---------------------------------------------------------------------------------------
# A capped round ([max_win])
# ---------------------------------------------------------------------------------------


def _cap_lines(cap: Any) -> list[str]:
    """What the report says of the cap: its figures exact, or why not and the simulated ones."""
    head = f"max win capped at {cap.multiplier:,}x bet ({cap.cap_coins:,} coins)"
    if cap.exact is not None:
        law = cap.exact
        return [
            f"{head}: capped RTP {pct(law.rtp)} exact; P(a round reaches the cap) "
            f"{float(law.probability):.6g} ({one_in(float(law.probability))} rounds) exact; "
            f"capped standard deviation {law.std_dev:.4f} (the award shares below are uncapped)"
        ]
    sim = cap.simulated
    low, high = sim["rtp_ci99"]
    p_low, p_high = sim["probability_ci99"]
    return [
        f"{head}: the capped RTP and the cap's odds are NOT exact for this title: "
        f"{cap.why_not_exact}; the RTP, standard deviation and max wins below are uncapped",
        f"simulated, {sim['rounds']:,} rounds (seed {sim['seed']}): capped RTP {sim['rtp']:.4%} "
        f"(99% CI {low:.4%} - {high:.4%}); P(a round reaches the cap) {sim['probability']:.6g} "
        f"(99% CI {p_low:.6g} - {p_high:.6g})",
    ]


def capped_document(doc: dict[str, Any], cap: Any) -> dict[str, Any]:
    """``analyze --json`` of a capped model: ``max_win`` holds the cap and its figures; where
    they are exact, ``rtp`` and ``std_dev`` are the capped round's (the uncapped ones kept
    under ``uncapped``); where not, ``rtp`` and ``std_dev`` are null (no uncapped figure read
    as the capped one) and ``uncapped`` holds the exact uncapped figures."""
    out = dict(doc)
    out["uncapped"] = {"rtp": doc.get("rtp"), "std_dev": doc.get("std_dev")}
    out["max_win"] = cap.to_json()
    if cap.exact is not None:
        out["rtp"] = float(cap.exact.rtp)
        out["std_dev"] = cap.exact.std_dev
    else:
        out["rtp"] = None
        out["std_dev"] = None
    return out


def capped_text(text: TextParts, cap: Any) -> TextParts:
    """The headline of a capped model: the title line, the cap's lines, then the uncapped
    figures each labelled so."""
    first, *rest = text.headline
    relabelled = [
        f"uncapped {line}"
        if isinstance(line, str) and line.startswith(("RTP ", "standard deviation ", "max win "))
        else line
        for line in rest
    ]
    # the RTP band of a capped round: from the capped law where exact, else from the
    # simulated capped figures (said so); never the uncapped round's
    if cap.exact is not None:
        rtp, std, note = float(cap.exact.rtp), cap.exact.std_dev, " (capped, exact)"
    else:
        rtp, std = cap.simulated["rtp"], cap.simulated["std_dev"]
        note = " (capped, from the simulated figures)"
    bands = [
        (rtp - Z_95 * std / math.sqrt(n), rtp + Z_95 * std / math.sqrt(n)) for n in CONFIDENCE_SPINS
    ]
    return replace(
        text,
        headline=(first, *_cap_lines(cap), *relabelled),
        band=band_text(bands, "spins", note),
    )


def capped_sheet(parts: Callable[[], SheetParts], cap: Any) -> SheetParts:
    """The PAR sheet of a capped model: the cap's rows first in the summary, the uncapped
    figures labelled so."""
    found = parts()
    summary = [
        (
            f"{name} (uncapped)" if name in ("RTP", "standard deviation per unit bet") else name,
            value,
            method,
        )
        for name, value, method in found.summary
    ]
    rows_: list[tuple[str, str, str]] = [("max win cap", f"{cap.multiplier:,}x bet", "model")]
    if cap.exact is not None:
        law = cap.exact
        rows_ += [
            ("RTP (capped)", pct(law.rtp, 6), "exact (the round's win law, capped)"),
            (
                "P(round reaches the cap)",
                f"{float(law.probability):.6g} ({one_in(float(law.probability))})",
                "exact",
            ),
            ("standard deviation (capped)", f"{law.std_dev:.4f}", "exact"),
        ]
    else:
        sim = cap.simulated
        low, high = sim["rtp_ci99"]
        p_low, p_high = sim["probability_ci99"]
        note = f"simulated, {sim['rounds']:,} rounds; not exact: {cap.why_not_exact}"
        rows_ += [
            ("RTP (capped)", f"{sim['rtp']:.4%} (99% CI {low:.4%} - {high:.4%})", note),
            (
                "P(round reaches the cap)",
                f"{sim['probability']:.6g} (99% CI {p_low:.6g} - {p_high:.6g})",
                note,
            ),
        ]
    return replace(found, summary=rows_ + summary)


def _text(parts: TextParts) -> tuple[TextBlock, ...]:
    return (
        *parts.headline,
        parts.gli,
        *parts.feature_tables,
        parts.paytable,
        parts.band,
        parts.method,
    )


def _sheet(
    model: GameModel, variant_id: str, seconds: float, content: Callable[[], SheetParts]
) -> Sheet:
    """The PAR sheet of a variant in the frame every report shares; ``content`` draws the
    figures' parts (and their plots) when the sheet is asked for."""
    parts = content()
    return Sheet(
        title=f"{model.name} PAR sheet {variant_id}",
        heading=f"{model.name} - PAR sheet, variant {variant_id}",
        note=parts.note,
        sections=(
            Section(
                "Summary", (rows(("figure", "value", "method"), parts.summary, classes="text"),)
            ),
            Section("Paytable", (parts.gli, parts.paytable)),
            *parts.features,
            parts.wins,
            parts.band,
            strips_section(model, variant_id),
        ),
        closing=f"Computed in {seconds:.2f} s.",
    )


# ---------------------------------------------------------------------------------------
# The base spin and the catalogue's free spins
# ---------------------------------------------------------------------------------------


#: Bands (in multiples of the total bet) of the base-spin win distribution.
WIN_BANDS: tuple[tuple[float, float], ...] = (
    (0, 0),
    (0, 1),
    (1, 2),
    (2, 5),
    (5, 10),
    (10, 20),
    (20, 50),
    (50, 100),
    (100, 500),
    (500, math.inf),
)


def band_label(low: float, high: float) -> str:
    if low == high == 0:
        return "no win"
    if math.isinf(high):
        return f"over {low:g}x"
    return f"over {low:g}x to {high:g}x"


def win_bands(a: CatalogueAnalysis) -> list[tuple[str, float]]:
    """Probability of the base spin's win in each band of :data:`WIN_BANDS` (exact)."""
    bet = a.total_bet
    out = []
    for low, high in WIN_BANDS:
        ways = sum(
            w
            for win, w in a.base_wins.items()
            if (win == 0 if high == 0 else low * bet < win <= high * bet)
        )
        out.append((band_label(low, high), ways / a.base.total))
    return out


def confidence_band(a: CatalogueAnalysis, rounds: int, z: float = Z_95) -> tuple[float, float]:
    """Where the observed RTP of ``rounds`` rounds lies with the probability of ``z``."""
    half = z * a.std_dev / math.sqrt(rounds)
    return float(a.rtp) - half, float(a.rtp) + half


def max_round_win(a: CatalogueAnalysis) -> str:
    """The largest round win, or why there is none."""
    free = mechanics(a.model).free_spins
    if free is None or a.free is None or not a.initial_given:
        return f"at most {a.base.max_win / a.total_bet:,.1f}x bet: a round is its base spin"
    if free.max_spins:
        top = a.base.max_win + free.max_spins * a.free.max_win
        return f"at most {top / a.total_bet:,.1f}x bet: free spins are capped at {free.max_spins}"
    if a.figures.added_per_free_spin > 0:
        return "unbounded: free spins retrigger without a cap"
    rules = mechanics(a.model)
    most = max(max(initial_law(rules, a.variant_id, k)) for k in a.initial_given)
    top = a.base.max_win + most * a.free.max_win
    return f"at most {top / a.total_bet:,.1f}x bet: free spins do not retrigger"


def _reveal(a: CatalogueAnalysis) -> tuple[str, list[int], list[int]] | None:
    free = mechanics(a.model).free_spins
    if free is None or free.reveal is None:
        return None
    values, weights = free.reveal_table(a.model.variant(a.variant_id))
    return free.reveal, [int(v) for v in values], [int(w) for w in weights]


def _trigger_name(a: CatalogueAnalysis) -> str:
    free = mechanics(a.model).free_spins
    symbol = free.symbol if free is not None else a.model.scatter
    return a.model.symbols[symbol].name if symbol >= 0 else "-"


def weights_json(model: GameModel, reel_set: ReelSet) -> dict[str, Any]:
    """A weighted reel set's weights for the PAR sheet's document: per reel the stop weights,
    their total and the weight each symbol carries."""
    carried = symbol_weights(model, reel_set)
    return {
        "stop_weights": [[int(w) for w in reel_set.stop_weights(r)] for r in range(model.reels)],
        "total_weights": [int(t) for t in reel_set.totals],
        "symbol_weights": {
            model.symbol_ids[s]: [int(c) for c in carried[:, s]] for s in range(len(model.symbols))
        },
    }


def _combinations(a: CatalogueAnalysis) -> str:
    """What the cycles count: stop combinations, or weighted ones (each counted with the
    product of its stops' weights) where a reel set weighs its stops."""
    reel_sets = a.model.variant(a.variant_id).reel_sets.values()
    if any(rs.weighted for rs in reel_sets):
        return "weighted stop combinations"
    return "stop combinations"


def free_spins_document(a: CatalogueAnalysis) -> dict[str, Any]:
    """The exact analysis as data (``analyze --json``)."""
    model = a.model
    f = a.figures
    line_breakdown: dict[str, dict[str, float]] = {}
    free_line_breakdown: dict[str, dict[str, float]] = {}
    scatter_breakdown: dict[str, float] = {}
    free_scatter_breakdown: dict[str, float] = {}
    for award in a.awards:
        if award.kind == "line":
            line_breakdown.setdefault(award.symbol, {})[str(award.count)] = _f(award.base_rtp)
            free_line_breakdown.setdefault(award.symbol, {})[str(award.count)] = _f(
                award.free_spins_rtp
            )
        else:
            scatter_breakdown[str(award.count)] = _f(award.base_rtp)
            free_scatter_breakdown[str(award.count)] = _f(award.free_spins_rtp)
    trigger = f.trigger_probability
    reveal = _reveal(a)
    free_spins: dict[str, Any] = {
        "expected_spins_per_trigger": _f(f.expected_free_spins),
        "expected_spins_per_game": _f(a.spins_per_round),
        "spins_added_per_free_spin": _f(f.added_per_free_spin),
        "mean_win_per_free_spin": _f(f.free_spin_win),
        "mean_win_per_trigger": _f(f.free_spins_rtp / trigger) if trigger else None,
        "reveal": [
            {"spins": v, "weight": w, "probability": _f(Fraction(w, sum(reveal[2])))}
            for v, w in zip(reveal[1], reveal[2], strict=True)
        ]
        if reveal is not None
        else None,
        "by_trigger_count": {
            str(k): {
                "probability_per_spin": _f(a.base.probability(k), 12),
                "expected_initial_spins": _f(a.initial_given[k].mean),
                "expected_spins": _f(a.spins_given[k].mean),
                "expected_win": _f(a.free_given[k].mean),
                "std_dev_win": round(math.sqrt(a.free_given[k].variance), 6),
            }
            for k in a.free_given
        },
        "spins_per_trigger_bands": [
            {"spins": label, "probability": round(p, 10)}
            for label, p in spins_bands(a.spins_per_trigger)
        ],
    }
    plugin = mechanics(model).plugin
    plugin_part = (
        {
            "plugin": {
                "name": plugin.name,
                "base_rtp": _f(f.plugin_rtp),
                "part_of_free_spins_rtp": _f(f.plugin_free_spins_rtp),
            }
        }
        if plugin is not None
        else {}
    )
    return {
        "game": model.id,
        "variant": a.variant_id,
        "bet": (
            {"lines": model.line_count, "coins_per_line": 1, "total_coins": a.total_bet}
            if cost_buys(model) is None
            else {"cost": a.total_bet, "buys": cost_buys(model), "total_coins": a.total_bet}
        ),
        **plugin_part,
        "rtp": _f(a.rtp),
        "rtp_fraction": f"{a.rtp.numerator}/{a.rtp.denominator}",
        "line_rtp": _f(f.line_rtp),
        "scatter_rtp": _f(f.scatter_rtp),
        "free_spins_rtp": _f(f.free_spins_rtp),
        "rtp_breakdown": {
            "line_wins": _f(f.line_rtp),
            "scatter": _f(f.scatter_rtp),
            "free_spins": _f(f.free_spins_rtp),
            "line_wins_by_award": line_breakdown,
            "scatter_by_count": scatter_breakdown,
            "free_spins_by_award": {
                "line_wins": free_line_breakdown,
                "scatter_by_count": free_scatter_breakdown,
            },
        },
        "hit_frequency": _f(a.hit_frequency),
        "free_spins_frequency": _f(trigger),
        "free_spins_every": _f(1 / trigger, 4) if trigger else None,
        "expected_free_spins_per_trigger": _f(f.expected_free_spins),
        "std_dev": round(a.std_dev, 6),
        "base_spin_std_dev": round(a.base_spin_std_dev, 6),
        "variance": _f(a.variance, 6),
        "volatility_index": {
            "90": round(Z_90 * a.std_dev, 6),
            "95": round(Z_95 * a.std_dev, 6),
        },
        "volatility": a.volatility,
        "volatility_class": a.volatility,
        "rtp_confidence_95": {
            str(n): [round(x, 6) for x in confidence_band(a, n)] for n in CONFIDENCE_SPINS
        },
        "free_spins": free_spins,
        "awards": [
            {
                "kind": w.kind,
                "symbol": w.symbol,
                "count": w.count,
                "pays": w.pays,
                "probability_per_line": w.per_line,
                "probability_per_base_spin": w.per_base_spin,
                "probability_per_free_spin": w.per_free_spin,
                "probability_per_game": w.per_game,
                "one_in_games": (1 / w.per_game) if w.per_game else None,
                "rtp": _f(w.rtp),
                "rtp_share": _f(w.rtp / a.rtp) if a.rtp else None,
                "rarer_than_1_in_100_million": w.below_gli_limit,
            }
            for w in a.awards
        ],
        "gli_11": {
            "limit": "every award at least once in 100,000,000 games",
            "awards_rarer": [f"{w.count} x {w.symbol}" for w in a.awards if w.below_gli_limit],
        },
        "max_win": {
            "base_spin_coins": a.base.max_win,
            "base_spin_x_bet": a.base.max_win / a.total_bet,
            "free_spin_coins": a.free.max_win if a.free is not None else None,
            "free_spin_x_bet": a.free.max_win / a.total_bet if a.free is not None else None,
            "round": max_round_win(a),
        },
        "win_distribution_base_spin": [
            {"win_x_bet": label, "probability": round(p, 12)} for label, p in win_bands(a)
        ],
        "reels": {
            name: {
                "stops": [int(n) for n in rs.lengths],
                "cycle": rs.cycle,
                "symbol_counts": {
                    model.symbol_ids[s]: [int(c) for c in symbol_counts(model, rs)[:, s]]
                    for s in range(len(model.symbols))
                },
                **(weights_json(model, rs) if rs.weights is not None else {}),
            }
            for name, rs in model.variant(a.variant_id).reel_sets.items()
        },
        "method": {
            "rtp": (
                "exact: line pays by walking every symbol tuple on a payline weighted by its "
                "stop combinations; "
                if cost_buys(model) is None
                else "exact: way pays as products of each reel's expected counts; "
            )
            + "scatter by convolving per-reel window tables; free spins by "
            "Wald's identity, or the capped feature's Markov chain (exact fractions)",
            "hit_frequency": f"exact: full-cycle enumeration of all {a.base.cycle:,} base "
            f"{_combinations(a)}",
            "std_dev": "exact: full-cycle enumeration of both reel sets, then the closed-form "
            "second moment of the retriggering free spins (compound sums, exact fractions)",
            "volatility_index": "exact: z x std_dev, z = 1.645 (90%) and 1.960 (95%)",
            "free_spins_frequency": "exact: trigger count distribution from per-reel window tables",
            "award_probabilities": "exact enumeration for the base spin and each free spin; "
            "per game by the closed-form retrigger fixed point, or the capped chain (double "
            "precision)",
            "spins_per_trigger": "closed form: hitting-time theorem, or a pass over the capped "
            "chain (double precision)",
            "max_win": "exact: full-cycle enumeration (per screen)",
            "round_win_distribution": "not given: `reelsmith simulate` samples it",
            "simulated": [],
            "seconds": round(a.seconds, 3),
        },
        "seconds": round(a.seconds, 3),
    }


def _bet(model: GameModel, total: int) -> str:
    """What a spin costs and buys: ``20 lines x 1 coin = 20 coins per spin``, or a ways game's
    ``243 coins per spin, every way``."""
    buys = cost_buys(model)
    if buys is not None:
        return f"{total} coins per spin, {buys}"
    return f"{model.line_count} lines x 1 coin = {total} coins per spin"


def _unit_wins(model: GameModel) -> str:
    return "line wins" if cost_buys(model) is None else "way wins"


def _pay_unit(model: GameModel) -> str:
    return "line" if cost_buys(model) is None else "way"


def _unit(model: GameModel) -> str:
    """What one award is counted on: a payline, or (ways, counts) the whole screen."""
    return "line" if cost_buys(model) is None else "spin"


def _paytable_text(a: CatalogueAnalysis) -> Rows:
    names = _names(a.model)
    return rows(
        ("award", "pays", f"per {_unit(a.model)}", "per game", "RTP", "share"),
        (
            (
                award_name(w, names),
                f"{w.pays:,}" + ("x bet" if w.kind == "scatter" else ""),
                f"{w.per_line:.3e}" if w.per_line is not None else "-",
                one_in(w.per_game),
                pct(w.rtp, 3),
                pct(w.rtp / a.rtp, 2) if a.rtp else "-",
            )
            for w in a.awards
        ),
        "paytable awards",
    )


def _plugin_rows(a: CatalogueAnalysis) -> list[tuple[str, str, str]]:
    """The PAR sheet's row of a plug-in acting on base spins: its share of the RTP (what it
    adds to the base spins' wins; its part of the free spins is inside their share)."""
    plugin = mechanics(a.model).plugin
    if plugin is None or not plugin.in_base:
        return []
    return [(f"  {plugin.name}", pct(a.figures.plugin_rtp, 6), "exact (the plug-in's law)")]


def _free_spins_text(a: CatalogueAnalysis) -> TextParts:
    f = a.figures
    model = a.model
    names = _names(a.model)
    scatter = f"{model.symbol_id(model.scatter)} scatter" if model.scatter >= 0 else "scatter"
    plugin = mechanics(model).plugin
    plugin_part = f", {plugin.name} {pct(f.plugin_rtp)}" if plugin and plugin.in_base else ""
    lines: list[TextBlock] = [
        f"[bold]{model.name}[/] variant {a.variant_id} - exact analysis "
        f"({_bet(model, a.total_bet)})",
        f"RTP {pct(a.rtp)}  ({_unit_wins(model)} {pct(f.line_rtp)}, {scatter} "
        f"{pct(f.scatter_rtp)}"
        f"{plugin_part}, free spins {pct(f.free_spins_rtp)})",
        f"hit frequency {pct(a.hit_frequency, 3)} ({one_in(float(a.hit_frequency))} spins)",
    ]
    if f.trigger_probability:
        lines.append(
            f"free spins {pct(f.trigger_probability, 4)} (every "
            f"{1 / float(f.trigger_probability):,.1f} spins), "
            f"{float(f.expected_free_spins):.2f} spins per trigger"
        )
    lines.append(
        f"standard deviation {a.std_dev:.4f} per unit bet; volatility index "
        f"{Z_90 * a.std_dev:.2f} (90%), {Z_95 * a.std_dev:.2f} (95%); class {a.volatility}"
    )
    free_max = (
        f", {a.free.max_win / a.total_bet:,.1f}x on a free spin" if a.free is not None else ""
    )
    round_max = max_round_win(a)
    round_text = (
        "a round is unbounded (retriggers)"
        if round_max.startswith("unbounded")
        else f"a round pays {round_max}"
    )
    lines.append(
        f"max win {a.base.max_win / a.total_bet:,.1f}x bet on a base spin{free_max}; {round_text}"
    )
    rare = [w for w in a.awards if w.below_gli_limit]
    gli = (
        "[bold red]GLI-11: rarer than 1 in 100,000,000 games:[/] "
        + ", ".join(award_name(w, names) for w in rare)
        if rare
        else "GLI-11: every award is more frequent than 1 in 100,000,000 games"
    )
    free_cycle = f" and {a.free.cycle:,} free-spin" if a.free is not None else ""
    return TextParts(
        headline=tuple(lines),
        gli=gli,
        feature_tables=(),
        paytable=_paytable_text(a),
        band=band_text([confidence_band(a, n) for n in CONFIDENCE_SPINS], "spins"),
        method=f"exact: full cycles of {a.base.cycle:,} base{free_cycle} {_combinations(a)}, "
        f"closed-form free spins; {a.seconds:.1f} s",
    )


def _free_spins_section(a: CatalogueAnalysis) -> Section:
    f = a.figures
    free = mechanics(a.model).free_spins
    if free is None:
        return Section("Free spins", ("<p>This title has no free spins.</p>",))
    trigger_name = _trigger_name(a)
    how = (
        f"each triggering {esc(trigger_name)} reveals a number of free spins (table below)"
        if free.reveal is not None
        else "the number of spins comes from the trigger's table"
    )
    cap = f" The feature is capped at {free.max_spins} spins." if free.max_spins else ""
    blocks: list[Block] = [
        f"<p>{free.trigger} or more {esc(trigger_name)} symbols start the free spins; {how}. "
        f"Expected spins a free spin adds: {float(f.added_per_free_spin):.5f}; expected "
        f"spins per trigger: {float(f.expected_free_spins):.4f}; expected free spins per "
        f"game: {float(a.spins_per_round):.5f}.{cap}</p>",
    ]
    reveal = _reveal(a)
    if reveal is not None:
        _, values, weights = reveal
        total = sum(weights)
        blocks.append(
            rows(
                ("spins revealed", "weight", "probability"),
                [(v, w, f"{w / total:.4f}") for v, w in zip(values, weights, strict=True)],
            )
        )
    blocks.append(
        rows(
            (
                "trigger",
                "P per spin",
                "initial spins",
                "expected spins",
                "expected win (x bet)",
                "std dev of win",
            ),
            (
                (
                    f"{k} x {trigger_name}",
                    f"{float(a.base.probability(k)):.4e}",
                    f"{float(a.initial_given[k].mean):.2f}",
                    f"{float(a.spins_given[k].mean):.3f}",
                    f"{float(a.free_given[k].mean):.3f}",
                    f"{math.sqrt(a.free_given[k].variance):.3f}",
                )
                for k in a.free_given
            ),
        )
    )
    blocks.append(
        rows(
            ("spins per trigger", "probability"),
            ((label, f"{p:.6e}") for label, p in spins_bands(a.spins_per_trigger)),
        )
    )
    if f.trigger_probability:
        dist = a.spins_per_trigger
        figure, axes = new_figure()
        axes.plot(np.arange(len(dist)), dist, color="#a5533b")
        axes.set_xlabel("free spins played per trigger")
        axes.set_ylabel("probability")
        axes.set_xlim(0, min(len(dist), 120))
        axes.set_title("Free spins per trigger (closed form)")
        blocks.append(figure_png(figure))
    return Section("Free spins", tuple(blocks))


def _free_spins_sheet(a: CatalogueAnalysis, doc: dict[str, Any]) -> SheetParts:
    """The PAR sheet's content for the base spin and the free spins (plots drawn now)."""
    model = a.model
    f = a.figures
    method = doc["method"]
    names = _names(a.model)
    scatter = model.symbols[model.scatter].name if model.scatter >= 0 else "-"
    trigger = f.trigger_probability
    summary = [
        ("RTP", pct(a.rtp, 6), method["rtp"]),
        (f"  {_unit_wins(a.model)}", pct(f.line_rtp, 6), "exact"),
        (f"  {scatter} scatter", pct(f.scatter_rtp, 6), "exact"),
        *_plugin_rows(a),
        ("  free spins", pct(f.free_spins_rtp, 6), "exact (Wald's identity)"),
        ("hit frequency (base spin)", pct(a.hit_frequency, 3), method["hit_frequency"]),
        (
            "free spins frequency",
            f"{pct(trigger, 4)} (every {1 / float(trigger):,.1f})" if trigger else "never",
            method["free_spins_frequency"],
        ),
        ("standard deviation per unit bet", f"{a.std_dev:.4f}", method["std_dev"]),
        ("standard deviation per base spin", f"{a.base_spin_std_dev:.4f}", "exact"),
        (
            "volatility index 90% / 95%",
            f"{Z_90 * a.std_dev:.3f} / {Z_95 * a.std_dev:.3f}",
            method["volatility_index"],
        ),
        ("volatility class", a.volatility, f"standard deviation: {describe_classes()}"),
        (
            "max win, base spin",
            f"{a.base.max_win:,} coins ({a.base.max_win / a.total_bet:,.1f}x)",
            method["max_win"],
        ),
    ]
    if a.free is not None:
        summary.append(
            (
                "max win, one free spin",
                f"{a.free.max_win:,} coins ({a.free.max_win / a.total_bet:,.1f}x)",
                "exact",
            )
        )
    summary += [
        ("max win, round", max_round_win(a), "from the per-screen maxima and the feature's rules"),
        ("round win distribution", "-", method["round_win_distribution"]),
    ]
    paytable = rows(
        (
            "award",
            "pays",
            f"P per {_unit(model)}",
            "P per base spin",
            "P per free spin",
            "per game",
            "RTP base",
            "RTP free spins",
            "RTP share",
        ),
        (
            (
                award_name(w, names),
                f"{w.pays:,}"
                + (" x bet" if w.kind == "scatter" else f" per {_pay_unit(model)} coin"),
                f"{w.per_line:.4e}" if w.per_line is not None else "-",
                f"{w.per_base_spin:.4e}",
                f"{w.per_free_spin:.4e}",
                one_in(w.per_game) + (" (GLI-11!)" if w.below_gli_limit else ""),
                pct(w.base_rtp, 4),
                pct(w.free_spins_rtp, 4),
                pct(w.rtp / a.rtp, 2) if a.rtp else "-",
            )
            for w in a.awards
        ),
    )
    rare = [award_name(w, names) for w in a.awards if w.below_gli_limit]
    gli = (
        '<p class="flag">Rarer than 1 in 100,000,000 games: ' + esc(", ".join(rare)) + "</p>"
        if rare
        else "<p>Every award is more frequent than 1 in 100,000,000 games.</p>"
    )
    bands = win_bands(a)
    spans = np.logspace(3, 8, 200)
    band = Section(
        "RTP confidence band",
        (
            f"<p>Volatility class <b>{esc(a.volatility)}</b>: standard deviation "
            f"{a.std_dev:.4f}, volatility index {Z_90 * a.std_dev:.3f} (90%). After "
            "n spins the observed RTP lies within RTP +- 1.96 sd / sqrt(n) 95% of the time.</p>",
            rows(
                ("spins", "low", "high"),
                (
                    (f"{n:,}", f"{low * 100:.3f}%", f"{high * 100:.3f}%")
                    for n, (low, high) in ((n, confidence_band(a, n)) for n in CONFIDENCE_SPINS)
                ),
            ),
            confidence_plot(
                float(a.rtp) * 100, Z_95 * a.std_dev / np.sqrt(spans) * 100, spans, "spins", 15
            ),
        ),
    )
    return SheetParts(
        note=f"{_bet(model, a.total_bet)}. "
        "Every figure is exact (from the reel strips and the model's tables) unless its method "
        "says otherwise; no figure on this sheet is simulated. "
        f"RTP as a fraction: {esc(doc['rtp_fraction'])}.",
        summary=summary,
        gli=gli,
        paytable=paytable,
        features=(_free_spins_section(a),),
        wins=Section(
            "Win distribution (base spin)",
            (
                rows(("win", "probability"), ((lb, f"{p:.6e}") for lb, p in bands)),
                bands_plot(
                    [lb for lb, _ in bands],
                    [p for _, p in bands],
                    "base-spin win (x total bet)",
                    "Base-spin win distribution (exact)",
                ),
            ),
        ),
        band=band,
    )


# ---------------------------------------------------------------------------------------
# The ladder-and-pots round
# ---------------------------------------------------------------------------------------


#: The seeded sample behind the PAR sheet's round-win distribution (the only simulated item).
SAMPLE_ROUNDS = 1_000_000
SAMPLE_SEED = 20240423

PER_ROUND = (
    "per round (one bet: the main-game spin and the free spins it triggers, line wins x "
    "multiplier plus jackpots) per unit bet, for a round started from the long-run "
    "(stationary) law of the carried state: the meter's stationary law and, independently, "
    "each pot and its trigger point uniform on seed <= pot < trigger < cap (every pot is won "
    "before its cap)"
)


def methods(a: LadderAnalysis) -> dict[str, Any]:
    """How each figure was obtained (``method`` in the JSON, the PAR sheet's third column)."""
    base_columns = int(a.base.gem.shape[0])
    return {
        "per_round": PER_ROUND,
        "rtp": "exact: per-reel columns (every stop x gem outcome; a gem hits with the long-run "
        "probability 2 / (cap - seed), the trigger point uniform on seed + 1 .. cap - 1) and "
        "payline patterns for the line pays; jackpots by "
        "the renewal-reward theorem; the free-spins ladder as a Markov chain; the carried "
        "meter's stationary law (double precision)",
        "hit_frequency": "exact: a main-game spin with a line win or a jackpot; no line wins "
        "by enumerating every column triple of reels 1-3 (every run of three pays), reels "
        f"4-{a.model.reels} by their tags",
        "round_hit_frequency": "exact: the round pays anything; the pots' memory by the "
        f"quadratic survival of stationary renewal windows (rounds beyond it have probability "
        f"at most {a.no_win_bound:.1e})",
        "std_dev": "exact: second moment of the round by the ladder chain with per-spin "
        "second moments (payline pattern pairs), plus the pots' memory within a round "
        f"(Hoeffding terms over one and two reels, {a.memory:+.6f} on E[X^2] = "
        f"{a.second_moment:.6f}); the terms over three or more reels are omitted: together at "
        f"most {a.memory_bound:.1e}",
        "volatility_index": "exact: z x std_dev, z = 1.645 (90%) and 1.960 (95%)",
        "free_spins_frequency": "exact: bonus count law from per-reel window tables",
        "level_reached": "exact: ladder Markov chain weighted by the meter's stationary law",
        "award_probabilities": "exact per payline and as expected paylines per spin and "
        "occurrences per round (Wald); the probability of at least one payline per main spin "
        "and per round is given as exact bounds (Bonferroni: expected paylines minus expected "
        "pairs, and expected occurrences)",
        "max_win": "exact per spin (a reel is best all wild or showing its gem as the jackpot "
        "spin; every such choice evaluated); per round: an upper bound",
        "rtp_confidence": "approximation: Var(sum of n rounds) = n x the exact per-round "
        "variance + the exact covariance through the meter chain + the pots' covariance "
        "between different rounds, taken in each pot's gem count at its long-run gem rate "
        "(renewal function of the uniform trigger), each gem's line effect at its mean; "
        "RTP +- 1.96 sqrt(Var) / n",
        "round_win_distribution": f"simulated: {SAMPLE_ROUNDS:,} rounds, seed {SAMPLE_SEED}, "
        "from the stationary state (the exact distribution of a round's win is not computed)",
        "simulated": ["round_win_distribution"],
        "reel_columns": base_columns,
        "seconds": round(a.seconds, 3),
    }


def ladder_document(a: LadderAnalysis, sample: dict[str, Any] | None = None) -> dict[str, Any]:
    """The exact analysis as data (``analyze --json``)."""
    model = a.model
    rules = a.rules
    variant = model.variant(a.variant_id)
    main_by_award: dict[str, dict[str, float]] = {}
    free_by_award: dict[str, dict[str, float]] = {}
    for w in a.awards:
        main_by_award.setdefault(w.symbol, {})[str(w.count)] = _f(w.base_rtp)
        free_by_award.setdefault(w.symbol, {})[str(w.count)] = _f(w.free_rtp)
    reveal = rules.gem_reveal(variant)
    total_weight = sum(reveal.weights)
    doc: dict[str, Any] = {
        "game": model.id,
        "variant": a.variant_id,
        "bet": {"lines": a.rules.lines, "line_bet": f"the bet / {a.rules.lines}"},
        "rtp": _f(a.rtp),
        "rtp_breakdown": {
            "main_game_lines": _f(a.base_line_rtp),
            "free_spins_lines": _f(a.free_line_rtp),
            "jackpots": _f(a.jackpot_rtp),
            "main_game_lines_by_award": main_by_award,
            "free_spins_lines_by_level": {
                str(lv + 1): _f(v) for lv, v in enumerate(a.free_line_rtp_by_level)
            },
            "free_spins_lines_by_award": free_by_award,
            "jackpots_by_pot": {p.name: _f(p.rtp) for p in a.pots},
            "other": 0.0,
        },
        "hit_frequency": _f(a.hit_frequency),
        "round_hit_frequency": _f(a.round_hit_frequency),
        "free_spins_frequency": _f(a.free_spins_frequency),
        "free_spins_every": _f(1 / a.free_spins_frequency, 4) if a.free_spins_frequency else None,
        "std_dev": round(a.std_dev, 6),
        "variance": round(a.variance, 6),
        "volatility_index": {
            "90": round(a.volatility_index(Z_90), 6),
            "95": round(a.volatility_index(Z_95), 6),
        },
        "volatility_class": a.volatility,
        "long_run_std_dev": round(math.sqrt(a.long_run_variance), 6),
        "rtp_confidence_95": {
            str(n): [round(x, 6) for x in a.confidence_band(n)] for n in CONFIDENCE_SPINS
        },
        "free_spins": {
            "expected_spins_per_trigger": _f(a.free_spins_per_trigger),
            "expected_multiplier_sum_per_trigger": _f(a.multiplier_sum_per_trigger),
            "mean_line_win_per_trigger": _f(a.free_line_rtp / a.free_spins_frequency)
            if a.free_spins_frequency
            else None,
            "levels": [
                {
                    "level": lv + 1,
                    "spins": rules.spins_per_level,
                    "multiplier": rules.multipliers[lv],
                    "reached": _f(a.level_reached[lv]),
                    "line_rtp": _f(a.free_line_rtp_by_level[lv]),
                }
                for lv in range(rules.levels)
            ],
        },
        "meter": {
            "spots": rules.spots,
            "stationary_law_at_round_start": [_f(x) for x in a.meter],
        },
        "gem_reveal": [
            {"reveal": o, "weight": w, "probability_without_jackpot": _f(w / total_weight)}
            for o, w in zip(reveal.outcomes, reveal.weights, strict=True)
        ],
        "pots": [
            {
                "name": p.name,
                "reel": p.reel,
                "seed_x_bet": p.seed,
                "cap_x_bet": p.cap,
                "largest_award_x_bet": p.last_trigger,
                "hit_probability_per_gem": _f(p.hit_probability),
                "gems_per_round": _f(p.gems_per_round),
                "hits_per_round": _f(p.hits_per_round, 12),
                "one_in_rounds": _f(1 / p.hits_per_round, 2) if p.hits_per_round else None,
                "mean_award_x_bet": _f(p.mean_award),
                "rtp": _f(p.rtp),
            }
            for p in a.pots
        ],
        "awards": [
            {
                "symbol": w.symbol,
                "count": w.count,
                "pays_line_bets": w.pays,
                "probability_per_line_main_game": w.per_line_base,
                "probability_per_line_free_spins": w.per_line_free,
                "expected_lines_per_main_spin": w.lines_per_base_spin,
                "expected_lines_per_free_spin": w.lines_per_free_spin,
                "probability_per_main_spin": [w.base_spin_low, w.base_spin_high],
                "expected_per_round": w.per_round,
                "probability_per_round": [w.round_low, w.round_high],
                "one_in_rounds": [1 / w.round_high, 1 / w.round_low] if w.round_low else None,
                "rtp": _f(w.rtp),
                "rtp_share": _f(w.rtp / a.rtp) if a.rtp else None,
                "rarer_than_1_in_100_million": w.gli,
            }
            for w in a.awards
        ],
        "gli_11": {
            "limit": "every award at least once in 100,000,000 games (rounds)",
            "awards_rarer": [f"{w.count} x {w.symbol}" for w in a.awards if w.gli == "yes"],
            "awards_undetermined": [
                f"{w.count} x {w.symbol}" for w in a.awards if w.gli == "undetermined"
            ],
        },
        "max_win": {
            **{k: v for k, v in a.max_win.items() if k != "round_bound_x_bet"},
            "jackpot_x_bet": max(p.last_trigger for p in a.pots),
            "round": f"at most {a.max_win.get('round_bound_x_bet', 0):,.0f}x bet (bound)",
        },
        "reels": {
            name: {
                "stops": [int(n) for n in rs.lengths],
                "symbol_counts": {
                    model.symbol_ids[s]: [int(c) for c in symbol_counts(model, rs)[:, s]]
                    for s in range(len(model.symbols))
                },
            }
            for name, rs in variant.reel_sets.items()
        },
        "method": methods(a),
    }
    if sample is not None:
        doc["win_distribution_round"] = sample
    return doc


def sample_win_distribution(a: LadderAnalysis) -> dict[str, Any]:
    """The round-win distribution from a seeded simulation (labelled as such)."""
    from reelsmith.analysis import kernel as k
    from reelsmith.analysis.simulation import chunk_stream

    game = k.KernelGame.build(a.model, a.variant_id)
    stats, _floats, _batches = game.run(chunk_stream(SAMPLE_SEED, 0), SAMPLE_ROUNDS)
    labels = band_labels(k.BAND_EDGES)
    return {
        "method": f"simulated: {SAMPLE_ROUNDS:,} rounds, seed {SAMPLE_SEED}",
        "bands": [
            {"win_x_bet": label, "probability": stats[k.S_BANDS + i] / SAMPLE_ROUNDS}
            for i, label in enumerate(labels)
        ],
    }


def _ladder_text(a: LadderAnalysis) -> TextParts:
    model = a.model
    names = _names(model)
    main = a.max_win.get("main_spin") or {}
    free = a.max_win.get("free_spin") or {}
    rare = [w for w in a.awards if w.gli != "no"]
    gli = (
        "[bold red]GLI-11: possibly rarer than 1 in 100,000,000 rounds:[/] "
        + ", ".join(award_name(w, names) for w in rare)
        if rare
        else "GLI-11: every award is more frequent than 1 in 100,000,000 rounds"
    )
    headline = (
        f"[bold]{model.name}[/] variant {a.variant_id} - exact analysis, long run, per round "
        f"({_ladder_spread(a)}, wins in multiples of the bet)",
        f"RTP {pct(a.rtp)}  (main-game lines {pct(a.base_line_rtp)}, free-spins lines "
        f"{pct(a.free_line_rtp)}, jackpots {pct(a.jackpot_rtp)})",
        f"hit frequency {pct(a.hit_frequency, 3)} of main-game spins, "
        f"{pct(a.round_hit_frequency, 3)} of rounds",
        f"free spins {pct(a.free_spins_frequency, 4)} (every "
        f"{1 / a.free_spins_frequency:,.1f} rounds), {a.free_spins_per_trigger:.2f} spins per "
        "trigger; levels reached "
        + ", ".join(f"{lv + 1}: {p:.1%}" for lv, p in enumerate(a.level_reached)),
        f"standard deviation {a.std_dev:.4f} per round; volatility index "
        f"{a.volatility_index(Z_90):.2f} (90%), {a.volatility_index(Z_95):.2f} (95%); "
        f"class {a.volatility}; long run {math.sqrt(a.long_run_variance):.4f} per round "
        "(rounds are dependent)",
        f"max win {main.get('with_jackpots_x_bet', 0):,.1f}x bet on a main-game spin (lines "
        f"alone {main.get('line_pay_x_bet', 0):,.0f}x), "
        f"{free.get('with_jackpots_x_bet', 0):,.1f}x on a free spin; a round "
        f"at most {a.max_win.get('round_bound_x_bet', 0):,.0f}x (bound)",
    )
    pots = rows(
        ("pot", "seed-largest", "won before", "hits", "mean award", "RTP"),
        (
            (
                p.name,
                f"{p.seed}-{p.last_trigger}x",
                f"{p.cap}x",
                one_in(p.hits_per_round) + " rounds",
                f"{p.mean_award:,.1f}x",
                pct(p.rtp, 3),
            )
            for p in a.pots
        ),
        "jackpots",
    )
    paytable = rows(
        ("award", "pays", "per line", "lines per round", "RTP", "share"),
        (
            (
                award_name(w, names),
                f"{w.pays:,}",
                f"{w.per_line_base:.3e}",
                f"{w.per_round:.3e}",
                pct(w.rtp, 3),
                pct(w.rtp / a.rtp, 2),
            )
            for w in a.awards
        ),
        "paytable awards",
    )
    return TextParts(
        headline=headline,
        gli=gli,
        feature_tables=(pots,),
        paytable=paytable,
        band=band_text(
            [a.confidence_band(n) for n in CONFIDENCE_SPINS],
            "rounds",
            " (rounds are dependent)",
        ),
        method=f"exact from per-reel tables, {_ladder_screens(a)}, the ladder and meter chains "
        f"and the pots' renewal laws; {a.seconds:.1f} s",
    )


def _ladder_plots(a: LadderAnalysis, sample: dict[str, Any]) -> dict[str, str]:
    bands = sample["bands"]
    out = {
        "wins": bands_plot(
            [b["win_x_bet"] for b in bands],
            [b["probability"] for b in bands],
            "round win (x bet)",
            f"Round win distribution (simulated, {SAMPLE_ROUNDS:,} rounds)",
        )
    }
    figure, axes = new_figure()
    levels = np.arange(1, len(a.level_reached) + 1)
    axes.bar(levels, a.level_reached, color="#a5533b")
    axes.set_xlabel("free-spins level")
    axes.set_ylabel("P(level played | trigger)")
    axes.set_title("Free-spins ladder (exact)")
    out["ladder"] = figure_png(figure)
    spans = np.logspace(3, 8, 120)
    half = np.array([Z_95 * math.sqrt(a.sum_variance(int(x))) / int(x) * 100 for x in spans])
    naive = Z_95 * a.std_dev / np.sqrt(spans) * 100
    out["band"] = confidence_plot(a.rtp * 100, half, spans, "rounds", 40, naive)
    return out


def _ladder_sheet(a: LadderAnalysis, sample: dict[str, Any], doc: dict[str, Any]) -> SheetParts:
    """The PAR sheet's content for the ladder-and-pots round (plots drawn now)."""
    model = a.model
    rules = a.rules
    method = doc["method"]
    names = _names(model)
    plots = _ladder_plots(a, sample)
    main = a.max_win.get("main_spin") or {}
    free = a.max_win.get("free_spin") or {}
    summary = [
        ("RTP", pct(a.rtp), method["rtp"]),
        ("  main-game line wins", pct(a.base_line_rtp), "exact"),
        ("  free-spins line wins", pct(a.free_line_rtp), "exact"),
        ("  jackpots", pct(a.jackpot_rtp), "exact (renewal-reward)"),
        ("hit frequency (main-game spin)", pct(a.hit_frequency, 4), method["hit_frequency"]),
        ("hit frequency (round)", pct(a.round_hit_frequency, 4), method["round_hit_frequency"]),
        (
            "free spins frequency",
            f"{pct(a.free_spins_frequency, 4)} (every {1 / a.free_spins_frequency:,.1f} rounds)",
            method["free_spins_frequency"],
        ),
        ("free spins per trigger", f"{a.free_spins_per_trigger:.4f}", method["level_reached"]),
        ("standard deviation per round", f"{a.std_dev:.4f}", method["std_dev"]),
        (
            "volatility index 90% / 95%",
            f"{a.volatility_index(Z_90):.3f} / {a.volatility_index(Z_95):.3f}",
            method["volatility_index"],
        ),
        ("volatility class", a.volatility, f"standard deviation: {describe_classes()}"),
        (
            "long-run standard deviation",
            f"{math.sqrt(a.long_run_variance):.4f}",
            "lim sqrt(Var(sum of n rounds) / n); " + method["rtp_confidence"],
        ),
        (
            "max win, main-game spin",
            f"{main.get('with_jackpots_x_bet', 0):,.2f}x bet (lines alone "
            f"{main.get('line_pay_x_bet', 0):,.0f}x)",
            method["max_win"],
        ),
        (
            f"max win, one free spin (level {rules.levels})",
            f"{free.get('with_jackpots_x_bet', 0):,.2f}x bet",
            "exact",
        ),
        ("max win, round", f"at most {a.max_win.get('round_bound_x_bet', 0):,.0f}x bet", "bound"),
        ("round win distribution", "see below", method["round_win_distribution"]),
    ]
    paytable = rows(
        (
            "award",
            "pays (line bets)",
            "P per line, main",
            "P per line, free",
            "P per main spin (bounds)",
            "expected per round",
            "RTP main",
            "RTP free spins",
            "RTP share",
            "GLI-11",
        ),
        (
            (
                award_name(w, names),
                f"{w.pays:,}",
                f"{w.per_line_base:.4e}",
                f"{w.per_line_free:.4e}",
                f"{w.base_spin_low:.4e} - {w.base_spin_high:.4e}",
                f"{w.per_round:.4e}",
                pct(w.base_rtp, 4),
                pct(w.free_rtp, 4),
                pct(w.rtp / a.rtp, 2),
                {"no": "", "yes": "GLI-11!", "undetermined": "check"}[w.gli],
            )
            for w in a.awards
        ),
    )
    pots = rows(
        (
            "pot",
            "reel",
            "seed",
            "largest award",
            "won before",
            "hit per gem",
            "gems per round",
            "hit frequency",
            "mean award",
            "RTP",
        ),
        (
            (
                p.name,
                p.reel,
                f"{p.seed}x",
                f"{p.last_trigger}x",
                f"{p.cap}x",
                f"{p.hit_probability:.6f}",
                f"{p.gems_per_round:.6f}",
                one_in(p.hits_per_round) + " rounds",
                f"{p.mean_award:,.1f}x",
                pct(p.rtp, 4),
            )
            for p in a.pots
        ),
    )
    band_rows = []
    for n in CONFIDENCE_SPINS:
        low, high = a.confidence_band(n)
        nlow, nhigh = a.naive_band(n)
        band_rows.append(
            (f"{n:,}", f"{low * 100:.3f}%", f"{high * 100:.3f}%", f"+-{(nhigh - nlow) * 50:.3f}")
        )
    rare = [award_name(w, names) for w in a.awards if w.gli != "no"]
    gli = (
        '<p class="flag">Possibly rarer than 1 in 100,000,000 rounds: '
        + esc(", ".join(rare))
        + "</p>"
        if rare
        else f"<p>Every award is more frequent than 1 in 100,000,000 rounds (the lower bound "
        f"of every award's probability per round is at least {GLI_MIN_PROBABILITY:g}).</p>"
    )
    return SheetParts(
        note=f"{_ladder_spread(a)}; wins in multiples of the bet (a line "
        f"bet is the bet / {a.rules.lines}). Every figure is {esc(PER_ROUND)}. Every figure "
        "is exact unless its method says otherwise; the round-win distribution alone is "
        "simulated, and says so.",
        summary=summary,
        gli=gli,
        paytable=paytable,
        features=(
            Section(
                "Local jackpots",
                (
                    "<p>A gem raises its reel's pot by one bet; the gem that takes the pot to its "
                    "hidden trigger point (drawn uniformly from seed + 1 to one bet below the cap "
                    "at each reset, so every pot is won before its cap) reveals the jackpot spin. "
                    "In the long run a gem hits with probability 2 / (cap - seed) and returns "
                    "1 + seed x that probability bets.</p>",
                    pots,
                    "<h3>Gem reveals (when the gem is not the jackpot spin)</h3>",
                    rows(
                        ("reveal", "weight", "probability"),
                        (
                            (r["reveal"], r["weight"], f"{r['probability_without_jackpot']:.4f}")
                            for r in doc["gem_reveal"]
                        ),
                    ),
                ),
            ),
            Section(
                "Free-spins ladder",
                (
                    f"<p>{rules.trigger_count} or more bonus symbols trigger level 1; "
                    f"{rules.spots} collected bonus symbols unlock the next level; levels are "
                    "played in order. Expected free spins per trigger "
                    f"{a.free_spins_per_trigger:.4f}, expected sum of multipliers "
                    f"{a.multiplier_sum_per_trigger:.4f}.</p>",
                    rows(
                        ("level", "spins", "multiplier", "P(played)", "line RTP"),
                        (
                            (
                                lv + 1,
                                rules.spins_per_level,
                                f"{rules.multipliers[lv]}x",
                                f"{a.level_reached[lv]:.6f}",
                                pct(a.free_line_rtp_by_level[lv], 4),
                            )
                            for lv in range(rules.levels)
                        ),
                    ),
                    plots["ladder"],
                    "<h3>Carried meter at the start of a round (stationary law)</h3>",
                    rows(
                        ("meter", "probability"), ((m, f"{p:.6f}") for m, p in enumerate(a.meter))
                    ),
                ),
            ),
        ),
        wins=Section(
            "Win distribution (round, simulated)",
            (
                f"<p>{esc(sample['method'])}; from the stationary state.</p>",
                rows(
                    ("win", "probability"),
                    ((b["win_x_bet"], f"{b['probability']:.6e}") for b in sample["bands"]),
                ),
                plots["wins"],
            ),
        ),
        band=Section(
            "RTP confidence band",
            (
                f"<p>Volatility class <b>{esc(a.volatility)}</b>: standard deviation "
                f"{a.std_dev:.4f} per round, volatility index {a.volatility_index(Z_90):.3f} "
                "(90%). Rounds are dependent: the must-hit-by pots pay back what gems add to "
                "them (the long run is far steadier than single rounds: standard deviation "
                f"{math.sqrt(a.long_run_variance):.4f} per round in the long run) and the "
                "meter carries bonus symbols. The band is RTP +- 1.96 sqrt(Var(sum of n "
                f"rounds)) / n, {esc(method['rtp_confidence'])}. The last column is the "
                "half-width if rounds were independent.</p>",
                rows(("rounds", "low", "high", "independent rounds (pp)"), band_rows),
                plots["band"],
            ),
        ),
    )
