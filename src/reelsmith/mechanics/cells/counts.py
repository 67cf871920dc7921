"""The exact full law of a count anywhere on drawn cells: the multinomial law of the counts.

A count anywhere pays a screen by how many cells show each symbol, and on a reel set of drawn
cells those counts have an exact law without the screens: each reel's window is the law of its
cells' counts (its windows' count vectors, weighed), and the screen's is the convolution of the
reels' (the multinomial law, where every reel draws from one table). Every symbol that pays,
the wild, the scatter and the trigger symbol is counted; the others are one "other" count. Each
count vector is paid once, on a screen that shows those counts (where the cells stand does not
change a count's pay), by the enumeration's own screen rule
(:func:`reelsmith.mechanics.cascade.exact._screen`), and weighed by its probability: the sums
:class:`~reelsmith.mechanics.cascade.exact.ChainSums` holds, so the lab's full analysis (hit
frequency, standard deviation, the free spins by Wald's identities) reads them as it reads an
enumerated cycle's. A scatter or trigger counted on some reels only, a required reel and a
cascade make the place of a cell matter: those are beyond this law, and said to be."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from reelsmith.analysis.enumeration import BeyondEnumerationError
from reelsmith.engine.catalogue import spins_by_count
from reelsmith.engine.model import GameModel, ReelSet
from reelsmith.mechanics.cascade.exact import ChainSums, ScreenTables, _screen

#: The most count vectors the law holds (each one screen paid): beyond it the lab says so.
COUNT_STATES_LIMIT = 2_000_000


def count_vectors(reel_set: ReelSet, rows: int, tracked: list[int]) -> dict[tuple[int, ...], int]:
    """The weighted law of the counts of ``tracked`` symbols on a screen of ``reel_set``: each
    reel's law of its window's counts, convolved over the reels."""
    windows = reel_set.window_table(rows)
    states: dict[tuple[int, ...], int] = {(0,) * len(tracked): 1}
    for reel in range(windows.shape[0]):
        shown = windows[reel, : int(reel_set.position_counts[reel])]
        vectors = np.stack([(shown == s).sum(axis=1) for s in tracked], axis=1)
        law: dict[tuple[int, ...], int] = {}
        for vector, weight in zip(
            map(tuple, vectors.tolist()), reel_set.position_weights(reel).tolist(), strict=True
        ):
            if weight:
                law[vector] = law.get(vector, 0) + weight
        combined: dict[tuple[int, ...], int] = {}
        for a, x in states.items():
            for b, y in law.items():
                key = tuple(i + j for i, j in zip(a, b, strict=True))
                combined[key] = combined.get(key, 0) + x * y
        if len(combined) > COUNT_STATES_LIMIT:
            raise BeyondEnumerationError(
                f"reel set {reel_set.name}: its screens show more than "
                f"{COUNT_STATES_LIMIT:,} different counts of the symbols that pay"
            )
        states = combined
    return states


@njit(cache=True, nogil=True)
def _pay_screens(
    t: ScreenTables, grids: npt.NDArray[np.int8]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Each screen's (count coins, scatter coins, trigger count) by the enumeration's rule."""
    n, rows, reels = grids.shape
    line = np.zeros(n, dtype=np.int64)
    scatter = np.zeros(n, dtype=np.int64)
    triggers = np.zeros(n, dtype=np.int64)
    removed = np.zeros((rows, reels), dtype=np.bool_)
    cells = np.empty(reels, dtype=np.int8)
    counts = np.zeros(t.substitutable.shape[0], dtype=np.int64)
    width = max(t.ways.paying.shape[0], t.anywhere.paying.shape[0]) + 1
    out = np.zeros((3, width), dtype=np.int64)
    for i in range(n):
        line[i], scatter[i], triggers[i] = _screen(
            grids[i],
            removed,
            t.paylines,
            t.line_pays,
            t.wild,
            t.substitutable,
            t.wild_multiplier,
            t.ties_to_wild,
            1,
            t.scatter,
            t.scatter_mask,
            t.scatter_pays,
            t.scatter_unit,
            t.scatter_least,
            t.trigger_symbol,
            t.trigger,
            t.trigger_mask,
            t.required,
            cells,
            t.ways,
            t.anywhere,
            counts,
            out,
        )
    return line, scatter, triggers


def count_law(model: GameModel, reel_set: ReelSet, t: ScreenTables) -> ChainSums:
    """The :class:`ChainSums` of a count anywhere (no cascade) on ``reel_set``'s drawn cells,
    from the law of its counts; BeyondEnumerationError where the place of a cell matters or
    the counts are too many."""
    where = f"{model.id}: reel set {reel_set.name}"
    if "cascade" in model.raw or not t.anywhere.on:
        raise BeyondEnumerationError(f"{where}: only a count anywhere is paid by its counts")
    if not (t.scatter_mask.all() and t.trigger_mask.all()) or t.required.any():
        raise BeyondEnumerationError(
            f"{where}: a scatter or trigger counted on some reels only makes the place of a "
            "drawn cell matter"
        )
    tracked = sorted(
        {int(s) for s in t.anywhere.paying} | {t.wild, model.scatter, t.trigger_symbol} - {-1}
    )
    others = [s.index for s in model.symbols if s.index not in tracked]
    filler = others[0] if others else tracked[0]
    states = count_vectors(reel_set, model.rows, tracked)
    cells = model.rows * model.reels
    grids = np.full((len(states), cells), filler, dtype=np.int8)
    weights = []
    for i, (vector, weight) in enumerate(states.items()):
        at = 0
        for symbol, count in zip(tracked, vector, strict=True):
            grids[i, at : at + count] = symbol
            at += count
        weights.append(weight)
    shaped = np.ascontiguousarray(grids.reshape(len(states), model.reels, model.rows))
    line, scatter, triggers = _pay_screens(t, np.ascontiguousarray(shaped.transpose(0, 2, 1)))
    return _sums(reel_set, t, weights, line, scatter, triggers)


def _sums(
    reel_set: ReelSet,
    t: ScreenTables,
    weights: list[int],
    line: npt.NDArray[np.int64],
    scatter: npt.NDArray[np.int64],
    triggers: npt.NDArray[np.int64],
) -> ChainSums:
    pay_sum = awards = pay_awards = awards_squared = hits = scatter_sum = triggered = 0
    squares = 0.0
    most = 0
    multiplier = int(t.multipliers[0])
    for weight, won, scattered, shown in zip(
        weights, line.tolist(), scatter.tolist(), triggers.tolist(), strict=True
    ):
        pay = won * multiplier + scattered
        triggered_here = t.trigger_symbol >= 0 and shown >= t.trigger
        awarded = spins_by_count(t.spins, shown) if triggered_here else 0
        pay_sum += pay * weight
        awards += awarded * weight
        pay_awards += pay * awarded * weight
        awards_squared += awarded * awarded * weight
        scatter_sum += scattered * weight
        triggered += weight if awarded > 0 else 0
        hits += weight if pay > 0 or awarded > 0 else 0
        squares += float(pay) * float(pay) * float(weight)
        most = max(most, pay)
    return ChainSums(
        cycle=reel_set.cycle,
        pay=pay_sum,
        pay_squared=squares,
        awards=awards,
        pay_awards=pay_awards,
        awards_squared=awards_squared,
        hits=hits,
        max_pay=most,
        scatter_pay=scatter_sum,
        triggered=triggered,
        reached=(reel_set.cycle,),
        by_step=(pay_sum,),
    )
