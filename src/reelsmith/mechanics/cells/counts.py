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
cascade of lines or ways make the place of a cell matter: those are beyond this law, and said
to be.

A cascade of a count anywhere whose cells are drawn from one table on every reel
(:func:`count_chain_law`) stays a law of counts: a screen's wins remove cells by their symbols
alone, the cells left keep their counts wherever they fall, and the new cells are a multinomial
draw from the table. The chain is a Markov chain on the count vectors, whose moments (the pay
and the awards, their squares and product, the chance of nothing, the largest pay) are summed
backwards from the step limit in whole numbers over one common denominator, the table's total
to the power of the cells times the step limit."""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
from numba import njit

from reelsmith.analysis.enumeration import BeyondEnumerationError
from reelsmith.engine.catalogue import spins_by_count
from reelsmith.engine.model import GameModel, ReelSet
from reelsmith.mechanics.cascade.exact import ChainSums, ScreenTables, _counted, screen_pay

#: The most count vectors the law holds (each one screen paid): beyond it the lab says so.
COUNT_STATES_LIMIT = 2_000_000
#: The most refill outcomes a cascade's chain of counts weighs over its steps (the states'
#: outcomes times the steps): beyond it the lab says so and simulates.
CHAIN_WORK_LIMIT = 30_000_000


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


def count_law(model: GameModel, reel_set: ReelSet, t: ScreenTables) -> ChainSums:
    """The :class:`ChainSums` of a count anywhere (no cascade) on ``reel_set``'s drawn cells,
    from the law of its counts; BeyondEnumerationError where the place of a cell matters or
    the counts are too many."""
    where = f"{model.id}: reel set {reel_set.name}"
    if not t.anywhere.on:
        paid = "ways" if t.ways.on else "lines"
        raise BeyondEnumerationError(
            f"{where}: a cascade of {paid} refilled cell by cell has no exact law (where each "
            "new cell lands decides the next screen)"
            if "cascade" in model.raw
            else f"{where}: only a count anywhere is paid by its counts"
        )
    if not (t.scatter_mask.all() and t.trigger_mask.all()) or t.required.any():
        raise BeyondEnumerationError(
            f"{where}: a scatter or trigger counted on some reels only makes the place of a "
            "drawn cell matter"
        )
    tracked = _tracked(model, t)
    if "cascade" in model.raw:
        return count_chain_law(model, reel_set, t, tracked)
    states = count_vectors(reel_set, model.rows, tracked)
    weights = list(states.values())
    figures, _removed = _chain_screens(
        t, _screens(model, tracked, list(states)), np.array(tracked, dtype=np.int64)
    )
    return _sums(reel_set, t, weights, figures[:, 0], figures[:, 1], figures[:, 2])


def _tracked(model: GameModel, t: ScreenTables) -> list[int]:
    """The symbols a count's law counts: those that pay, the wild, the scatter, the trigger."""
    return sorted(
        {int(s) for s in t.anywhere.paying} | {t.wild, model.scatter, t.trigger_symbol} - {-1}
    )


def _screens(
    model: GameModel, tracked: list[int], vectors: list[tuple[int, ...]]
) -> npt.NDArray[np.int8]:
    """A screen showing each count vector of ``tracked`` (the other cells one other symbol)."""
    others = [s.index for s in model.symbols if s.index not in tracked]
    filler = others[0] if others else tracked[0]
    cells = model.rows * model.reels
    grids = np.full((len(vectors), cells), filler, dtype=np.int8)
    for i, vector in enumerate(vectors):
        at = 0
        for symbol, count in zip(tracked, vector, strict=True):
            grids[i, at : at + count] = symbol
            at += count
    shaped = np.ascontiguousarray(grids.reshape(len(vectors), model.reels, model.rows))
    return np.ascontiguousarray(shaped.transpose(0, 2, 1))


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


