"""What the lab shows people about Days of the Tsar: the analysis and simulation as rich text,
and the PAR sheet as one self-contained HTML page with plots."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
from rich.console import Console
from rich.table import Table

from reelsmith.analysis import days_of_the_tsar as tsar
from reelsmith.analysis.exact import symbol_counts
from reelsmith.analysis.report import esc, figure_png, new_figure, page, table
from reelsmith.analysis.tsar_simulation import Z_95, SimulationResult
from reelsmith.analysis.volatility import describe_classes

CONFIDENCE_SPINS = (10**3, 10**4, 10**5, 10**6, 10**7, 10**8)


def pct(value: Fraction | float, digits: int = 5) -> str:
    return f"{float(value) * 100:.{digits}f}%"


def one_in(p: float) -> str:
    if p <= 0:
        return "never"
    return f"1 in {1 / p:,.2f}" if 1 / p < 100 else f"1 in {1 / p:,.0f}"


def award_name(award: tsar.AwardFigures, names: dict[str, str]) -> str:
    return f"{award.count} x {names[award.symbol]}"


@dataclass(frozen=True)
class TsarAnalysisReport:
    """``analyze``'s result: the exact analysis, as JSON, text and PAR sheet."""

    analysis: tsar.TsarAnalysis

    def to_json(self) -> dict[str, Any]:
        return self.analysis.to_json()

    def render(self, console: Console) -> None:
        a = self.analysis
        f = a.figures
        model = a.model
        names = {s.id: s.name for s in model.symbols}
        console.print(
            f"[bold]{model.name}[/] variant {a.variant_id} - exact analysis "
            f"({model.line_count} lines x 1 coin = {a.total_bet} coins per spin)"
        )
        console.print(
            f"RTP {pct(a.rtp)}  (line wins {pct(f.line_rtp)}, egg scatter {pct(f.scatter_rtp)},"
            f" free spins {pct(f.free_spins_rtp)})"
        )
        console.print(
            f"hit frequency {pct(a.hit_frequency, 3)} ({one_in(float(a.hit_frequency))} spins)"
        )
        console.print(
            f"free spins {pct(a.free_spins_frequency, 4)} (every "
            f"{1 / float(a.free_spins_frequency):,.1f} spins), "
            f"{float(f.expected_free_spins):.2f} spins per trigger"
        )
        console.print(
            f"standard deviation {a.std_dev:.4f} per unit bet; volatility index "
            f"{a.volatility_index(tsar.Z_90):.2f} (90%), {a.volatility_index(tsar.Z_95):.2f} (95%);"
            f" class {a.volatility}"
        )
        console.print(
            f"max win {a.base_moments.max_win / a.total_bet:,.1f}x bet on a base spin, "
            f"{a.free_moments.max_win / a.total_bet:,.1f}x on a free spin; "
            "a round is unbounded (retriggers)"
        )
        rare = [w for w in a.awards if w.below_gli_limit]
        if rare:
            console.print(
                "[bold red]GLI-11: rarer than 1 in 100,000,000 games:[/] "
                + ", ".join(award_name(w, names) for w in rare)
            )
        else:
            console.print("GLI-11: every award is more frequent than 1 in 100,000,000 games")

        awards = Table(title="paytable awards", title_justify="left")
        for column in ("award", "pays", "per line", "per game", "RTP", "share"):
            awards.add_column(column, justify="left" if column == "award" else "right")
        for w in a.awards:
            awards.add_row(
                award_name(w, names),
                f"{w.pays:,}" + ("x bet" if w.kind == "scatter" else ""),
                f"{w.per_line:.3e}" if w.per_line is not None else "-",
                one_in(w.per_game),
                pct(w.rtp, 3),
                pct(w.rtp / a.rtp, 2),
            )
        console.print(awards)
        band = Table(title="RTP 95% band by spins", title_justify="left")
        band.add_column("spins", justify="right")
        band.add_column("RTP range", justify="right")
        for n in CONFIDENCE_SPINS:
            low, high = a.confidence_band(n)
            band.add_row(f"{n:,}", f"{low * 100:.2f}% - {high * 100:.2f}%")
        console.print(band)
        console.print(
            f"exact: full cycles of {a.base.cycle:,} base and {a.free.cycle:,} free-spin stop "
            f"combinations, closed-form free spins; {a.seconds:.1f} s"
        )

    def to_html(self) -> str:
        return par_sheet(self.analysis)


