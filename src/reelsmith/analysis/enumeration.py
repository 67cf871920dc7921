"""Full-cycle enumeration of one screen: the exact joint distribution of the line pay and the
scatter count over every stop combination of a reel set.

Why a tree and not a loop over combinations
-------------------------------------------
A reel set of five ~53-stop strips has ~4 x 10^8 stop combinations. Most of them are decided
early: once reels 1 and 2 show no continuing run on any payline, no later reel can change the
line pay, and only the scatter count still varies. The enumeration therefore walks the stop
combinations as a tree, reel by reel (depth-first), and keeps the set of paylines whose result
is not decided yet. A payline is *decided* at depth ``d`` when its run broke within the first
``d`` reels; its pay is then the pay :func:`reelsmith.engine.lines.line_win` gives for those
cells with *any* completion (the same rule kernel live play uses). When every payline is
decided, the whole subtree below is added at once, with the scatter count of the remaining
reels taken from their exact count distribution (the convolution of the per-reel window
tables). Every stop combination is counted exactly once, with integer weights, so the result is
the same as evaluating each screen in turn - a test checks it against brute force through the
live evaluator.

The result, :class:`ScreenDistribution`, holds ``ways[scatters, line_pay]`` (line pay summed
over the enabled paylines, per coin bet per line) and, for each line award (symbol, count),
the number of combinations that show it on at least one payline, by scatter count. From these
follow the hit frequency, the win distribution, the second moment of the screen's win and the
probability of every paytable award.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt
from numba import njit

from reelsmith.engine.lines import line_award
from reelsmith.engine.model import GameModel, ModelError, ReelSet

#: Lines are tracked as bits of one int64.
MAX_LINES = 62


class BeyondEnumerationError(ModelError):
    """A full cycle beyond what the lab enumerates (too many combinations, or sums beyond
    64-bit integers); the message says which. ``reelsmith analyze`` then gives the exact RTP
    route and simulated figures, said to be simulated."""


#: The most stop combinations a full cycle of paylines is enumerated over (the slotopol lines
#: corpus' largest reel sets have some 10^10; a walk of 10^12 takes hours on two cores).
COMBINATION_LIMIT = 10**12

#: Distinct line awards (symbol, count) are tracked as bits of one int64.
MAX_AWARDS = 62


def stop_windows(reel_set: ReelSet, rows: int) -> npt.NDArray[np.int8]:
    """``windows[reel, stop, row]``: the symbol each row shows when ``reel`` stops at ``stop``
    (at a position, on a reel set of variable rows: :meth:`ReelSet.windows`)."""
    return reel_set.windows(rows)


def scatter_in_windows(windows: npt.NDArray[np.int8], scatter: int) -> npt.NDArray[np.int64]:
    """``shown[reel, stop]``: how many cells of that reel's window show ``scatter``."""
    if scatter < 0:
        return np.zeros(windows.shape[:2], dtype=np.int64)
    shown: npt.NDArray[np.int64] = (windows == scatter).sum(axis=2).astype(np.int64)
    return shown


def line_awards(
    model: GameModel, line_pays: npt.NDArray[np.int64] | None = None
) -> tuple[tuple[int, int], ...]:
    """Every line award of the paytable as ``(symbol, count)``, in symbol then count order."""
    pays = model.line_pays if line_pays is None else line_pays
    awards = tuple(
        (symbol, count)
        for symbol in range(len(model.symbols))
        for count in range(1, model.reels + 1)
        if pays[symbol, count] > 0
    )
    if len(awards) > MAX_AWARDS:
        raise ValueError(f"at most {MAX_AWARDS} line awards are supported, got {len(awards)}")
    return awards


