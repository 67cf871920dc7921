"""The simulation kernel of a lines round with a hold-and-spin feature: ``reelsmith simulate``
and the parity tests play such a title here.

A round is live play's (:mod:`reelsmith.mechanics.hold_and_spin.live`), draw for draw and
from the same kind of stream, so every kernel round replays through live play:

* the base spin: one reel stop per reel of the base reel set (below the strip's length, or
  below the reel's total weight looked up in its cumulative weights by
  :func:`~reelsmith.engine.stops.stop_for_draw`), paid on every payline at one coin each by
  the one line rule (:func:`~reelsmith.engine.lines.line_award`) as the catalogue kernel
  reads it: its automaton walked over the paylines its prefix entry leaves open
  (:class:`~reelsmith.analysis.kernel.tables.ReelTables`). Calling the rule on each payline
  cost three quarters of a round (each call reference-counts the arrays it is handed);
* when the window shows the trigger count of coins: one value draw per coin of the window in
  reading order (rows top to bottom, each left to right), then each respin's draws, one per
  empty cell in the same order (coin or blank, by ``land``), a coin landed followed at once
  by its value draw. Every weighted draw is one draw below the table's total weight, the entry
  the first whose cumulative weight is above it, as live play's ``weighted_index`` picks it.

The respins' state moves by :func:`~reelsmith.mechanics.hold_and_spin.chain.respin_step` and
ends by :func:`~reelsmith.mechanics.hold_and_spin.chain.feature_over`, the rule the exact chain
solves. Each coin's entry goes into the grid's tally by
:func:`~reelsmith.mechanics.hold_and_spin.chain.add_coin` and the finished grid is paid by
:func:`~reelsmith.mechanics.hold_and_spin.chain.grid_pay` (its plain values times its
multiplier, once more for each collector, plus the jackpot tiers and the full-grid tier), the
rule live play pays by, in total bets, times the round's total bet.

The statistics and recorded results are the round loop's (the ``S_*``, ``F_*`` and ``R_*``
slots of :mod:`reelsmith.analysis.kernel.rounds`), the feature counted where that loop counts
a feature: its win as the free win, the rounds that play it as triggers, its respins as the
feature's spins and the respins that landed a coin (and so reset the count) as retriggers.
A round's results: its win, its line win, the coins its window showed, the respins awarded at
the start, the respins played, the feature's win, the coins held at the end and the resets.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from reelsmith.analysis.kernel import rounds as r
from reelsmith.analysis.kernel.tables import E_END, E_OPEN, E_PAY, ReelTables, StackedTables
from reelsmith.analysis.pcg64 import load_stream, store_stream, stream_bounded
from reelsmith.engine.model import GameModel
from reelsmith.engine.stops import stop_for_draw
from reelsmith.mechanics.hold_and_spin.chain import add_coin, feature_over, grid_pay, respin_step
from reelsmith.mechanics.hold_and_spin.rules import hold_and_spin_rules

#: The kinds of draw a trace records, in the order of the purposes live play records them with.
DRAW_CELL = 1
DRAW_VALUE = 2


@dataclass(frozen=True, eq=False)
class HoldAndSpinGame:
    """A hold-and-spin title's variant as :func:`play_chain_rounds` reads it: the base reel
    set, the paylines and their pays, and the feature's tables (the land and value weights as
    cumulative weights, each value in total bets)."""

    padded: npt.NDArray[np.int8]
    lengths: npt.NDArray[np.int64]
    weighted: bool
    cumulative: npt.NDArray[np.int64]  # [reel, stop]
    totals: npt.NDArray[np.int64]  # [reel]
    rows: int
    paylines: npt.NDArray[np.int8]
    line_pays: npt.NDArray[np.int64]
    wild: int
    substitutable: npt.NDArray[np.bool_]
    wild_multiplier: int
    ties_to_wild: bool
    symbol: int
    trigger: int
    respins: int
    land_cumulative: npt.NDArray[np.int64]  # [coin, coin + blank]
    value_cumulative: npt.NDArray[np.int64]
    value_amounts: npt.NDArray[np.int64]  # a value's or a tier's total bets; a factor
    value_kinds: npt.NDArray[np.int64]  # each entry's kind (``KIND_*`` of the rules)
    multiply_sum: bool
    full_grid_amount: int
    total_bet: int
    #: The base reel set's line tables (stacked as the catalogue kernel's, the base set twice).
    lines: StackedTables
    #: The purposes of the draws a trace records, by their kind.
    draw_purposes: tuple[str, ...] = ("reel_stop", "hold_and_spin_cell", "hold_and_spin_value")

    def args(self) -> tuple[Any, ...]:
        return (
            self.padded,
            self.lengths,
            self.weighted,
            self.cumulative,
            self.totals,
            self.rows,
            self.paylines,
            self.symbol,
            self.trigger,
            self.respins,
            self.land_cumulative,
            self.value_cumulative,
            self.value_amounts,
            self.value_kinds,
            self.multiply_sum,
            self.full_grid_amount,
            self.total_bet,
            r.band_edges_in_coins(self.total_bet),
            int(self.lines.depth[0]),
            self.lines.prefix[0],
            self.lines.entries[0],
            self.lines.open_lines[0],
            self.lines.open_states[0],
            self.lines.trans[0],
            self.lines.last_pays[0],
            self.lines.windows[0],
        )


def build(model: GameModel, variant_id: str) -> HoldAndSpinGame:
    """The :class:`HoldAndSpinGame` of ``variant_id`` (every payline at one coin a line)."""
    from reelsmith.analysis.catalogue_exact import total_coins

    rules = hold_and_spin_rules(model)
    reel_set = model.variant(variant_id).reel_sets["base"]
    lines = ReelTables.build(model, reel_set, np.asarray(model.line_pays, dtype=np.int64), None)
    return HoldAndSpinGame(
        padded=np.ascontiguousarray(reel_set.padded, dtype=np.int8),
        lengths=np.asarray(reel_set.lengths, dtype=np.int64),
        weighted=reel_set.weights is not None,
        cumulative=np.ascontiguousarray(reel_set.cumulative, dtype=np.int64),
        totals=np.asarray(reel_set.totals, dtype=np.int64),
        rows=model.rows,
        paylines=np.ascontiguousarray(model.paylines[: model.line_count], dtype=np.int8),
        line_pays=np.ascontiguousarray(model.line_pays, dtype=np.int64),
        wild=model.wild,
        substitutable=np.asarray(model.substitutable, dtype=np.bool_),
        wild_multiplier=model.wild_multiplier,
        ties_to_wild=bool(model.ties_to_wild),
        symbol=rules.symbol,
        trigger=rules.trigger,
        respins=rules.respins,
        land_cumulative=np.cumsum(np.array(rules.land_weights, dtype=np.int64)),
        value_cumulative=np.cumsum(np.array(rules.value_weights, dtype=np.int64)),
        value_amounts=np.array([v.rule_amount for v in rules.values], dtype=np.int64),
        value_kinds=np.array([v.kind for v in rules.values], dtype=np.int64),
        multiply_sum=rules.multiply_sum,
        full_grid_amount=rules.full_grid_amount,
        total_bet=total_coins(model),
        lines=StackedTables.stack(lines, lines),
    )


@njit(cache=True, nogil=True, inline="always")
def _logged(
    log: npt.NDArray[np.int64], log_at: int, record: bool, kind: int, bound: int, value: int
) -> int:
    """Write one draw at ``log_at`` (with ``record``, where the log has room) and return the
    log's next row; a round whose draws pass the log's end is undone by the caller."""
    if record:
        if log_at < log.shape[0]:
            log[log_at, 0] = kind
            log[log_at, 1] = bound
            log[log_at, 2] = value
        log_at += 1
    return log_at


@njit(cache=True, nogil=True)
def play_chain_rounds(
    rng: npt.NDArray[np.uint64],
    n_rounds: int,
    game: tuple[Any, ...],
    stats: npt.NDArray[np.int64],
    float_stats: npt.NDArray[np.float64],
    record: bool,
    results: npt.NDArray[np.int64],
    log: npt.NDArray[np.int64],
    log_ends: npt.NDArray[np.int64],
) -> int:
    """Play ``n_rounds`` rounds of a hold-and-spin title (``game``:
    :meth:`HoldAndSpinGame.args`), adding their statistics to ``stats`` / ``float_stats`` as
    :func:`~reelsmith.analysis.kernel.rounds.play_rounds` counts them; with ``record`` each
    round's ``R_*`` fields go to ``results[i]`` and its draws to ``log`` ending at
    ``log_ends[i]``, a round that would overflow ``log`` undone and the call returning early.
    Returns the rounds played."""
    (
        padded,
        lengths,
        weighted,
        cumulative,
        totals,
        rows,
        paylines,
        symbol,
        trigger,
        full,
        land_cumulative,
        value_cumulative,
        value_amounts,
        value_kinds,
        multiply_sum,
        full_grid_amount,
        total_bet,
        edges,
        decided,
        prefix,
        entries,
        open_lines,
        open_states,
        trans,
        last_pays,
        windows,
    ) = game
    reels = lengths.shape[0]
    last = reels - 1
    stops = np.zeros(reels, dtype=np.int64)
    n_cells = rows * reels
    n_values = value_amounts.shape[0]
    coin_weight = land_cumulative[0]
    land_total = land_cumulative[1]
    value_total = value_cumulative[n_values - 1]
    grid = np.empty((rows, reels), dtype=np.int8)
    held_cell = np.zeros(n_cells, dtype=np.bool_)
    top_band = edges.shape[0] - 1
    bands = np.zeros(edges.shape[0], dtype=np.int64)
    stream = load_stream(rng)
    total = base_line_sum = feature_sum = 0
    base_hits = round_hits = triggered = respins_sum = resets_sum = 0
    max_win = max_respins = 0
    win_sq = base_win_sq = 0.0
    log_at = 0
    played_rounds = 0
    for i in range(n_rounds):
        saved = stream
        round_start = log_at
        index = 0  # the prefix's, in mixed radix
        for reel in range(reels):
            length = lengths[reel]
            if weighted:
                bound = totals[reel]
                stream, value = stream_bounded(stream, bound)
                stop = stop_for_draw(cumulative[reel], length, value)
            else:
                bound = length
                stream, value = stream_bounded(stream, bound)
                stop = value
            stops[reel] = stop
            if reel < decided:
                index = index * length + stop
            for row in range(rows):
                grid[row, reel] = padded[reel, stop + row]
            log_at = _logged(log, log_at, record, r.DRAW_REEL_STOP, bound, value)
        # the line pays: the prefix entry's decided pay and its open paylines walked on
        entry = entries[prefix[index]]
        base_line = entry[E_PAY]
        for j in range(entry[E_OPEN], entry[E_END]):
            line = open_lines[j]
            state = open_states[j]
            for reel in range(decided, last):
                state = trans[state, windows[reel, stops[reel], paylines[line, reel]]]
            base_line += last_pays[state, windows[last, stops[last], paylines[line, last]]]
        shown = 0
        for row in range(rows):
            for reel in range(reels):
                coin = grid[row, reel] == symbol
                held_cell[row * reels + reel] = coin
                shown += coin
        feature = played = resets = held = awarded = 0
        if shown >= trigger:
            awarded = full
            plain = fixed = collectors = factors = 0
            multiplier = 1
            for cell in range(n_cells):
                if held_cell[cell]:
                    stream, value = stream_bounded(stream, value_total)
                    entry_at = stop_for_draw(value_cumulative, n_values, value)
                    plain, fixed, collectors, multiplier, factors = add_coin(
                        multiply_sum,
                        value_kinds[entry_at],
                        value_amounts[entry_at],
                        plain,
                        fixed,
                        collectors,
                        multiplier,
                        factors,
                    )
                    log_at = _logged(log, log_at, record, DRAW_VALUE, value_total, value)
            held, left = shown, full
            while not feature_over(n_cells, held, left):
                landed = 0
                for cell in range(n_cells):
                    if held_cell[cell]:
                        continue
                    stream, value = stream_bounded(stream, land_total)
                    log_at = _logged(log, log_at, record, DRAW_CELL, land_total, value)
                    if value < coin_weight:
                        held_cell[cell] = True
                        landed += 1
                        stream, value = stream_bounded(stream, value_total)
                        entry_at = stop_for_draw(value_cumulative, n_values, value)
                        plain, fixed, collectors, multiplier, factors = add_coin(
                            multiply_sum,
                            value_kinds[entry_at],
                            value_amounts[entry_at],
                            plain,
                            fixed,
                            collectors,
                            multiplier,
                            factors,
                        )
                        log_at = _logged(log, log_at, record, DRAW_VALUE, value_total, value)
                held, left = respin_step(full, held, left, landed)
                played += 1
                resets += landed > 0
            tier = full_grid_amount if held >= n_cells else 0
            feature = grid_pay(plain, fixed, collectors, multiplier, tier) * total_bet
        if record and log_at > log.shape[0]:  # undo the round: the next call draws it again
            stream = saved
            log_at = round_start
            break
        win = base_line + feature
        if record:
            row_out = results[i]
            row_out[r.R_WIN] = win
            row_out[r.R_BASE_LINE] = base_line
            row_out[r.R_BASE_SCATTER] = 0
            row_out[r.R_BASE_TRIGGERS] = shown
            row_out[r.R_AWARDED] = awarded
            row_out[r.R_FREE_SPINS] = played
            row_out[r.R_FREE_WIN] = feature
            row_out[r.R_FREE_TRIGGERS] = held
            row_out[r.R_ADDED] = resets
            log_ends[i] = log_at
        played_rounds += 1
        total += win
        base_line_sum += base_line
        base_win_sq += float(base_line) * float(base_line)
        # a line win or a feature that pays (every feature pays but one of collectors and
        # multipliers alone): the exact hit frequency's event
        base_hits += (base_line > 0) | (feature > 0)
        round_hits += win > 0
        band = 0
        for b in range(top_band):
            band += win > edges[b]
        bands[band] += 1
        win_sq += float(win) * float(win)
        max_win = max(max_win, win)
        if awarded > 0:
            triggered += 1
            feature_sum += feature
            respins_sum += played
            resets_sum += resets
            max_respins = max(max_respins, played)
    store_stream(stream, rng)
    stats[r.S_ROUNDS] += played_rounds
    stats[r.S_WIN] += total
    stats[r.S_BASE_LINE] += base_line_sum
    stats[r.S_FREE_WIN] += feature_sum
    stats[r.S_BASE_HITS] += base_hits
    stats[r.S_ROUND_HITS] += round_hits
    stats[r.S_TRIGGERS] += triggered
    stats[r.S_FREE_SPINS] += respins_sum
    stats[r.S_RETRIGGERS] += resets_sum
    stats[r.S_MAX_WIN] = max(stats[r.S_MAX_WIN], max_win)
    stats[r.S_MAX_FREE_SPINS] = max(stats[r.S_MAX_FREE_SPINS], max_respins)
    for b in range(edges.shape[0]):
        stats[r.S_BANDS + b] += bands[b]
    float_stats[r.F_WIN_SQ] += win_sq
    float_stats[r.F_BASE_WIN_SQ] += base_win_sq
    return played_rounds
