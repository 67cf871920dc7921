"""What ``reelsmith simulate`` shows of a ladder-and-pots title: the simulated figures beside
the exact ones, as JSON and text (:class:`reelsmith.analysis.report.LabReport`). The exact
analysis's own report, for every kind of title, is :mod:`reelsmith.analysis.analysis_report`."""

from __future__ import annotations

from reelsmith.analysis.report import (
    LabReport,
    TextBlock,
    rows,
    speed_line,
)
from reelsmith.analysis.simulation import Simulation


def simulation_report(name: str, result: Simulation, exact: dict[str, float]) -> LabReport:
    """``simulate``'s result, with the exact figures beside it (``name``: the title's name, for
    the heading)."""
    d = result.to_json()
    d["exact"] = exact
    band = d["rtp_ci99"]  # the interval every title's simulation prints
    interval = (
        f" (99% CI {band[0]:.4%} - {band[1]:.4%})" if band else " (too few rounds for an interval)"
    )
    r = result
    breakdown = d["rtp_breakdown"]
    per_trigger = d["free_spins_per_trigger"]
    figures = [
        ("RTP", f"{r.rtp:.4%}{interval}", f"{exact['rtp']:.4%}"),
        *(
            (f"  {label}", f"{breakdown[key]:.4%}", f"{exact[key]:.4%}")
            for key, label in (
                ("main_game_lines", "main-game lines"),
                ("free_spins_lines", "free-spins lines"),
                ("jackpots", "jackpots"),
            )
        ),
        *(
            (label, f"{d[key]:.4%}", f"{exact[key]:.4%}")
            for key, label in (
                ("hit_frequency", "hit frequency (main spin)"),
                ("round_hit_frequency", "hit frequency (round)"),
                ("free_spins_frequency", "free spins frequency"),
            )
        ),
        (
            "free spins per trigger",
            f"{per_trigger:.2f}" if per_trigger is not None else "-",
            f"{exact['free_spins_per_trigger']:.2f}",
        ),
        ("standard deviation", f"{r.std_dev:.4f}", f"{exact['std_dev']:.4f}"),
        ("max round win", f"{d['max_win_x_bet']:,.1f}x bet", ""),
    ]
    text: tuple[TextBlock, ...] = (
        f"[bold]{name}[/] variant {r.variant} - {r.rounds:,} simulated rounds, seed "
        f"{r.seed}, {r.chunks} chunk(s) of {r.chunk_size:,} ({r.start} start), {r.backend}",
        rows(("figure", "simulated", "exact"), figures),
        f"interval: {d['ci_method']}",
        speed_line(r, "spins"),
    )
    return LabReport(d, text, None, result)
