"""One spin of the ladder and its pots on an evaluator that pays the whole window (ways), exactly.

On paylines the ladder's spin law is a sum over line patterns of per-reel tables
(:mod:`reelsmith.analysis.ladder_spin`). A ways screen pays every symbol's run at once, by the
product of the reels' counts, so the figures here read the ways evaluator's own law instead:

* **Columns.** As on paylines, every reel's (stop, gem outcome) pairs are its *columns*
  (:func:`~reelsmith.analysis.ladder_spin.build_columns`): the window the evaluator reads after
  the gem's reveal, its probability under the pots' long-run law (a gem hits its trigger point
  with probability ``q = 2 / (K + 1)``) and its tags (a bonus symbol, a gem, a hit). The reels'
  columns are independent, in the long run, as the module of the paylines' route explains.
* **First moment.** The expected pay of a screen is the ways rule's law on the columns
  (:func:`reelsmith.mechanics.ways.exact.laws_mean_pay`: a product of per-reel expectations),
  with the columns' probabilities as whole weights (:func:`column_laws`), exact as a fraction:
  the compact RTP route (:mod:`reelsmith.analysis.ladder`) reads it.
* **Everything else.** The full analysis needs, per bonus count, second moments, the pay
  jointly with each pot's hit, the no-win law and each award's odds: every combination of
  columns is played by the ways rule itself
  (:func:`reelsmith.mechanics.ways.rules.ways_pay_counts`, the function live play and the
  kernel pay with) and its figures summed (:func:`spin_figures`). That is an enumeration of the
  product of the reels' column counts, which :data:`MAX_SCREENS` bounds: a larger model is
  refused by ``reelsmith validate`` (:func:`problems`), never analysed in part.

Pays are in bets (coins at one coin per unit over the ways' cost) as the paylines' route gives
them in bets.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from reelsmith.analysis.ladder_spin import (
    NON_HIT,
    STATIONARY,
    Columns,
    SpinFigures,
    build_columns,
    jackpot_hit_probability,
)
from reelsmith.engine.ladder import WILD_REEL, LadderRules
from reelsmith.engine.model import GameModel, ModelError, ReelSet
from reelsmith.mechanics.ways.rules import ways_pay_counts

#: The most column combinations (screens after the gems' reveals) of one reel set the full
#: analysis of a ladder on ways plays; a model with more is refused by name.
MAX_SCREENS = 4_000_000
#: The mechanics that change the window, its screens or the round's pay, which the ladder's
#: figures on ways do not play: a model of the ladder on ways with one is refused by name.
UNPLAYED_ON_WAYS = frozenset(
    {"heights", "cascade", "mystery", "hold_and_spin", "modes", "max_win", "anywhere"}
)


def on_window(model: GameModel) -> bool:
    """Whether ``model``'s evaluator pays the whole window (ways) rather than paylines."""
    from reelsmith.mechanics import evaluator

    return evaluator(model).name != "paylines"


def problems(model: GameModel) -> list[str]:
    """Why the ladder cannot be played on ``model``'s evaluator (none: it can): the ladder
    plays paylines or ways with fixed wild weights, and the full analysis of a ladder on ways
    enumerates every column combination of each reel set (at most :data:`MAX_SCREENS`)."""
    from reelsmith.engine.ladder import ladder_rules
    from reelsmith.mechanics import evaluator

    where = str(model.source or model.id)
    name = evaluator(model).name
    if name == "paylines":
        return []
    if name != "ways":
        return [f"{where}: ladder and {name}: the ladder plays paylines or ways, not {name}"]
    from reelsmith.mechanics import declared_names
    from reelsmith.mechanics.ways.rules import ways_rules

    unplayed = sorted(declared_names(model) & UNPLAYED_ON_WAYS)
    if unplayed:
        return [
            f"{where}: ladder on ways and {', '.join(unplayed)}: the ladder's exact analysis and "
            "kernel on ways read every screen of the reels' fixed window, paid once"
        ]
    try:
        if ways_rules(model).free_weights:
            return [
                f"{where}: ladder and ways.free_spins_wild_weights: the ladder's free spins "
                "play the ways' fixed wild weights (its kernel and exact analysis draw none)"
            ]
        rules = ladder_rules(model)
    except ModelError:
        return []  # the ways' and the ladder's own checks name it
    found = []
    for variant_id, variant in model.variants.items():
        reveal = rules.gem_reveal(variant)
        weights = dict(zip(reveal.outcomes, reveal.weights, strict=True))
        for set_name in ("base", rules.free_reel_set):
            columns = build_columns(rules, variant.reel_sets[set_name], weights)
            screens = math.prod(int(n) for n in columns.count)
            if screens > MAX_SCREENS:
                found.append(
                    f"{where}: variant {variant_id} reel set {set_name}: "
                    f"{screens:,} screens after the gems' reveals; the exact analysis of a "
                    f"ladder on ways plays at most {MAX_SCREENS:,}"
                )
    return found


