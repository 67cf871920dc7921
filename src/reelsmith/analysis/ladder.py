"""The ladder-and-pots round's compact RTP route, and the simulation entry point of the ladder
kind (:data:`reelsmith.engine.title.LADDER_KIND`, which ``reelsmith simulate`` reaches through
the model's kind). Every size (reels, rows, paylines, levels, spins per level, spots, pots)
comes from the model through :class:`~reelsmith.engine.ladder.LadderRules`.

The complete analysis (second moments, hit frequencies, award probabilities, the pots' memory,
the confidence band) is the ladder's contribution to the one analyzer
(:mod:`reelsmith.analysis.analyzer`): :mod:`reelsmith.analysis.ladder_exact`, built on
:mod:`reelsmith.analysis.ladder_spin` (one spin) and :mod:`reelsmith.analysis.ladder_round`
(the round and the carried state). The compact route below is a second, independent
derivation of the RTP from first moments alone; both routes agree (a test checks it), and the
one simulation driver (:mod:`reelsmith.analysis.simulation`) starts a ladder model's rounds
from the carried meter's stationary law computed here.

The RTP figures here are computed, not sampled:

* **Cells.** For every reel and row, the distribution of the symbol the lines see is summed over
  every stop of the strip: the symbol itself, or, for a gem, its reveal (a symbol, a wild, the
  jackpot spin, which leaves the gem), or a wild when a gem elsewhere on the reel reveals a wild
  reel. A gem hits its pot's trigger with the long-run probability ``q = 2 / (K + 1)``: the
  number of gems from one reset to the next hit is uniform on ``1..K``, ``K = last - seed``
  (``last``, the largest pot a trigger point can be, is one bet below the cap).
* **Lines.** Reels stop independently and the pots of different reels evolve independently, so
  a payline's expected pay is a sum over symbol tuples of the product of per-reel cell
  probabilities, enumerated for each of the paylines (rows differ per line). On ways, the
  ways' own law on each reel's revealed windows
  (:func:`reelsmith.analysis.ladder_window.mean_pay`).
* **Jackpots.** By the renewal-reward theorem each gem on reel *i* returns, in the long run,
  ``1 + seed_i x q_i`` bets (its own contribution plus its share of the seed).
* **Free spins.** A Markov chain over (level, spins left, meter, highest unlocked level) gives,
  for each starting meter, the expected sum of multipliers over the spins played, the expected
  number of spins and the distribution of the meter carried back. The carried meter is itself
  a Markov chain over main-game spins; its stationary distribution weights the free spins'
  value.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from reelsmith.analysis.ladder_spin import jackpot_hit_probability
from reelsmith.engine.features.ladder_steps import advance, collect, fill_spot, start_ladder
from reelsmith.engine.ladder import WILD_REEL, LadderRules, ladder_rules
from reelsmith.engine.lines import line_award
from reelsmith.engine.model import GameModel, ReelSet


def cell_distributions(
    rules: LadderRules, reel_set: ReelSet, weights: dict[str, int]
) -> npt.NDArray[np.float64]:
    """``dist[reel, row, symbol]``: probability that the lines see ``symbol`` at that cell."""
    model = rules.model
    n_symbols = len(model.symbols)
    total_weight = sum(weights.values())
    wild_reel_p = weights.get(WILD_REEL, 0) / total_weight
    dist = np.zeros((model.reels, model.rows, n_symbols))
    for reel in range(model.reels):
        jackpot = rules.jackpots[reel]
        q = jackpot_hit_probability(jackpot)
        length = int(reel_set.lengths[reel])
        for stop in range(length):
            window = [int(reel_set.padded[reel, stop + row]) for row in range(model.rows)]
            gem_rows = [row for row, s in enumerate(window) if s == rules.gem]
            if not gem_rows:
                for row, symbol in enumerate(window):
                    dist[reel, row, symbol] += 1.0
                continue
            (gem_row,) = gem_rows  # strips never show two gems on a reel
            for row, symbol in enumerate(window):
                if row == gem_row:
                    dist[reel, row, rules.gem] += q
                    for outcome, weight in weights.items():
                        target = model.wild if outcome == WILD_REEL else model.symbol_index(outcome)
                        dist[reel, row, target] += (1 - q) * weight / total_weight
                else:
                    dist[reel, row, model.wild] += (1 - q) * wild_reel_p
                    dist[reel, row, symbol] += 1 - (1 - q) * wild_reel_p
        dist[reel] /= length
    return dist


@njit(cache=True)
def _line_expectation(
    dists: npt.NDArray[np.float64],
    line_pays: npt.NDArray[np.int64],
    wild: int,
    substitutable: npt.NDArray[np.bool_],
    wild_multiplier: int,
    ties_to_wild: bool,
    awards: npt.NDArray[np.float64],
) -> float:
    """Expected pay of one line whose reel ``r`` cell has distribution ``dists[r]``, by the one
    line rule (:func:`~reelsmith.engine.lines.line_award`); adds each award's probability to
    ``awards[symbol, count]``."""
    reels, n_symbols = dists.shape
    digits = np.zeros(reels, dtype=np.int64)
    cells = np.empty(reels, dtype=np.int8)
    expected = 0.0
    while True:
        p = 1.0
        for reel in range(reels):
            p *= dists[reel, digits[reel]]
            if p == 0.0:
                break
        if p > 0.0:
            for reel in range(reels):
                cells[reel] = digits[reel]
            symbol, count, pay = line_award(
                cells, line_pays, wild, substitutable, wild_multiplier, ties_to_wild
            )
            if symbol >= 0:
                awards[symbol, count] += p
                expected += p * pay
        reel = reels - 1
        while reel >= 0:
            digits[reel] += 1
            if digits[reel] < n_symbols:
                break
            digits[reel] = 0
            reel -= 1
        if reel < 0:
            return expected


def line_value(
    rules: LadderRules, dist: npt.NDArray[np.float64]
) -> tuple[float, npt.NDArray[np.float64]]:
    """Expected line pay per spin in bets (every payline, 1 line bet each), and per-award
    expected hits per spin summed over the lines."""
    model = rules.model
    awards = np.zeros((len(model.symbols), model.reels + 1))
    total = 0.0
    for line in model.paylines:
        dists = np.stack([dist[reel, int(line[reel])] for reel in range(model.reels)])
        total += _line_expectation(
            dists,
            model.line_pays,
            model.wild,
            model.substitutable,
            model.wild_multiplier,
            model.ties_to_wild,
            awards,
        )
    return total / model.line_count, awards


def symbol_shown(model: GameModel, reel_set: ReelSet, symbol: int) -> npt.NDArray[np.float64]:
    """Per reel: probability that the window shows ``symbol`` (at most once by design)."""
    shown = np.zeros(model.reels)
    for reel in range(model.reels):
        length = int(reel_set.lengths[reel])
        hits = sum(
            1 for stop in range(length) if symbol in reel_set.padded[reel, stop : stop + model.rows]
        )
        shown[reel] = hits / length
    return shown


def count_distribution(per_reel: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Distribution of how many reels show the symbol, from independent per-reel chances."""
    dist = np.array([1.0])
    for p in per_reel:
        dist = np.convolve(dist, np.array([1 - p, p]))
    return dist


