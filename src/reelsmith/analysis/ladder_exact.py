"""The complete exact analysis of a ladder-and-pots variant: everything ``reelsmith analyze``
prints and the PAR sheet shows.

Figures are per unit bet and per round (one bet: the main-game spin and the free spins it
triggers) under the stationary law of the carried state (see
:mod:`reelsmith.analysis.ladder_round`). Each figure's method is stated in
:meth:`LadderAnalysis.methods`; where a figure is a bound or an approximation, it says so.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from reelsmith.analysis.ladder_round import RoundAnalysis, renewal, spin_moments
from reelsmith.analysis.ladder_spin import SpinFigures, build_columns, spin_figures
from reelsmith.analysis.volatility import Z_95, volatility_class
from reelsmith.engine.ladder import RULES_VERSION, LadderRules, ladder_rules
from reelsmith.engine.lines import evaluate_lines
from reelsmith.engine.model import GameModel

#: GLI-11: every advertised award must be hit more often than once in 100 million games.
GLI_MIN_PROBABILITY = 1e-8


@dataclass(frozen=True)
class MeterRow:
    """A round started with the carried meter at one value."""

    meter: int
    win: float  # E[X | meter]
    win_sq: float  # E[X^2 | meter] with independent gem outcomes (the memory term apart)
    transition: npt.NDArray[np.float64]  # P(next meter)
    win_next: npt.NDArray[np.float64]  # E[X 1{next meter}]
    free_start: int  # the ladder state a trigger starts in


@dataclass(frozen=True)
class AwardFigures:
    """One paytable award (a symbol, a count) and how often it shows."""

    symbol: str
    count: int
    pays: int  # line bets
    per_line_base: float
    per_line_free: float
    lines_per_base_spin: float  # expected paylines showing it
    lines_per_free_spin: float
    base_spin_low: float  # P(on at least one payline of a main spin): Bonferroni bounds
    base_spin_high: float
    per_round: float  # expected occurrences per round (main spin and free spins)
    round_low: float  # P(at least once in a round): bounds
    round_high: float
    base_rtp: float
    free_rtp_by_level: tuple[float, ...]

    @property
    def free_rtp(self) -> float:
        return float(sum(self.free_rtp_by_level))

    @property
    def rtp(self) -> float:
        return self.base_rtp + self.free_rtp

    @property
    def gli(self) -> str:
        """ "no" (certainly not rarer than the GLI-11 limit), "yes", or "undetermined"."""
        if self.round_low >= GLI_MIN_PROBABILITY:
            return "no"
        if self.round_high < GLI_MIN_PROBABILITY:
            return "yes"
        return "undetermined"


@dataclass(frozen=True)
class PotFigures:
    name: str
    reel: int
    seed: int
    cap: int  # the help page's "must be won before" value
    last_trigger: int  # the largest pot it is won at (one bet below the cap)
    gems_per_round: float
    hits_per_round: float
    mean_award: float  # bets
    rtp: float

    @property
    def hit_probability(self) -> float:
        """Long-run share of this pot's gems that hit."""
        return 2.0 / (self.last_trigger - self.seed + 1)