# ---------------------------------------------------------------------------------------
# The first moment: the ways' law on the columns
# ---------------------------------------------------------------------------------------


def column_laws(
    rules: LadderRules, reel_set: ReelSet, reveal: dict[str, int]
) -> list[tuple[npt.NDArray[np.int8], npt.NDArray[np.int64], int]]:
    """Per reel, its columns under the pots' long-run law with whole weights: ``(windows[v,
    row], weight[v], total)``. A stop without a gem weighs ``(K + 1) x T`` (``T`` the reveal
    weights' total, ``K`` the pot's trigger points); a gem's jackpot spin ``2 x T`` (``q = 2 /
    (K + 1)``), each other outcome ``(K - 1) x`` its weight."""
    model = rules.model
    total_reveal = sum(reveal.values())
    out = []
    for reel in range(model.reels):
        k = rules.jackpots[reel].trigger_span
        length = int(reel_set.lengths[reel])
        windows: list[list[int]] = []
        weights: list[int] = []
        for stop in range(length):
            window = [int(reel_set.padded[reel, stop + row]) for row in range(model.rows)]
            if rules.gem not in window:
                windows.append(window)
                weights.append((k + 1) * total_reveal)
                continue
            gem_row = window.index(rules.gem)
            windows.append(window)
            weights.append(2 * total_reveal)
            for outcome, weight in reveal.items():
                if weight == 0 or k == 1:
                    continue
                if outcome == WILD_REEL:
                    revealed = [model.wild] * model.rows
                else:
                    revealed = list(window)
                    revealed[gem_row] = model.symbol_index(outcome)
                windows.append(revealed)
                weights.append((k - 1) * weight)
        out.append(
            (
                np.array(windows, dtype=np.int8),
                np.array(weights, dtype=np.int64),
                length * (k + 1) * total_reveal,
            )
        )
    return out


def mean_pay(rules: LadderRules, reel_set: ReelSet, reveal: dict[str, int], pays: Any) -> Fraction:
    """The expected pay of one screen of ``reel_set`` in bets (before a level's multiplier),
    the gems revealed under the pots' long-run law: the ways evaluator's law on the columns."""
    from reelsmith.mechanics import evaluation

    model = rules.model
    face = evaluation(model)
    laws = [
        (face.window_counts(model, windows), weights, total)
        for windows, weights, total in column_laws(rules, reel_set, reveal)
    ]
    return Fraction(face.laws_mean_pay(model, laws, pays)) / rules.lines