@dataclass(frozen=True)
class FreeSpinsChain:
    """For each starting meter: expected multiplier sum, expected spins, carried meter law."""

    multiplier_sum: npt.NDArray[np.float64]  # [start meter]
    spins: npt.NDArray[np.float64]  # [start meter]
    end_meter: npt.NDArray[np.float64]  # [start meter, end meter]
    level_reached: npt.NDArray[np.float64]  # [start meter, level - 1]: P(level is played)


def free_spins_chain(rules: LadderRules, bonus_law: npt.NDArray[np.float64]) -> FreeSpinsChain:
    spots, levels, per_level = rules.spots, rules.levels, rules.spins_per_level

    @cache
    def value(
        level: int, left: int, meter: int, unlocked: int
    ) -> tuple[float, float, tuple[float, ...], tuple[float, ...]]:
        mult = rules.multipliers[level - 1]
        m_sum, spins = 0.0, 0.0
        end = np.zeros(spots + 1)
        reached = np.zeros(levels)
        for bonus, p in enumerate(bonus_law):
            if p == 0.0:
                continue
            new_meter, new_unlocked = collect(meter, unlocked, bonus, spots, levels)
            m_sum += p * mult
            spins += p
            new_level, new_left, over = advance(level, left, new_unlocked, per_level)
            if over:
                end[new_meter] += p
                continue
            sub = value(new_level, new_left, new_meter, new_unlocked)
            if new_level > level:
                reached[level] += p
            m_sum += p * sub[0]
            spins += p * sub[1]
            end += p * np.array(sub[2])
            reached += p * np.array(sub[3])
        return m_sum, spins, tuple(end), tuple(reached)

    m_sums, spin_counts, ends, reached_all = [], [], [], []
    for start in range(spots + 1):
        unlocked, meter = start_ladder(start, spots)
        m_sum, spins, end, reached = value(1, per_level, meter, unlocked)
        reached_vec = np.array(reached)
        reached_vec[0] = 1.0
        m_sums.append(m_sum)
        spin_counts.append(spins)
        ends.append(end)
        reached_all.append(reached_vec)
    return FreeSpinsChain(
        np.array(m_sums), np.array(spin_counts), np.array(ends), np.array(reached_all)
    )


