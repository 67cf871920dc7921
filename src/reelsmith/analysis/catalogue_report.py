"""What ``reelsmith analyze`` shows of any catalogue variant: the exact analysis as JSON, as rich
text and as the PAR sheet (one self-contained HTML page with its plots).

Every section reads the model and the analysis alone (symbol names, the scatter, the trigger
symbol, the reveal table, the cap), so one sheet serves every catalogue title. Each figure
names its method; none is simulated.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from reelsmith.analysis.catalogue_awards import AwardFigures, spins_bands
from reelsmith.analysis.catalogue_exact import CatalogueAnalysis, initial_law
from reelsmith.analysis.exact import symbol_counts, symbol_weights
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


def _f(value: Fraction | float, digits: int = 10) -> float:
    return round(float(value), digits)


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


def _names(a: CatalogueAnalysis) -> dict[str, str]:
    return {s.id: s.name for s in a.model.symbols}


def _trigger_name(a: CatalogueAnalysis) -> str:
    free = mechanics(a.model).free_spins
    symbol = free.symbol if free is not None else a.model.scatter
    return a.model.symbols[symbol].name if symbol >= 0 else "-"


def award_name(award: AwardFigures, names: dict[str, str]) -> str:
    return f"{award.count} x {names[award.symbol]}"


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


def analysis_document(a: CatalogueAnalysis) -> dict[str, Any]:
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
        "bet": {"lines": model.line_count, "coins_per_line": 1, "total_coins": a.total_bet},
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
                **(weights_json(model, rs) if rs.weighted else {}),
            }
            for name, rs in model.variant(a.variant_id).reel_sets.items()
        },
        "method": {
            "rtp": "exact: line pays by walking every symbol tuple on a payline weighted by its "
            "stop combinations; scatter by convolving per-reel window tables; free spins by "
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


def catalogue_report(a: CatalogueAnalysis) -> LabReport:
    """``analyze``'s result for a catalogue variant: JSON, text and the PAR sheet."""
    return LabReport(analysis_document(a), _text(a), lambda: _sheet(a), a)


def _paytable_text(a: CatalogueAnalysis) -> Rows:
    names = _names(a)
    return rows(
        ("award", "pays", "per line", "per game", "RTP", "share"),
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


def _text(a: CatalogueAnalysis) -> tuple[TextBlock, ...]:
    f = a.figures
    model = a.model
    names = _names(a)
    scatter = f"{model.symbol_id(model.scatter)} scatter" if model.scatter >= 0 else "scatter"
    plugin = mechanics(model).plugin
    plugin_part = f", {plugin.name} {pct(f.plugin_rtp)}" if plugin and plugin.in_base else ""
    lines: list[TextBlock] = [
        f"[bold]{model.name}[/] variant {a.variant_id} - exact analysis "
        f"({model.line_count} lines x 1 coin = {a.total_bet} coins per spin)",
        f"RTP {pct(a.rtp)}  (line wins {pct(f.line_rtp)}, {scatter} {pct(f.scatter_rtp)}"
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
    if rare:
        lines.append(
            "[bold red]GLI-11: rarer than 1 in 100,000,000 games:[/] "
            + ", ".join(award_name(w, names) for w in rare)
        )
    else:
        lines.append("GLI-11: every award is more frequent than 1 in 100,000,000 games")
    lines.append(_paytable_text(a))
    lines.append(band_text([confidence_band(a, n) for n in CONFIDENCE_SPINS], "spins"))
    free_cycle = f" and {a.free.cycle:,} free-spin" if a.free is not None else ""
    lines.append(
        f"exact: full cycles of {a.base.cycle:,} base{free_cycle} {_combinations(a)}, "
        f"closed-form free spins; {a.seconds:.1f} s"
    )
    return tuple(lines)


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


def _sheet(a: CatalogueAnalysis) -> Sheet:
    """The PAR sheet of a variant (plots embedded)."""
    model = a.model
    f = a.figures
    doc = analysis_document(a)
    method = doc["method"]
    names = _names(a)
    scatter = model.symbols[model.scatter].name if model.scatter >= 0 else "-"
    trigger = f.trigger_probability
    summary = [
        ("RTP", pct(a.rtp, 6), method["rtp"]),
        ("  line wins", pct(f.line_rtp, 6), "exact"),
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
            "P per line",
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
                f"{w.pays:,}" + (" x bet" if w.kind == "scatter" else " per line coin"),
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
    return Sheet(
        title=f"{model.name} PAR sheet {a.variant_id}",
        heading=f"{model.name} - PAR sheet, variant {a.variant_id}",
        note=f"{model.line_count} paylines x 1 coin = {a.total_bet} coins per spin. "
        "Every figure is exact (from the reel strips and the model's tables) unless its method "
        "says otherwise; no figure on this sheet is simulated. "
        f"RTP as a fraction: {esc(doc['rtp_fraction'])}.",
        sections=(
            Section("Summary", (rows(("figure", "value", "method"), summary, classes="text"),)),
            Section("Paytable", (gli, paytable)),
            _free_spins_section(a),
            Section(
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
            band,
            strips_section(model, a.variant_id),
        ),
        closing=f"Computed in {a.seconds:.2f} s.",
    )
