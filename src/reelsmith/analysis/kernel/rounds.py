"""The round loop: one compiled function plays the rounds of every kind of title, base spin
and free spins, counting the statistics and, with ``record``, keeping each round's results and
draws.

One screen, every kind
----------------------
A screen is read the same way for every title: one stop per reel (a bounded draw below the
strip's length, or below the reel's total weight and looked up in its cumulative weights as
:func:`reelsmith.engine.stops.stop_for_draw` does), the counted symbols summed from the
per-stop table, and the line pays from the prefix entry of the first reels and the open
paylines walked through the line automaton (:mod:`reelsmith.analysis.kernel.tables`). A
screen's win then goes to the kind's own block:

* the catalogue's free spins: the scatter pays, the plug-in's step, the trigger (with its
  revealed award), the retriggers and the cap, through the engine's own
  :func:`~reelsmith.engine.catalogue.trigger_spins` and
  :func:`~reelsmith.engine.catalogue.award_spins`;
* the free-spins ladder and the local must-hit-by pots, when the model declares them: before
  the lines are read each gem raises its reel's pot (a pot reaching its hidden trigger point
  is won and draws a new one, the gem staying a gem) or reveals a symbol or a wild reel, and
  the spin's bonus symbols fill the meter, start the ladder, unlock levels and end it, through
  :mod:`reelsmith.engine.features.ladder_steps`. A reveal on the prefix's reels changes a cell
  the prefix entry has read: that screen walks every payline from the start on the revealed
  grid. The pots, their trigger points and the meter are carried from round to round (and
  from call to call) in the arrays the caller hands in.

The draws are live play's, in its order (:mod:`reelsmith.engine.round`,
:mod:`reelsmith.engine.ladder`): the reel stops, then a plug-in's draw, then each triggering
symbol's reveal; on a ladder spin the stops, then reel by reel each gem's draw. The parity
tests replay the recorded draws through live play and require identical rounds.

Compiled once per shape
-----------------------
:func:`play_rounds` dispatches to the loop inlined with ``record``, ``weighted`` and
``ladder`` as constants, so the loop that only counts carries none of the trace's branches, the
loop of unweighted reels none of the weighted draw's, and a catalogue title none of the
ladder's (a helper per screen would cost more than the screen: numba reference-counts every
array handed to a call). The statistics of a round are counted without branches where whether
a round wins is as likely as not.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from reelsmith.analysis.chunks import merge_counts
from reelsmith.analysis.kernel.tables import COUNT_BITS, COUNT_MASK, E_END, E_OPEN, E_PAY, START
from reelsmith.analysis.pcg64 import bounded, load_stream, next_uint64, store_stream, stream_bounded
from reelsmith.engine.catalogue import award_spins, spins_by_count, trigger_spins
from reelsmith.engine.features.ladder_steps import (
    advance,
    collect,
    fill_spot,
    raise_pot,
    start_ladder,
    trigger_point,
)
from reelsmith.engine.plugins import Plugin
from reelsmith.engine.stops import stop_for_draw
from reelsmith.mechanics.ways.rules import ways_pay, ways_pay_alive, ways_pay_counts

# Draw kinds in a trace (the purposes live play records): reel stops, a reveal (the catalogue's
# award or the ladder's gem), the plug-in's; on a ladder model (which has no plug-in) a pot's
# new trigger point is ``DRAW_TRIGGER`` + its reel.
DRAW_REEL_STOP = 0
DRAW_REVEAL = 1
DRAW_PLUGIN = 2
DRAW_TRIGGER = 2
#: A free spin's wild weight on a ways model's reel (a ways model has no ladder).
DRAW_WILD_WEIGHT = 3
#: One cell's draw on a reel set of drawn cells.
DRAW_CELL = 4

#: A gem's reveal outcome that turns its whole reel wild.
WILD_REEL_OUTCOME = -2

# Per-round results recorded by play_rounds (trace mode), a catalogue round's.
R_WIN, R_BASE_LINE, R_BASE_SCATTER, R_BASE_TRIGGERS, R_AWARDED = range(5)
R_FREE_SPINS, R_FREE_WIN, R_FREE_TRIGGERS, R_ADDED = range(5, 9)
ROUND_FIELDS = 9
ROUND_FIELD_NAMES = (
    "win",
    "base_line",
    "base_scatter",
    "base_triggers",
    "awarded",
    "free_spins",
    "free_win",
    "free_triggers",
    "added",
)
# A ladder round's results: R_WIN, R_BASE_LINE and R_FREE_SPINS as above, these fields, then
# each reel's pot after the round (from R_POTS), then each reel's trigger point.
R_FREE_LINE, R_JACKPOT, R_BONUS, R_METER, R_POTS = 2, 3, 4, 6, 7

# Statistics (int64 slots), all in coins at one coin per line on every payline.
S_ROUNDS, S_WIN, S_BASE_LINE, S_BASE_SCATTER, S_FREE_WIN = range(5)
S_BASE_HITS = 5  # base spins that pay (or, in the catalogue, trigger the feature)
S_ROUND_HITS = 6  # rounds that win
S_TRIGGERS = 7  # rounds that play free spins
S_FREE_SPINS = 8  # free spins played
S_RETRIGGERS = 9  # free spins that added spins
S_CAPPED = 10  # features whose spins reached the cap
S_MAX_WIN = 11  # largest round win
S_MAX_FREE_SPINS = 12  # most free spins in one round
S_BANDS = 13  # round-win bands follow
N_BANDS = 10
#: What the plug-in adds to the base spins' wins (0 without one): the base spin's win is
#: ``S_BASE_LINE + S_BASE_SCATTER + S_BASE_PLUGIN``.
S_BASE_PLUGIN = S_BANDS + N_BANDS
#: Rounds whose win reached the model's cap (``[max_win]``) and were paid the cap.
S_CAP_HITS = S_BASE_PLUGIN + 1
#: The slots of every title; a ladder model's blocks follow (:class:`StatSlots`).
N_INT_STATS = S_CAP_HITS + 1
#: Slots merged by maximum rather than by sum.
MAX_SLOTS = (S_MAX_WIN, S_MAX_FREE_SPINS)
#: float64 slots: sums of squared round wins and base-spin wins, in the game's square unit
#: (coins^2 for the catalogue, line bets^2 for the ladder: ``KernelGame.square_unit``).
F_WIN_SQ = 0
F_BASE_WIN_SQ = 1
N_FLOAT_STATS = 2

#: Upper edges of the round-win bands in multiples of the total bet; band 0 is "no win", band
#: ``b`` holds wins above edge ``b - 1`` up to edge ``b``, the last band is open-ended.
BAND_EDGES = (0, 1, 2, 5, 10, 20, 50, 100, 500)


def band_edges_in_coins(total_bet: int) -> npt.NDArray[np.int64]:
    """Band upper edges in coins for the kernel (the last entry stands for "no limit")."""
    return np.array([e * total_bet for e in BAND_EDGES] + [2**62], dtype=np.int64)


def band_labels() -> list[str]:
    edges = BAND_EDGES
    return [
        "no win",
        *(f"over {lo}x to {hi}x" for lo, hi in itertools.pairwise(edges)),
        f"over {edges[-1]}x",
    ]


def merge_stats(into: list[int], other: list[int] | npt.NDArray[np.int64]) -> None:
    """Add a chunk's statistics to ``into`` (maxima in :data:`MAX_SLOTS`)."""
    merge_counts(into, other, MAX_SLOTS)