def meter_stationary(
    rules: LadderRules, base_bonus_law: npt.NDArray[np.float64], chain: FreeSpinsChain
) -> npt.NDArray[np.float64]:
    """Long-run distribution of the meter at the start of a main-game spin."""
    spots = rules.spots
    p_trigger = float(base_bonus_law[rules.trigger_count :].sum())
    p_spot = (
        float(base_bonus_law[rules.main_game_bonus_per_spot])
        if rules.main_game_bonus_per_spot < rules.trigger_count
        else 0.0
    )
    transition = np.zeros((spots + 1, spots + 1))
    for m in range(spots + 1):
        transition[m, m] += 1 - p_trigger - p_spot
        transition[m, fill_spot(m, spots)] += p_spot
        transition[m] += p_trigger * chain.end_meter[m]
    # solve pi (T - I) = 0 with sum(pi) = 1
    a = np.vstack([(transition - np.eye(spots + 1)).T, np.ones(spots + 1)])
    b = np.zeros(spots + 2)
    b[-1] = 1.0
    pi, *_ = np.linalg.lstsq(a, b, rcond=None)
    return np.asarray(pi)


@dataclass(frozen=True)
class LadderFigures:
    rtp: float
    base_line_rtp: float
    free_spins_line_rtp: float
    jackpot_rtp: float
    jackpot_rtp_by_pot: dict[str, float]
    free_spins_frequency: float
    expected_free_spins: float  # per trigger
    free_line_value: float  # expected line pay of one free spin, before the multiplier
    expected_multiplier_sum: float  # per trigger
    meter_distribution: list[float]
    gems_per_round: list[float]
    jackpot_hits_per_round: dict[str, float]
    level_reached: list[float]  # P(level is played | free spins)
    base_awards: npt.NDArray[np.float64]
    free_awards: npt.NDArray[np.float64]


