"""The ways' full cycle: the exact joint law of a screen's ways win and its count of the
counted symbol (the scatter, or the free spins' trigger), and each award's figures, by walking
every combination of the reels' windows — what the lab's full analysis (second moments, hit
frequency, the win distribution, the largest win, every award's odds) reads of an evaluator.

Each reel is reduced to its *signatures*: for each paying symbol the count it shows (a wild
counting with its reel's weight where it stands in), the wilds' own count times the weight, and
the counted symbol's count, each with the total weight of the positions (and, in a free spin,
of the wild weights drawn) that show it. Windows with one signature pay alike, so the walk
visits signatures, not stops. The walk goes reel by reel from reel 1 and stops descending as
soon as no symbol's run goes on: the rest of the screen then only adds its count of the counted
symbol, whose law over the remaining reels is a convolution computed once. A screen's win is
what the live rule pays (:func:`reelsmith.mechanics.ways.rules.ways_pay_counts`), so the
figures are exact sums over the weighted cycle.

A walk that would visit more than :data:`NODE_BUDGET` signature combinations, or whose sums
could leave 64-bit integers, is refused with the reason (:class:`TooLarge`): the lab then says
the full analysis is beyond enumeration and gives the simulated figures.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit, types
from numba.typed import Dict

from reelsmith.analysis.enumeration import BeyondEnumerationError
from reelsmith.engine.model import BLANK, GameModel, ReelSet
from reelsmith.mechanics.ways.rules import PURE_WILD_AS_WILD, ways_rules

#: The most signature combinations one walk visits (about a minute of one core).
NODE_BUDGET = 3_000_000_000
#: A key of the walk's histogram is ``count x WIN_STRIDE + win``.
WIN_STRIDE = 1 << 40


#: The full cycle is beyond what the walk enumerates; the message says why.
TooLarge = BeyondEnumerationError


@dataclass(frozen=True)
class WaysDistribution:
    """The exact law of one reel set's screens: ``by_count[k]`` maps a ways win (coins per coin
    unit) to the weighted combinations showing ``k`` counted symbols with that win;
    ``award_ways[a, k]`` the combinations showing ``k`` and paying award ``awards[a]`` (a
    ``(symbol, run)``); ``award_pays[a]`` what those pay in all. Duck-types
    :class:`reelsmith.analysis.enumeration.ScreenDistribution` for the full analysis."""

    by_count: tuple[dict[int, int], ...]
    award_ways: npt.NDArray[np.int64]
    award_pays: npt.NDArray[np.int64]
    awards: tuple[tuple[int, int], ...]
    cycle: int
    lines: int
    nodes: int

    def scatter_ways(self) -> list[int]:
        return [sum(row.values()) for row in self.by_count]

    def wins_by_count(self) -> list[list[tuple[int, int]]]:
        return [sorted(row.items()) for row in self.by_count]

    def line_pay_sum(self) -> int:
        return sum(win * ways for row in self.by_count for win, ways in row.items())

    def screen_wins(self, scatter_pays: npt.NDArray[np.int64], total_bet: int) -> dict[int, int]:
        """``{win: ways}`` of the whole screen (ways win plus scatter pay x ``total_bet``)."""
        out: dict[int, int] = {}
        last = len(scatter_pays) - 1
        for k, row in enumerate(self.by_count):
            scatter_win = int(scatter_pays[min(k, last)]) * total_bet
            for win, ways in row.items():
                out[win + scatter_win] = out.get(win + scatter_win, 0) + ways
        return out

    def probability_no_win(self, scatter_pays: npt.NDArray[np.int64]) -> Fraction:
        last = len(scatter_pays) - 1
        losing = sum(
            row.get(0, 0) for k, row in enumerate(self.by_count) if scatter_pays[min(k, last)] == 0
        )
        return Fraction(losing, self.cycle)


@dataclass(frozen=True)
class WayFigures:
    """Each ways award's odds and return on one screen (what a paylines title gives per
    payline): ``probability`` that a screen pays it, ``award_rtp`` what it returns per unit of
    the total bet, ``rtp`` the screen's ways return."""

    distribution: WaysDistribution
    cost: int

    def probability(self, symbol: int, count: int) -> Fraction:
        index = self._index(symbol, count)
        if index < 0:
            return Fraction(0)
        return Fraction(int(self.distribution.award_ways[index].sum()), self.distribution.cycle)

    def award_rtp(self, symbol: int, count: int) -> Fraction:
        index = self._index(symbol, count)
        if index < 0:
            return Fraction(0)
        pays = int(self.distribution.award_pays[index])
        return Fraction(pays, self.distribution.cycle * self.cost)

    @property
    def rtp(self) -> Fraction:
        return Fraction(self.distribution.line_pay_sum(), self.distribution.cycle * self.cost)

    def _index(self, symbol: int, count: int) -> int:
        try:
            return self.distribution.awards.index((symbol, count))
        except ValueError:
            return -1