def ladder_round_fields(reels: int) -> int:
    """How many results trace mode records per ladder round: the fields up to ``R_POTS``, then
    each reel's pot, then each reel's trigger point."""
    return R_POTS + 2 * reels


@njit(cache=True, nogil=True)
def stat_offsets(
    reels: int, levels: int, spots: int
) -> tuple[int, int, int, int, int, int, int, int, int]:
    """Where a ladder model's blocks of statistics start, after the :data:`N_INT_STATS` slots
    every title has: the jackpot bets won; per reel the jackpot hits, the jackpot bets won and
    the gems landed; per level the free spins played, their (multiplied) line wins and the
    triggers reaching it; the rounds ending with the meter at 0 .. ``spots``; and the number of
    slots."""
    jackpot_bets = N_INT_STATS
    pot_hits = jackpot_bets + 1
    pot_bets = pot_hits + reels
    gems = pot_bets + reels
    level_spins = gems + reels
    level_line = level_spins + levels
    level_reached = level_line + levels
    meter_ends = level_reached + levels
    return (
        jackpot_bets,
        pot_hits,
        pot_bets,
        gems,
        level_spins,
        level_line,
        level_reached,
        meter_ends,
        meter_ends + spots + 1,
    )


@dataclass(frozen=True)
class StatSlots:
    """A ladder model's statistics blocks for its sizes (see :func:`stat_offsets`)."""

    reels: int
    levels: int
    spots: int
    jackpot_bets: int
    pot_hits: int
    pot_bets: int
    gems: int
    level_spins: int
    level_line: int
    level_reached: int
    meter_ends: int
    size: int

    @classmethod
    def of(cls, reels: int, levels: int, spots: int) -> StatSlots:
        offsets = (int(x) for x in stat_offsets(reels, levels, spots))
        return cls(reels, levels, spots, *offsets)