@dataclass(frozen=True)
class LadderAnalysis:
    model: GameModel
    variant_id: str
    rules: LadderRules
    base: SpinFigures
    free: SpinFigures
    round: RoundAnalysis
    meter: npt.NDArray[np.float64]  # stationary law of the meter at a round's start
    rows: tuple[MeterRow, ...]
    rtp: float
    second_moment: float
    base_line_rtp: float
    free_line_rtp_by_level: tuple[float, ...]
    pots: tuple[PotFigures, ...]
    free_spins_frequency: float
    free_spins_per_trigger: float
    level_reached: tuple[float, ...]
    multiplier_sum_per_trigger: float
    hit_frequency: float  # main spin: a line win or a jackpot
    round_hit_frequency: float
    awards: tuple[AwardFigures, ...]
    max_win: dict[str, Any]
    meter_autocovariance: npt.NDArray[np.float64]  # [lag]: Cov(A_0, A_lag) through the meter
    pot_covariance: tuple[tuple[float, float, float, npt.NDArray[np.float64]], ...]
    memory: float  # the pots' memory term of the second moment (exact part)
    memory_pairs: float  # its two-reel part
    memory_bound: float  # bound on the omitted three-or-more-reel terms
    no_win_bound: float
    seconds: float

    # -- the report (analyze's JSON, text and PAR sheet) ----------------------------------
    def document(self) -> dict[str, Any]:
        """``analyze --json`` of the ladder round, without the simulated sample."""
        from reelsmith.analysis.analysis_report import ladder_document

        found: dict[str, Any] = ladder_document(self, None)
        return found

    def lab_report(self) -> Any:
        """``analyze``'s report: the exact figures, and the round-win distribution sampled
        (labelled as simulated)."""
        from reelsmith.analysis.analysis_report import ladder_report

        return ladder_report(self)

    # -- the headline figures ------------------------------------------------------------
    @property
    def free_line_rtp(self) -> float:
        return float(sum(self.free_line_rtp_by_level))

    @property
    def jackpot_rtp(self) -> float:
        return float(sum(p.rtp for p in self.pots))

    @property
    def variance(self) -> float:
        return self.second_moment - self.rtp * self.rtp

    @property
    def std_dev(self) -> float:
        return math.sqrt(self.variance)

    def volatility_index(self, z: float) -> float:
        return z * self.std_dev

    @property
    def volatility(self) -> str:
        return volatility_class(self.std_dev)

    @property
    def rare_awards(self) -> list[str]:
        """The awards possibly rarer than GLI-11 allows (once in 100,000,000 rounds: the
        lower bound of the probability per round below it, or undecided), named
        ``count x symbol``: a variant with any is not shipped."""
        return [f"{w.count} x {w.symbol}" for w in self.awards if w.gli != "no"]

    # -- dependence between rounds -----------------------------------------------------
    def sum_variance(self, n: int) -> float:
        """Var(sum of the wins of n consecutive rounds) from the stationary law.

        Exact parts: n x the per-round variance, and the covariance through the carried
        meter (the 6-state chain; its tail beyond the computed lags is below 1e-15).
        Approximate part: the covariance the pots add between *different* rounds, taken in
        each pot's gem count at its long-run gem rate (``n g_i`` gems), each gem's effect on
        the line pay at its long-run mean; the within-round part is the exact one already in
        the per-round variance and is subtracted from the gem-count figure."""
        sigma2 = self.variance
        cov = self.meter_autocovariance
        lags = np.arange(1, min(n, cov.shape[0]))
        meter_cross = 2 * float(((n - lags) * cov[lags]).sum())
        pots = 0.0
        for gems, _c_bar, within, cov in self.pot_covariance:
            big_n = n * gems
            d = np.arange(1, cov.shape[0])
            inside = d < big_n
            pots += 2 * float(((big_n - d[inside]) * cov[1:][inside]).sum()) - n * within
        return max(n * sigma2 + meter_cross + pots, 0.0)

    @property
    def long_run_variance(self) -> float:
        """lim Var(sum of n rounds) / n (same parts as :meth:`sum_variance`)."""
        c_sum = float(self.meter_autocovariance[1:].sum())
        pots = sum(2 * gems * float(cov[1:].sum()) - within for gems, _, within, cov in
                   self.pot_covariance)  # fmt: skip
        return self.variance + 2 * c_sum + pots

    def confidence_band(self, spins: int, z: float = Z_95) -> tuple[float, float]:
        half = z * math.sqrt(self.sum_variance(spins)) / spins
        return self.rtp - half, self.rtp + half

    def naive_band(self, spins: int, z: float = Z_95) -> tuple[float, float]:
        """The band if rounds were independent (for comparison only)."""
        half = z * self.std_dev / math.sqrt(spins)
        return self.rtp - half, self.rtp + half