def _signatures(
    model: GameModel,
    reel_set: ReelSet,
    reel: int,
    free: bool,
    counted: int,
    counts_here: bool,
) -> npt.NDArray[np.int64]:
    """The reel's distinct signatures as rows ``[A_1 .. A_S, B, K, weight]`` (see the module;
    ``B`` the wilds' count times the weight), over its positions and, in a free spin that draws
    the reel's wild weight, each weight by its odds."""
    rules = ways_rules(model)
    windows = reel_set.windows(model.rows)[reel, : int(reel_set.position_counts[reel])]
    weights = reel_set.position_weights(reel)
    paying = rules.paying
    shown = np.stack([(windows == s).sum(axis=1) for s in paying], axis=1).astype(np.int64)
    wilds = (
        (windows == model.wild).sum(axis=1).astype(np.int64)
        if model.wild >= 0
        else np.zeros(len(windows), dtype=np.int64)
    )
    counted_shown = (
        (windows == counted).sum(axis=1).astype(np.int64)
        if counted >= 0 and counts_here
        else np.zeros(len(windows), dtype=np.int64)
    )
    if (windows == BLANK).all(axis=1).any():  # pragma: no cover - heights are >= 1
        raise AssertionError("a window shows no cell")
    stands_in = (
        model.substitutable[paying] if model.wild >= 0 else np.zeros(len(paying), dtype=bool)
    )
    if free and reel in rules.free_weights:
        values, odds = rules.free_weights[reel]
        law = [(int(v), int(o)) for v, o in zip(values, odds, strict=True) if o]
    else:
        law = [(int(rules.weights[reel]), 1)]
    rows = []
    for value, chance in law:
        a = shown + np.outer(wilds * value, stands_in.astype(np.int64))
        rows.append(np.column_stack([a, wilds * value, counted_shown, weights * chance]))
    table = np.concatenate(rows)
    keys, inverse = np.unique(table[:, :-1], axis=0, return_inverse=True)
    summed = np.zeros(len(keys), dtype=np.int64)
    np.add.at(summed, inverse.ravel(), table[:, -1])
    kept = summed > 0
    return np.column_stack([keys[kept], summed[kept]]).astype(np.int64)