@dataclass(frozen=True)
class TsarSimulationReport:
    """``simulate``'s result, with the exact figures beside it."""

    result: SimulationResult
    exact: dict[str, float]

    def to_json(self) -> dict[str, Any]:
        data = self.result.to_json()
        data["exact"] = self.exact
        return data

    def render(self, console: Console) -> None:
        r = self.result
        d = r.to_json()
        low, high = d["rtp_ci95"]
        console.print(
            f"[bold]Days of the Tsar[/] variant {r.variant} - {r.rounds:,} simulated rounds, "
            f"seed {r.seed}, {r.chunks} chunk(s) of {r.chunk_size:,}, {r.backend}"
        )
        table_ = Table(show_header=True)
        table_.add_column("figure")
        table_.add_column("simulated", justify="right")
        table_.add_column("exact", justify="right")
        exact = self.exact
        table_.add_row("RTP", f"{r.rtp:.4%} (95% CI {low:.4%} - {high:.4%})", f"{exact['rtp']:.4%}")
        breakdown = d["rtp_breakdown"]
        for key in ("line_wins", "scatter", "free_spins"):
            table_.add_row(
                f"  {key.replace('_', ' ')}", f"{breakdown[key]:.4%}", f"{exact[key]:.4%}"
            )
        table_.add_row(
            "hit frequency", f"{d['hit_frequency']:.4%}", f"{exact['hit_frequency']:.4%}"
        )
        table_.add_row(
            "free spins frequency",
            f"{d['free_spins_frequency']:.4%}",
            f"{exact['free_spins_frequency']:.4%}",
        )
        per_trigger = d["free_spins_per_trigger"]
        table_.add_row(
            "free spins per trigger",
            f"{per_trigger:.2f}" if per_trigger is not None else "-",
            f"{exact['expected_free_spins_per_trigger']:.2f}",
        )
        table_.add_row("standard deviation", f"{r.std_dev:.4f}", f"{exact['std_dev']:.4f}")
        table_.add_row("max round win", f"{d['max_win_x_bet']:,.1f}x bet", "")
        console.print(table_)
        console.print(
            f"{r.seconds:.2f} s, {r.spins_per_second:,.0f} spins per second; the kernel alone "
            f"{r.spins_per_second_per_core:,.0f} per core"
        )


def _strip_rows(a: tsar.TsarAnalysis, name: str) -> str:
    model = a.model
    reel_set = model.variant(a.variant_id).reel_sets[name]
    rows = [
        (f"reel {reel + 1} ({len(strip)} stops)", " ".join(model.symbol_id(int(s)) for s in strip))
        for reel, strip in enumerate(reel_set.strips)
    ]
    counts = symbol_counts(model, reel_set)
    count_rows = [
        (model.symbols[s].name, *(str(int(counts[r, s])) for r in range(model.reels)))
        for s in range(len(model.symbols))
    ]
    return (
        f"<h3>{esc(name)} ({reel_set.cycle:,} stop combinations)</h3>"
        + table(("reel", "strip (top row = stop)"), rows, "strips text")
        + table(("symbol", *(f"reel {r + 1}" for r in range(model.reels))), count_rows)
    )