# ---------------------------------------------------------------------------------------
# Every figure: every column combination played by the ways rule
# ---------------------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def _play_screens(
    counts: npt.NDArray[np.int64],
    wilds: npt.NDArray[np.int64],
    prob: npt.NDArray[np.float64],
    bonus: npt.NDArray[np.int64],
    gem: npt.NDArray[np.int64],
    hit: npt.NDArray[np.int64],
    n_columns: npt.NDArray[np.int64],
    pays: npt.NDArray[np.int64],
    paying: npt.NDArray[np.int64],
    wild: int,
    substitutable: npt.NDArray[np.bool_],
    weights: npt.NDArray[np.int64],
    min_run: int,
    pure_wild: int,
    cost: float,
    line: npt.NDArray[np.float64],  # [3, b]: P, E[L], E[L^2]
    single: npt.NDArray[np.float64],  # [4, reel, b]: gem, hit, L x hit, L x gem without hit
    pair: npt.NDArray[np.float64],  # [reel, reel, 2, 2, b]: P(g_i = gi, g_j = gj)
    hits: npt.NDArray[np.float64],  # [reel, reel, b]: P(h_i h_j)
    line_pair: npt.NDArray[np.float64],  # [reel, reel, 2, 2, b]: E[L w_i w_j], w hit or miss
    awards: npt.NDArray[np.float64],  # [slot, run, b]: P(the slot pays with that run)
    award_pay: npt.NDArray[np.float64],  # [slot, run, b]: E[its pay], coins
    no_win: npt.NDArray[np.float64],  # [gem pattern, b]: P(no pay)
    largest: npt.NDArray[np.float64],  # [pay, + pots at their largest, x top + pots], bets
    lasts: npt.NDArray[np.int64],
    top: int,
) -> None:
    """Every combination of one column per reel, paid by the ways rule (the function live play
    pays with), its figures added with the combination's probability."""
    reels = counts.shape[0]
    slots = paying.shape[0] + 1
    out_run = np.zeros(slots, dtype=np.int64)
    out_ways = np.zeros(slots, dtype=np.int64)
    out_pay = np.zeros(slots, dtype=np.int64)
    stops = np.zeros(reels, dtype=np.int64)
    while True:
        p = 1.0
        b = 0
        pattern = 0
        pots = 0.0
        for reel in range(reels):
            p *= prob[reel, stops[reel]]
            b += bonus[reel, stops[reel]]
            pattern += gem[reel, stops[reel]] << reel
            pots += hit[reel, stops[reel]] * lasts[reel]
        if p > 0.0:
            coins = ways_pay_counts(
                counts, wilds, stops, pays, paying, wild, substitutable, weights, min_run,
                pure_wild, out_run, out_ways, out_pay,
            )  # fmt: skip
            pay = coins / cost
            largest[0] = max(largest[0], pay)
            largest[1] = max(largest[1], pay + pots)
            largest[2] = max(largest[2], pay * top + pots)
            line[0, b] += p
            line[1, b] += p * pay
            line[2, b] += p * pay * pay
            if coins == 0:
                no_win[pattern, b] += p
            for slot in range(slots):
                if out_pay[slot] > 0:
                    awards[slot, out_run[slot], b] += p
                    award_pay[slot, out_run[slot], b] += p * out_pay[slot]
            for i in range(reels):
                gi = gem[i, stops[i]]
                hi = hit[i, stops[i]]
                single[0, i, b] += p * gi
                single[1, i, b] += p * hi
                single[2, i, b] += p * pay * hi
                single[3, i, b] += p * pay * gi * (1 - hi)
                for j in range(reels):
                    if j == i:
                        continue
                    gj = gem[j, stops[j]]
                    hj = hit[j, stops[j]]
                    pair[i, j, gi, gj, b] += p
                    hits[i, j, b] += p * hi * hj
                    if gi and gj:
                        line_pair[i, j, 1 - hi, 1 - hj, b] += p * pay
        reel = reels - 1
        while reel >= 0:
            stops[reel] += 1
            if stops[reel] < n_columns[reel]:
                break
            stops[reel] = 0
            reel -= 1
        if reel < 0:
            return