@njit(cache=True, nogil=True)
def stationary_state(
    rng: npt.NDArray[np.uint64],
    seeds: npt.NDArray[np.int64],
    lasts: npt.NDArray[np.int64],
    meter_cdf: npt.NDArray[np.float64],
    pots: npt.NDArray[np.int64],
    triggers: npt.NDArray[np.int64],
    meter: npt.NDArray[np.int64],
) -> None:
    """Draw a ladder model's carried state from the long-run law: each (pot, trigger) pair
    uniform on ``seed <= pot < trigger <= last`` (one bounded draw per pot; ``last``, the
    largest trigger point, from ``Jackpot.last_trigger``), the meter from its stationary law (a
    53-bit uniform against ``meter_cdf``)."""
    for reel in range(seeds.shape[0]):
        k = lasts[reel] - seeds[reel]
        index = bounded(rng, k * (k + 1) // 2)
        gap = 1  # trigger - seed; pairs with gap g are indices g(g-1)/2 .. g(g+1)/2 - 1
        while index >= gap * (gap + 1) // 2:
            gap += 1
        age = index - (gap - 1) * gap // 2
        pots[reel] = seeds[reel] + age
        triggers[reel] = seeds[reel] + gap
    u = float(next_uint64(rng) >> np.uint64(11)) / 9007199254740992.0
    m = 0
    while m < meter_cdf.shape[0] - 1 and u >= meter_cdf[m]:
        m += 1
    meter[0] = m


#: Where :func:`play_rounds` finds, in the game tuple (``KernelGame.kernel_args``), whether a
#: reel set weighs its stops and whether the model plays the ladder and pots.
G_WEIGHTED = 5
G_LADDER = 27
G_WAYS = 36
#: Where the game tuple holds the cap on a round's win in coins (0: no cap).
G_CAP = 53


@njit(cache=True, nogil=True)
def play_rounds(
    rng: npt.NDArray[np.uint64],
    n_rounds: int,
    game: tuple[Any, ...],
    carried: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]],
    batch_size: int,
    batch_sums: npt.NDArray[np.int64],
    stats: npt.NDArray[np.int64],
    float_stats: npt.NDArray[np.float64],
    record: bool,
    results: npt.NDArray[np.int64],
    log: npt.NDArray[np.int64],
    log_ends: npt.NDArray[np.int64],
) -> int:
    """Play ``n_rounds`` rounds at one coin per line on every payline, adding their statistics
    to ``stats`` / ``float_stats`` (the ``S_*`` / ``F_*`` slots, and a ladder model's blocks).

    ``game`` is ``KernelGame.kernel_args``: the stacked tables (base reel set 0 and free-spin
    reel set 1), the paylines, the total bet, the band edges in coins, the catalogue's
    free-spin rules (``trigger`` 0: none) and the ladder's and pots' parameters. ``carried`` is
    (pots, trigger points, [meter]), a ladder model's state, updated in place (empty arrays
    for a catalogue model); without ``record`` each ladder round's win is also added to
    ``batch_sums[i // batch_size]``.

    With ``record`` each round's results go to ``results[i]`` (the ``R_*`` fields of its kind)
    and its draws to ``log`` as (kind, bound, value) rows ending at ``log_ends[i]``. A round
    that would overflow ``log`` is undone (the stream and the carried state put back to where
    the round began) and the call returns early. Returns the rounds played.
    """
    run = (
        rng,
        n_rounds,
        game,
        carried,
        batch_size,
        batch_sums,
        stats,
        float_stats,
        results,
        log,
        log_ends,
    )
    # eight loops compiled: the one that only counts has none of the trace's branches, the one
    # of unweighted reels none of the weighted stop draw's, the catalogue's none of the
    # ladder's; none carries a plug-in's step
    bound, apply, table = _no_plugin_bound, _no_plugin_apply, _NO_PLUGIN_TABLE
    if game[G_LADDER] and game[G_WAYS]:
        # the ladder on ways: a screen whose gems revealed nothing pays by its stops' counts,
        # any other by the ways rule on its revealed grid
        if record:
            return _round_loop(
                True, False, True, True, True, run, False, bound, apply, table, False, False
            )
        return _round_loop(
            False, False, True, True, True, run, False, bound, apply, table, False, False
        )
    if game[G_LADDER]:
        if record:
            return _round_loop(
                True, False, True, False, True, run, False, bound, apply, table, False, False
            )
        return _round_loop(
            False, False, True, False, True, run, False, bound, apply, table, False, False
        )
    if game[G_WAYS]:
        # the ways read their per-stop count tables; weighted stops are drawn as any reel's
        if record:
            return _round_loop(
                True,
                game[G_WEIGHTED],
                False,
                True,
                True,
                run,
                False,
                bound,
                apply,
                table,
                False,
                False,
            )
        if game[G_WEIGHTED]:
            return _round_loop(
                False, True, False, True, True, run, False, bound, apply, table, False, False
            )
        return _round_loop(
            False, False, False, True, True, run, False, bound, apply, table, False, False
        )
    if game[G_WEIGHTED]:
        if record:
            return _round_loop(
                True, True, False, False, True, run, False, bound, apply, table, False, False
            )
        return _round_loop(
            False, True, False, False, True, run, False, bound, apply, table, False, False
        )
    if record:
        return _round_loop(
            True, False, False, False, True, run, False, bound, apply, table, False, False
        )
    return _round_loop(
        False, False, False, False, True, run, False, bound, apply, table, False, False
    )


@njit(cache=True, nogil=True)
def play_ways_reference(
    rng: npt.NDArray[np.uint64],
    n_rounds: int,
    game: tuple[Any, ...],
    carried: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]],
    batch_size: int,
    batch_sums: npt.NDArray[np.int64],
    stats: npt.NDArray[np.int64],
    float_stats: npt.NDArray[np.float64],
    record: bool,
    results: npt.NDArray[np.int64],
    log: npt.NDArray[np.int64],
    log_ends: npt.NDArray[np.int64],
) -> int:
    """:func:`play_rounds` on a ways model without the ladder, each screen paid by
    :func:`~reelsmith.mechanics.ways.rules.ways_pay_counts` over every paying symbol (its
    outputs written) instead of the round loop's walk over the symbols alive on the first
    ``min_run`` reels: the loop as it was before that walk, kept as the benchmark's baseline
    and a parity check (the same rounds from the same stream). Compiled only when called."""
    run = (
        rng,
        n_rounds,
        game,
        carried,
        batch_size,
        batch_sums,
        stats,
        float_stats,
        results,
        log,
        log_ends,
    )
    bound, apply, table = _no_plugin_bound, _no_plugin_apply, _NO_PLUGIN_TABLE
    if record:
        return _round_loop(
            True,
            game[G_WEIGHTED],
            False,
            True,
            False,
            run,
            False,
            bound,
            apply,
            table,
            False,
            False,
        )
    if game[G_WEIGHTED]:
        return _round_loop(
            False, True, False, True, False, run, False, bound, apply, table, False, False
        )
    return _round_loop(
        False, False, False, True, False, run, False, bound, apply, table, False, False
    )