@njit(cache=True, nogil=True)
def run_decided(
    cells: npt.NDArray[np.int8], depth: int, wild: int, substitutable: npt.NDArray[np.bool_]
) -> bool:
    """Whether a payline's result is fixed by its first ``depth`` cells: its run has broken.

    Mirrors the run structure of ``line_win``: leading wilds, then the first other symbol and
    its run of the same symbol or wild. While every cell so far continues the run, later reels
    can still lengthen it, so the line is not decided.
    """
    k = 0
    while k < depth and cells[k] == wild:
        k += 1
    if k == depth:
        return False
    symbol = cells[k]
    if not substitutable[symbol]:
        return True
    k += 1
    while k < depth and (cells[k] == symbol or cells[k] == wild):
        k += 1
    return k < depth


_DE_BRUIJN = np.array(
    [
        0, 1, 48, 2, 57, 49, 28, 3, 61, 58, 50, 42, 38, 29, 17, 4,
        62, 55, 59, 36, 53, 51, 43, 22, 45, 39, 33, 30, 24, 18, 12, 5,
        63, 47, 56, 27, 60, 41, 37, 16, 54, 35, 52, 21, 44, 32, 23, 11,
        46, 26, 40, 15, 34, 20, 31, 10, 25, 14, 19, 9, 13, 8, 7, 6,
    ],
    dtype=np.int64,
)  # fmt: skip


@njit(cache=True, nogil=True)
def lowest_bit(bits: int) -> int:
    """Index of the lowest set bit of a non-zero ``bits`` (de Bruijn multiplication)."""
    low = np.uint64(bits & -bits)
    return int(_DE_BRUIJN[(low * np.uint64(0x03F79D71B4CB0A89)) >> np.uint64(58)])


@njit(cache=True, nogil=True)
def _add_awards(
    award_ways: npt.NDArray[np.int64],
    awards: int,
    scatter: int,
    tail: npt.NDArray[np.int64],
    weight: int,
) -> None:
    """``award_ways[a, scatter + k] += weight * tail[k]`` for every award bit ``a`` set in
    ``awards``."""
    bits = awards
    while bits != 0:
        award = lowest_bit(bits)
        bits &= bits - 1
        for k in range(min(tail.shape[0], award_ways.shape[1] - scatter)):
            award_ways[award, scatter + k] += weight * tail[k]


