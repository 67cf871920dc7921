"""The exact analysis of any catalogue title, from its strips and tables alone.

Two depths, both exact (integer ways over the full cycle, fractions until a figure is printed):

:func:`analyze_rtp` - the return to player and its parts, for reel sets of any size. Reels stop
independently and each row of a reel shows each stop equally often, so a payline's award
distribution is a sum over symbol tuples of products of per-reel symbol counts; the tuples are
walked as a tree that stops as soon as the line's run has broken (:func:`line_ways`), and the
pay of each decided prefix is the engine's own :func:`reelsmith.engine.lines.line_award`. The
count of the trigger symbol on the screen is the convolution of the per-reel window counts.
Free spins form independent Galton-Watson trees (each spin's added spins are its children), so
by Wald's identity a feature started with ``N0`` spins plays ``E[N0] / (1 - m)`` spins on
average, ``m`` the expected spins a free spin adds, and returns that many times the expected
free-spin win. The award functions are those live play calls
(:func:`reelsmith.engine.catalogue.award_spins`). A feature capped at ``max_spins`` is no
longer a branching process: it is solved as a Markov chain on (spins left, spins awarded)
(:func:`capped_feature`), whose size grows with the square of the cap.

:func:`analyze_full` - adds the round's second moment (standard deviation, volatility), the
hit frequency and the win distribution of a base spin, from the full-cycle enumeration of each
reel set (:func:`reelsmith.analysis.enumeration.enumerate_screens`) and the compound-sum moments
of :mod:`reelsmith.analysis.compound`. Its cost grows with the cycle; the RTP route does not.

A model's plug-in (:mod:`reelsmith.engine.plugins`) maps a spin's win to a law of new wins
(its ``win_law``), drawn independently of the screen given the win: :func:`screen_law` mixes
that law into each reel set's law of screen wins, so every figure above stays exact; the RTP
route then enumerates the full cycle too (it needs a screen's whole win), and reports the
plug-in's part apart (``plugin_rtp``, ``plugin_free_spins_rtp``).

All figures are per unit of total bet and per round (a base spin and the free spins it
triggers). The gamble is fair (a colour doubles at 1/2, a suit quadruples at 1/4) and leaves
every mean unchanged; the figures are those of a round that does not gamble.
"""

from __future__ import annotations

import math
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from reelsmith.analysis.catalogue_awards import (
    AwardFigures,
    FeatureLaw,
    award_figures,
    spins_per_trigger,
)
from reelsmith.analysis.compound import (
    Moments,
    SpinMoments,
    random_sum,
    tree_moments,
    weighted_moments,
)
from reelsmith.analysis.enumeration import ScreenDistribution, enumerate_screens, run_decided
from reelsmith.analysis.exact import row_symbol_weights, symbol_counts
from reelsmith.analysis.volatility import volatility_class
from reelsmith.engine.catalogue import (
    Mechanics,
    award_spins,
    mechanics,
    spins_by_count,
)
from reelsmith.engine.lines import NO_SYMBOL, line_award
from reelsmith.engine.model import GameModel, ModelError, ReelSet
from reelsmith.engine.plugins import Plugin
from reelsmith.mechanics import by_full_cycle, evaluation, evaluator, own_rtp, window_help


@njit(cache=True)
def line_walk(
    counts: npt.NDArray[np.int64],
    line_pays: npt.NDArray[np.int64],
    wild: int,
    substitutable: npt.NDArray[np.bool_],
    wild_multiplier: int,
    ties_to_wild: bool,
    ways: npt.NDArray[np.int64],
    pay_sums: npt.NDArray[np.int64],
) -> int:
    """Walk a payline's symbol tuples over the full cycle (``counts[reel, symbol]`` stops per
    reel): add to ``ways[symbol, count]`` the stop combinations that pay that award
    (``ways[n_symbols, 0]``: no win) and to ``pay_sums[symbol, count]`` what they pay, and
    return the line pay summed over the cycle, per line coin, as the line rule paid it (a
    wild multiplier included, which the award alone does not carry). The walk stops as soon
    as the line's run has broken: every completion of a decided prefix pays the same, so it
    counts once with the product of the remaining reels' stops."""
    reels, n_symbols = counts.shape
    totals = counts.sum(axis=1)
    suffix = np.ones(reels + 1, dtype=np.int64)
    for reel in range(reels - 1, -1, -1):
        suffix[reel] = suffix[reel + 1] * totals[reel]
    cells = np.zeros(reels, dtype=np.int8)
    digit = np.full(reels, -1, dtype=np.int64)
    weight = np.ones(reels + 1, dtype=np.int64)
    depth = 0
    total = 0
    while depth >= 0:
        digit[depth] += 1
        if digit[depth] == n_symbols:
            digit[depth] = -1
            depth -= 1
            continue
        count = counts[depth, digit[depth]]
        if count == 0:
            continue
        cells[depth] = digit[depth]
        w = weight[depth] * count
        if depth == reels - 1 or run_decided(cells, depth + 1, wild, substitutable):
            for reel in range(depth + 1, reels):
                cells[reel] = cells[depth]  # any completion pays the same once decided
            symbol, run, pay = line_award(
                cells, line_pays, wild, substitutable, wild_multiplier, ties_to_wild
            )
            combinations = w * suffix[depth + 1]
            if symbol == NO_SYMBOL:
                ways[n_symbols, 0] += combinations
            else:
                ways[symbol, run] += combinations
                pay_sums[symbol, run] += pay * combinations
            total += pay * combinations
        else:
            weight[depth + 1] = w
            depth += 1
    return total


def line_pay_sum(model: GameModel, counts: npt.NDArray[np.int64], pays: Any) -> int:
    """The line pay summed over the cycle of reels with ``counts[reel, symbol]`` stops."""
    ways = np.zeros((counts.shape[1] + 1, counts.shape[0] + 1), dtype=np.int64)
    args = (model.wild, model.substitutable, model.wild_multiplier, model.ties_to_wild)
    return int(line_walk(counts, pays, *args, ways, np.zeros_like(ways)))