@njit(cache=True, nogil=True)
def _walk(
    sig_a: npt.NDArray[np.int64],  # [reel, signature, symbol]
    sig_b: npt.NDArray[np.int64],  # [reel, signature]
    sig_k: npt.NDArray[np.int64],
    sig_w: npt.NDArray[np.int64],
    n_sig: npt.NDArray[np.int64],
    tail: npt.NDArray[np.int64],  # [reel, k]: weight of reels reel.. showing k counted symbols
    pays: npt.NDArray[np.int64],  # [symbol, run]
    paying: npt.NDArray[np.int64],
    sub_ok: npt.NDArray[np.bool_],
    wild: int,
    min_run: int,
    pure_wild: int,
    award_of: npt.NDArray[np.int64],  # [slot, run]: the award index, or -1
    budget: int,
    award_ways: npt.NDArray[np.int64],  # [award, k], added to
    award_pays: npt.NDArray[np.int64],  # [award], added to
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], int]:
    """Walk every combination of the reels' signatures (see the module); returns the
    histogram's keys (``k x WIN_STRIDE + win``) and weights, and the nodes visited (-1: over
    ``budget``). Slot ``S`` (past the paying symbols) is the wilds' own run, paid only under
    ``pure_wild`` 2."""
    reels = sig_a.shape[0]
    slots = paying.shape[0] + 1
    ways = np.zeros((reels + 1, slots), dtype=np.int64)
    only = np.zeros((reels + 1, slots), dtype=np.int64)
    win = np.zeros(reels + 1, dtype=np.int64)
    count = np.zeros(reels + 1, dtype=np.int64)
    weight = np.zeros(reels + 1, dtype=np.int64)
    settled = np.zeros((reels + 1, slots), dtype=np.int64)  # award indices settled so far
    settled_pay = np.zeros((reels + 1, slots), dtype=np.int64)
    n_settled = np.zeros(reels + 1, dtype=np.int64)
    choice = np.full(reels + 1, -1, dtype=np.int64)
    for i in range(slots):
        ways[0, i] = 1
        only[0, i] = 1
    weight[0] = 1
    hist = Dict.empty(key_type=types.int64, value_type=types.int64)
    nodes = 0
    last_slot = slots - 1
    d = 0
    while d >= 0:
        choice[d] += 1
        if choice[d] >= n_sig[d]:
            choice[d] = -1
            d -= 1
            continue
        j = choice[d]
        nodes += 1
        if nodes > budget:
            return np.zeros(0, np.int64), np.zeros(0, np.int64), -1
        e = d + 1
        win[e] = win[d]
        count[e] = count[d] + sig_k[d, j]
        weight[e] = weight[d] * sig_w[d, j]
        n_settled[e] = n_settled[d]
        for x in range(n_settled[d]):
            settled[e, x] = settled[d, x]
            settled_pay[e, x] = settled_pay[d, x]
        alive = 0
        for i in range(slots):
            if ways[d, i] == 0:
                ways[e, i] = 0
                continue
            if i == last_slot:
                if pure_wild != 2:
                    ways[e, i] = 0
                    continue
                shown = sig_b[d, j]
                sub = shown
            else:
                shown = sig_a[d, j, i]
                sub = sig_b[d, j] if sub_ok[i] else 0
            ends = shown == 0 or e == reels
            if shown > 0:
                ways[e, i] = ways[d, i] * shown
                only[e, i] = only[d, i] * sub
                if not ends:
                    alive += 1
                    continue
                run = e
                total = ways[e, i]
                solo = only[e, i]
            else:
                ways[e, i] = 0
                run = d
                total = ways[d, i]
                solo = only[d, i]
            if run < min_run or run == 0:
                continue
            symbol = wild if i == last_slot else paying[i]
            pay = pays[symbol, run]
            if pay == 0:
                continue
            if i != last_slot and pure_wild != 0:
                total -= solo
            if total <= 0:
                continue
            amount = pay * total
            win[e] += amount
            x = n_settled[e]
            settled[e, x] = award_of[i, run]
            settled_pay[e, x] = amount
            n_settled[e] = x + 1
        if alive > 0:
            d = e
            choice[d] = -1
            continue
        # no run goes on: the remaining reels add only their counted symbols
        for extra in range(tail.shape[1]):
            rest = tail[e, extra]
            if rest == 0:
                continue
            w = weight[e] * rest
            k = count[e] + extra
            key = k * WIN_STRIDE + win[e]
            hist[key] = hist.get(key, 0) + w
            for x in range(n_settled[e]):
                award_ways[settled[e, x], k] += w
                award_pays[settled[e, x]] += w * settled_pay[e, x]
    keys = np.empty(len(hist), dtype=np.int64)
    values = np.empty(len(hist), dtype=np.int64)
    n = 0
    for key, value in hist.items():
        keys[n] = key
        values[n] = value
        n += 1  # noqa: SIM113 - the compiled loop over a typed dict
    return keys, values, nodes


