"""One spin of the ladder-and-pots mechanic, exactly: every window a reel can show after its
gem's reveal, and the moments of the line pay, the jackpots and the bonus count that the round
analysis needs.

Why not enumerate screens
-------------------------
A main-game screen is one of as many stop combinations as the product of the strip lengths
(about 9 x 10^11 for five reels of some 250 stops), before the gems' reveals: far too many to
visit. Every figure here is instead computed from *per-reel* tables, which is exact
because the reels stop independently and, in the long run, the gems' outcomes on different
reels are independent too (see :mod:`reelsmith.analysis.ladder`):

* **Columns.** For each reel, every (stop, gem outcome) pair is a *column*: the four cells the
  lines see, with its probability (``1 / stops`` x the outcome's probability) and tags (a bonus
  landed, a gem landed, the gem hit the jackpot). A gem hits with probability
  ``q = 2 / (K + 1)``, ``K`` the number of trigger points a reset draws from
  (:func:`jackpot_hit_probability`); otherwise it reveals a symbol, a wild or a wild reel by
  weight.
* **Payline patterns.** A payline's pay is decided by a run from reel 1. Every way a line can
  pay is one *pattern*: a set of symbols allowed on each reel (``wild``, ``s``, ``s or wild``,
  ``neither s nor wild``, ``bonus or gem``, ``anything``). For ``w`` leading wilds, then symbol
  ``s``, a run of ``c`` cells: reels ``1..w`` wild, reel ``w+1`` ``s``, reels up to ``c`` ``s`` or
  wild, reel ``c+1`` neither; it pays the higher of ``s``'s pay for ``c`` and the wild's for
  ``w`` (as :func:`reelsmith.engine.lines.line_win` does). Leading wilds followed by a bonus
  or gem, or five wilds, pay the wild's pay. The patterns of one line are disjoint and cover
  all its wins, so a line's expected pay is a sum over patterns of products of per-reel
  probabilities, and the product of two lines' pays is a sum over pairs of patterns of
  products of per-reel *joint* probabilities (the two lines' cells on one reel come from the
  same column).
* **Bonus count.** Each reel contributes 0 or 1 bonus symbol, so carrying a polynomial in
  ``z`` (degree 1 per reel) through every product gives each figure jointly with the bonus
  count, which drives the free-spins ladder.

The no-win probability needs the joint of all the lines; it is decided by reels 1-3 (every
symbol pays three in a row, some already two; :func:`no_win_table` refuses a model where a
symbol does not), so it is an enumeration of every column triple of reels 1-3 (about 2 x 10^7
for strips of some 250 stops), with the later reels contributing their tags.

Figures are in line bets (the bet / the number of lines) inside this module; double
precision throughout.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from numba import njit, prange

from reelsmith.analysis.enumeration import line_awards
from reelsmith.engine.ladder import WILD_REEL, Jackpot, LadderRules
from reelsmith.engine.lines import line_award
from reelsmith.engine.model import GameModel, ReelSet

# Column modes: the long-run law of a gem (hit with probability q) or its law given no hit.
STATIONARY = "stationary"
NON_HIT = "non_hit"

# Set types of a pattern cell. Regular symbol k (the k-th substitutable symbol) has three.
ANY, WILD_ONLY, NON_SUBSTITUTABLE = 0, 1, 2


def only(k: int) -> int:
    return 3 + 3 * k


def or_wild(k: int) -> int:
    return 4 + 3 * k


def neither(k: int) -> int:
    return 5 + 3 * k


def regular_symbols(model: GameModel) -> list[int]:
    return [s for s in range(len(model.symbols)) if model.substitutable[s]]


def set_membership(model: GameModel) -> npt.NDArray[np.float64]:
    """``member[type, symbol]``: 1.0 when the set type admits the symbol."""
    n = len(model.symbols)
    regular = regular_symbols(model)
    member = np.zeros((3 + 3 * len(regular), n))
    member[ANY, :] = 1.0
    member[WILD_ONLY, model.wild] = 1.0
    for s in range(n):
        if s != model.wild and not model.substitutable[s]:
            member[NON_SUBSTITUTABLE, s] = 1.0
    for k, s in enumerate(regular):
        member[only(k), s] = 1.0
        member[or_wild(k), [s, model.wild]] = 1.0
        member[neither(k), :] = 1.0
        member[neither(k), [s, model.wild]] = 0.0
    return member


@dataclass(frozen=True, eq=False)
class LinePatterns:
    """Every way one payline pays: per-reel set types, the pay and the paytable award."""

    types: npt.NDArray[np.int64]  # [pattern, reel]
    pay: npt.NDArray[np.int64]  # line bets
    award: npt.NDArray[np.int64]  # index into ``awards``
    awards: tuple[tuple[int, int], ...]  # (symbol, count)


def line_patterns(model: GameModel) -> LinePatterns:
    """Every way a payline pays, as disjoint patterns of per-reel sets, each paid as the one
    line rule (:func:`reelsmith.engine.lines.line_award`, with the model's wild multiplier and
    tie rule) pays a representative line of it.

    The patterns partition a line's outcomes by where its first non-wild cell stands: ``w``
    leading wilds, then a symbol ``s`` the wild substitutes for and its run to reel ``c``
    (reels ``w + 2 .. c`` showing ``s`` or a wild, reel ``c + 1`` neither), or ``w`` leading
    wilds ended by a symbol nothing substitutes for, or wilds on every reel. A run's pay does
    not depend on which of its later cells are wilds, except where the wild multiplies the
    wins it completes and no wild leads the line: there the run is split further by its first
    wild (none, or on reel ``j``), so that each pattern's cells decide its pay."""
    reels, wild = model.reels, model.wild
    n_symbols = len(model.symbols)
    awards = line_awards(model)
    index = {award: i for i, award in enumerate(awards)}
    unsubstituted = [s for s in range(n_symbols) if s != wild and not model.substitutable[s]]
    cells = np.zeros(reels, dtype=np.int8)

    def judge(representative: list[int]) -> tuple[int, int, int]:
        cells[:] = representative
        symbol, count, pay = line_award(
            cells,
            model.line_pays,
            wild,
            model.substitutable,
            model.wild_multiplier,
            model.ties_to_wild,
        )
        return int(symbol), int(count), int(pay)

    types: list[list[int]] = []
    pay: list[int] = []
    award: list[int] = []

    def add(row: list[int], representative: list[int]) -> None:
        symbol, count, paid = judge(representative)
        if paid > 0:
            types.append(row)
            pay.append(paid)
            award.append(index[(symbol, count)])

    for k, s in enumerate(regular_symbols(model)):
        others = [o for o in range(n_symbols) if o not in (s, wild)]
        for w in range(reels):
            for c in range(w + 1, reels + 1):
                if c < reels and not others:
                    continue  # nothing can end the run before the last reel
                end = others[0] if others else s
                split = w == 0 and model.wild_multiplier != 1 and c > 1
                # None: no wild in the run after reel w + 1; j: the run's first wild on reel j
                firsts: list[int | None] = [None, *range(1, c)] if split else [None]
                for first in firsts:
                    row = [ANY] * reels
                    representative = [end] * reels
                    for r in range(w):
                        row[r], representative[r] = WILD_ONLY, wild
                    row[w], representative[w] = only(k), s
                    for r in range(w + 1, c):
                        if first is None:
                            row[r] = only(k) if split else or_wild(k)
                            representative[r] = s
                        elif r < first:
                            row[r], representative[r] = only(k), s
                        elif r == first:
                            row[r], representative[r] = WILD_ONLY, wild
                        else:
                            row[r], representative[r] = or_wild(k), s
                    if c < reels:
                        row[c] = neither(k)
                    add(row, representative)
    for w in range(1, reels + 1):
        if w < reels and not unsubstituted:
            continue
        row = [WILD_ONLY] * w + [ANY] * (reels - w)
        representative = [wild] * w + [unsubstituted[0] if unsubstituted else wild] * (reels - w)
        if w < reels:
            row[w] = NON_SUBSTITUTABLE
        add(row, representative)
    return LinePatterns(
        np.array(types, dtype=np.int64),
        np.array(pay, dtype=np.int64),
        np.array(award, dtype=np.int64),
        awards,
    )