@njit(cache=True, nogil=True)
def _enumerate_tree(
    windows: npt.NDArray[np.int8],
    stop_lists: npt.NDArray[np.int64],
    n_stops: npt.NDArray[np.int64],
    stop_weights: npt.NDArray[np.int64],
    scatters: npt.NDArray[np.int64],
    tail_ways: npt.NDArray[np.int64],
    paylines: npt.NDArray[np.int8],
    n_lines: int,
    line_pays: npt.NDArray[np.int64],
    wild: int,
    substitutable: npt.NDArray[np.bool_],
    wild_multiplier: int,
    ties_to_wild: bool,
    award_of: npt.NDArray[np.int64],
    ways: npt.NDArray[np.int64],
    award_ways: npt.NDArray[np.int64],
) -> int:
    """Depth-first walk over the stop combinations; returns the number of tree nodes visited.

    Each open payline carries its run state from reel to reel: ``-1`` while it has shown only
    wilds, else the symbol its run is made of. A cell that neither is the wild nor continues
    the run decides the line, and its pay is then taken from ``line_win``. The last reel is
    a tight loop over its stops: the open lines' pays for each symbol the last cell can show
    are computed once (with ``line_win``) and looked up per stop.

    Each combination counts with the product of its stops' weights (``stop_weights[reel,
    stop]``, all 1 for an unweighted reel set): ``path_weight[d]`` is the product over the
    stops chosen on the first ``d`` reels, and ``tail_ways`` already weighs the reels below.
    """
    reels = windows.shape[0]
    n_symbols = line_pays.shape[0]
    last = reels - 1
    position = np.zeros(reels, dtype=np.int64)
    current = np.zeros(reels, dtype=np.int64)
    open_lines = np.zeros((reels + 1, n_lines), dtype=np.int64)
    open_count = np.zeros(reels + 1, dtype=np.int64)
    run_symbol = np.zeros((reels + 1, n_lines), dtype=np.int64)
    pay_at = np.zeros(reels + 1, dtype=np.int64)
    awards_at = np.zeros(reels + 1, dtype=np.int64)
    scatter_at = np.zeros(reels + 1, dtype=np.int64)
    path_weight = np.ones(reels + 1, dtype=np.int64)
    cells = np.empty(reels, dtype=np.int8)
    last_pay = np.zeros((n_lines, n_symbols), dtype=np.int64)
    last_award = np.zeros((n_lines, n_symbols), dtype=np.int64)
    last_row = np.zeros(n_lines, dtype=np.int64)
    first_break = np.full(1, -1, dtype=np.int64)
    for line in range(n_lines):
        open_lines[0, line] = line
        run_symbol[0, line] = -1
    open_count[0] = n_lines
    nodes = 0
    depth = 0
    while True:
        if position[depth] == n_stops[depth]:
            if depth == 0:
                return nodes
            depth -= 1
            position[depth] += 1
            continue
        nodes += 1
        stop = stop_lists[depth, position[depth]]
        current[depth] = stop
        scatter = scatter_at[depth] + scatters[depth, stop]
        weight = path_weight[depth] * stop_weights[depth, stop]
        pay = pay_at[depth]
        awards = awards_at[depth]
        reached = depth + 1
        still_open = 0
        for i in range(open_count[depth]):
            line = open_lines[depth, i]
            cell = windows[depth, stop, paylines[line, depth]]
            state = run_symbol[depth, line]
            if state < 0:
                if cell == wild:
                    following = -1
                elif substitutable[cell]:
                    following = cell
                else:
                    following = -2
            elif cell in (state, wild):
                following = state
            else:
                following = -2
            if following == -2 or reached == reels:
                # Decided: the run broke (or the reels ended); any completion pays the same.
                for reel in range(reels):
                    if reel < reached:
                        cells[reel] = windows[reel, current[reel], paylines[line, reel]]
                    else:
                        cells[reel] = windows[reel, stop_lists[reel, 0], paylines[line, reel]]
                symbol, count, line_pay = line_award(
                    cells, line_pays, wild, substitutable, wild_multiplier, ties_to_wild
                )
                if line_pay > 0:
                    pay += line_pay
                    awards |= np.int64(1) << award_of[symbol, count]
            else:
                open_lines[reached, still_open] = line
                run_symbol[reached, line] = following
                still_open += 1

        if still_open == 0:
            tail = tail_ways[reached]
            # counts past the table's end have no combinations: stay inside ``ways``
            for k in range(min(tail.shape[0], ways.shape[0] - scatter)):
                ways[scatter + k, pay] += weight * tail[k]
            if awards != 0:
                _add_awards(award_ways, awards, scatter, tail, weight)
            position[depth] += 1
            continue

        if reached == last:
            # Last reel: each open line's pay and award for every symbol its last cell can
            # show, from line_win, then one pass over the last reel's stops.
            for i in range(still_open):
                line = open_lines[reached, i]
                last_row[i] = paylines[line, last]
                for reel in range(last):
                    cells[reel] = windows[reel, current[reel], paylines[line, reel]]
                state = run_symbol[reached, line]
                for symbol_shown in range(n_symbols):
                    # With a run symbol known, every cell other than it or the wild breaks
                    # the run the same way: reuse the first such result.
                    breaks = state >= 0 and symbol_shown != state and symbol_shown != wild
                    if breaks and first_break[0] >= 0:
                        last_pay[i, symbol_shown] = last_pay[i, first_break[0]]
                        last_award[i, symbol_shown] = last_award[i, first_break[0]]
                        continue
                    cells[last] = symbol_shown
                    symbol, count, line_pay = line_award(
                        cells, line_pays, wild, substitutable, wild_multiplier, ties_to_wild
                    )
                    last_pay[i, symbol_shown] = line_pay
                    last_award[i, symbol_shown] = (
                        np.int64(1) << award_of[symbol, count] if line_pay > 0 else 0
                    )
                    if breaks:
                        first_break[0] = symbol_shown
                first_break[0] = -1
            if awards != 0:
                _add_awards(award_ways, awards, scatter, tail_ways[last], weight)
            for j in range(n_stops[last]):
                last_stop = stop_lists[last, j]
                combinations = weight * stop_weights[last, last_stop]
                total = pay
                found = np.int64(0)
                for i in range(still_open):
                    shown = windows[last, last_stop, last_row[i]]
                    total += last_pay[i, shown]
                    found |= last_award[i, shown]
                k = scatter + scatters[last, last_stop]
                ways[k, total] += combinations
                found &= ~awards
                while found != 0:
                    award_ways[lowest_bit(found), k] += combinations
                    found &= found - 1
            position[depth] += 1
            continue

        depth += 1
        position[depth] = 0
        open_count[depth] = still_open
        pay_at[depth] = pay
        awards_at[depth] = awards
        scatter_at[depth] = scatter
        path_weight[depth] = weight


