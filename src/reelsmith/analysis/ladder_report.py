"""The figures of a ladder-and-pots title for the lab's one report
(:class:`reelsmith.analysis.report.LabReport`): the exact analysis and the simulation as JSON
and text, and the PAR sheet's sections, the ladder's own (local jackpots, gem reveals, levels,
carried meter, the dependent rounds' confidence band) among the common ones."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from reelsmith.analysis.chunks import band_labels
from reelsmith.analysis.exact import symbol_counts
from reelsmith.analysis.ladder_exact import GLI_MIN_PROBABILITY, AwardFigures, LadderAnalysis
from reelsmith.analysis.report import (
    LabReport,
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
    speed_line,
    strips_section,
)
from reelsmith.analysis.simulation import Simulation
from reelsmith.analysis.volatility import CONFIDENCE_SPINS, Z_90, Z_95, describe_classes

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


def award_name(award: AwardFigures, names: dict[str, str]) -> str:
    return f"{award.count} x {names[award.symbol]}"


def _f(value: float, digits: int = 10) -> float:
    return round(float(value), digits)


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


def analysis_document(a: LadderAnalysis, sample: dict[str, Any] | None = None) -> dict[str, Any]:
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
        "bet": {"lines": model.line_count, "line_bet": f"the bet / {model.line_count}"},
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


def ladder_report(a: LadderAnalysis, sample: dict[str, Any]) -> LabReport:
    """``analyze``'s result: the exact analysis (with the sampled round-win distribution) as
    JSON, text and PAR sheet."""
    return LabReport(analysis_document(a, sample), _text(a), lambda: _sheet(a, sample), a)


def _text(a: LadderAnalysis) -> tuple[TextBlock, ...]:
    model = a.model
    names = {s.id: s.name for s in model.symbols}
    main = a.max_win.get("main_spin") or {}
    free = a.max_win.get("free_spin") or {}
    rare = [w for w in a.awards if w.gli != "no"]
    gli = (
        "[bold red]GLI-11: possibly rarer than 1 in 100,000,000 rounds:[/] "
        + ", ".join(award_name(w, names) for w in rare)
        if rare
        else "GLI-11: every award is more frequent than 1 in 100,000,000 rounds"
    )
    return (
        f"[bold]{model.name}[/] variant {a.variant_id} - exact analysis, long run, per round "
        f"({model.line_count} lines, wins in multiples of the bet)",
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
        gli,
        rows(
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
        ),
        rows(
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
        ),
        band_text(
            [a.confidence_band(n) for n in CONFIDENCE_SPINS],
            "rounds",
            " (rounds are dependent)",
        ),
        "exact from per-reel tables, payline patterns, the ladder and meter chains and the "
        f"pots' renewal laws; {a.seconds:.1f} s",
    )


def simulation_report(name: str, result: Simulation, exact: dict[str, float]) -> LabReport:
    """``simulate``'s result, with the exact figures beside it (``name``: the title's name, for
    the heading)."""
    d = result.to_json()
    d["exact"] = exact
    band = d["rtp_ci95"]
    interval = (
        f" (95% CI {band[0]:.4%} - {band[1]:.4%})" if band else " (too few rounds for an interval)"
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


def _plots(a: LadderAnalysis, sample: dict[str, Any]) -> dict[str, str]:
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


def _sheet(a: LadderAnalysis, sample: dict[str, Any]) -> Sheet:
    """The PAR sheet of a variant (plots embedded)."""
    model = a.model
    rules = a.rules
    doc = analysis_document(a, sample)
    method = doc["method"]
    names = {s.id: s.name for s in model.symbols}
    plots = _plots(a, sample)
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
    return Sheet(
        title=f"{model.name} PAR sheet {a.variant_id}",
        heading=f"{model.name} - PAR sheet, variant {a.variant_id}",
        note=f"{model.line_count} paylines; wins in multiples of the bet (a line "
        f"bet is the bet / {model.line_count}). Every figure is {esc(PER_ROUND)}. Every figure "
        "is exact unless its method says otherwise; the round-win distribution alone is "
        "simulated, and says so.",
        sections=(
            Section("Summary", (rows(("figure", "value", "method"), summary, classes="text"),)),
            Section("Paytable", (gli, paytable)),
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
            Section(
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
            Section(
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
            strips_section(model, a.variant_id),
        ),
        closing=f"Computed in {a.seconds:.2f} s.",
    )