@dataclass(frozen=True, eq=False)
class LineFigures:
    """One payline's award distribution over a reel set's full cycle, and its pay sum."""

    ways: npt.NDArray[np.int64]  # [symbol, count]; row n_symbols: no win
    pay_sums: npt.NDArray[np.int64]  # [symbol, count]: what those combinations pay
    pay_sum: int  # per line coin, over the cycle
    cycle: int

    @property
    def rtp(self) -> Fraction:
        """Expected pay of one line per coin bet on it."""
        return Fraction(self.pay_sum, self.cycle)

    def probability(self, symbol: int, count: int) -> Fraction:
        """P(one payline pays the award ``count`` x ``symbol``)."""
        return Fraction(int(self.ways[symbol, count]), self.cycle)

    def award_rtp(self, symbol: int, count: int) -> Fraction:
        """What the award returns on one payline per line coin (a wild multiplier
        included)."""
        return Fraction(int(self.pay_sums[symbol, count]), self.cycle)


def line_figures(
    model: GameModel, reel_set: ReelSet, line_pays: npt.NDArray[np.int64] | None = None
) -> LineFigures:
    """A payline's exact award distribution and expected pay. Unweighted, every payline has
    the same (each row of a reel shows each stop equally often) and one walk serves them all.
    With stop weights each row shows its own mix, so every payline is walked on the symbol
    weights of its rows and the figures are their average: sums over the paylines, with
    ``cycle`` the weighted cycle times the number of paylines."""
    pays = model.line_pays if line_pays is None else line_pays
    ways = np.zeros((len(model.symbols) + 1, model.reels + 1), dtype=np.int64)
    pay_sums = np.zeros_like(ways)
    args = (model.wild, model.substitutable, model.wild_multiplier, model.ties_to_wild)
    if not reel_set.weighted:
        counts = symbol_counts(model, reel_set)
        pay_sum = int(line_walk(counts, pays, *args, ways, pay_sums))
        cycle = reel_set.cycle
    else:
        check_exact_range(model, reel_set, pays)
        pay_sum = 0
        for line in model.paylines:
            counts = row_symbol_weights(model, reel_set, [int(row) for row in line])
            pay_sum += int(line_walk(counts, pays, *args, ways, pay_sums))
        cycle = line_cycle(reel_set) * model.line_count
    if int(ways.sum()) != cycle:  # pragma: no cover - a broken walk must not pass
        raise AssertionError(f"line walk counted {int(ways.sum())} of {cycle}")
    return LineFigures(ways, pay_sums, pay_sum, cycle)


def line_cycle(reel_set: ReelSet) -> int:
    """The weighted number of symbol combinations one payline can show: the stop
    combinations (:attr:`ReelSet.cycle`), or on drawn cells the product of the reels' cell
    tables' totals (a payline reads one cell per reel, drawn on its own)."""
    if reel_set.cells is None:
        return reel_set.cycle
    return math.prod(sum(w for _, w in table) for table in reel_set.cells)


def check_exact_range(
    model: GameModel, reel_set: ReelSet, line_pays: npt.NDArray[np.int64]
) -> None:
    """Refuse a weighted reel set whose cycle is too large for the exact sums' 64-bit
    integers (every payline's largest pay on every combination must fit). Unweighted reel
    sets are left to the sums' own checks, as they always were."""
    bound = line_cycle(reel_set) * model.line_count * max(1, int(line_pays.max()))
    if bound * model.wild_multiplier >= 1 << 63:
        raise ModelError(
            f"{model.id}: reel set {reel_set.name}'s weighted cycle ({reel_set.cycle:,} stop "
            "combinations, the product of the reels' total weights) is too large for the exact "
            "analysis' 64-bit sums: use smaller stop weights"
        )


def count_ways(
    model: GameModel, reel_set: ReelSet, symbol: int, reels_mask: npt.NDArray[np.bool_]
) -> list[int]:
    """``ways[k]``: stop combinations showing ``symbol`` exactly ``k`` times on the reels of
    ``reels_mask`` (the convolution of the per-reel window counts), each combination counted
    with its stops' weights."""
    ways = [1]
    windows = reel_set.windows(model.rows)
    for reel, length in enumerate(reel_set.position_counts):
        shown = (windows[reel, : int(length)] == symbol).sum(axis=1) if reels_mask[reel] else None
        weights = reel_set.position_weights(reel)
        if shown is None:
            row = [int(reel_set.totals[reel])]
        else:
            by_count = np.zeros(int(shown.max()) + 1, dtype=np.int64)
            np.add.at(by_count, shown, weights)  # each stop counted with its weight
            row = [int(x) for x in by_count]
        combined = [0] * (len(ways) + len(row) - 1)
        for i, a in enumerate(ways):
            if a:
                for j, b in enumerate(row):
                    combined[i + j] += a * b
        ways = combined
    return ways


def _expect(ways: list[int], cycle: int, values: list[int]) -> Fraction:
    return sum((Fraction(w * values[k], cycle) for k, w in enumerate(ways) if w), Fraction(0))


def _by_count(table: npt.NDArray[np.int64], k: int) -> int:
    return int(spins_by_count(table, k))


def capped_feature(
    cap: int,
    laws: list[tuple[Fraction, Fraction, Fraction]],
    added: Any,
) -> dict[int, tuple[Fraction, Fraction]]:
    """Moments of a feature whose spins are capped at ``cap``, by its initial spins ``n0``.

    ``laws[k]`` = (P(K = k), E[W 1{K = k}], E[W^2 1{K = k}]) of one free spin showing ``k``
    trigger symbols; ``added(k, t)`` the spins it adds after ``t`` spins awarded (cut at the
    cap, by the live rule :func:`reelsmith.engine.catalogue.award_spins`). The feature is a
    Markov chain on (spins left ``r``, spins awarded ``t``): a spin moves it to
    ``(r - 1 + a, t + a)``, so ``t`` never falls and, at equal ``t``, ``r`` falls. The first
    and second moments of the win still to come follow by one pass, ``t`` from the cap down
    and ``r`` upwards; returns ``{n0: (E[F], E[F^2])}`` for ``n0 = 1..cap``."""
    first: dict[tuple[int, int], Fraction] = {}
    second: dict[tuple[int, int], Fraction] = {}
    for t in range(cap, 0, -1):
        first[(0, t)] = second[(0, t)] = Fraction(0)
        for r in range(1, t + 1):
            m1 = Fraction(0)
            m2 = Fraction(0)
            for k, (p, w1, w2) in enumerate(laws):
                if p == 0:
                    continue
                a = added(k, t)
                state = (r - 1 + a, t + a)
                m1 += w1 + p * first[state]
                m2 += w2 + 2 * w1 * first[state] + p * second[state]
            first[(r, t)], second[(r, t)] = m1, m2
    return {n0: (first[(n0, n0)], second[(n0, n0)]) for n0 in range(1, cap + 1)}