@njit(cache=True, nogil=True)
def _no_plugin_bound(table: npt.NDArray[np.int64], free: bool, win: int, total_bet: int) -> int:
    """The draw bound of a model without a plug-in (never called: the loop's flag is off)."""
    return 0


@njit(cache=True, nogil=True)
def _no_plugin_apply(
    table: npt.NDArray[np.int64], free: bool, win: int, total_bet: int, value: int
) -> tuple[int, int]:
    """The step of a model without a plug-in (never called: the loop's flag is off)."""
    return win, 0


_NO_PLUGIN_TABLE = np.zeros(1, dtype=np.int64)


def play_plugin_rounds(run: tuple[Any, ...], record: bool, plugin: Plugin) -> int:
    """:func:`play_rounds` for a catalogue model with a plug-in, on the same arguments
    (``run``: all but ``record``, in their order): the same round loop with the plug-in's step
    compiled in (its module's own ``draw_bound`` and ``apply``). Each plug-in gets its own
    compilation (numba types a function argument by the function), so the loop of a model
    without one is untouched; the loop that records and the one that only counts are compiled
    apart, each when first called. They are not cached on disk: a function argument's type is
    new in every process, so the cache would only grow; the compilation costs some seconds per
    process."""
    loop = _plugin_trace if record else _plugin_count
    module = plugin.module
    played: int = loop(
        run, module.draw_bound, module.apply, plugin.table, plugin.in_base, plugin.in_free
    )
    return played


def _plugin_loop(record: bool) -> Any:
    """The round loop of a model with a plug-in, ``record`` a constant of it (the plug-in's
    functions and table are its arguments)."""

    @njit(nogil=True)
    def loop(
        run: tuple[Any, ...],
        bound: Any,
        apply: Any,
        table: npt.NDArray[np.int64],
        in_base: bool,
        in_free: bool,
    ) -> int:
        weighted = run[2][G_WEIGHTED]
        return _round_loop(
            record, weighted, False, False, True, run, True, bound, apply, table, in_base, in_free
        )

    return loop


_plugin_count = _plugin_loop(False)
_plugin_trace = _plugin_loop(True)


@njit(cache=True, nogil=True, inline="always")
def _pick(cumulative: npt.NDArray[np.int64], value: int) -> int:
    """The entry of a weighted table a draw below its total weight picks (as
    :func:`reelsmith.rng.weighted_index` does)."""
    v = 0
    while value >= cumulative[v]:
        v += 1
    return v