def _stationary(transition: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    size = transition.shape[0]
    a = np.vstack([(transition - np.eye(size)).T, np.ones(size)])
    b = np.zeros(size + 1)
    b[-1] = 1.0
    pi, *_ = np.linalg.lstsq(a, b, rcond=None)
    return np.asarray(pi)


def _meter_autocovariance(
    rows: tuple[MeterRow, ...], pi: npt.NDArray[np.float64], mu: float
) -> npt.NDArray[np.float64]:
    """``cov[l] = Cov(A_0, A_l)`` for l >= 1 (``cov[0]`` unused), ``A = E[X | reel stops]``:
    the covariance of round wins through the meter chain, until the terms fall below 1e-18.
    ``E[(A_0 - mu) A_l] = w P^(l-1) (E[X | meter] - mu)`` with ``w[m'] = E[(A_0 - mu)
    1{next meter = m'}]``, and ``E[A 1{next}] = E[X 1{next}]`` (the meter depends on the stops
    only)."""
    transition = np.array([r.transition for r in rows])
    a = np.array([r.win for r in rows]) - mu
    w = sum(pi[r.meter] * (r.win_next - mu * r.transition) for r in rows)
    v = a.copy()
    out = [0.0]
    for lag in range(1, 1_000_000):
        term = float(w @ v)
        out.append(term)
        if lag > 50 and abs(term) < 1e-18:
            break
        v = transition @ v
    return np.array(out)


def _pot_covariance(
    analysis_round: RoundAnalysis, gems: float, beta_sum: float, within: float, index: int
) -> tuple[float, float, float, npt.NDArray[np.float64]]:
    """Per pot: gems per round, mean line effect per gem, the exact within-round memory term
    (per round) and the covariance of per-gem payouts by gap (gem count)."""
    pot = analysis_round.pots[index]
    c_bar = beta_sum / gems if gems else 0.0
    # u(d) - q falls by about a factor 100 every K gems; beyond 20 K it is below 1e-12 q
    # (the floor of double-precision running sums), and the covariances are truncated there.
    long = renewal(pot.seed, pot.last, 20 * pot.k + 100)
    q, mean = long.q, long.mean_award
    chh = q * (long.u - q)
    chha = q * long.r - q * q * mean
    chah = q * mean * (long.u - q)
    chaha = q * mean * (long.r - q * mean)
    cov = chaha + c_bar * (chah + chha) + c_bar * c_bar * chh
    cov[0] = 0.0
    return gems, c_bar, within, cov


def _meter_rows(rnd: RoundAnalysis) -> list[MeterRow]:
    """Per carried meter: the round's moments and the next meter's law."""
    rules, base = rnd.rules, rnd.base
    ladder, graph, fm = rnd.ladder, rnd.graph, rnd.free_moments
    trigger = rules.trigger_count
    spots = rules.spots
    p_trigger = rnd.p_trigger
    t1, t2 = spin_moments(base, 1.0)
    t1_trigger = float(t1[trigger:].sum())
    rows = []
    for meter in range(spots + 1):
        s = int(graph.starts[meter])
        win = float(t1.sum()) + p_trigger * fm.win[s]
        win_sq = float(t2.sum()) + 2 * t1_trigger * fm.win[s] + p_trigger * fm.win_sq[s]
        transition = np.zeros(spots + 1)
        win_next = np.zeros(spots + 1)
        for b in range(trigger):
            after = ladder.main_meter(meter, b)
            transition[after] += base.probability[b]
            win_next[after] += t1[b]
        transition += p_trigger * fm.end_meter[s]
        win_next += t1_trigger * fm.end_meter[s] + p_trigger * fm.win_end[s]
        rows.append(MeterRow(meter, win, win_sq, transition, win_next, s))
    return rows


def _round_analysis(
    model: GameModel, variant_id: str | None, second_moments: bool, rules_version: int
) -> tuple[RoundAnalysis, dict[str, int], str]:
    rules = ladder_rules(model, rules_version)
    variant = rules.variant(variant_id)
    reveal_table = rules.gem_reveal(variant)
    reveal = dict(zip(reveal_table.outcomes, reveal_table.weights, strict=True))
    base = spin_figures(
        rules, variant.reel_sets["base"], reveal, name="base", second_moments=second_moments
    )
    free = spin_figures(
        rules,
        variant.reel_sets[rules.free_reel_set],
        reveal,
        name="free",
        second_moments=second_moments,
    )
    return RoundAnalysis(rules, base, free), reveal, variant.id


@dataclass(frozen=True)
class RtpParts:
    """The parts of the RTP the tuner needs, from first moments only (fast): line pays of a
    main spin and of a free spin (before multipliers), what a free spin's line pay is worth
    per round, the jackpots, and each pot's hits per round."""

    base_line: float
    free_line: float
    free_scale: float  # trigger probability x expected multiplier sum per trigger
    jackpot_rtp: float
    pot_hits: tuple[float, ...]
    pot_award_second_moments: tuple[float, ...]

    @property
    def rtp(self) -> float:
        return self.base_line + self.free_scale * self.free_line + self.jackpot_rtp

    @property
    def std_dev_floor(self) -> float:
        """No variant with these gems and pots has a lower standard deviation: the round's
        win is at least its jackpots, so ``E[X^2] >= sum_i hits_i E[a_i^2]``."""
        second = sum(h * m for h, m in zip(self.pot_hits, self.pot_award_second_moments,
                                           strict=True))  # fmt: skip
        return math.sqrt(max(second - self.rtp**2, 0.0))


def rtp_parts(
    model: GameModel, variant_id: str | None = None, rules_version: int = RULES_VERSION
) -> RtpParts:
    rnd, _, _ = _round_analysis(model, variant_id, False, rules_version)
    rows = _meter_rows(rnd)
    pi = _stationary(np.array([r.transition for r in rows]))
    fm = rnd.free_moments
    starts = [r.free_start for r in rows]
    mult_sum = float(sum(pi[m] * fm.multiplier_sum[s] for m, s in enumerate(starts)))
    gems_free = sum(pi[m] * fm.gems[s] for m, s in enumerate(starts))
    hits = []
    jackpot = 0.0
    for i, pot in enumerate(rnd.pots):
        gems = float(rnd.base.gem[i].sum()) + rnd.p_trigger * float(gems_free[i])
        hits.append(gems * pot.q)
        jackpot += gems * float(rnd.kappa[i])
    return RtpParts(
        base_line=float(rnd.base.line.sum()),
        free_line=float(rnd.free.line.sum()),
        free_scale=rnd.p_trigger * mult_sum,
        jackpot_rtp=jackpot,
        pot_hits=tuple(hits),
        pot_award_second_moments=tuple(p.award_second_moment for p in rnd.pots),
    )


def analyze_full(
    model: GameModel, variant_id: str | None = None, rules_version: int = RULES_VERSION
) -> LadderAnalysis:
    """Every exact figure of a variant from its strips, reveal weights and the rules (of
    ``rules_version``: the current rules unless the strips kept for an earlier version are
    checked)."""
    started = time.perf_counter()
    rnd, reveal, variant_id = _round_analysis(model, variant_id, True, rules_version)
    rules = rnd.rules
    variant = rules.variant(variant_id)
    base, free = rnd.base, rnd.free
    fm = rnd.free_moments
    reels = model.reels
    p_trigger = rnd.p_trigger
    rows = _meter_rows(rnd)
    pi = _stationary(np.array([r.transition for r in rows]))
    rtp = float(sum(pi[r.meter] * r.win for r in rows))
    memory, memory_per_reel, memory_pairs = rnd.memory_correction(pi)
    second = float(sum(pi[r.meter] * r.win_sq for r in rows)) + memory

    starts = [r.free_start for r in rows]

    def averaged(values: npt.NDArray[np.float64]) -> Any:
        """A per-state quantity at the free spins' start, averaged over the carried meter."""
        return sum(pi[m] * values[s] for m, s in enumerate(starts))

    level_spins = averaged(fm.level_spins)  # per trigger
    spins_per_trigger = float(averaged(fm.spins))
    level_reached = tuple(float(x) / rules.spins_per_level for x in level_spins)
    free_line = float(free.line.sum())
    free_by_level = tuple(
        p_trigger * float(level_spins[lv]) * rules.multipliers[lv] * free_line
        for lv in range(rules.levels)
    )
    gems_free = averaged(fm.gems)
    beta_free = averaged(fm.beta_sum)
    pots = []
    pot_cov = []
    for i, jackpot in enumerate(rules.jackpots):
        gems = float(base.gem[i].sum()) + p_trigger * float(gems_free[i])
        pot = rnd.pots[i]
        pots.append(
            PotFigures(
                name=jackpot.name,
                reel=i + 1,
                seed=jackpot.seed,
                cap=jackpot.cap,
                last_trigger=jackpot.last_trigger,
                gems_per_round=gems,
                hits_per_round=gems * pot.q,
                mean_award=pot.mean_award,
                rtp=float(gems * rnd.kappa[i]),
            )
        )
        beta_sum = float(base.beta[i].sum()) + p_trigger * float(beta_free[i])
        pot_cov.append(_pot_covariance(rnd, gems, beta_sum, float(memory_per_reel[i]), i))

    q = [p.q for p in rnd.pots]
    main_no_win = 0.0
    for pattern in range(base.no_win_non_hit.shape[0]):
        factor = math.prod(1 - q[r] for r in range(reels) if pattern >> r & 1)
        main_no_win += float(base.no_win_non_hit[pattern].sum()) * factor
    round_no_win, no_win_bound = rnd.no_win(pi)

    awards = _awards(model, rules, base, free, p_trigger, level_spins, spins_per_trigger)
    return LadderAnalysis(
        model=model,
        variant_id=variant.id,
        rules=rules,
        base=base,
        free=free,
        round=rnd,
        meter=pi,
        rows=tuple(rows),
        rtp=rtp,
        second_moment=second,
        base_line_rtp=float(base.line.sum()),
        free_line_rtp_by_level=free_by_level,
        pots=tuple(pots),
        free_spins_frequency=p_trigger,
        free_spins_per_trigger=spins_per_trigger,
        level_reached=level_reached,
        multiplier_sum_per_trigger=float(averaged(fm.multiplier_sum)),
        hit_frequency=1 - main_no_win,
        round_hit_frequency=1 - round_no_win,
        awards=awards,
        max_win=(
            _max_win(model, rules, variant.reel_sets, reveal)
            if base.max_win is None
            else _window_max_win(rules, base, free)
        ),
        meter_autocovariance=_meter_autocovariance(tuple(rows), pi, rtp),
        pot_covariance=tuple(pot_cov),
        memory=memory,
        memory_pairs=memory_pairs,
        memory_bound=rnd.omitted_bound(),
        no_win_bound=no_win_bound,
        seconds=time.perf_counter() - started,
    )


def _awards(
    model: GameModel,
    rules: LadderRules,
    base: SpinFigures,
    free: SpinFigures,
    p_trigger: float,
    level_spins: npt.NDArray[np.float64],
    spins_per_trigger: float,
) -> tuple[AwardFigures, ...]:
    from reelsmith.analysis.ladder_spin import line_patterns

    lines = rules.lines
    keys = base.award_keys if base.award_keys is not None else line_patterns(model).awards
    out = []
    for a, (symbol, count) in enumerate(keys):
        pay = int(model.line_pays[symbol, count])
        n_base = float(base.awards[a].sum())
        n_free = float(free.awards[a].sum())
        # what the award pays in a spin, in coins: its pay on each line showing it, or (ways)
        # its pay by the ways it shows
        pay_base = pay * n_base if base.award_pay is None else float(base.award_pay[a].sum())
        pay_free = pay * n_free if free.award_pay is None else float(free.award_pay[a].sum())
        pairs_base = float(base.award_pairs[a].sum())
        per_round = n_base + p_trigger * spins_per_trigger * n_free
        base_low = max(n_base - pairs_base / 2, float(base.award_line[a]))
        out.append(
            AwardFigures(
                symbol=model.symbol_id(symbol),
                count=count,
                pays=pay,
                per_line_base=float(base.award_line[a]),
                per_line_free=float(free.award_line[a]),
                lines_per_base_spin=n_base,
                lines_per_free_spin=n_free,
                base_spin_low=base_low,
                base_spin_high=min(n_base, 1.0),
                per_round=per_round,
                round_low=base_low,
                round_high=min(per_round, 1.0),
                base_rtp=pay_base / lines,
                free_rtp_by_level=tuple(
                    p_trigger * float(level_spins[lv]) * rules.multipliers[lv] * pay_free / lines
                    for lv in range(rules.levels)
                ),
            )
        )
    return tuple(out)


def _max_win(
    model: GameModel, rules: LadderRules, reel_sets: Any, reveal: dict[str, int]
) -> dict[str, Any]:
    """The largest win of one spin (main game; a free spin at each level), exactly.

    Turning a cell into the wild never lowers a line's pay when the wild pays at least as
    much as every symbol for each count and pays grow with the count (checked); so a reel
    whose gem can reveal a wild reel is best either all wild or showing its gem as the
    jackpot spin. The largest spin win is found among those choices (every gem position).
    On ways, every screen was played by the spin figures (:func:`_window_max_win`)."""
    wild = model.wild
    pays = model.line_pays
    monotone = all(
        pays[wild, c] >= pays[s, c] for s in range(pays.shape[0]) for c in range(pays.shape[1])
    ) and all(
        pays[s, c] <= pays[s, c + 1] for s in range(pays.shape[0]) for c in range(pays.shape[1] - 1)
    )
    out: dict[str, Any] = {}
    lines = model.line_count
    for name, key in (("base", "main_spin"), (rules.free_reel_set, "free_spin")):
        columns = build_columns(rules, reel_sets[name], reveal)
        candidates: list[list[tuple[np.ndarray, int]]] = []
        for reel in range(model.reels):
            n = int(columns.count[reel])
            options: list[tuple[np.ndarray, int]] = []
            all_wild = bool(columns.wild_reel[reel, :n].any())
            for v in range(n):
                if columns.prob[reel, v] <= 0:
                    continue
                if columns.hit[reel, v]:
                    options.append((columns.cells[reel, v], rules.jackpots[reel].last_trigger))
                elif not (monotone and all_wild):
                    options.append((columns.cells[reel, v], 0))
            if monotone and all_wild:
                options.append((np.full(model.rows, wild, dtype=np.int8), 0))
            unique = {(tuple(int(c) for c in cells), jp): (cells, jp) for cells, jp in options}
            candidates.append(list(unique.values()))
        size = math.prod(len(c) for c in candidates)
        if size > 2_000_000:
            out[key] = None
            continue
        best_line, best_total = 0, 0.0
        grid = np.zeros((model.rows, model.reels), dtype=np.int8)
        sym = np.empty(lines, dtype=np.int64)
        cnt = np.empty(lines, dtype=np.int64)
        pay = np.empty(lines, dtype=np.int64)
        for combo in np.ndindex(*(len(c) for c in candidates)):
            jackpots = 0
            for reel, index in enumerate(combo):
                cells, jp = candidates[reel][index]
                grid[:, reel] = cells
                jackpots += jp
            evaluate_lines(
                grid, model.paylines, lines, model.line_pays, wild, model.substitutable,
                1, True, sym, cnt, pay,
            )  # fmt: skip
            line_pay = int(pay.sum())
            best_line = max(best_line, line_pay)
            if key == "main_spin":
                best_total = max(best_total, line_pay / lines + jackpots)
            else:
                best_total = max(best_total, line_pay * max(rules.multipliers) / lines + jackpots)
        out[key] = {"line_pay_x_bet": best_line / lines, "with_jackpots_x_bet": best_total}
    spins = rules.levels * rules.spins_per_level
    if out.get("main_spin") and out.get("free_spin"):
        free_line = out["free_spin"]["line_pay_x_bet"]
        largest = sum(j.last_trigger for j in rules.jackpots)
        extra = sum((spins) * (j.seed + spins + 1) for j in rules.jackpots)
        bound = (
            out["main_spin"]["line_pay_x_bet"]
            + free_line * rules.spins_per_level * sum(rules.multipliers)
            + largest
            + extra
        )
        out["round_bound_x_bet"] = bound
    return out


def _window_max_win(rules: LadderRules, base: SpinFigures, free: SpinFigures) -> dict[str, Any]:
    """The largest win of one spin on ways (main game; a free spin at the highest level's
    multiplier), from every screen the spin figures played (:attr:`SpinFigures.max_win`)."""
    assert base.max_win is not None and free.max_win is not None
    out: dict[str, Any] = {
        "main_spin": {
            "line_pay_x_bet": base.max_win["line_pay_x_bet"],
            "with_jackpots_x_bet": base.max_win["with_jackpots_x_bet"],
        },
        "free_spin": {
            "line_pay_x_bet": free.max_win["line_pay_x_bet"],
            "with_jackpots_x_bet": free.max_win["multiplied_with_jackpots_x_bet"],
        },
    }
    spins = rules.levels * rules.spins_per_level
    largest = sum(j.last_trigger for j in rules.jackpots)
    extra = sum(spins * (j.seed + spins + 1) for j in rules.jackpots)
    out["round_bound_x_bet"] = (
        out["main_spin"]["line_pay_x_bet"]
        + out["free_spin"]["line_pay_x_bet"] * rules.spins_per_level * sum(rules.multipliers)
        + largest
        + extra
    )
    return out


def stored_figures(a: LadderAnalysis) -> dict[str, float]:
    """The figures stored beside a variant's strips (10 decimal places), which a test
    re-derives from the strips."""
    values = {
        "rtp": a.rtp,
        "base_line_rtp": a.base_line_rtp,
        "free_spins_line_rtp": a.free_line_rtp,
        "jackpot_rtp": a.jackpot_rtp,
        "free_spins_frequency": a.free_spins_frequency,
        "expected_free_spins_per_trigger": a.free_spins_per_trigger,
        "expected_multiplier_sum_per_trigger": a.multiplier_sum_per_trigger,
        "hit_frequency": a.hit_frequency,
        "round_hit_frequency": a.round_hit_frequency,
        "std_dev": a.std_dev,
    }
    return {key: round(float(value), 10) for key, value in values.items()}