def _plots(a: tsar.TsarAnalysis) -> dict[str, str]:
    out = {}
    bands = tsar.base_win_bands(a)
    figure, axes = new_figure()
    labels = [label.replace("over ", "") for label, _ in bands]
    # a band that never happens gets no bar (a log scale has no zero)
    axes.bar(labels, [p if p > 0 else np.nan for _, p in bands], color="#3b6ea5")
    axes.set_yscale("log")
    axes.set_ylabel("probability")
    axes.set_xlabel("base-spin win (x total bet)")
    axes.set_title("Base-spin win distribution (exact)")
    axes.tick_params(axis="x", rotation=35)
    out["wins"] = figure_png(figure)

    figure, axes = new_figure()
    dist = a.spins_per_trigger
    axes.plot(np.arange(len(dist)), dist, color="#a5533b")
    axes.set_xlabel("free spins played per trigger")
    axes.set_ylabel("probability")
    axes.set_xlim(0, min(len(dist), 120))
    axes.set_title("Free spins per trigger (closed form)")
    out["spins"] = figure_png(figure)

    figure, axes = new_figure()
    n = np.logspace(3, 8, 200)
    rtp = float(a.rtp) * 100
    half = Z_95 * a.std_dev / np.sqrt(n) * 100
    axes.fill_between(n, rtp - half, rtp + half, color="#3b6ea5", alpha=0.25, label="95% band")
    axes.axhline(rtp, color="#3b6ea5", label=f"RTP {rtp:.3f}%")
    axes.set_xscale("log")
    axes.set_xlabel("spins played")
    axes.set_ylabel("observed RTP (%)")
    axes.set_ylim(rtp - 15, rtp + 15)
    axes.legend()
    axes.set_title("RTP confidence band by number of spins")
    out["band"] = figure_png(figure)
    return out