def screen_distribution(
    model: GameModel,
    reel_set: ReelSet,
    pays: npt.NDArray[np.int64],
    free: bool,
    counted: int,
    counted_reels: npt.NDArray[np.bool_],
    budget: int = NODE_BUDGET,
) -> WaysDistribution:
    """The exact law of ``reel_set``'s screens paid by ``pays`` (a free spin's table, and its
    wild weights drawn, with ``free``), counting ``counted`` on ``counted_reels``; TooLarge
    when the walk is beyond ``budget`` or 64-bit sums."""
    rules = ways_rules(model)
    reels = model.reels
    tables = [
        _signatures(model, reel_set, r, free, counted, bool(counted_reels[r])) for r in range(reels)
    ]
    symbols = len(rules.paying)
    width = max(len(t) for t in tables)
    sig_a = np.zeros((reels, width, symbols), dtype=np.int64)
    sig_b = np.zeros((reels, width), dtype=np.int64)
    sig_k = np.zeros((reels, width), dtype=np.int64)
    sig_w = np.zeros((reels, width), dtype=np.int64)
    for r, t in enumerate(tables):
        sig_a[r, : len(t)] = t[:, :symbols]
        sig_b[r, : len(t)] = t[:, symbols]
        sig_k[r, : len(t)] = t[:, symbols + 1]
        sig_w[r, : len(t)] = t[:, symbols + 2]
    n_sig = np.array([len(t) for t in tables], dtype=np.int64)
    cycle = math.prod(int(t[:, -1].sum()) for t in tables)
    most_k = sum(int(t[:, symbols + 1].max()) for t in tables)
    tail = np.zeros((reels + 1, most_k + 1), dtype=np.int64)
    tail[reels, 0] = 1
    for r in range(reels - 1, -1, -1):
        for k, w in zip(sig_k[r, : n_sig[r]], sig_w[r, : n_sig[r]], strict=True):
            tail[r, int(k) :] += int(w) * tail[r + 1, : most_k + 1 - int(k)]
    top_ways = math.prod(int(t[:, :symbols].max(initial=0)) or 1 for t in tables)
    biggest = (symbols + 1) * int(pays.max(initial=0)) * max(top_ways, 1)
    if cycle * max(biggest, 1) >= 1 << 62 or biggest >= WIN_STRIDE:
        raise TooLarge(
            f"{model.id}: the full cycle of reel set {reel_set.name} ({cycle:,} weighted "
            "combinations, each paying up to "
            f"{biggest:,} coins) is beyond the exact sums' 64-bit integers"
        )
    awards = tuple(
        (int(s), n)
        for s in rules.paying
        for n in range(1, reels + 1)
        if n >= rules.min_run and pays[s, n] > 0
    )
    own = (
        tuple(
            (model.wild, n)
            for n in range(1, reels + 1)
            if n >= rules.min_run and pays[model.wild, n] > 0
        )
        if rules.pure_wild == PURE_WILD_AS_WILD
        else ()
    )
    awards = awards + own
    award_of = np.full((symbols + 1, reels + 1), -1, dtype=np.int64)
    for index, (symbol, run) in enumerate(awards):
        slot = (
            symbols
            if index >= len(awards) - len(own)
            else int(np.flatnonzero(rules.paying == symbol)[0])
        )
        award_of[slot, run] = index
    award_ways = np.zeros((max(len(awards), 1), most_k + 1), dtype=np.int64)
    award_pays = np.zeros(max(len(awards), 1), dtype=np.int64)
    sub_ok = (
        model.substitutable[rules.paying].astype(np.bool_)
        if model.wild >= 0
        else np.zeros(symbols, dtype=np.bool_)
    )
    keys, values, nodes = _walk(
        sig_a,
        sig_b,
        sig_k,
        sig_w,
        n_sig,
        tail,
        np.ascontiguousarray(pays, dtype=np.int64),
        rules.paying.astype(np.int64),
        sub_ok,
        model.wild,
        rules.min_run,
        rules.pure_wild,
        award_of,
        budget,
        award_ways,
        award_pays,
    )
    if nodes < 0:
        raise TooLarge(
            f"{model.id}: reel set {reel_set.name}'s full cycle ({cycle:,} weighted "
            f"combinations) needs more than {budget:,} steps of the ways' walk"
        )
    by_count: list[dict[int, int]] = [{} for _ in range(most_k + 1)]
    for key, value in zip(keys.tolist(), values.tolist(), strict=True):
        k, win = divmod(key, WIN_STRIDE)
        by_count[k][win] = by_count[k].get(win, 0) + value
    counted_total = sum(sum(row.values()) for row in by_count)
    if counted_total != cycle:  # pragma: no cover - a broken walk must never pass silently
        raise AssertionError(f"the ways' walk counted {counted_total} of {cycle} combinations")
    return WaysDistribution(
        by_count=tuple(by_count),
        award_ways=award_ways[: len(awards)],
        award_pays=award_pays[: len(awards)],
        awards=awards,
        cycle=cycle,
        lines=rules.cost,
        nodes=nodes,
    )


def screen_distributions(
    model: GameModel, rules: Any, variant_id: str
) -> tuple[WaysDistribution, WaysDistribution | None]:
    """The full cycles of the base reel set and the free spins' (None without free spins),
    counting the symbol the full analysis counts (the trigger, else the scatter)."""
    from reelsmith.analysis.catalogue_exact import counted_symbol

    variant = model.variant(variant_id)
    counted, mask = counted_symbol(model, rules)
    base = screen_distribution(
        model, variant.reel_sets["base"], model.line_pays, False, counted, mask
    )
    if rules.free_spins is None:
        return base, None
    return base, free_distribution(model, rules, variant_id)


def free_distribution(model: GameModel, rules: Any, variant_id: str) -> WaysDistribution:
    """The full cycle of the free spins' reel set, paid by the free spins' table with the wild
    weights a free spin draws, counting the symbol the full analysis counts."""
    from reelsmith.analysis.catalogue_exact import counted_symbol

    free = rules.free_spins
    counted, mask = counted_symbol(model, rules)
    return screen_distribution(
        model,
        model.variant(variant_id).reel_sets[free.reel_set],
        rules.free_line_pays,
        True,
        counted,
        mask,
    )


def award_figures(
    model: GameModel, reel_set: ReelSet, pays: Any, distribution: WaysDistribution
) -> WayFigures:
    """Each award's odds and return on a screen of ``reel_set``, from its full cycle."""
    return WayFigures(distribution, ways_rules(model).cost)