# ---------------------------------------------------------------------------------------
# Columns
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Columns:
    """Per reel, every column (stop and gem outcome) with its probability and tags."""

    cells: npt.NDArray[np.int8]  # [reel, column, row]
    prob: npt.NDArray[np.float64]  # [reel, column]; 0 beyond count[reel]
    stop: npt.NDArray[np.int64]  # [reel, column]: the strip stop it comes from
    bonus: npt.NDArray[np.int64]  # [reel, column]: a bonus symbol landed (0/1)
    gem: npt.NDArray[np.int64]  # [reel, column]: a gem landed (0/1)
    hit: npt.NDArray[np.int64]  # [reel, column]: the gem hit its pot's trigger point (0/1)
    wild_reel: npt.NDArray[np.int64]  # [reel, column]: the gem revealed a wild reel (0/1)
    count: npt.NDArray[np.int64]  # [reel]


def jackpot_hit_probability(jackpot: Jackpot) -> float:
    """Long-run share of a pot's gems that reveal the jackpot spin: ``2 / (K + 1)`` with
    ``K = last_trigger - seed`` trigger points (the gems from one reset to the next hit are
    uniform on ``1..K``)."""
    return 2.0 / (jackpot.trigger_span + 1)


def build_columns(
    rules: LadderRules, reel_set: ReelSet, reveal: dict[str, int], mode: str = STATIONARY
) -> Columns:
    """Every column of every reel. ``mode`` NON_HIT gives the law given that no gem hits."""
    model = rules.model
    rows = model.rows
    total = sum(reveal.values())
    per_reel: list[list[tuple[list[int], float, int, int, int, int, int]]] = []
    for reel in range(model.reels):
        jackpot = rules.jackpots[reel]
        q = jackpot_hit_probability(jackpot)
        length = int(reel_set.lengths[reel])
        out: list[tuple[list[int], float, int, int, int, int, int]] = []
        for stop in range(length):
            window = [int(reel_set.padded[reel, stop + row]) for row in range(rows)]
            bonus = int(rules.bonus in window)
            gem_rows = [row for row, s in enumerate(window) if s == rules.gem]
            if not gem_rows:
                out.append((window, 1.0 / length, stop, bonus, 0, 0, 0))
                continue
            if len(gem_rows) > 1:
                raise ValueError(f"reel {reel + 1} stop {stop} shows more than one gem")
            gem_row = gem_rows[0]
            miss = 1.0 - q if mode == STATIONARY else 1.0
            if mode == STATIONARY:
                out.append((window, q / length, stop, bonus, 1, 1, 0))
            for outcome, weight in reveal.items():
                if weight == 0:
                    continue
                p = miss * weight / total / length
                if outcome == WILD_REEL:
                    out.append(([model.wild] * rows, p, stop, bonus, 1, 0, 1))
                else:
                    revealed = list(window)
                    revealed[gem_row] = model.symbol_index(outcome)
                    out.append((revealed, p, stop, bonus, 1, 0, 0))
        per_reel.append(out)
    width = max(len(c) for c in per_reel)
    shape = (model.reels, width)
    cells = np.zeros((*shape, rows), dtype=np.int8)
    prob = np.zeros(shape)
    tags = {name: np.zeros(shape, dtype=np.int64) for name in ("stop", "bonus", "gem", "hit", "wr")}
    for reel, out in enumerate(per_reel):
        for v, (window, p, stop, bonus, gem, hit, wild_reel) in enumerate(out):
            cells[reel, v] = window
            prob[reel, v] = p
            tags["stop"][reel, v] = stop
            tags["bonus"][reel, v] = bonus
            tags["gem"][reel, v] = gem
            tags["hit"][reel, v] = hit
            tags["wr"][reel, v] = wild_reel
    return Columns(
        cells,
        prob,
        tags["stop"],
        tags["bonus"],
        tags["gem"],
        tags["hit"],
        tags["wr"],
        np.array([len(c) for c in per_reel], dtype=np.int64),
    )