def _column_tables(
    model: GameModel, columns: Columns, paying: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """``counts[reel, column, i]`` of ``paying[i]`` and ``wilds[reel, column]`` in each
    column's window: the tables the ways rule reads a screen from."""
    cells = columns.cells.astype(np.int64)
    counts = (cells[..., None] == paying[None, None, None, :]).sum(axis=2, dtype=np.int64)
    wilds = (cells == model.wild).sum(axis=2, dtype=np.int64)
    return counts, wilds


def _play(
    rules: LadderRules, columns: Columns, pays: npt.NDArray[np.int64]
) -> dict[str, npt.NDArray[np.float64]]:
    from reelsmith.mechanics.ways.rules import ways_rules

    model = rules.model
    ways = ways_rules(model)
    reels, top = model.reels, model.reels + 1
    screens = math.prod(int(n) for n in columns.count)
    if screens > MAX_SCREENS:
        raise ModelError(
            f"{model.source or model.id}: {screens:,} screens after the gems' reveals; the exact "
            f"analysis of a ladder on ways plays at most {MAX_SCREENS:,}"
        )
    counts, wilds = _column_tables(model, columns, ways.paying)
    slots = len(ways.paying) + 1
    out = {
        "line": np.zeros((3, top)),
        "single": np.zeros((4, reels, top)),
        "pair": np.zeros((reels, reels, 2, 2, top)),
        "hits": np.zeros((reels, reels, top)),
        "line_pair": np.zeros((reels, reels, 2, 2, top)),
        "awards": np.zeros((slots, top, top)),
        "award_pay": np.zeros((slots, top, top)),
        "no_win": np.zeros((1 << reels, top)),
        "largest": np.zeros(3),
    }
    _play_screens(
        counts, wilds, columns.prob, columns.bonus, columns.gem, columns.hit, columns.count,
        np.asarray(pays, dtype=np.int64), ways.paying, model.wild, model.substitutable,
        ways.weights, ways.min_run, ways.pure_wild, float(rules.lines),
        out["line"], out["single"], out["pair"], out["hits"], out["line_pair"], out["awards"],
        out["award_pay"], out["no_win"], out["largest"],
        np.array([j.last_trigger for j in rules.jackpots], dtype=np.int64),
        max(rules.multipliers),
    )  # fmt: skip
    return out


def award_keys(model: GameModel) -> tuple[tuple[int, int], ...]:
    """The ways' awards ``(symbol, run)`` the pay table pays, in slot order (each paying
    symbol, then the wild's own row when pure wild ways pay on it)."""
    from reelsmith.mechanics.ways.rules import PURE_WILD_AS_WILD, ways_rules

    ways = ways_rules(model)
    symbols = [int(s) for s in ways.paying]
    if ways.pure_wild == PURE_WILD_AS_WILD:
        symbols.append(model.wild)
    return tuple(
        (s, n)
        for s in symbols
        for n in range(max(ways.min_run, 1), model.reels + 1)
        if model.line_pays[s, n] > 0
    )


def spin_figures(
    rules: LadderRules,
    reel_set: ReelSet,
    reveal: dict[str, int],
    *,
    name: str = "",
    second_moments: bool = True,
) -> SpinFigures:
    """Every per-spin figure of ``reel_set`` the round analysis uses
    (:class:`~reelsmith.analysis.ladder_spin.SpinFigures`), from every column combination
    played by the ways rule. ``second_moments`` is taken for the paylines' signature: the
    enumeration gives them at no cost."""
    model = rules.model
    reels = model.reels
    played = _play(rules, build_columns(rules, reel_set, reveal, STATIONARY), model.line_pays)
    non_hit = _play(rules, build_columns(rules, reel_set, reveal, NON_HIT), model.line_pays)
    probability, line, line_sq = played["line"]
    gem, hit, line_hit, line_miss = played["single"]
    means = [j.seed + (j.trigger_span + 1) / 2 for j in rules.jackpots]
    squares = [
        sum((j.seed + g) ** 2 for g in range(1, j.trigger_span + 1)) / j.trigger_span
        for j in rules.jackpots
    ]
    q = [jackpot_hit_probability(j) for j in rules.jackpots]
    jackpot = sum(means[i] * hit[i] for i in range(reels))
    jackpot_sq = sum(squares[i] * hit[i] for i in range(reels))
    for i in range(reels):
        for j in range(reels):
            if i != j:
                jackpot_sq = jackpot_sq + means[i] * means[j] * played["hits"][i, j]
    line_jackpot = sum(means[i] * line_hit[i] for i in range(reels))
    varies = [0.0 < q[i] < 1.0 for i in range(reels)]
    beta = np.array(
        [
            line_hit[i] / q[i] - line_miss[i] / (1 - q[i]) if varies[i] else np.zeros(reels + 1)
            for i in range(reels)
        ]
    )
    beta_pair = np.zeros((reels, reels, reels + 1))
    odds = [(q[i], 1 - q[i]) for i in range(reels)]
    for i in range(reels):
        for j in range(i + 1, reels):
            if not (varies[i] and varies[j]):
                continue
            total = np.zeros(reels + 1)
            for wi, si in ((0, 1.0), (1, -1.0)):
                for wj, sj in ((0, 1.0), (1, -1.0)):
                    joint = played["line_pair"][i, j, wi, wj]
                    total += si * sj * joint / (odds[i][wi] * odds[j][wj])
            beta_pair[i, j] = beta_pair[j, i] = total
    keys = award_keys(model)
    slot_of = {int(s): k for k, s in enumerate(_slot_symbols(model))}
    awards = np.array([played["awards"][slot_of[s], n] for s, n in keys]).reshape(
        len(keys), reels + 1
    )
    award_pay = np.array([played["award_pay"][slot_of[s], n] for s, n in keys]).reshape(
        len(keys), reels + 1
    )
    pay_top, with_pots, multiplied = played["largest"]
    return SpinFigures(
        reel_set=name or reel_set.name,
        probability=probability,
        line=line,
        line_sq=line_sq,
        jackpot=np.asarray(jackpot),
        jackpot_sq=np.asarray(jackpot_sq),
        line_jackpot=np.asarray(line_jackpot),
        gem=gem,
        gem_pair=played["pair"],
        hit=hit,
        beta=beta,
        beta_pair=beta_pair,
        no_win_non_hit=non_hit["no_win"],
        awards=awards,
        award_pairs=np.zeros_like(awards),  # a symbol pays at most one run on a screen
        award_line=awards.sum(axis=1),
        award_keys=keys,
        award_pay=award_pay,
        max_win={
            "line_pay_x_bet": float(pay_top),
            "with_jackpots_x_bet": float(with_pots),
            "multiplied_with_jackpots_x_bet": float(multiplied),
        },
    )


def _slot_symbols(model: GameModel) -> list[int]:
    """The symbol of each slot the ways rule pays into: the paying symbols, then the wild."""
    from reelsmith.mechanics.ways.rules import ways_rules

    return [*(int(s) for s in ways_rules(model).paying), model.wild]