def initial_law(rules: Mechanics, variant_id: str, k: int) -> dict[int, Fraction]:
    """The law of the spins a trigger with ``k`` symbols awards, cut at the cap."""
    free = rules.free_spins
    assert free is not None
    if free.reveal is None:
        law = {_by_count(free.spins, k): Fraction(1)}
    else:
        values, weights = free.reveal_table(rules.model.variant(variant_id))
        total = sum(weights)
        law = {0: Fraction(1)}
        for _ in range(k):
            step: dict[int, Fraction] = {}
            for n, p in law.items():
                for v, w in zip(values, weights, strict=True):
                    step[n + v] = step.get(n + v, Fraction(0)) + p * Fraction(w, total)
            law = step
    cut: dict[int, Fraction] = {}
    for n, p in law.items():
        n = min(n, free.max_spins) if free.max_spins else n
        cut[n] = cut.get(n, Fraction(0)) + p
    return cut


def _capped_given(
    rules: Mechanics,
    variant_id: str,
    trigger_ways: list[int],
    cycle: int,
    laws: list[tuple[Fraction, Fraction, Fraction]],
) -> dict[int, Moments]:
    """The capped feature's win moments given ``k`` triggering symbols."""
    free = rules.free_spins
    assert free is not None

    def added(k: int, t: int) -> int:
        return int(
            award_spins(
                free.retrigger, free.retrigger_spins, free.spins_per_symbol, k, t, free.max_spins
            )
        )

    by_start = capped_feature(free.max_spins, laws, added)
    out: dict[int, Moments] = {}
    for k, w in enumerate(trigger_ways):
        if k < free.trigger or not w:
            continue
        law = initial_law(rules, variant_id, k)
        out[k] = Moments(
            sum((p * by_start[n][0] for n, p in law.items()), Fraction(0)),
            sum((p * by_start[n][1] for n, p in law.items()), Fraction(0)),
        )
    return out


@dataclass(frozen=True)
class CatalogueFigures:
    """The RTP route's figures of one variant, per unit of total bet and per round."""

    line_rtp: Fraction
    scatter_rtp: Fraction
    free_spins_rtp: Fraction
    trigger_probability: Fraction
    expected_initial_spins: Fraction  # per trigger
    expected_free_spins: Fraction  # per trigger, retriggers included
    added_per_free_spin: Fraction  # m
    free_spin_win: Fraction  # E[W] of one free spin per unit bet (after a plug-in)
    base_spin_rtp: Fraction  # lines + scatter of a base spin (and what a plug-in adds to it)
    #: What a plug-in adds to the base spins' wins (``line_rtp`` and ``scatter_rtp`` are the
    #: pays before it), and to the free spins' (a part of ``free_spins_rtp``); 0 without one.
    plugin_rtp: Fraction = Fraction(0)
    plugin_free_spins_rtp: Fraction = Fraction(0)

    @property
    def rtp(self) -> Fraction:
        return self.line_rtp + self.scatter_rtp + self.plugin_rtp + self.free_spins_rtp


def _added(rules: Mechanics, k: int) -> int:
    free = rules.free_spins
    assert free is not None
    return int(award_spins(free.retrigger, free.retrigger_spins, free.spins_per_symbol, k, 0, 0))


def _initial(rules: Mechanics, variant_id: str, k: int) -> Moments:
    """The spins a trigger with ``k`` symbols starts the feature with."""
    free = rules.free_spins
    assert free is not None
    if free.reveal is None:
        return Moments.constant(_by_count(free.spins, k))
    values, weights = free.reveal_table(rules.model.variant(variant_id))
    return random_sum(Moments.constant(k), weighted_moments(values, weights))


def _check_ends(rules: Mechanics, m: Fraction, where: str) -> None:
    if rules.free_spins is not None and rules.free_spins.max_spins == 0 and m >= 1:
        raise ModelError(
            f"{where}: the free spins never end on average: a free spin adds {float(m):.6f} "
            "spins (must be below 1; set max_spins or lower the retrigger)"
        )


def counted_symbol(model: GameModel, rules: Mechanics) -> tuple[int, npt.NDArray[np.bool_]]:
    """The symbol a full-cycle enumeration counts per screen (the trigger symbol, else the
    scatter) and the reels it counts on; refuses a bonus trigger beside a paying scatter."""
    free = rules.free_spins
    counted = free.symbol if free is not None else model.scatter
    mask = rules.trigger_mask if free is not None else model.scatter_mask
    if counted != model.scatter and model.scatter >= 0:
        raise ModelError(
            f"{model.id}: the full analysis counts one symbol per screen; a bonus trigger "
            "beside a paying scatter needs the RTP route (analyze_rtp)"
        )
    return counted, mask


def _screen_distributions(
    model: GameModel, rules: Mechanics, variant_id: str
) -> tuple[ScreenDistribution, ScreenDistribution | None]:
    """The full-cycle enumerations of the base reel set and the free spins' (None without
    free spins), counting :func:`counted_symbol`'s symbol."""
    variant = model.variant(variant_id)
    free = rules.free_spins
    counted, mask = counted_symbol(model, rules)
    lines = model.line_count
    # The two full cycles are independent and the enumeration releases the GIL: run them on
    # two threads.
    with ThreadPoolExecutor(max_workers=2) as pool:
        base_job = pool.submit(
            enumerate_screens,
            model,
            variant.reel_sets["base"],
            lines,
            counted=counted,
            counted_reels=mask,
        )
        free_job = (
            pool.submit(
                enumerate_screens,
                model,
                variant.reel_sets[free.reel_set],
                lines,
                line_pays=rules.free_line_pays,
                counted=counted,
                counted_reels=mask,
            )
            if free is not None
            else None
        )
        return base_job.result(), free_job.result() if free_job is not None else None