@dataclass(frozen=True, eq=False)
class ScreenDistribution:
    """Exact distribution of one screen's wins over a (sub-)cycle of stop combinations.

    ``ways[k, p]``: combinations showing ``k`` scatters whose paylines pay ``p`` in total (per
    coin bet per line, ``lines`` paylines enabled). ``award_ways[a, k]``: combinations showing
    ``k`` scatters with award ``awards[a]`` on at least one payline. ``cycle`` is the number of
    combinations counted, ``nodes`` the tree nodes visited (a measure of the work done).
    """

    ways: npt.NDArray[np.int64]
    award_ways: npt.NDArray[np.int64]
    awards: tuple[tuple[int, int], ...]
    cycle: int
    lines: int
    nodes: int

    def scatter_ways(self) -> list[int]:
        return [int(x) for x in self.ways.sum(axis=1)]

    def wins_by_count(self) -> list[list[tuple[int, int]]]:
        """Per count ``k``, every ``(pay, ways)`` with ways > 0, by pay."""
        return [[(int(p), int(row[p])) for p in np.flatnonzero(row)] for row in self.ways]

    def line_pay_sum(self) -> int:
        pays = np.arange(self.ways.shape[1], dtype=np.int64)
        return int((self.ways.sum(axis=0) * pays).sum())

    def screen_wins(self, scatter_pays: npt.NDArray[np.int64], total_bet: int) -> dict[int, int]:
        """``{win: ways}`` of the whole screen (line pay plus scatter pay x ``total_bet``)."""
        out: dict[int, int] = {}
        last = len(scatter_pays) - 1
        for k in range(self.ways.shape[0]):
            row = self.ways[k]
            scatter_win = int(scatter_pays[min(k, last)]) * total_bet
            for pay in np.flatnonzero(row):
                win = int(pay) + scatter_win
                out[win] = out.get(win, 0) + int(row[pay])
        return out

    def probability_no_win(self, scatter_pays: npt.NDArray[np.int64]) -> Fraction:
        last = len(scatter_pays) - 1
        losing = sum(
            int(self.ways[k, 0])
            for k in range(self.ways.shape[0])
            if scatter_pays[min(k, last)] == 0
        )
        return Fraction(losing, self.cycle)