def par_sheet(a: tsar.TsarAnalysis) -> str:
    """The PAR sheet of a variant as one HTML page (plots embedded)."""
    model = a.model
    f = a.figures
    doc = a.to_json()
    names = {s.id: s.name for s in model.symbols}
    plots = _plots(a)
    summary = [
        ("RTP", pct(a.rtp), doc["method"]["rtp"]),
        ("  line wins", pct(f.line_rtp), "exact"),
        ("  egg scatter", pct(f.scatter_rtp), "exact"),
        ("  free spins", pct(f.free_spins_rtp), "exact (Wald's identity)"),
        ("hit frequency (base spin)", pct(a.hit_frequency, 3), doc["method"]["hit_frequency"]),
        (
            "free spins frequency",
            f"{pct(a.free_spins_frequency, 4)} (every {1 / float(a.free_spins_frequency):,.1f})",
            doc["method"]["free_spins_frequency"],
        ),
        ("standard deviation per unit bet", f"{a.std_dev:.4f}", doc["method"]["std_dev"]),
        (
            "volatility index 90% / 95%",
            f"{a.volatility_index(tsar.Z_90):.3f} / {a.volatility_index(tsar.Z_95):.3f}",
            doc["method"]["volatility_index"],
        ),
        ("volatility class", a.volatility, f"standard deviation: {describe_classes()}"),
        (
            "max win, base spin",
            f"{a.base_moments.max_win:,} coins ({a.base_moments.max_win / a.total_bet:,.1f}x)",
            doc["method"]["max_win"],
        ),
        (
            "max win, one free spin",
            f"{a.free_moments.max_win:,} coins ({a.free_moments.max_win / a.total_bet:,.1f}x)",
            "exact",
        ),
        ("max win, round", "unbounded", "free spins retrigger without a cap"),
        ("round win distribution", "-", doc["method"]["round_win_distribution"]),
    ]
    paytable_rows = [
        (
            award_name(w, names),
            f"{w.pays:,}" + (" x bet" if w.kind == "scatter" else " per line coin"),
            f"{w.per_line:.4e}" if w.per_line is not None else "-",
            f"{w.per_base_spin:.4e}",
            f"{w.per_free_spin:.4e}",
            one_in(w.per_game) + (" (GLI-11!)" if w.below_gli_limit else ""),
            pct(w.base_rtp, 4),
            pct(w.free_spins_rtp, 4),
            pct(w.rtp / a.rtp, 2),
        )
        for w in a.awards
    ]
    reveal_total = sum(a.reveal_weights)
    reveal_rows = [
        (v, w, f"{w / reveal_total:.4f}")
        for v, w in zip(a.reveal_values, a.reveal_weights, strict=True)
    ]
    trigger_rows = [
        (
            f"{k} eggs",
            f"{float(a.base_moments.probability(k)):.4e}",
            f"{float(k * a.reveal.mean):.2f}",
            f"{float(a.free_spins_given[k].mean):.3f}",
            f"{float(a.free_win_given[k].mean):.3f}",
            f"{math.sqrt(a.free_win_given[k].variance):.3f}",
        )
        for k in a.free_win_given
    ]
    band_rows = []
    for n in CONFIDENCE_SPINS:
        low, high = a.confidence_band(n)
        band_rows.append((f"{n:,}", f"{low * 100:.3f}%", f"{high * 100:.3f}%"))
    win_rows = [(label, f"{p:.6e}") for label, p in tsar.base_win_bands(a)]
    spins_rows = [(label, f"{p:.6e}") for label, p in tsar.spins_bands(a)]
    rare = [award_name(w, names) for w in a.awards if w.below_gli_limit]
    gli = (
        '<p class="flag">Rarer than 1 in 100,000,000 games: ' + esc(", ".join(rare)) + "</p>"
        if rare
        else "<p>Every award is more frequent than 1 in 100,000,000 games.</p>"
    )
    body = (
        f"<h1>{esc(model.name)} - PAR sheet, variant {esc(a.variant_id)}</h1>"
        f'<p class="note">{model.line_count} paylines x 1 coin = {a.total_bet} coins per spin. '
        "Every figure is exact (from the reel strips and reveal weights) unless its method "
        "says otherwise; no figure on this sheet is simulated. "
        f"RTP as a fraction: {esc(doc['rtp_fraction'])}.</p>"
        "<h2>Summary</h2>"
        + table(("figure", "value", "method"), summary, "text")
        + "<h2>Paytable</h2>"
        + gli
        + table(
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
            paytable_rows,
        )
        + "<h2>Free spins</h2>"
        + f"<p>Each triggering egg reveals a number of free spins; every egg shown during a "
        f"free spin adds one spin. Expected eggs per free spin: "
        f"{float(f.free_eggs_per_spin):.5f}; expected spins per trigger: "
        f"{float(f.expected_free_spins):.4f}.</p>"
        + table(("spins revealed", "weight", "probability"), reveal_rows)
        + table(
            (
                "trigger",
                "P per spin",
                "initial spins",
                "expected spins",
                "expected win (x bet)",
                "std dev of win",
            ),
            trigger_rows,
        )
        + table(("spins per trigger", "probability"), spins_rows)
        + plots["spins"]
        + "<h2>Win distribution (base spin)</h2>"
        + table(("win", "probability"), win_rows)
        + plots["wins"]
        + "<h2>RTP confidence band</h2>"
        + f"<p>Volatility class <b>{esc(a.volatility)}</b>: standard deviation "
        f"{a.std_dev:.4f}, volatility index {a.volatility_index(tsar.Z_90):.3f} (90%). After "
        "n spins the observed RTP lies within RTP +- 1.96 sd / sqrt(n) 95% of the time.</p>"
        + table(("spins", "low", "high"), band_rows)
        + plots["band"]
        + "<h2>Reel strips</h2>"
        + "".join(_strip_rows(a, name) for name in model.variant(a.variant_id).reel_sets)
        + f'<p class="note">Computed in {a.seconds:.2f} s.</p>'
    )
    return page(f"{model.name} PAR sheet {a.variant_id}", body)