def analyze(model: GameModel, variant_id: str | None = None) -> LadderFigures:
    rules = ladder_rules(model)
    variant = model.variant(variant_id)
    base = variant.reel_sets["base"]
    free = variant.reel_sets[rules.free_reel_set]
    reveal = rules.gem_reveal(variant)
    weights = dict(zip(reveal.outcomes, reveal.weights, strict=True))

    from reelsmith.analysis import ladder_window

    if ladder_window.on_window(model):
        # the ways' own law on the revealed columns; per-award hits are the full analysis'
        base_line = float(ladder_window.mean_pay(rules, base, weights, model.line_pays))
        free_line = float(ladder_window.mean_pay(rules, free, weights, model.line_pays))
        base_awards = free_awards = np.zeros((len(model.symbols), model.reels + 1))
    else:
        base_line, base_awards = line_value(rules, cell_distributions(rules, base, weights))
        free_line, free_awards = line_value(rules, cell_distributions(rules, free, weights))

    base_bonus = count_distribution(symbol_shown(model, base, rules.bonus))
    free_bonus = count_distribution(symbol_shown(model, free, rules.bonus))
    chain = free_spins_chain(rules, free_bonus)
    pi = meter_stationary(rules, base_bonus, chain)
    p_trigger = float(base_bonus[rules.trigger_count :].sum())
    mult_sum = float(pi @ chain.multiplier_sum)
    spins = float(pi @ chain.spins)
    free_spins_per_round = p_trigger * spins

    gems = symbol_shown(model, base, rules.gem) + free_spins_per_round * symbol_shown(
        model, free, rules.gem
    )
    by_pot, hits = {}, {}
    for reel, jackpot in enumerate(rules.jackpots):
        q = jackpot_hit_probability(jackpot)
        by_pot[jackpot.name] = float(gems[reel] * (1 + jackpot.seed * q))
        hits[jackpot.name] = float(gems[reel] * q)
    jackpot_rtp = sum(by_pot.values())
    free_line_rtp = p_trigger * free_line * mult_sum
    return LadderFigures(
        rtp=base_line + free_line_rtp + jackpot_rtp,
        base_line_rtp=base_line,
        free_spins_line_rtp=free_line_rtp,
        jackpot_rtp=jackpot_rtp,
        jackpot_rtp_by_pot=by_pot,
        free_spins_frequency=p_trigger,
        expected_free_spins=spins,
        free_line_value=free_line,
        expected_multiplier_sum=mult_sum,
        meter_distribution=[float(x) for x in pi],
        gems_per_round=[float(g) for g in gems],
        jackpot_hits_per_round=hits,
        level_reached=[float(x) for x in pi @ chain.level_reached],
        base_awards=base_awards,
        free_awards=free_awards,
    )


# ---------------------------------------------------------------------------------------
# Math-lab entry points (the ladder kind's lab part, see reelsmith.engine.title)
# ---------------------------------------------------------------------------------------


def exact_beside_simulation(model: GameModel, variant_id: str) -> dict[str, float]:
    """The exact figures ``simulate`` prints beside the simulated ones."""
    from reelsmith.analysis.ladder_exact import analyze_full

    a = analyze_full(model, variant_id)
    values = {
        "rtp": a.rtp,
        "main_game_lines": a.base_line_rtp,
        "free_spins_lines": a.free_line_rtp,
        "jackpots": a.jackpot_rtp,
        "hit_frequency": a.hit_frequency,
        "round_hit_frequency": a.round_hit_frequency,
        "free_spins_frequency": a.free_spins_frequency,
        "free_spins_per_trigger": a.free_spins_per_trigger,
        "std_dev": a.std_dev,
        "long_run_std_dev": math.sqrt(a.long_run_variance),
    }
    return {key: round(float(value), 10) for key, value in values.items()}


def simulate_title(
    game_id: str,
    spins: int,
    seed: int,
    *,
    variant_id: str | None = None,
    folder: Any = None,
    workers: int = 1,
    cluster: str | None = None,
    progress: Any = None,
) -> Any:
    """``reelsmith simulate``: a seeded simulation on the one kernel
    (:func:`reelsmith.analysis.simulation.simulate`), with the exact figures beside it."""
    from pathlib import Path

    from reelsmith.analysis.ladder_report import simulation_report
    from reelsmith.analysis.simulation import simulate
    from reelsmith.engine.model import load_model
    from reelsmith.games import load_game

    model = load_game(game_id) if folder is None else load_model(Path(folder))
    result = simulate(
        model,
        spins,
        seed,
        variant_id=variant_id,
        workers=workers,
        cluster=cluster,
        progress=progress,
    )
    return simulation_report(model.name, result, exact_beside_simulation(model, result.variant))