def _scatter_pays(model: GameModel, free: bool, rules: Mechanics) -> list[int]:
    if model.scatter < 0:
        return [0]
    return [int(p) for p in (rules.free_scatter_pays if free else model.scatter_pays)]


def _plugin_gains(model: GameModel, rules: Mechanics, variant_id: str) -> tuple[Fraction, Fraction]:
    """What the model's plug-in adds to a base spin's expected win and to a free spin's, per
    unit bet: the full-cycle law of a screen's win with the plug-in's law of its new win,
    less the law without it (the plug-in needs a screen's win, which the per-line route
    does not hold)."""
    plugin = rules.plugin
    assert plugin is not None
    lines = model.line_count
    base, free = _screen_distributions(model, rules, variant_id)

    def gain(distribution: ScreenDistribution, is_free: bool) -> Fraction:
        pays = _scatter_pays(model, is_free, rules)
        with_plugin = screen_law(distribution, pays, lines, plugin=plugin, free=is_free)
        return with_plugin.mean - screen_law(distribution, pays, lines).mean

    return gain(base, False), gain(free, True) if free is not None else Fraction(0)


def total_coins(model: GameModel) -> int:
    """The coins a spin costs at one coin per unit: the paylines, or the cost of an evaluator
    that pays the whole window (:attr:`reelsmith.mechanics.base.Mechanic.evaluation`)."""
    cost: int = evaluation(model).cost(model)
    return cost


def pay_rtp(model: GameModel, reel_set: ReelSet, pays: Any, free: bool = False) -> Fraction:
    """What one screen of ``reel_set`` returns per unit bet from the model's evaluator (its
    ``screen_rtp``: the paylines' walk, the ways' per-reel counts, a count's law)."""
    rtp: Fraction = evaluation(model).screen_rtp(model, reel_set, pays, free)
    return rtp


def trigger_ways(model: GameModel, reel_set: ReelSet, rules: Mechanics) -> list[int]:
    """``ways[k]``: stop combinations whose screen counts ``k`` trigger symbols the way the
    free spins count them (:meth:`FreeSpins.counted`: 0 when a required reel shows none)."""
    free = rules.free_spins
    assert free is not None
    if free.required is None:
        return count_ways(model, reel_set, free.symbol, rules.trigger_mask)
    # per required reel, only its stops showing the symbol; the rest counted as 0
    shown: list[int] = [1]
    windows = reel_set.windows(model.rows)
    for reel, length in enumerate(reel_set.position_counts):
        counts = (windows[reel, : int(length)] == free.symbol).sum(axis=1)
        weights = reel_set.position_weights(reel)
        if not rules.trigger_mask[reel]:
            counts = counts * 0
        keep = counts > 0 if free.required[reel] else np.ones(len(counts), dtype=np.bool_)
        by_count = np.zeros(int(counts.max()) + 1, dtype=np.int64)
        np.add.at(by_count, counts[keep], weights[keep])
        combined = [0] * (len(shown) + len(by_count) - 1)
        for i, a in enumerate(shown):
            if a:
                for j, b in enumerate(by_count):
                    combined[i + j] += a * int(b)
        shown = combined
    shown[0] += reel_set.cycle - sum(shown)  # a required reel without the symbol: no trigger
    return shown


def _scatter_rtp(model: GameModel, reel_set: ReelSet, pays: list[int]) -> Fraction:
    """What the scatter returns per unit bet on ``reel_set``: its pays times the total bet, or
    per coin (``pays_per = "coin"``: a total bet's coins of which pay it once)."""
    ways = count_ways(model, reel_set, model.scatter, model.scatter_mask)
    paid = _expect(ways, reel_set.cycle, [pays[min(k, len(pays) - 1)] for k in range(len(ways))])
    return paid / total_coins(model) if model.scatter_pays_per_coin else paid


def analyze_rtp(model: GameModel, variant_id: str | None = None) -> CatalogueFigures:
    """The exact RTP of a catalogue variant and its parts (any reel-set size; with a plug-in,
    whose step needs a screen's win, a reel set's full cycle is enumerated)."""
    rules = mechanics(model)
    variant = model.variant(variant_id)
    where = f"{model.id} {variant.id}"
    own = own_rtp(model)
    if own is not None:
        figures: CatalogueFigures = own(model, variant.id)
        return figures
    if window_help(model) is not None and rules.plugin is not None:
        raise ModelError(
            f"{where}: the exact analysis of a plug-in on {evaluator(model).name} is not "
            "written yet"
        )
    base_gain = free_gain = Fraction(0)
    if rules.plugin is not None:
        base_gain, free_gain = _plugin_gains(model, rules, variant.id)
    base = variant.reel_sets["base"]
    line_rtp = pay_rtp(model, base, model.line_pays)
    scatter_pays = [int(p) for p in model.scatter_pays]
    scatter_rtp = Fraction(0)
    if model.scatter >= 0:
        scatter_rtp = _scatter_rtp(model, base, scatter_pays)
    base_rtp = line_rtp + scatter_rtp + base_gain
    free = rules.free_spins
    if free is None:
        zero = Fraction(0)
        return CatalogueFigures(
            line_rtp, scatter_rtp, zero, zero, zero, zero, zero, zero, base_rtp, base_gain
        )
    triggered = trigger_ways(model, base, rules)
    trigger_probability = sum(
        (Fraction(w, base.cycle) for k, w in enumerate(triggered) if k >= free.trigger),
        Fraction(0),
    )
    initial = sum(
        (
            Fraction(w, base.cycle) * _initial(rules, variant.id, k).mean
            for k, w in enumerate(triggered)
            if k >= free.trigger and w
        ),
        Fraction(0),
    )
    # the spins' win weighted by the multiplier each trigger count starts them with
    multiplied = sum(
        (
            Fraction(w, base.cycle) * _initial(rules, variant.id, k).mean * free.multiplier_for(k)
            for k, w in enumerate(triggered)
            if k >= free.trigger and w
        ),
        Fraction(0),
    )
    fs = variant.reel_sets[free.reel_set]
    free_lines = pay_rtp(model, fs, rules.free_line_pays, free=True)
    free_scatter = Fraction(0)
    if model.scatter >= 0:
        free_scatter = _scatter_rtp(model, fs, [int(p) for p in rules.free_scatter_pays])
    fs_trigger_ways = trigger_ways(model, fs, rules)
    m = _expect(fs_trigger_ways, fs.cycle, [_added(rules, k) for k in range(len(fs_trigger_ways))])
    _check_ends(rules, m, where)
    free_win = free_lines + free_scatter + free_gain
    if free.trigger_multipliers is not None and (free.max_spins or rules.plugin is not None):
        raise ModelError(
            f"{where}: free_spins.multipliers with a cap or a plug-in: the exact analysis of "
            "that combination is not written yet"
        )
    if free.max_spins:
        # Spins played, by Wald's identity E[F] = E[N] E[W]: the capped chain with W = 1.
        laws = [
            (Fraction(w, fs.cycle),) * 3 for w in fs_trigger_ways
        ]  # P(K = k), and W = 1 for every spin
        spins_given = _capped_given(rules, variant.id, triggered, base.cycle, laws)
        spins_per_round = sum(
            (
                Fraction(triggered[k], base.cycle) * moments.mean
                for k, moments in spins_given.items()
            ),
            Fraction(0),
        )
        initial = sum(
            (
                Fraction(w, base.cycle)
                * sum((n * p for n, p in initial_law(rules, variant.id, k).items()), Fraction(0))
                for k, w in enumerate(triggered)
                if k >= free.trigger and w
            ),
            Fraction(0),
        )
        free_spins_rtp = spins_per_round * free_win
    else:
        spins_per_round = initial / (1 - m)
        # Wald's identity per trigger count: its spins' line or way wins times the multiplier
        # it set (the scatter and a plug-in's gain are not multiplied)
        free_spins_rtp = (multiplied * free_lines + initial * (free_scatter + free_gain)) / (1 - m)
    return CatalogueFigures(
        line_rtp=line_rtp,
        scatter_rtp=scatter_rtp,
        free_spins_rtp=free_spins_rtp,
        trigger_probability=trigger_probability,
        expected_initial_spins=initial / trigger_probability
        if trigger_probability
        else Fraction(0),
        expected_free_spins=spins_per_round / trigger_probability
        if trigger_probability
        else Fraction(0),
        added_per_free_spin=m,
        free_spin_win=free_win,
        base_spin_rtp=base_rtp,
        plugin_rtp=base_gain,
        plugin_free_spins_rtp=spins_per_round * free_gain,
    )