@njit(cache=True, nogil=True, inline="always")
def _round_loop(
    record: bool,
    weighted: bool,
    ladder: bool,
    ways: bool,
    fast_ways: bool,
    run: tuple[Any, ...],
    has_plugin: bool,
    plugin_bound: Any,
    plugin_apply: Any,
    plugin_table: npt.NDArray[np.int64],
    plugin_in_base: bool,
    plugin_in_free: bool,
) -> int:
    """:func:`play_rounds` on its arguments ``run`` (all but ``record``), with ``record``,
    ``weighted`` (whether a reel set weighs its stops), ``ladder`` (whether the model plays
    the ladder and pots) and ``ways`` (whether the screen pays by ways: the ways rule
    :func:`~reelsmith.mechanics.ways.rules.ways_pay_counts` on the per-stop count tables, a
    free spin drawing its wild weights first) constants where it is inlined; with
    ``fast_ways`` (a constant) a ways screen walks only the symbols alive on its first
    ``min_run`` reels (:func:`~reelsmith.mechanics.ways.rules.ways_pay_alive`, the same total),
    without it every paying symbol through ``ways_pay_counts`` (:func:`play_ways_reference`);
    with
    ``has_plugin`` (a constant too) each screen's win goes through the plug-in's step
    (``plugin_bound``, ``plugin_apply`` on ``plugin_table``, where ``plugin_in_base`` /
    ``plugin_in_free`` say it acts) after its lines and scatter are paid, its draw made and
    recorded as live play makes it (before any reveal). A free spin's line or way wins are
    multiplied by the multiplier its trigger's count set; a required reel without the trigger
    symbol keeps a screen from triggering or retriggering. Where the model caps a round's win
    (``cap_coins`` > 0, the game's last entry), a round whose total reaches the cap is paid the
    cap and ends after that screen, as live play's cap does
    (:mod:`reelsmith.mechanics.max_win.live`): a base spin at the cap plays none of the free
    spins it triggered (its reveals drawn), a free spin at the cap ends the feature, and the
    free win recorded is what the free spins paid up to the cap. A title without a cap pays one
    comparison per screen, on a value constant over the run."""
    (
        rng,
        n_rounds,
        game,
        carried,
        batch_size,
        batch_sums,
        stats,
        float_stats,
        results,
        log,
        log_ends,
    ) = run
    pots, triggers, meter_state = carried
    (
        windows,
        shown_counts,
        lengths,
        totals,
        cumulative,
        _weighted,  # dispatched on by play_rounds, a constant here
        depth,
        prefix,
        entries,
        open_lines,
        open_states,
        trans,
        last_pays,
        paylines,
        total_bet,
        band_edges,
        square_unit,
        trigger,
        reveal_values,
        reveal_cumulative,
        scatter_pays,
        spins_table,
        revealed,
        retrigger,
        retrigger_spins,
        spins_per_symbol,
        max_spins,
        _ladder,  # dispatched on by play_rounds, a constant here
        gem_row,
        wild,
        seeds,
        lasts,
        multipliers,
        spins_per_level,
        spots,
        per_spot,
        _ways,  # dispatched on by play_rounds, a constant here
        way_counts,
        way_wilds,
        way_pays,
        way_paying,
        substitutable,
        way_weights,
        way_free_reels,
        way_free_values,
        way_free_cumulative,
        way_min_run,
        way_pure_wild,
        trigger_multipliers,
        required,
        present,
        scatter_unit,
        way_shown,
        cap_coins,
        cell_draws,
        radix,
    ) = game
    reels = windows.shape[1]
    rows = windows.shape[3]
    last = reels - 1
    n_lines = paylines.shape[0]
    last_pay = scatter_pays.shape[1] - 1
    top_band = band_edges.shape[0] - 1
    levels = multipliers.shape[0]
    # a catalogue base spin's trigger counts as a hit (its exact hit frequency's event)
    hit_triggers = trigger if trigger > 0 and not ladder else 1 << 62
    total_weight = reveal_cumulative[reveal_cumulative.shape[0] - 1]
    # the log rows one screen may need: its stops, and on a ladder one gem draw per reel (a
    # ways free spin: one wild weight per listed reel)
    screen_rows = 2 * reels if ladder else reels * cell_draws.max() + way_free_reels.shape[0]
    # the wild weights of the base spins (row 0) and of the free spin being played (row 1,
    # its listed reels drawn per free spin)
    weights_sets = np.empty((2, reels), dtype=np.int64)
    weights_sets[0] = way_weights
    weights_sets[1] = way_weights
    weights_now = weights_sets[1]
    way_slots = way_paying.shape[0] + 1
    out_run = np.zeros(way_slots, dtype=np.int64)
    out_ways = np.zeros(way_slots, dtype=np.int64)
    out_pay = np.zeros(way_slots, dtype=np.int64)
    any_required = False
    for reel in range(reels):
        any_required |= required[reel]
    stops = np.zeros(reels, dtype=np.int64)
    grid = np.zeros((rows, reels), dtype=np.int8)  # a ladder screen after its gems' reveals
    stream = load_stream(rng)  # held as values while the rounds draw, written back at the end
    saved = stream
    meter = meter_state[0]
    saved_meter = meter
    saved_pots = pots.copy()
    saved_triggers = triggers.copy()
    bands = np.zeros(band_edges.shape[0], dtype=np.int64)
    pot_hits = np.zeros(reels, dtype=np.int64)
    pot_bets = np.zeros(reels, dtype=np.int64)
    gems_seen = np.zeros(reels, dtype=np.int64)
    level_spins = np.zeros(levels, dtype=np.int64)
    level_line = np.zeros(levels, dtype=np.int64)
    level_reached = np.zeros(levels, dtype=np.int64)
    meter_ends = np.zeros(spots + 1, dtype=np.int64)
    # what a round counts while it plays, kept in trace mode to undo a round that overflows
    saved_counts = np.zeros((6, max(reels, levels)), dtype=np.int64)
    saved_retriggers = 0
    total = base_line_sum = base_scatter_sum = free_sum = jackpot_sum = 0
    base_hits = round_hits = triggered = free_spins_sum = retriggers = capped = 0
    max_win = max_free_spins = 0
    base_plugin_sum = 0
    cap_hits = 0
    win_sq = base_win_sq = 0.0
    log_at = round_start = 0
    played_rounds = 0
    for i in range(n_rounds):
        if record:
            saved = stream
            round_start = log_at
            saved_retriggers = retriggers
            if ladder:
                saved_meter = meter
                saved_pots[:] = pots
                saved_triggers[:] = triggers
                saved_counts[0, :reels] = gems_seen
                saved_counts[1, :reels] = pot_hits
                saved_counts[2, :reels] = pot_bets
                saved_counts[3, :levels] = level_spins
                saved_counts[4, :levels] = level_line
                saved_counts[5, :levels] = level_reached
        reel_set = 0  # the base spin, then the free spins
        base_line = base_scatter = base_triggers = awarded = base_plugin = 0
        remaining = played = free_win = free_triggers = added_sum = 0
        base_jackpot = round_jackpot = level = unlocked = left = 0
        round_multiplier = 1  # the free spins' multiplier the trigger's count set
        overflow = False
        while True:
            # -- one screen of reel set `reel_set`: its stops, paylines and counted symbols --
            if record and log_at + screen_rows > log.shape[0]:
                overflow = True
                break
            decided = depth[reel_set]
            index = 0  # the prefix's, in mixed radix
            packed = 0  # the counted symbols' (scatter, feature) word, summed over the reels
            for reel in range(reels):
                length = lengths[reel_set, reel]
                if weighted:  # draws below the total weight, looked up as live play does
                    # (one; on drawn cells one per row, the position their digits in base radix)
                    stop = 0
                    bound = totals[reel_set, reel]
                    base = radix[reel_set, reel]
                    searched = base if base > 0 else length  # a cell's table, or the stops
                    for _cell in range(cell_draws[reel_set]):
                        stream, value = stream_bounded(stream, bound)
                        digit = stop_for_draw(cumulative[reel_set, reel], searched, value)
                        stop = stop * base + digit
                        if record:
                            log[log_at, 0] = DRAW_CELL if base > 0 else 0
                            log[log_at, 1] = bound
                            log[log_at, 2] = value
                            log_at += 1
                else:
                    bound = length
                    stream, value = stream_bounded(stream, bound)
                    stop = value
                    if record:
                        log[log_at, 0] = DRAW_REEL_STOP
                        log[log_at, 1] = bound
                        log[log_at, 2] = value
                        log_at += 1
                stops[reel] = stop
                if reel < decided:
                    index = index * length + stop
                packed += shown_counts[reel_set, reel, stop]
            scattered = packed & COUNT_MASK
            shown = packed >> COUNT_BITS
            if any_required and shown > 0:
                # a required reel that shows no trigger symbol: the screen neither triggers
                # nor retriggers (FreeSpins.counted)
                for reel in range(reels):
                    if required[reel] and not present[reel_set, reel, stops[reel]]:
                        shown = 0
                        break
            spin_jackpot = 0
            walk_all = False  # a ladder reveal changed a cell the prefix entry has read
            revealed_any = False  # a ladder gem revealed a symbol or a wild reel
            if ladder:
                # the gems, reel by reel: each raises its reel's pot; a pot reaching its
                # trigger point is won (a new trigger point drawn, the gem stays a gem on the
                # screen), else the gem reveals a symbol or a wild reel
                for reel in range(reels):
                    stop = stops[reel]
                    for row in range(rows):
                        grid[row, reel] = windows[reel_set, reel, stop, row]
                    gem_at = gem_row[reel_set, reel, stop]
                    if gem_at < 0:
                        continue
                    gems_seen[reel] += 1
                    won, hit = raise_pot(pots[reel], triggers[reel])
                    pots[reel] = won
                    if hit:
                        spin_jackpot += won
                        pot_hits[reel] += 1
                        pot_bets[reel] += won
                        pots[reel] = seeds[reel]
                        span = lasts[reel] - seeds[reel]  # the live rule: Jackpot.trigger_span
                        stream, value = stream_bounded(stream, span)
                        triggers[reel] = trigger_point(seeds[reel], value)
                        if record:
                            log[log_at, 0] = DRAW_TRIGGER + reel
                            log[log_at, 1] = span
                            log[log_at, 2] = value
                            log_at += 1
                        continue
                    stream, value = stream_bounded(stream, total_weight)
                    if record:
                        log[log_at, 0] = DRAW_REVEAL
                        log[log_at, 1] = total_weight
                        log[log_at, 2] = value
                        log_at += 1
                    symbol = reveal_values[_pick(reveal_cumulative, value)]
                    if symbol == WILD_REEL_OUTCOME:
                        for row in range(rows):
                            grid[row, reel] = wild
                    else:
                        grid[gem_at, reel] = symbol
                    walk_all |= reel < decided
                    revealed_any = True
            # the line pays: the prefix entry's decided pay and its open paylines walked over
            # the other reels (on a ladder screen its grid after the reveals), or every
            # payline from the start when a reveal changed a cell the entry has read
            if ways:
                # a free spin's wild weights, reel by reel as live play draws them, then the
                # ways rule on the screen's per-stop counts
                if reel_set == 1:
                    for k in range(way_free_reels.shape[0]):
                        odds = way_free_cumulative[k]
                        bound = odds[odds.shape[0] - 1]
                        stream, value = stream_bounded(stream, bound)
                        if record:
                            log[log_at, 0] = DRAW_WILD_WEIGHT
                            log[log_at, 1] = bound
                            log[log_at, 2] = value
                            log_at += 1
                        weights_now[way_free_reels[k]] = way_free_values[k, _pick(odds, value)]
                # a screen pays only if some symbol (or the wild) shows on each of its first
                # min_run reels: most screens are decided by these few words
                alive = way_shown[reel_set, 0, stops[0]]
                for reel in range(1, way_min_run):
                    alive &= way_shown[reel_set, reel, stops[reel]]
                line_pay = 0
                if ladder and revealed_any:
                    # a gem revealed a symbol or a wild reel: the ways rule on the grid as
                    # revealed (the per-stop counts show the gem)
                    line_pay = ways_pay(
                        grid,
                        way_pays[reel_set],
                        way_paying,
                        wild,
                        substitutable,
                        way_weights,
                        way_min_run,
                        way_pure_wild,
                        out_run,
                        out_ways,
                        out_pay,
                    )
                elif fast_ways and alive != 0:
                    # only the symbols alive on the first min_run reels can pay
                    line_pay = ways_pay_alive(
                        way_counts,
                        way_wilds,
                        weights_sets,
                        reel_set,
                        stops,
                        alive,
                        way_pays,
                        way_paying,
                        wild,
                        substitutable,
                        way_min_run,
                        way_pure_wild,
                    )
                elif alive != 0:
                    line_pay = ways_pay_counts(
                        way_counts[reel_set],
                        way_wilds[reel_set],
                        stops,
                        way_pays[reel_set],
                        way_paying,
                        wild,
                        substitutable,
                        way_weights if reel_set == 0 else weights_now,
                        way_min_run,
                        way_pure_wild,
                        out_run,
                        out_ways,
                        out_pay,
                    )
                if reel_set == 1:
                    line_pay *= round_multiplier
            elif ladder and walk_all:
                line_pay = 0
                for line in range(n_lines):
                    state = START
                    for reel in range(last):
                        state = trans[reel_set, state, grid[paylines[line, reel], reel]]
                    line_pay += last_pays[reel_set, state, grid[paylines[line, last], last]]
            else:
                entry = entries[reel_set, prefix[reel_set, index]]
                line_pay = entry[E_PAY]
                for j in range(entry[E_OPEN], entry[E_END]):
                    line = open_lines[reel_set, j]
                    state = open_states[reel_set, j]
                    for reel in range(decided, last):
                        if ladder:
                            cell = grid[paylines[line, reel], reel]
                        else:
                            cell = windows[reel_set, reel, stops[reel], paylines[line, reel]]
                        state = trans[reel_set, state, cell]
                    if ladder:
                        cell = grid[paylines[line, last], last]
                    else:
                        cell = windows[reel_set, last, stops[last], paylines[line, last]]
                    line_pay += last_pays[reel_set, state, cell]

            if ladder:
                # -- the ladder: the bonus symbols fill the meter, start and climb the ladder --
                round_jackpot += spin_jackpot
                if reel_set == 0:
                    base_line = line_pay
                    base_triggers = shown
                    base_jackpot = spin_jackpot
                    if shown < trigger:
                        if shown == per_spot:
                            meter = fill_spot(meter, spots)
                        break
                    level, left = 1, spins_per_level
                    unlocked, meter = start_ladder(meter, spots)
                    level_reached[0] += 1
                    reel_set = 1
                else:
                    won_line = line_pay * multipliers[level - 1]
                    free_win += won_line
                    level_spins[level - 1] += 1
                    level_line[level - 1] += won_line
                    played += 1
                    meter, unlocked = collect(meter, unlocked, shown, spots, levels)
                    played_level = level
                    level, left, over = advance(level, left, unlocked, spins_per_level)
                    if over:
                        break
                    if level > played_level:
                        level_reached[level - 1] += 1
                continue

            # -- the catalogue's free spins: scatter, plug-in, trigger, retriggers, cap --
            scatter_win = int(scatter_pays[reel_set, min(scattered, last_pay)]) * scatter_unit
            if not ways and reel_set == 1:
                line_pay *= round_multiplier
            spin_win = line_pay + scatter_win
            if has_plugin:
                free_spin = reel_set == 1
                if plugin_in_free if free_spin else plugin_in_base:
                    bound = plugin_bound(plugin_table, free_spin, spin_win, total_bet)
                    value = 0
                    if bound > 0:
                        if record and log_at + 1 > log.shape[0]:
                            overflow = True
                            break
                        stream, value = stream_bounded(stream, bound)
                        if record:
                            log[log_at, 0] = DRAW_PLUGIN
                            log[log_at, 1] = bound
                            log[log_at, 2] = value
                            log_at += 1
                    spin_win = plugin_apply(plugin_table, free_spin, spin_win, total_bet, value)[0]

            if reel_set == 0:
                base_line = line_pay
                base_scatter = scatter_win
                if has_plugin:
                    base_plugin = spin_win - line_pay - scatter_win
                base_triggers = shown
                if trigger > 0 and shown >= trigger:
                    revealed_sum = -1
                    if revealed:
                        # each triggering symbol reveals a number of spins (one weighted draw)
                        if record and log_at + shown > log.shape[0]:
                            overflow = True
                            break
                        revealed_sum = 0
                        for _ in range(shown):
                            stream, value = stream_bounded(stream, total_weight)
                            if record:
                                log[log_at, 0] = DRAW_REVEAL
                                log[log_at, 1] = total_weight
                                log[log_at, 2] = value
                                log_at += 1
                            revealed_sum += reveal_values[_pick(reveal_cumulative, value)]
                    awarded = trigger_spins(spins_table, shown, revealed_sum, max_spins)
                    round_multiplier = spins_by_count(trigger_multipliers, shown)
                remaining = awarded
                if cap_coins > 0 and spin_win >= cap_coins:
                    remaining = 0  # the base spin reached the cap: no free spin is played
                reel_set = 1
            else:
                # a free spin: its win, and the trigger symbols it shows may add spins
                free_win += spin_win
                free_triggers += shown
                added = award_spins(
                    retrigger, retrigger_spins, spins_per_symbol, shown, awarded, max_spins
                )
                if added > 0:
                    retriggers += 1
                awarded += added
                added_sum += added
                remaining += added - 1
                played += 1
                if cap_coins > 0:
                    so_far = base_line + base_scatter + base_plugin + free_win
                    if so_far >= cap_coins:  # the round reached its cap: the feature ends here
                        free_win -= so_far - cap_coins
                        remaining = 0
            if remaining <= 0:
                break
        if overflow:  # undo the round: its draws and counts are made again by the next call
            stream = saved
            log_at = round_start
            retriggers = saved_retriggers
            if ladder:
                meter = saved_meter
                pots[:] = saved_pots
                triggers[:] = saved_triggers
                gems_seen[:] = saved_counts[0, :reels]
                pot_hits[:] = saved_counts[1, :reels]
                pot_bets[:] = saved_counts[2, :reels]
                level_spins[:] = saved_counts[3, :levels]
                level_line[:] = saved_counts[4, :levels]
                level_reached[:] = saved_counts[5, :levels]
            break

        win = base_line + base_scatter + free_win
        base_win = base_line + base_scatter
        if has_plugin:
            win += base_plugin
            base_win += base_plugin
            base_plugin_sum += base_plugin
        if cap_coins > 0 and win >= cap_coins:
            win = cap_coins  # a base spin above the cap (a free spin's excess is cut above)
            cap_hits += 1
        if ladder:
            win += round_jackpot * total_bet
            base_win += base_jackpot * total_bet
            jackpot_sum += round_jackpot
            meter_ends[meter] += 1
            if not record:
                batch_sums[i // batch_size] += win
        if record:
            out = results[i]
            out[R_WIN] = win
            out[R_BASE_LINE] = base_line
            out[R_FREE_SPINS] = played
            if ladder:
                out[R_FREE_LINE] = free_win
                out[R_JACKPOT] = round_jackpot
                out[R_BONUS] = base_triggers
                out[R_METER] = meter
                for reel in range(reels):
                    out[R_POTS + reel] = pots[reel]
                    out[R_POTS + reels + reel] = triggers[reel]
            else:
                out[R_BASE_SCATTER] = base_scatter
                out[R_BASE_TRIGGERS] = base_triggers
                out[R_AWARDED] = awarded - added_sum
                out[R_FREE_WIN] = free_win
                out[R_FREE_TRIGGERS] = free_triggers
                out[R_ADDED] = added_sum
            log_ends[i] = log_at
        played_rounds += 1
        total += win
        base_line_sum += base_line
        base_scatter_sum += base_scatter
        # counted without branches: whether a round wins is as likely as not, and a branch the
        # processor mispredicts waits for the screen's tables (adding 0.0 changes no sum)
        base_win_sq += float(base_win) * float(base_win)
        base_hits += (base_win > 0) | (base_triggers >= hit_triggers)
        round_hits += win > 0
        band = 0  # the number of band edges the win passes (edge 0 is 0: no win, band 0)
        for b in range(top_band):
            band += win > band_edges[b]
        bands[band] += 1
        win_sq += float(win) * float(win)
        max_win = max(max_win, win)
        if played > 0:
            triggered += 1
            free_sum += free_win
            free_spins_sum += played
            if played > max_free_spins:
                max_free_spins = played
            if max_spins > 0 and awarded >= max_spins:
                capped += 1
    store_stream(stream, rng)
    meter_state[0] = meter
    stats[S_ROUNDS] += played_rounds
    stats[S_WIN] += total
    stats[S_BASE_LINE] += base_line_sum
    stats[S_BASE_SCATTER] += base_scatter_sum
    stats[S_BASE_PLUGIN] += base_plugin_sum
    stats[S_FREE_WIN] += free_sum
    stats[S_BASE_HITS] += base_hits
    stats[S_ROUND_HITS] += round_hits
    stats[S_TRIGGERS] += triggered
    stats[S_FREE_SPINS] += free_spins_sum
    stats[S_RETRIGGERS] += retriggers
    stats[S_CAPPED] += capped
    stats[S_CAP_HITS] += cap_hits
    stats[S_MAX_WIN] = max(stats[S_MAX_WIN], max_win)
    stats[S_MAX_FREE_SPINS] = max(stats[S_MAX_FREE_SPINS], max_free_spins)
    for b in range(band_edges.shape[0]):
        stats[S_BANDS + b] += bands[b]
    float_stats[F_WIN_SQ] += win_sq / square_unit
    float_stats[F_BASE_WIN_SQ] += base_win_sq / square_unit
    if ladder:
        at_jackpot, at_hits, at_bets, at_gems, at_spins, at_line, at_reached, at_meter, _ = (
            stat_offsets(reels, levels, spots)
        )
        stats[at_jackpot] += jackpot_sum
        for reel in range(reels):
            stats[at_hits + reel] += pot_hits[reel]
            stats[at_bets + reel] += pot_bets[reel]
            stats[at_gems + reel] += gems_seen[reel]
        for lv in range(levels):
            stats[at_spins + lv] += level_spins[lv]
            stats[at_line + lv] += level_line[lv]
            stats[at_reached + lv] += level_reached[lv]
        for m in range(spots + 1):
            stats[at_meter + m] += meter_ends[m]
    return played_rounds