def enumerate_screens(
    model: GameModel,
    reel_set: ReelSet,
    lines: int | None = None,
    stop_lists: list[list[int]] | None = None,
    *,
    line_pays: npt.NDArray[np.int64] | None = None,
    counted: int | None = None,
    counted_reels: npt.NDArray[np.bool_] | None = None,
) -> ScreenDistribution:
    """Enumerate every stop combination of ``reel_set`` (or only ``stop_lists[reel]`` per reel,
    a sub-cycle used to cross-check against other evaluators).

    ``line_pays`` replaces the model's line pays (a free spin's multiplied table); the count
    dimension counts ``counted`` (default: the scatter) on the reels of ``counted_reels``
    (default: the scatter's reels)."""
    line_pays = model.line_pays if line_pays is None else line_pays
    counted = model.scatter if counted is None else counted
    counted_reels = model.scatter_mask if counted_reels is None else counted_reels
    lines = model.line_count if lines is None else lines
    if not 1 <= lines <= min(model.line_count, MAX_LINES):
        raise ValueError(f"lines must be 1..{min(model.line_count, MAX_LINES)}, got {lines}")
    reels = model.reels
    windows = stop_windows(reel_set, model.rows)
    if stop_lists is None:
        stop_lists = [list(range(int(n))) for n in reel_set.position_counts]
    if len(stop_lists) != reels or any(not stops for stops in stop_lists):
        raise ValueError(f"stop_lists needs a non-empty list of stops for each of {reels} reels")
    for reel, stops in enumerate(stop_lists):
        length = int(reel_set.position_counts[reel])
        if any(not 0 <= s < length for s in stops):
            raise ValueError(f"reel {reel + 1}: stops must be 0..{length - 1}")
    combinations = math.prod(len(stops) for stops in stop_lists)
    biggest = lines * max(1, int(line_pays.max())) * model.wild_multiplier
    if combinations > COMBINATION_LIMIT or reel_set.cycle * biggest >= 1 << 62:
        raise BeyondEnumerationError(
            f"{model.id}: the full cycle of reel set {reel_set.name} ({combinations:,} "
            f"combinations of {reel_set.cycle:,} weighted ones, each paying up to {biggest:,} "
            f"coins) is beyond what the lab enumerates ({COMBINATION_LIMIT:,} combinations, "
            "sums in 64-bit integers)"
        )
    width = max(len(stops) for stops in stop_lists)
    lists = np.zeros((reels, width), dtype=np.int64)
    n_stops = np.array([len(stops) for stops in stop_lists], dtype=np.int64)
    for reel, stops in enumerate(stop_lists):
        lists[reel, : len(stops)] = stops

    scatters = scatter_in_windows(windows, counted) * counted_reels[:, None]
    max_scatter = sum(int(scatters[r, lists[r, : n_stops[r]]].max()) for r in range(reels))
    stop_weights = np.zeros(windows.shape[:2], dtype=np.int64)
    for reel in range(reels):
        stop_weights[reel, : int(reel_set.position_counts[reel])] = reel_set.position_weights(reel)
    # tail_ways[d, k]: combinations of reels d.. (their chosen stops, with their weights)
    # showing k scatters.
    tail_ways = np.zeros((reels + 1, max_scatter + 1), dtype=np.int64)
    tail_ways[reels, 0] = 1
    for reel in range(reels - 1, -1, -1):
        chosen = lists[reel, : n_stops[reel]]
        per_stop = np.zeros(int(scatters[reel, chosen].max()) + 1, dtype=np.int64)
        np.add.at(per_stop, scatters[reel, chosen], stop_weights[reel, chosen])
        for k, weight in enumerate(per_stop.tolist()):
            if weight:
                tail_ways[reel, k:] += weight * tail_ways[reel + 1, : max_scatter + 1 - k]

    awards = line_awards(model, line_pays)
    award_of = np.full(line_pays.shape, -1, dtype=np.int64)
    for index, (symbol, count) in enumerate(awards):
        award_of[symbol, count] = index
    max_pay = lines * int(line_pays.max()) * model.wild_multiplier
    ways = np.zeros((max_scatter + 1, max_pay + 1), dtype=np.int64)
    award_ways = np.zeros((len(awards), max_scatter + 1), dtype=np.int64)
    nodes = _enumerate_tree(
        windows,
        lists,
        n_stops,
        stop_weights,
        scatters,
        tail_ways,
        model.paylines,
        lines,
        line_pays,
        model.wild,
        model.substitutable,
        model.wild_multiplier,
        model.ties_to_wild,
        award_of,
        ways,
        award_ways,
    )
    cycle = math.prod(int(stop_weights[r, lists[r, : n_stops[r]]].sum()) for r in range(reels))
    if int(ways.sum()) != cycle:  # pragma: no cover - a broken walk must never pass silently
        raise AssertionError(f"enumeration counted {int(ways.sum())} of {cycle} combinations")
    return ScreenDistribution(ways, award_ways, awards, cycle, lines, nodes)