# ---------------------------------------------------------------------------------------
# The full analysis: second moments, hit frequency, volatility
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ScreenLaw:
    """Exact sums over a reel set's cycle by trigger count ``k``: (ways, sum of wins, sum of
    squared wins), wins in coins at one coin on each of ``lines`` paylines.

    With a plug-in acting on the screens each stop combination splits into ``scale`` equally
    likely cases (the plug-in's outcomes, weighted), so the sums count ``total`` = ``cycle`` x
    ``scale`` cases; ``scale`` is 1 without one."""

    cycle: int
    lines: int
    by_count: tuple[tuple[int, int, int], ...]
    no_win_ways: int
    max_win: int
    scale: int = 1

    @property
    def total(self) -> int:
        """The cases the sums count: the cycle's stop combinations times ``scale``."""
        return self.cycle * self.scale

    def probability(self, k: int) -> Fraction:
        return Fraction(self.by_count[k][0], self.total)

    def win_given(self, k: int) -> Fraction:
        """E[W 1{K = k}] per unit bet."""
        return Fraction(self.by_count[k][1], self.total * self.lines)

    @property
    def mean(self) -> Fraction:
        return Fraction(sum(s for _, s, _ in self.by_count), self.total * self.lines)

    @property
    def second(self) -> Fraction:
        return Fraction(sum(q for _, _, q in self.by_count), self.total * self.lines**2)


