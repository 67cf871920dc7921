"""The math lab's entry points for every catalogue title: ``analyze`` (with its PAR sheet),
``tune`` and ``simulate``, the same for a shipped title and for a model file of one's own.

:mod:`reelsmith.analysis.titles` dispatches here for any model with
``mechanics = "catalogue"``; nothing in this module names a title.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from reelsmith.analysis.catalogue_exact import CatalogueAnalysis, analyze_full
from reelsmith.analysis.catalogue_tuning import TuneResult, tune_variant
from reelsmith.analysis.report import esc, figure_png, new_figure, page, table
from reelsmith.analysis.volatility import describe_classes
from reelsmith.engine.model import GameModel

Z_90 = 1.6448536269514722
Z_95 = 1.959963984540054

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


def _band_label(low: float, high: float) -> str:
    if low == high == 0:
        return "no win"
    if math.isinf(high):
        return f"over {low:g}x"
    return f"over {low:g}x to {high:g}x" if low else f"up to {high:g}x"


@dataclass(frozen=True)
class CatalogueReport:
    """What ``reelsmith analyze`` shows of a catalogue variant."""

    analysis: CatalogueAnalysis

    def win_bands(self) -> list[tuple[str, float]]:
        a = self.analysis
        lines = a.base.lines
        out = []
        for low, high in WIN_BANDS:
            ways = sum(
                w
                for win, w in a.base_wins.items()
                if (win == 0 if high == 0 else low * lines < win <= high * lines)
            )
            out.append((_band_label(low, high), ways / a.base.cycle))
        return out

    def awards(self) -> list[tuple[str, int, int, float, float]]:
        """(symbol, count, pay, probability on one payline, base-game RTP share)."""
        a = self.analysis
        model = a.model
        out = []
        ways = a.base_line.ways
        for symbol in model.symbols:
            for count in range(1, model.reels + 1):
                pay = int(model.line_pays[symbol.index, count])
                if pay == 0:
                    continue
                probability = int(ways[symbol.index, count]) / a.base.cycle
                out.append((symbol.id, count, pay, probability, probability * pay))
        return out

    def to_json(self) -> dict[str, Any]:
        a = self.analysis
        document = a.to_json()
        document["volatility_index_90"] = Z_90 * a.std_dev
        document["volatility_index_95"] = Z_95 * a.std_dev
        document["win_distribution"] = dict(self.win_bands())
        document["awards"] = [
            {"symbol": s, "count": c, "pays": p, "per_line": prob, "rtp_per_line": r}
            for s, c, p, prob, r in self.awards()
        ]
        return document

    def render(self, console: Console) -> None:
        a = self.analysis
        f = a.figures
        console.print(f"[bold]{a.model.name}[/] variant {a.variant_id}: exact analysis")
        rows = [
            ("RTP", f"{float(a.rtp):.6%}"),
            ("  line wins", f"{float(f.line_rtp):.6%}"),
            ("  scatter wins", f"{float(f.scatter_rtp):.6%}"),
            ("  free spins", f"{float(f.free_spins_rtp):.6%}"),
            ("hit frequency", f"{float(a.hit_frequency):.4%}"),
            ("standard deviation (per round)", f"{a.std_dev:.4f}"),
            ("standard deviation (base spin)", f"{a.base_spin_std_dev:.4f}"),
            ("volatility", f"{a.volatility} ({describe_classes()})"),
            ("volatility index (90% / 95%)", f"{Z_90 * a.std_dev:.3f} / {Z_95 * a.std_dev:.3f}"),
        ]
        if a.free is not None and f.trigger_probability:
            rows += [
                ("free spins frequency", f"1 in {1 / float(f.trigger_probability):,.1f} rounds"),
                ("free spins per trigger", f"{float(f.expected_free_spins):.4f}"),
                ("spins a free spin adds", f"{float(f.added_per_free_spin):.6f}"),
            ]
        rows.append(("max base-spin win", f"{a.base.max_win / a.base.lines:,.2f}x bet"))
        figures = Table(show_header=False, box=None)
        for label, value in rows:
            figures.add_row(label, value)
        console.print(figures)
        bands = Table(title="base-spin win distribution", title_justify="left")
        bands.add_column("win")
        bands.add_column("probability", justify="right")
        for label, probability in self.win_bands():
            bands.add_row(label, f"{probability:.6%}")
        console.print(bands)

    def to_html(self) -> str:
        a = self.analysis
        f = a.figures
        model = a.model
        parts = [
            f"<h1>{esc(model.name)} &mdash; PAR sheet, variant {esc(a.variant_id)}</h1>",
            '<p class="note">Every figure is exact (integer counts over the full cycle of '
            "the reel strips), per unit of total bet and per round (a base spin and the free "
            "spins it triggers), computed by reelsmith's catalogue analyzer.</p>",
            "<h2>Figures</h2>",
            table(
                ["figure", "value"],
                [
                    ("RTP", f"{float(a.rtp):.6%}"),
                    ("line wins", f"{float(f.line_rtp):.6%}"),
                    ("scatter wins", f"{float(f.scatter_rtp):.6%}"),
                    ("free spins", f"{float(f.free_spins_rtp):.6%}"),
                    ("hit frequency", f"{float(a.hit_frequency):.4%}"),
                    ("standard deviation per round", f"{a.std_dev:.4f}"),
                    ("standard deviation per base spin", f"{a.base_spin_std_dev:.4f}"),
                    ("volatility", a.volatility),
                    ("free spins frequency", f"{float(f.trigger_probability):.6%}"),
                    ("free spins per trigger", f"{float(f.expected_free_spins):.4f}"),
                ],
            ),
            "<h2>Paytable awards (one payline, base game)</h2>",
            table(
                ["symbol", "count", "pays", "probability", "1 in", "RTP per line"],
                [
                    (s, c, p, f"{prob:.8f}", f"{1 / prob:,.0f}" if prob else "-", f"{r:.6%}")
                    for s, c, p, prob, r in self.awards()
                ],
            ),
            "<h2>Base-spin win distribution</h2>",
            table(["win", "probability"], [(b, f"{p:.6%}") for b, p in self.win_bands()]),
            self._plot(),
            "<h2>Reel strips</h2>",
        ]
        variant = model.variant(a.variant_id)
        for name, reel_set in variant.reel_sets.items():
            parts.append(f"<h3>{esc(name)}</h3>")
            parts.append(
                table(
                    ["reel", "stops", "strip"],
                    [
                        (r + 1, len(strip), " ".join(model.symbol_id(int(s)) for s in strip))
                        for r, strip in enumerate(reel_set.strips)
                    ],
                    "strips",
                )
            )
        return page(f"{model.name} PAR sheet {a.variant_id}", "".join(parts))

    def _plot(self) -> str:
        figure, axes = new_figure()
        bands = self.win_bands()[1:]
        axes.bar([b for b, _ in bands], [p for _, p in bands], color="#3a6ea5")
        axes.set_ylabel("probability")
        axes.set_yscale("log")
        axes.tick_params(axis="x", rotation=30)
        return figure_png(figure)


def analyze_title(model: GameModel, variant_id: str | None = None) -> CatalogueReport:
    return CatalogueReport(analyze_full(model, variant_id))


def tune_title(
    model: GameModel,
    folder: Path,
    target_rtp: Decimal,
    *,
    volatility: str | None = None,
    base_variant: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> TuneResult:
    if volatility is not None:
        raise ValueError(
            "the catalogue tuner keeps the wilds and scatters where they are and tunes the "
            "RTP only; --volatility is not offered for catalogue titles"
        )
    return tune_variant(
        model,
        folder,
        Fraction(target_rtp) / 100,
        f"{target_rtp}",
        base_variant=base_variant,
        progress=progress,
    )


def simulate_title(
    game_id: str,
    rounds: int,
    seed: int,
    *,
    variant_id: str | None = None,
    folder: Path | None = None,
    workers: int = 1,
    cluster: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> Any:
    """A seeded simulation on the generic kernel (:mod:`reelsmith.analysis.simulation`), the
    exact figures beside the simulated ones."""
    from reelsmith.analysis.simulation import simulate_catalogue
    from reelsmith.engine.model import load_model
    from reelsmith.games import load_game

    model = load_game(game_id) if folder is None else load_model(Path(folder))
    return simulate_catalogue(
        model,
        rounds,
        seed,
        variant_id=variant_id,
        workers=workers,
        cluster=cluster,
        progress=progress,
    )