@njit(cache=True, nogil=True)
def _chain_screens(
    t: ScreenTables, grids: npt.NDArray[np.int8], tracked: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Each screen read as the kernel reads it (:func:`.exact.screen_pay`; on a cascade's
    chain the scatter and the trigger left to the final screen where the cascade counts them
    there): per screen ``[count coins, scatter coins, trigger count, final scatter coins,
    final trigger count]``, and the cells its wins remove, per ``tracked`` symbol."""
    n, rows, reels = grids.shape
    final = t.scatter_final
    figures = np.zeros((n, 5), dtype=np.int64)
    removed_counts = np.zeros((n, tracked.shape[0]), dtype=np.int64)
    removed = np.zeros((rows, reels), dtype=np.bool_)
    cells = np.empty(reels, dtype=np.int8)
    counts = np.zeros(t.substitutable.shape[0], dtype=np.int64)
    width = max(t.ways.paying.shape[0], t.anywhere.paying.shape[0]) + 1
    out = np.zeros((3, width), dtype=np.int64)
    for i in range(n):
        grid = grids[i]
        figures[i, 0], figures[i, 1], figures[i, 2] = screen_pay(
            t, grid, removed, cells, counts, out, t.scatter_final
        )
        if final:
            figures[i, 3], figures[i, 4] = _counted(
                grid,
                t.scatter,
                t.scatter_mask,
                t.scatter_pays,
                t.scatter_unit,
                t.trigger_symbol,
                t.trigger_mask,
                t.required,
            )
        for row in range(rows):
            for reel in range(reels):
                if removed[row, reel]:
                    for k in range(tracked.shape[0]):
                        if grid[row, reel] == tracked[k]:
                            removed_counts[i, k] += 1
    return figures, removed_counts


def _compositions(total: int, parts: int) -> list[tuple[int, ...]]:
    """Every way of writing ``total`` as ``parts`` whole numbers >= 0, in order."""
    if parts == 1:
        return [(total,)]
    return [
        (first, *rest)
        for first in range(total, -1, -1)
        for rest in _compositions(total - first, parts - 1)
    ]


def _multinomial(
    n: int, weights: list[int], cache: dict[int, list[tuple[tuple[int, ...], int]]]
) -> list[tuple[tuple[int, ...], int]]:
    """The ``n`` draws' count vectors over the categories of ``weights`` and each one's weight
    (``n! / prod(m_i!) * prod(w_i ** m_i)``; they total ``sum(weights) ** n``), nonzero ones."""
    found = cache.get(n)
    if found is None:
        found = []
        for vector in _compositions(n, len(weights)):
            weight = math.factorial(n)
            for m, w in zip(vector, weights, strict=True):
                weight = weight // math.factorial(m) * w**m if m else weight
            if weight:
                found.append((vector, weight))
        cache[n] = found
    return found


def count_chain_law(
    model: GameModel, reel_set: ReelSet, t: ScreenTables, tracked: list[int]
) -> ChainSums:
    """The :class:`ChainSums` of a cascade of a count anywhere on ``reel_set``'s drawn cells,
    refilled cell by cell from one table shared by every reel: the Markov chain of the screens'
    count vectors (see the module). BeyondEnumerationError where the reels' tables differ (a
    count vector then does not say which reel's table refills a cell) or the chain's work
    passes :data:`CHAIN_WORK_LIMIT`."""
    where = f"{model.id}: reel set {reel_set.name}"
    tables = reel_set.cells
    assert tables is not None
    if any(table != tables[0] for table in tables):
        raise BeyondEnumerationError(
            f"{where}: a cascade refilled cell by cell has an exact law of counts when every "
            "reel draws from one table; its reels' tables differ"
        )
    table = dict(tables[0])
    weights = [table.get(symbol, 0) for symbol in tracked]
    weights.append(sum(w for symbol, w in table.items() if symbol not in tracked))
    total = sum(weights)
    cells = model.rows * model.reels
    steps = t.limit
    outcomes: dict[int, list[tuple[tuple[int, ...], int]]] = {}
    law = _multinomial(cells, weights, outcomes)
    if len(law) > COUNT_STATES_LIMIT:
        raise BeyondEnumerationError(
            f"{where}: its screens show more than {COUNT_STATES_LIMIT:,} different counts of "
            "the symbols that pay"
        )
    vectors = [v for v, _ in law]
    index = {v: i for i, v in enumerate(vectors)}
    figures, removed = _chain_screens(
        t, _screens(model, tracked, [v[:-1] for v in vectors]), np.array(tracked, dtype=np.int64)
    )
    # each state's refill: the next states with their weights, each normalised to a whole
    # step's denominator (total ** cells); none where the screen removes nothing
    moves: list[list[tuple[int, int]]] = []
    work = 0
    for i, vector in enumerate(vectors):
        gone = [*removed[i].tolist(), 0]
        k = sum(gone)
        left = [c - g for c, g in zip(vector, gone, strict=True)]
        scale = total ** (cells - k)
        step_moves = []
        if k:
            for drawn, weight in _multinomial(k, weights, outcomes):
                after = tuple(a + b for a, b in zip(left, drawn, strict=True))
                step_moves.append((index[after], weight * scale))
        work += len(step_moves)
        moves.append(step_moves)
        if work * steps > CHAIN_WORK_LIMIT:
            raise BeyondEnumerationError(
                f"{where}: its cascade's chain of counts weighs more than "
                f"{CHAIN_WORK_LIMIT:,} refills over its {steps} steps"
            )
    chain = _Chain(t, figures, moves, total**cells)
    return chain.sums([w for _, w in law])


class _Chain:
    """A cascade's Markov chain of count vectors: each state's screen figures and refills."""

    def __init__(
        self,
        t: ScreenTables,
        figures: npt.NDArray[np.int64],
        moves: list[list[tuple[int, int]]],
        unit: int,
    ) -> None:
        self.t = t
        self.moves = moves
        self.unit = unit  # one step's denominator
        trig = t.trigger_symbol >= 0

        def award(shown: int) -> int:
            return spins_by_count(t.spins, shown) if trig and shown >= t.trigger else 0

        self.line = figures[:, 0].tolist()
        self.scatter = figures[:, 1].tolist()
        self.awards = [award(x) for x in figures[:, 2].tolist()]
        self.last_scatter = figures[:, 3].tolist()
        self.last_awards = [award(x) for x in figures[:, 4].tolist()]

    def screen(self, i: int, step: int) -> tuple[int, int, int, bool]:
        """State ``i`` read as screen ``step`` (from 1): its pay, its scatter's part, the
        spins it awards, and whether it is the chain's final screen (the scatter counted
        there alone where the cascade says so)."""
        t = self.t
        last = not self.moves[i] or step == t.limit
        scattered = self.scatter[i]
        got = self.awards[i]
        if t.scatter_final and last:
            scattered += self.last_scatter[i]
            got += self.last_awards[i]
        return self.line[i] * int(t.multipliers[step - 1]) + scattered, scattered, got, last

    def sums(self, first: list[int]) -> ChainSums:
        """The chain's :class:`ChainSums` from the first screen's law ``first`` (weights over
        ``unit``): the moments summed backwards (at step ``j`` each state's rest of the chain
        over ``unit ** (limit - j)``), the counters forwards."""
        steps, unit, n = self.t.limit, self.unit, len(first)
        rest: tuple[list[int], ...] = ()
        for step in range(steps, 0, -1):
            scale = unit ** (steps - step)
            p1, p2, a1, a2, pa, quiet, none, most = ([0] * n for _ in range(8))
            for i in range(n):
                pay, _scattered, got, last = self.screen(i, step)
                f1 = f2 = g1 = g2 = fg = top = 0
                q = z = scale
                if not last:
                    r1, r2, s1, s2, rg, rq, rz, rm = rest
                    q = z = 0
                    for to, w in self.moves[i]:
                        f1 += w * r1[to]
                        f2 += w * r2[to]
                        g1 += w * s1[to]
                        g2 += w * s2[to]
                        fg += w * rg[to]
                        q += w * rq[to]
                        z += w * rz[to]
                        top = max(top, rm[to])
                p1[i] = pay * scale + f1
                p2[i] = pay * pay * scale + 2 * pay * f1 + f2
                a1[i] = got * scale + g1
                a2[i] = got * got * scale + 2 * got * g1 + g2
                pa[i] = pay * got * scale + pay * g1 + got * f1 + fg
                quiet[i] = q if pay == 0 and got == 0 else 0
                none[i] = z if got == 0 else 0
                most[i] = pay + top
            rest = (p1, p2, a1, a2, pa, quiet, none, most)
        p1, p2, a1, a2, pa, quiet, none, most = rest
        cycle = unit**steps

        def total(values: list[int]) -> int:
            return sum(w * v for w, v in zip(first, values, strict=True))

        reached, by_step, scatter_pay = self._forward(first)
        return ChainSums(
            cycle=cycle,
            pay=total(p1),
            pay_squared=float(total(p2)),
            awards=total(a1),
            pay_awards=total(pa),
            awards_squared=total(a2),
            hits=cycle - total(quiet),
            max_pay=max(most),
            scatter_pay=scatter_pay,
            triggered=cycle - total(none),
            reached=reached,
            by_step=by_step,
        )

    def _forward(self, first: list[int]) -> tuple[tuple[int, ...], tuple[int, ...], int]:
        """The chains reading each screen, the pay of each screen and the scatter's pay, each
        over ``unit ** limit``, from the screens' law step by step."""
        steps, unit = self.t.limit, self.unit
        mass = dict(enumerate(first))
        reached, by_step = [], []
        scatter_pay = 0
        for step in range(1, steps + 1):
            scale = unit ** (steps - step)
            reached.append(sum(mass.values()) * scale)
            paid = 0
            after: dict[int, int] = {}
            for i, m in mass.items():
                pay, scattered, _got, last = self.screen(i, step)
                paid += m * pay
                scatter_pay += m * scattered * scale
                if not last:
                    for to, w in self.moves[i]:
                        after[to] = after.get(to, 0) + m * w
            by_step.append(paid * scale)
            mass = after
        return tuple(reached), tuple(by_step), scatter_pay