# ---------------------------------------------------------------------------------------
# Per-reel tables and pattern sums
# ---------------------------------------------------------------------------------------


def single_tables(
    columns: Columns, member: npt.NDArray[np.float64], weight: npt.NDArray[np.float64]
) -> npt.NDArray[np.float64]:
    """``S[reel, row, type, z]``: probability (x ``weight`` per column) that the cell at
    ``row`` is in the set ``type`` and the reel shows ``z`` bonus symbols."""
    reels, _width, rows = columns.cells.shape
    out = np.zeros((reels, rows, member.shape[0], 2))
    for reel in range(reels):
        n = int(columns.count[reel])
        p = columns.prob[reel, :n] * weight[reel, :n]
        inside = member[:, columns.cells[reel, :n]]  # [type, column, row]
        for z in (0, 1):
            pz = p * (columns.bonus[reel, :n] == z)
            out[reel, :, :, z] = np.einsum("v,tvr->rt", pz, inside)
    return out


def pair_tables(columns: Columns, member: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """``T[reel, row_a, row_b, type_a, type_b, z]``: joint probability that the cells at two
    rows of one reel are in two sets, with ``z`` bonus symbols on the reel."""
    reels, _width, rows = columns.cells.shape
    types = member.shape[0]
    out = np.zeros((reels, rows, rows, types, types, 2))
    for reel in range(reels):
        n = int(columns.count[reel])
        p = columns.prob[reel, :n]
        inside = member[:, columns.cells[reel, :n]].transpose(1, 2, 0)  # [column, row, type]
        flat = inside.reshape(n, rows * types)
        for z in (0, 1):
            weight = p * (columns.bonus[reel, :n] == z)
            joint = (flat * weight[:, None]).T @ flat  # [(row_a, type_a), (row_b, type_b)]
            out[reel, :, :, :, :, z] = joint.reshape(rows, types, rows, types).transpose(0, 2, 1, 3)
    return out


@njit(cache=True, nogil=True)
def _times(poly: npt.NDArray[np.float64], c0: float, c1: float, degree: int) -> None:
    """``poly *= (c0 + c1 z)`` in place (``degree`` is the current degree)."""
    for k in range(degree + 1, 0, -1):
        poly[k] = poly[k] * c0 + poly[k - 1] * c1
    poly[0] = poly[0] * c0


@njit(cache=True, nogil=True)
def _line_first(
    tables: npt.NDArray[np.float64],
    paylines: npt.NDArray[np.int8],
    types: npt.NDArray[np.int64],
    pay: npt.NDArray[np.int64],
    award: npt.NDArray[np.int64],
    out_pay: npt.NDArray[np.float64],
    out_pay_sq: npt.NDArray[np.float64],
    out_award: npt.NDArray[np.float64],
) -> None:
    """Per bonus count b: E[sum of line pays; b], sum over lines of E[pay^2; b], and the
    expected number of lines showing each award."""
    reels = tables.shape[0]
    poly = np.zeros(reels + 1)
    for line in range(paylines.shape[0]):
        for pattern in range(types.shape[0]):
            poly[:] = 0.0
            poly[0] = 1.0
            zero = False
            for reel in range(reels):
                t = types[pattern, reel]
                row = paylines[line, reel]
                c0 = tables[reel, row, t, 0]
                c1 = tables[reel, row, t, 1]
                if c0 == 0.0 and c1 == 0.0:
                    zero = True
                    break
                _times(poly, c0, c1, reel)
            if zero:
                continue
            p = pay[pattern]
            a = award[pattern]
            for b in range(reels + 1):
                out_pay[b] += p * poly[b]
                out_pay_sq[b] += p * p * poly[b]
                out_award[a, b] += poly[b]


@njit(cache=True, nogil=True, parallel=True)
def _line_pairs(
    tables: npt.NDArray[np.float64],
    paylines: npt.NDArray[np.int8],
    types: npt.NDArray[np.int64],
    pay: npt.NDArray[np.int64],
    award: npt.NDArray[np.int64],
    out_cross: npt.NDArray[np.float64],
    out_award_pairs: npt.NDArray[np.float64],
) -> None:
    """Per bonus count b: sum over ordered pairs of distinct lines of E[pay_l pay_m; b], and of
    the probability that both lines show the same award (per award). Lines in parallel; each
    pair works on its own small slice of the tables (the two lines' rows on each reel)."""
    reels = tables.shape[0]
    n_types = tables.shape[3]
    n_lines = paylines.shape[0]
    n_patterns = types.shape[0]
    n_awards = out_award_pairs.shape[0]
    cross = np.zeros((n_lines, reels + 1))
    award_pairs = np.zeros((n_lines, n_awards, reels + 1))
    for line in prange(n_lines):
        poly = np.zeros(reels + 1)
        pair = np.empty((reels, n_types, n_types, 2))
        for other in range(line + 1, n_lines):
            for reel in range(reels):
                pair[reel] = tables[reel, paylines[line, reel], paylines[other, reel]]
            for pattern in range(n_patterns):
                for second in range(n_patterns):
                    c0 = pair[0, types[pattern, 0], types[second, 0], 0]
                    c1 = pair[0, types[pattern, 0], types[second, 0], 1]
                    if c0 == 0.0 and c1 == 0.0:
                        continue
                    poly[:] = 0.0
                    poly[0] = c0
                    poly[1] = c1
                    zero = False
                    for reel in range(1, reels):
                        ta = types[pattern, reel]
                        tb = types[second, reel]
                        c0 = pair[reel, ta, tb, 0]
                        c1 = pair[reel, ta, tb, 1]
                        if c0 == 0.0 and c1 == 0.0:
                            zero = True
                            break
                        _times(poly, c0, c1, reel)
                    if zero:
                        continue
                    value = 2.0 * pay[pattern] * pay[second]
                    same = award[pattern] == award[second]
                    for b in range(reels + 1):
                        cross[line, b] += value * poly[b]
                        if same:
                            award_pairs[line, award[pattern], b] += 2.0 * poly[b]
    for line in range(n_lines):
        for b in range(reels + 1):
            out_cross[b] += cross[line, b]
            for a in range(n_awards):
                out_award_pairs[a, b] += award_pairs[line, a, b]


@dataclass(frozen=True)
class LineFirst:
    """First moments of the line pay (line bets), per bonus count."""

    pay: npt.NDArray[np.float64]  # [b]
    pay_sq_diagonal: npt.NDArray[np.float64]  # [b]: sum over lines of E[pay_l^2; b]
    awards: npt.NDArray[np.float64]  # [award, b]: expected lines showing it


def line_first(
    model: GameModel, patterns: LinePatterns, tables: npt.NDArray[np.float64]
) -> LineFirst:
    out_pay = np.zeros(model.reels + 1)
    out_sq = np.zeros(model.reels + 1)
    out_award = np.zeros((len(patterns.awards), model.reels + 1))
    _line_first(
        tables,
        model.paylines,
        patterns.types,
        patterns.pay,
        patterns.award,
        out_pay,
        out_sq,
        out_award,
    )
    return LineFirst(out_pay, out_sq, out_award)


def line_cross(
    model: GameModel, patterns: LinePatterns, tables: npt.NDArray[np.float64]
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Sum over ordered pairs of distinct lines of E[pay pay; b], and E[N_a (N_a - 1); b]."""
    cross = np.zeros(model.reels + 1)
    pairs = np.zeros((len(patterns.awards), model.reels + 1))
    _line_pairs(tables, model.paylines, patterns.types, patterns.pay, patterns.award, cross, pairs)
    return cross, pairs


# ---------------------------------------------------------------------------------------
# No win: reels 1-3 decide it
# ---------------------------------------------------------------------------------------


def _check_decided_by_three(model: GameModel) -> None:
    pays = model.line_pays
    for s in regular_symbols(model):
        if pays[s, 3] <= 0:
            raise ValueError("the no-win enumeration needs every symbol to pay three in a row")
    if pays[model.wild, 3] <= 0:
        raise ValueError("the no-win enumeration needs the wild to pay three in a row")


@njit(cache=True, nogil=True)
def _no_win(
    cells: npt.NDArray[np.int8],
    prob: npt.NDArray[np.float64],
    gem: npt.NDArray[np.int64],
    bonus: npt.NDArray[np.int64],
    count: npt.NDArray[np.int64],
    paylines: npt.NDArray[np.int8],
    line_pays: npt.NDArray[np.int64],
    wild: int,
    substitutable: npt.NDArray[np.bool_],
    out: npt.NDArray[np.float64],
) -> None:
    """``out[gems of reels 1-3 as bits, bonus symbols on reels 1-3]``: probability that no
    payline wins, by enumerating every column triple of reels 1-3 (every line's result is
    decided by its first three cells: every run of three pays)."""
    n_lines = paylines.shape[0]
    n_symbols = line_pays.shape[0]
    rows = cells.shape[2]
    forbidden = np.zeros(rows, dtype=np.int64)
    all_substitutable = np.int64(0)
    for s in range(n_symbols):
        if substitutable[s]:
            all_substitutable |= np.int64(1) << s
    wild_bit = np.int64(1) << wild
    for v0 in range(count[0]):
        p0 = prob[0, v0]
        if p0 == 0.0:
            continue
        for v1 in range(count[1]):
            p01 = p0 * prob[1, v1]
            if p01 == 0.0:
                continue
            forbidden[:] = 0
            won = False
            for line in range(n_lines):
                c0 = cells[0, v0, paylines[line, 0]]
                c1 = cells[1, v1, paylines[line, 1]]
                if c0 == wild and c1 == wild:
                    if line_pays[wild, 2] > 0:
                        won = True
                        break
                    # two wilds: any substitutable symbol or a wild on reel 3 pays three
                    forbidden[paylines[line, 2]] |= all_substitutable | wild_bit
                    continue
                symbol = c1 if c0 == wild else c0
                if not substitutable[symbol]:
                    continue  # the run ended at one or two cells without a win
                if c1 != symbol and c1 != wild:
                    continue  # a run of one pays nothing
                if line_pays[symbol, 2] > 0:
                    won = True
                    break
                forbidden[paylines[line, 2]] |= (np.int64(1) << symbol) | wild_bit
            if won:
                continue
            g01 = gem[0, v0] + 2 * gem[1, v1]
            b01 = bonus[0, v0] + bonus[1, v1]
            for v2 in range(count[2]):
                p = p01 * prob[2, v2]
                if p == 0.0:
                    continue
                ok = True
                for row in range(rows):
                    if forbidden[row] & (np.int64(1) << cells[2, v2, row]):
                        ok = False
                        break
                if ok:
                    out[g01 + 4 * gem[2, v2], b01 + bonus[2, v2]] += p


def no_win_table(model: GameModel, columns: Columns) -> npt.NDArray[np.float64]:
    """``[gem pattern (bit r = a gem landed on reel r), bonus count]``: probability that no
    line wins (under the columns' law), over all five reels."""
    _check_decided_by_three(model)
    first = np.zeros((8, 4))
    _no_win(
        columns.cells,
        columns.prob,
        columns.gem,
        columns.bonus,
        columns.count,
        model.paylines,
        model.line_pays,
        model.wild,
        model.substitutable,
        first,
    )
    out = first
    for reel in range(3, model.reels):
        n = int(columns.count[reel])
        law = np.zeros((2, 2))  # [gem, bonus]
        np.add.at(law, (columns.gem[reel, :n], columns.bonus[reel, :n]), columns.prob[reel, :n])
        grown = np.zeros((out.shape[0] * 2, out.shape[1] + 1))
        for g in (0, 1):
            for z in (0, 1):
                grown[g * out.shape[0] : (g + 1) * out.shape[0], z : z + out.shape[1]] += (
                    out * law[g, z]
                )
        out = grown
    return out


# ---------------------------------------------------------------------------------------
# Everything about one spin of a reel set
# ---------------------------------------------------------------------------------------


def _bonus_gf(columns: Columns, weight: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """``[reel, z]``: sum of probability x weight of the columns showing z bonus symbols."""
    reels = columns.cells.shape[0]
    out = np.zeros((reels, 2))
    for reel in range(reels):
        n = int(columns.count[reel])
        p = columns.prob[reel, :n] * weight[reel, :n]
        out[reel, 0] = p[columns.bonus[reel, :n] == 0].sum()
        out[reel, 1] = p[columns.bonus[reel, :n] == 1].sum()
    return out


def _product(factors: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Coefficients of the product over reels of ``factors[reel, 0] + factors[reel, 1] z``."""
    poly = np.array([1.0])
    for c0, c1 in factors:
        poly = np.convolve(poly, np.array([c0, c1]))
    return poly


@dataclass(frozen=True)
class SpinFigures:
    """Exact moments of one spin of a reel set under the long-run law, per bonus count ``b``
    (arrays indexed ``[..., b]``). Pays in bets; ``J`` is the jackpots won in the spin."""

    reel_set: str
    probability: npt.NDArray[np.float64]  # P(b)
    line: npt.NDArray[np.float64]  # E[L; b]
    line_sq: npt.NDArray[np.float64]  # E[L^2; b]
    jackpot: npt.NDArray[np.float64]  # E[J; b]
    jackpot_sq: npt.NDArray[np.float64]  # E[J^2; b]
    line_jackpot: npt.NDArray[np.float64]  # E[L J; b]
    gem: npt.NDArray[np.float64]  # [reel, b]: P(a gem lands; b)
    gem_pair: npt.NDArray[np.float64]  # [reel, reel, gi, gj, b]: P(g_i = gi, g_j = gj; b)
    hit: npt.NDArray[np.float64]  # [reel, b]: P(the reel's gem hits; b)
    beta: npt.NDArray[np.float64]  # [reel, b]: E[beta_i 1{gem}; b]
    beta_pair: npt.NDArray[np.float64]  # [reel, reel, b]: E[beta_ij 1{gems}; b]
    no_win_non_hit: npt.NDArray[np.float64]  # [gem pattern, b]: P(no line win | no gem hits)
    awards: npt.NDArray[np.float64]  # [award, b]: expected lines showing the award
    award_pairs: npt.NDArray[np.float64]  # [award, b]: E[N (N - 1); b]
    award_line: npt.NDArray[np.float64]  # [award]: probability on one given line (averaged)
    #: On an evaluator that pays the whole window (ways): its awards ``(symbol, run)`` (on
    #: paylines None: :func:`line_patterns`' awards) and ``[award, b]`` each one's expected
    #: pay in coins at one coin per unit (on paylines None: the award's pay x its lines).
    award_keys: tuple[tuple[int, int], ...] | None = None
    award_pay: npt.NDArray[np.float64] | None = None
    #: The largest win of one spin (the window's: :mod:`reelsmith.analysis.ladder_window`);
    #: None on paylines, whose :func:`reelsmith.analysis.ladder_exact._max_win` searches it.
    max_win: dict[str, float] | None = None

    @property
    def expected_line(self) -> float:
        return float(self.line.sum())


def spin_figures(
    rules: LadderRules,
    reel_set: ReelSet,
    reveal: dict[str, int],
    *,
    name: str = "",
    second_moments: bool = True,
) -> SpinFigures:
    """Every per-spin figure of ``reel_set`` the round analysis uses (on ways, the ways rule's:
    :func:`reelsmith.analysis.ladder_window.spin_figures`)."""
    model = rules.model
    from reelsmith.analysis import ladder_window

    if ladder_window.on_window(model):
        return ladder_window.spin_figures(
            rules, reel_set, reveal, name=name, second_moments=second_moments
        )
    reels = model.reels
    lines = model.line_count
    columns = build_columns(rules, reel_set, reveal, STATIONARY)
    member = set_membership(model)
    patterns = line_patterns(model)
    ones = np.ones_like(columns.prob)
    hit_w = columns.hit.astype(np.float64)
    miss_w = (columns.gem * (1 - columns.hit)).astype(np.float64)

    def first(weights: dict[int, npt.NDArray[np.float64]]) -> LineFirst:
        weight = ones.copy()
        for reel, w in weights.items():
            weight[reel] = w[reel]
        return line_first(model, patterns, single_tables(columns, member, weight))

    base = first({})
    line = base.pay / lines
    awards = base.awards
    bonus_all = _bonus_gf(columns, ones)
    probability = _product(bonus_all)
    gem_gf = _bonus_gf(columns, columns.gem.astype(np.float64))
    hit_gf = _bonus_gf(columns, hit_w)

    def tagged(**reels_gf: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        factors = bonus_all.copy()
        for key, gf in reels_gf.items():
            factors[int(key[1:])] = gf
        return _product(factors)

    gem = np.array([tagged(**{f"r{i}": gem_gf[i]}) for i in range(reels)])
    hit = np.array([tagged(**{f"r{i}": hit_gf[i]}) for i in range(reels)])
    no_gem_gf = bonus_all - gem_gf
    gem_pair = np.zeros((reels, reels, 2, 2, reels + 1))
    for i in range(reels):
        for j in range(reels):
            if i == j:
                continue
            for gi, fi in ((0, no_gem_gf[i]), (1, gem_gf[i])):
                for gj, fj in ((0, no_gem_gf[j]), (1, gem_gf[j])):
                    gem_pair[i, j, gi, gj] = tagged(**{f"r{i}": fi, f"r{j}": fj})

    means = [j.seed + (j.trigger_span + 1) / 2 for j in rules.jackpots]
    squares = []
    for pot in rules.jackpots:
        k = pot.trigger_span
        squares.append(sum((pot.seed + g) ** 2 for g in range(1, k + 1)) / k)
    q = [jackpot_hit_probability(j) for j in rules.jackpots]

    jackpot = sum(means[i] * hit[i] for i in range(reels))
    jackpot_sq = sum(squares[i] * hit[i] for i in range(reels))
    for i in range(reels):
        for j in range(reels):
            if i != j:
                jackpot_sq = jackpot_sq + means[i] * means[j] * tagged(
                    **{f"r{i}": hit_gf[i], f"r{j}": hit_gf[j]}
                )

    line_hit = np.array([first({i: hit_w}).pay / lines for i in range(reels)])
    line_miss = np.array([first({i: miss_w}).pay / lines for i in range(reels)])
    line_jackpot = sum(means[i] * line_hit[i] for i in range(reels))
    # A gem that always (or never) hits has no Hoeffding component: its coefficient is 0.
    varies = [0.0 < q[i] < 1.0 for i in range(reels)]
    beta = np.array(
        [
            line_hit[i] / q[i] - line_miss[i] / (1 - q[i]) if varies[i] else np.zeros(reels + 1)
            for i in range(reels)
        ]
    )
    beta_pair = np.zeros((reels, reels, reels + 1))
    for i in range(reels):
        for j in range(i + 1, reels):
            if not (varies[i] and varies[j]):
                continue
            total = np.zeros(reels + 1)
            for wi, pi, si in ((hit_w, q[i], 1.0), (miss_w, 1 - q[i], -1.0)):
                for wj, pj, sj in ((hit_w, q[j], 1.0), (miss_w, 1 - q[j], -1.0)):
                    total += si * sj * first({i: wi, j: wj}).pay / lines / (pi * pj)
            beta_pair[i, j] = beta_pair[j, i] = total

    if second_moments:
        cross, award_pairs = line_cross(model, patterns, pair_tables(columns, member))
        line_sq = (base.pay_sq_diagonal + cross) / lines**2
    else:
        line_sq = np.full(reels + 1, np.nan)
        award_pairs = np.full_like(awards, np.nan)

    non_hit = build_columns(rules, reel_set, reveal, NON_HIT)
    no_win = no_win_table(model, non_hit)
    return SpinFigures(
        reel_set=name or reel_set.name,
        probability=probability,
        line=line,
        line_sq=line_sq,
        jackpot=np.asarray(jackpot),
        jackpot_sq=np.asarray(jackpot_sq),
        line_jackpot=np.asarray(line_jackpot),
        gem=gem,
        gem_pair=gem_pair,
        hit=hit,
        beta=beta,
        beta_pair=beta_pair,
        no_win_non_hit=no_win,
        awards=awards,
        award_pairs=award_pairs,
        award_line=awards.sum(axis=1) / lines,
    )