def plugin_laws(
    plugin: Plugin | None, free: bool, wins: set[int], lines: int
) -> tuple[dict[int, list[tuple[int, int]]], int]:
    """The plug-in's exact law of a screen's new win for each screen win in ``wins`` (at one
    coin on each of ``lines`` paylines), its weights rescaled to one common total; returns
    ``({win: [(new win, weight)]}, total)``, empty and 1 where no plug-in acts."""
    if plugin is None or not plugin.acts(free):
        return {}, 1
    laws = {x: plugin.law(free, x, lines) for x in sorted(wins)}
    scale = 1
    for x, law in laws.items():
        weight = sum(n for _, n in law)
        if weight <= 0 or any(n < 0 for _, n in law):
            raise ModelError(
                f"plug-in {plugin.source}: win_law of a win of {x} coins has weights "
                f"{[n for _, n in law]}; they must be >= 0 and add up to more than 0"
            )
        scale = math.lcm(scale, weight)
    return {
        x: [(y, n * (scale // sum(m for _, m in law))) for y, n in law if n]
        for x, law in laws.items()
    }, scale


def screen_law(
    distribution: ScreenDistribution,
    scatter_pays: list[int],
    lines: int,
    trigger: int = 0,
    plugin: Plugin | None = None,
    free: bool = False,
) -> ScreenLaw:
    """The law of one reel set's screens; a screen with ``trigger`` or more counted symbols
    (``trigger`` > 0) is no losing screen even if it pays nothing itself. ``plugin`` (acting
    on ``free`` spins or base spins) maps each screen's win to its exact law of new wins
    (:func:`plugin_laws`): the plug-in's draw is independent of the screen given its win, so the
    new win's law is the mixture over the screens' wins."""
    last = len(scatter_pays) - 1
    by_k: list[list[tuple[int, int]]] = []  # (win, ways) of each trigger count
    for k, cells in enumerate(distribution.wins_by_count()):
        scatter_win = scatter_pays[min(k, last)] * lines
        by_k.append([(p + scatter_win, w) for p, w in cells])
    laws, scale = plugin_laws(plugin, free, {x for cells in by_k for x, _ in cells}, lines)
    rows = []
    no_win = 0
    best = 0
    for k, cells in enumerate(by_k):
        outcomes = [(y, w * n) for x, w in cells for y, n in laws.get(x, [(x, scale)])]
        rows.append(
            (
                sum(w for _, w in outcomes),
                sum(w * y for y, w in outcomes),
                sum(w * y * y for y, w in outcomes),
            )
        )
        if trigger == 0 or k < trigger:
            no_win += sum(w for y, w in outcomes if y == 0)
        best = max([best, *(y for y, _ in outcomes)])
    return ScreenLaw(distribution.cycle, lines, tuple(rows), no_win, best, scale)


@dataclass(frozen=True)
class CatalogueAnalysis:
    """Everything exact about one variant: the RTP route's figures plus the round's law."""

    model: GameModel
    variant_id: str
    figures: CatalogueFigures
    base: ScreenLaw
    free: ScreenLaw | None
    free_given: dict[int, Moments]  # the feature's win given k triggering symbols
    spins_given: dict[int, Moments]
    trigger: int
    seconds: float
    #: ``{win: ways}`` of a base spin's own win, in coins at one coin on every payline, over
    #: ``base.total`` cases (the cycle, times the plug-in's outcomes where one acts).
    base_wins: dict[int, int]
    base_line: LineFigures
    free_line: LineFigures | None
    initial_given: dict[int, Moments]  # the spins a trigger with k symbols awards
    awards: tuple[AwardFigures, ...]
    #: ``P(N = n)`` of the free spins one trigger plays (double precision).
    spins_per_trigger: npt.NDArray[np.float64]

    @property
    def total_bet(self) -> int:
        """The bet the figures are per unit of, in coins: one coin on every payline."""
        return self.base.lines

    @property
    def max_spin_win(self) -> Fraction:
        """The largest win of one base spin, per unit of total bet."""
        return Fraction(self.base.max_win, self.base.lines)

    @property
    def spins_per_round(self) -> Fraction:
        """Expected free spins played per round (base spin), retriggers included."""
        return sum(
            (self.base.probability(k) * m.mean for k, m in self.spins_given.items()), Fraction(0)
        )

    @property
    def variance(self) -> Fraction:
        return self.second_moment - self.rtp * self.rtp

    @property
    def rtp(self) -> Fraction:
        return self.figures.rtp

    @property
    def second_moment(self) -> Fraction:
        second = self.base.second
        for k, feature in self.free_given.items():
            second += 2 * self.base.win_given(k) * feature.mean
            second += self.base.probability(k) * feature.second
        return second

    @property
    def std_dev(self) -> float:
        return math.sqrt(self.variance)

    @property
    def base_spin_std_dev(self) -> float:
        """Standard deviation of one base spin's own win (lines and scatter, no feature)."""
        return math.sqrt(self.base.second - self.base.mean * self.base.mean)

    @property
    def hit_frequency(self) -> Fraction:
        """P(a base spin pays or triggers the feature)."""
        return 1 - Fraction(self.base.no_win_ways, self.base.total)

    @property
    def trigger_probability(self) -> Fraction:
        """P(a round's base spin starts the free spins); 0 for a model without them."""
        return self.figures.trigger_probability

    @property
    def volatility(self) -> str:
        return volatility_class(self.std_dev)

    @property
    def rare_awards(self) -> list[str]:
        """The awards rarer than GLI-11 allows (once in 100,000,000 games), named
        ``count x symbol``: a variant with any is not shipped."""
        return [f"{w.count} x {w.symbol}" for w in self.awards if w.below_gli_limit]

    def to_json(self) -> dict[str, Any]:
        f = self.figures
        return {
            "game": self.model.id,
            "variant": self.variant_id,
            "rtp": float(self.rtp),
            "line_rtp": float(f.line_rtp),
            "scatter_rtp": float(f.scatter_rtp),
            "free_spins_rtp": float(f.free_spins_rtp),
            "free_spins_frequency": float(f.trigger_probability),
            "expected_free_spins_per_trigger": float(f.expected_free_spins),
            "hit_frequency": float(self.hit_frequency),
            "std_dev": self.std_dev,
            "base_spin_std_dev": self.base_spin_std_dev,
            "volatility": self.volatility,
            "max_base_spin_win_x_bet": self.base.max_win / self.base.lines,
            "seconds": round(self.seconds, 3),
        }


def _spin_moments(law: ScreenLaw, added: list[int]) -> SpinMoments:
    def a(k: int) -> int:
        return added[k] if k < len(added) else added[-1]

    n = len(law.by_count)
    return SpinMoments(
        win=law.mean,
        win_sq=law.second,
        added=sum((Fraction(a(k) * law.by_count[k][0], law.total) for k in range(n)), Fraction(0)),
        added_sq=sum(
            (Fraction(a(k) ** 2 * law.by_count[k][0], law.total) for k in range(n)), Fraction(0)
        ),
        win_added=sum(
            (Fraction(a(k) * law.by_count[k][1], law.total * law.lines) for k in range(n)),
            Fraction(0),
        ),
    )


def beyond_the_cycle_law(model: GameModel) -> list[str]:
    """The options the full cycle's law (:func:`analyze_full`) and the kernel do not play yet,
    each named as the model writes it (the RTP route plays them all)."""
    rules = mechanics(model)
    found = []
    if model.scatter_pays_per_coin:
        found.append('scatter.pays_per = "coin"')
    free = rules.free_spins
    if free is not None and free.trigger_multipliers is not None:
        found.append("free_spins.multipliers")
    if free is not None and free.required is not None:
        found.append("free_spins.required_reels")
    return found


def analyze_full(model: GameModel, variant_id: str | None = None) -> CatalogueAnalysis:
    """The RTP route plus the round's second moment and the hit frequency (full-cycle
    enumeration of each reel set); the two routes' RTPs are checked equal."""
    started = time.perf_counter()
    from reelsmith.mechanics import declared

    if by_full_cycle(model):
        from reelsmith.mechanics.cascade.report import analyze as analyze_cascade

        return analyze_cascade(model, variant_id)  # type: ignore[return-value]
    lacking = [m for m in declared(model.raw) if not m.in_full_analysis]
    missing = [m.name for m in lacking] + beyond_the_cycle_law(model)
    if missing:
        where = (
            "reelsmith simulate gives them with their intervals beside the exact RTP"
            if all(m.in_kernel for m in lacking)
            else "reelsmith validate and the lab's RTP route (analyze_rtp) give the exact RTP"
        )
        raise ModelError(
            f"{model.source or model.id}: the full analysis (second moments, hit frequency) of "
            f"{', '.join(missing)} is not written yet; {where}"
        )
    rules = mechanics(model)
    variant = model.variant(variant_id)
    figures = analyze_rtp(model, variant.id)
    free = rules.free_spins
    plugin = rules.plugin
    screens = evaluation(model)
    lines = screens.cost(model)
    base_pays = _scatter_pays(model, False, rules)
    base_distribution, free_distribution = screens.screen_distributions(model, rules, variant.id)
    base = screen_law(
        base_distribution, base_pays, lines, free.trigger if free else 0, plugin, free=False
    )
    free_law: ScreenLaw | None = None
    free_given: dict[int, Moments] = {}
    spins_given: dict[int, Moments] = {}
    if free is not None:
        assert free_distribution is not None
        fs_pays = _scatter_pays(model, True, rules)
        free_law = screen_law(free_distribution, fs_pays, lines, plugin=plugin, free=True)
        if free.max_spins:
            scale = free_law.total * free_law.lines
            laws = [
                (
                    Fraction(ways, free_law.total),
                    Fraction(wins, scale),
                    Fraction(squares, scale * free_law.lines),
                )
                for ways, wins, squares in free_law.by_count
            ]
            trigger_ways = [ways for ways, _, _ in base.by_count]
            free_given = _capped_given(rules, variant.id, trigger_ways, base.total, laws)
            counting = [(p, p, p) for p, _, _ in laws]
            spins_given = _capped_given(rules, variant.id, trigger_ways, base.total, counting)
        else:
            added = [_added(rules, k) for k in range(len(free_law.by_count))]
            spin = _spin_moments(free_law, added)
            tree_win, tree_spins = tree_moments(spin)
            for k in range(free.trigger, len(base.by_count)):
                if base.by_count[k][0] == 0:
                    continue
                initial = _initial(rules, variant.id, k)
                free_given[k] = random_sum(initial, tree_win)
                spins_given[k] = random_sum(initial, tree_spins)
        mean = sum(
            (base.probability(k) * moments.mean for k, moments in free_given.items()),
            Fraction(0),
        )
        if mean != figures.free_spins_rtp:
            raise AssertionError("compound free-spin mean disagrees with Wald's identity")
    if base.mean != figures.base_spin_rtp:
        raise AssertionError("enumerated base spin disagrees with the per-line analysis")
    base_line = screens.award_figures(
        model, variant.reel_sets["base"], model.line_pays, base_distribution
    )
    free_line = (
        screens.award_figures(
            model, variant.reel_sets[free.reel_set], rules.free_line_pays, free_distribution
        )
        if free is not None
        else None
    )
    initial_given: dict[int, Moments] = {}
    law: FeatureLaw | None = None
    if free is not None and free_distribution is not None:
        initial_laws = {
            k: initial_law(rules, variant.id, k)
            for k in range(free.trigger, len(base.by_count))
            if base.by_count[k][0]
        }
        for k, by_n in initial_laws.items():
            initial_given[k] = Moments(
                sum((n * p for n, p in by_n.items()), Fraction(0)),
                sum((n * n * p for n, p in by_n.items()), Fraction(0)),
            )
        fs_cycle = free_distribution.cycle

        def added_spins(k: int, t: int) -> int:
            return int(
                award_spins(
                    free.retrigger,
                    free.retrigger_spins,
                    free.spins_per_symbol,
                    k,
                    t,
                    free.max_spins,
                )
            )

        law = FeatureLaw(
            initial={k: {n: float(p) for n, p in by_n.items()} for k, by_n in initial_laws.items()},
            trigger_weights={
                k: float(base.probability(k) / figures.trigger_probability) for k in initial_laws
            },
            free_counts=[w / fs_cycle for w in free_distribution.scatter_ways()],
            added=added_spins,
            max_spins=free.max_spins,
        )
    spins_per_round = sum(
        (base.probability(k) * m.mean for k, m in spins_given.items()), Fraction(0)
    )
    awards = award_figures(
        symbol_ids=model.symbol_ids,
        line_pays=model.line_pays,
        scatter=model.scatter,
        scatter_pays=base_pays if model.scatter >= 0 else [],
        free_scatter_pays=[int(p) for p in rules.free_scatter_pays] if model.scatter >= 0 else [],
        base=base_distribution,
        free=free_distribution,
        base_line_probability=base_line.probability,
        base_line_rtp=base_line.award_rtp,
        free_line_rtp=free_line.award_rtp if free_line is not None else base_line.award_rtp,
        law=law,
        trigger=free.trigger if free else 0,
        spins_per_round=spins_per_round,
    )
    plugin_total = figures.plugin_rtp + figures.plugin_free_spins_rtp
    if sum((a.rtp for a in awards), Fraction(0)) + plugin_total != figures.rtp:
        raise AssertionError("the awards' returns (and the plug-in's) do not add up to the RTP")
    base_wins = base_distribution.screen_wins(np.asarray(base_pays, dtype=np.int64), lines)
    if plugin is not None and plugin.in_base:
        new_wins, _scale = plugin_laws(plugin, False, set(base_wins), lines)
        plugin_wins: dict[int, int] = {}
        for x, ways in base_wins.items():
            for y, n in new_wins[x]:
                plugin_wins[y] = plugin_wins.get(y, 0) + ways * n
        base_wins = plugin_wins  # counted over base.total cases, as base's sums
    return CatalogueAnalysis(
        model=model,
        variant_id=variant.id,
        figures=figures,
        base=base,
        free=free_law,
        free_given=free_given,
        spins_given=spins_given,
        trigger=free.trigger if free else 0,
        seconds=time.perf_counter() - started,
        base_wins=base_wins,
        base_line=base_line,
        free_line=free_line,
        initial_given=initial_given,
        awards=awards,
        spins_per_trigger=spins_per_trigger(law),
    )


def stored_figures(analysis: CatalogueAnalysis) -> dict[str, float]:
    """The figures stored beside a variant's strips (10 decimal places), which a test re-derives
    from the strips; the spins a free spin adds on average only for a title with free spins."""
    if by_full_cycle(analysis.model):
        from reelsmith.mechanics.cascade.report import stored_figures as cascade_stored

        return cascade_stored(analysis)  # type: ignore[arg-type]
    f = analysis.figures
    figures = {
        "rtp": round(float(analysis.rtp), 10),
        "line_rtp": round(float(f.line_rtp), 10),
        "scatter_rtp": round(float(f.scatter_rtp), 10),
        "free_spins_rtp": round(float(f.free_spins_rtp), 10),
        "free_spins_frequency": round(float(f.trigger_probability), 10),
        "expected_free_spins_per_trigger": round(float(f.expected_free_spins), 10),
    }
    if mechanics(analysis.model).free_spins is not None:
        figures["spins_added_per_free_spin"] = round(float(f.added_per_free_spin), 10)
    figures["hit_frequency"] = round(float(analysis.hit_frequency), 10)
    figures["std_dev"] = round(analysis.std_dev, 10)
    return figures


@dataclass(frozen=True)
class FeatureGiven:
    """The free spins' exact law given their start: ``triggers`` trigger symbols, as a base
    spin showing them would start the feature (a bought feature). ``win`` and ``spins`` are the
    moments of the feature's whole win (per unit of the total bet) and of the spins it plays;
    ``no_win`` the probability that none of its spins pays (exact with a cap; for an uncapped
    feature the least root of its fixed point, in double precision); ``max_spin_win`` the
    largest win of one free spin, per unit of the total bet."""

    triggers: int
    win: Moments
    spins: Moments
    no_win: float
    max_spin_win: Fraction


def no_win_per_spin(law_zero: list[Fraction], added: list[int]) -> float:
    """The least ``z`` in [0, 1] with ``z = sum_k P(spin pays 0, shows k) z^a(k)``: the
    probability that one free spin and every spin it adds pay nothing. The iteration from 0
    rises to the least fixed point."""
    weights = [(float(p), a) for p, a in zip(law_zero, added, strict=True) if p]
    z = 0.0
    for _ in range(100_000):
        following = sum(p * z**a for p, a in weights)
        if abs(following - z) < 1e-17:
            return following
        z = following
    return z


def feature_given(model: GameModel, variant_id: str | None, triggers: int) -> FeatureGiven:
    """The feature's law started by ``triggers`` trigger symbols (see :class:`FeatureGiven`):
    the free reel set's full cycle (the evaluator's ``free_distribution``: the paylines' or the
    ways'), Wald's identity and the compound sums of the full analysis (or its capped chain),
    from a fixed start rather than the base spin's trigger law."""
    rules = mechanics(model)
    free = rules.free_spins
    where = model.source or model.id
    if free is None:
        raise ModelError(f"{where}: a feature can only be started where the model has free spins")
    chains = by_full_cycle(model)  # its own law says what it does not play
    missing = [] if chains else beyond_the_cycle_law(model)
    if rules.plugin is not None:
        missing.append("[plugin]")
    screens = None if chains else evaluation(model)
    if screens is not None and not hasattr(screens, "free_distribution"):
        missing.append(evaluator(model).name)
    if missing:
        raise ModelError(
            f"{where}: the exact law of a feature started directly with {', '.join(missing)} "
            "is not written yet"
        )
    if triggers < free.trigger:
        raise ModelError(
            f"{where}: {triggers} trigger symbols do not start the feature (it needs "
            f"{free.trigger})"
        )
    if chains:  # every spin a chain of screens: the full cycle of chains gives the law
        from reelsmith.mechanics.cascade.exact import feature_given as chains_given

        found: FeatureGiven = chains_given(model, variant_id, triggers)
        return found
    assert screens is not None
    variant = model.variant(variant_id)
    # the free reel set's full cycle as the evaluator's own walk reads it (the paylines'
    # enumeration, the ways' signature walk with a free spin's drawn wild weights): each
    # screen's win jointly with its count of the trigger symbol
    distribution = screens.free_distribution(model, rules, variant.id)
    lines = screens.cost(model)
    pays = _scatter_pays(model, True, rules)
    law = screen_law(distribution, pays, lines, free=True)
    last = len(pays) - 1
    zero = [
        Fraction(dict(cells).get(0, 0) if pays[min(k, last)] == 0 else 0, law.total)
        for k, cells in enumerate(distribution.wins_by_count())
    ]

    def added(k: int, t: int) -> int:
        return int(
            award_spins(
                free.retrigger, free.retrigger_spins, free.spins_per_symbol, k, t, free.max_spins
            )
        )

    start = initial_law(rules, variant.id, triggers)
    if free.max_spins:
        scale = law.total * law.lines
        laws = [
            (Fraction(w, law.total), Fraction(s, scale), Fraction(q, scale * law.lines))
            for w, s, q in law.by_count
        ]
        by_start = capped_feature(free.max_spins, laws, added)
        counting = capped_feature(free.max_spins, [(p, p, p) for p, _, _ in laws], added)
        win = Moments(
            sum((p * by_start[n][0] for n, p in start.items()), Fraction(0)),
            sum((p * by_start[n][1] for n, p in start.items()), Fraction(0)),
        )
        spins = Moments(
            sum((p * counting[n][0] for n, p in start.items()), Fraction(0)),
            sum((p * counting[n][1] for n, p in start.items()), Fraction(0)),
        )
        # P(no spin pays | r spins left, t awarded): the capped chain with the zero-win law
        nothing: dict[tuple[int, int], Fraction] = {}
        for t in range(free.max_spins, 0, -1):
            nothing[(0, t)] = Fraction(1)
            for r in range(1, t + 1):
                total = Fraction(0)
                for k, p in enumerate(zero):
                    if p:
                        a = added(k, t)
                        total += p * nothing[(r - 1 + a, t + a)]
                nothing[(r, t)] = total
        no_win = float(sum((p * nothing[(n, n)] for n, p in start.items()), Fraction(0)))
    else:
        each = [added(k, 0) for k in range(len(law.by_count))]
        _check_ends(rules, _spin_moments(law, each).added, str(where))
        tree_win, tree_spins = tree_moments(_spin_moments(law, each))
        initial = _initial(rules, variant.id, triggers)
        win = random_sum(initial, tree_win)
        spins = random_sum(initial, tree_spins)
        z = no_win_per_spin(zero, each)
        no_win = sum(float(p) * z**n for n, p in start.items())
    return FeatureGiven(triggers, win, spins, no_win, Fraction(law.max_win, lines))
