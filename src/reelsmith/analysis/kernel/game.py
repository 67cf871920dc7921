"""A variant prepared for the kernel: its stacked tables and rules as the round loop reads them
(:class:`KernelGame`), and the ways to play it: counting (:meth:`KernelGame.run`), recording
each round's results and draws for the parity tests (:meth:`KernelGame.trace`), and the carried
state a ladder model's player starts from (:meth:`KernelGame.start_state`)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from reelsmith.analysis.kernel import rounds as r
from reelsmith.analysis.kernel.tables import ReelTables, StackedTables
from reelsmith.analysis.pcg64 import bounded_block
from reelsmith.engine.catalogue import mechanics
from reelsmith.engine.features.ladder_steps import trigger_point
from reelsmith.engine.ladder import WILD_REEL, ladder_rules
from reelsmith.engine.model import GameModel, ModelError
from reelsmith.engine.plugins import Plugin
from reelsmith.rng import Draw

#: Rounds per batch whose wins a ladder model's run keeps (for the batch-means interval).
BATCH_ROUNDS = 1_000
#: The carried states a ladder model's player can start from: drawn from the long-run law, or
#: pots at their seeds and the meter empty.
STARTS = ("stationary", "fresh")

Carried = tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]


def meter_law(model: GameModel, variant_id: str) -> npt.NDArray[np.float64]:
    """A ladder model's carried meter: its stationary law at the start of a round (from the
    exact analyzer)."""
    from reelsmith.analysis import ladder as exact

    rules = ladder_rules(model)
    variant = model.variant(variant_id)
    base = variant.reel_sets["base"]
    free = variant.reel_sets[rules.free_reel_set]
    chain = exact.free_spins_chain(
        rules, exact.count_distribution(exact.symbol_shown(model, free, rules.bonus))
    )
    base_law = exact.count_distribution(exact.symbol_shown(model, base, rules.bonus))
    law = np.clip(exact.meter_stationary(rules, base_law, chain), 0.0, None)
    return np.asarray(law / law.sum(), dtype=np.float64)


@dataclass(frozen=True, eq=False)
class LadderPots:
    """The free-spins ladder's and the local pots' parameters of a ladder model (from
    :class:`~reelsmith.engine.ladder.LadderRules`)."""

    pot_names: tuple[str, ...]
    seeds: npt.NDArray[np.int64]
    lasts: npt.NDArray[np.int64]  # each pot's largest trigger point (below its cap)
    multipliers: npt.NDArray[np.int64]  # per level
    spins_per_level: int
    spots: int
    per_spot: int  # the main-game bonus symbols that fill one spot
    meter_cdf: npt.NDArray[np.float64]
    slots: r.StatSlots  # where the per-pot, per-level and meter statistics sit


_NONE = np.zeros(0, dtype=np.int64)


@dataclass(frozen=True, eq=False)
class WaysTables:
    """A ways model's tables as the round loop reads them: per reel set, reel and stop the
    count of each paying symbol and of the wild its window shows (the reel sets stacked as
    the loop's other tables), the pay tables of the base and the free spins, and the wild
    weights (fixed, and each listed reel's law in a free spin, as cumulative odds)."""

    counts: npt.NDArray[np.int64]  # [set, reel, stop, i]: paying[i] in that window
    wilds: npt.NDArray[np.int64]  # [set, reel, stop]
    pays: npt.NDArray[np.int64]  # [set, symbol, count]
    paying: npt.NDArray[np.int64]
    weights: npt.NDArray[np.int64]  # [reel]
    free_reels: npt.NDArray[np.int64]  # the reels a free spin draws a weight for, in order
    free_values: npt.NDArray[np.int64]  # [k, option]
    free_cumulative: npt.NDArray[np.int64]  # [k, option]: cumulative odds (padded with the total)
    min_run: int
    pure_wild: int
    #: [set, reel, stop]: bit ``i`` when that window shows ``paying[i]`` or a wild standing
    #: in for it, bit ``len(paying)`` when it shows a wild. A screen pays only if some bit is
    #: set on each of its first ``min_run`` reels (a wild's weight is at least 1).
    shown: npt.NDArray[np.int64]

    @classmethod
    def build(cls, model: GameModel, windows: npt.NDArray[np.int8], free_pays: Any) -> WaysTables:
        from reelsmith.mechanics.ways.rules import ways_rules

        rules = ways_rules(model)
        paying = rules.paying
        counts = (windows[..., None] == paying[None, None, None, None, :].astype(np.int8)).sum(
            axis=3, dtype=np.int64
        )
        wilds = (
            (windows == model.wild).sum(axis=3, dtype=np.int64)
            if model.wild >= 0
            else np.zeros(windows.shape[:3], dtype=np.int64)
        )
        if len(paying) + 1 > 62:
            raise ModelError(
                f"{model.source or model.id}: the kernel pays at most 61 symbols by ways"
            )
        substituted = (
            model.substitutable[paying] if model.wild >= 0 else np.zeros(len(paying), bool)
        )
        stands_in = (wilds > 0)[..., None] & substituted[None, None, None, :]
        bits = ((counts > 0) | stands_in).astype(np.int64) << np.arange(len(paying), dtype=np.int64)
        shown = bits.sum(axis=3, dtype=np.int64) | ((wilds > 0).astype(np.int64) << len(paying))
        listed = sorted(rules.free_weights)
        width = max((len(rules.free_weights[r][0]) for r in listed), default=1)
        values = np.zeros((max(len(listed), 1), width), dtype=np.int64)
        cumulative = np.zeros((max(len(listed), 1), width), dtype=np.int64)
        for k, reel in enumerate(listed):
            vals, odds = rules.free_weights[reel]
            values[k, : len(vals)] = vals
            running = np.cumsum(np.array(odds, dtype=np.int64))
            cumulative[k, : len(vals)] = running
            cumulative[k, len(vals) :] = running[-1]
        return cls(
            counts=counts,
            wilds=wilds,
            pays=np.stack([model.line_pays, np.asarray(free_pays, dtype=np.int64)]),
            paying=paying,
            weights=rules.weights.astype(np.int64),
            free_reels=np.array(listed, dtype=np.int64),
            free_values=values,
            free_cumulative=cumulative,
            min_run=rules.min_run,
            pure_wild=rules.pure_wild,
            shown=shown,
        )


_NO_WAYS = (
    np.zeros((1, 1, 1, 1), dtype=np.int64),
    np.zeros((1, 1, 1), dtype=np.int64),
    np.zeros((1, 1, 1), dtype=np.int64),
    np.zeros(0, dtype=np.int64),
)


def _cap_coins(model: GameModel, total_bet: int) -> int:
    """The model's cap on a round's win in coins at a bet of ``total_bet`` coins (0: none)."""
    from reelsmith.mechanics.max_win.rules import model_cap

    cap = model_cap(model)
    return 0 if cap is None else cap.cap_coins(total_bet)


def _no_state() -> Carried:
    """The carried state of a catalogue model: none (empty pots, a meter never read)."""
    return _NONE, _NONE, np.zeros(1, dtype=np.int64)


@dataclass(frozen=True, eq=False)
class KernelGame:
    """A variant prepared for :func:`~reelsmith.analysis.kernel.rounds.play_rounds` (every
    payline, one coin each): the catalogue's free spins, or the ladder and pots
    (``ladder``) when the model declares them."""

    model: GameModel
    variant_id: str
    tables: StackedTables | None  # None: a chain title, played by its mechanic's own kernel
    scatter_pays: npt.NDArray[np.int64]  # [set, count]
    total_bet: int
    trigger: int  # the feature symbols that start the free spins; 0: no free spins
    spins_table: npt.NDArray[np.int64]
    revealed: bool  # whether a catalogue trigger's award is revealed
    reveal_purpose: str
    #: The reveal table: the catalogue's spins per triggering symbol, or the ladder gem's
    #: symbols (``WILD_REEL_OUTCOME``: a wild reel), with cumulative weights.
    reveal_values: npt.NDArray[np.int64]
    reveal_cumulative: npt.NDArray[np.int64]
    retrigger: int
    retrigger_spins: npt.NDArray[np.int64]
    spins_per_symbol: int
    max_spins: int
    plugin: Plugin | None = None  # the model's plug-in, compiled into its own loop
    ladder: LadderPots | None = None
    ways: WaysTables | None = None
    #: The free spins' multiplier by the trigger's count (all 1 without ``multipliers``).
    trigger_multipliers: npt.NDArray[np.int64] = field(
        default_factory=lambda: np.ones(1, dtype=np.int64)
    )
    #: Reels that must each show the trigger symbol ([reel]; none required: all False), and
    #: per reel set, reel and stop whether its window shows it.
    required: npt.NDArray[np.bool_] = field(default_factory=lambda: np.zeros(1, dtype=np.bool_))
    present: npt.NDArray[np.bool_] = field(
        default_factory=lambda: np.zeros((2, 1, 1), dtype=np.bool_)
    )
    #: What a scatter's pay multiplies: the total bet, or one coin (``pays_per = "coin"``).
    scatter_unit: int = 0
    #: A title whose spin a mechanic plays whole (a cascade's chain of screens, a window
    #: counted anywhere): that mechanic's kernel game (``kernel_play``: the function playing
    #: its rounds), which :meth:`play` hands the rounds to.
    chain: Any = None
    kernel_play: Any = None
    #: The model's cap on a round's win (``[max_win]``) in coins at this bet; 0: no cap.
    cap_coins: int = 0

    @classmethod
    def build(
        cls, model: GameModel, variant_id: str | None = None, *, depth: int | None = None
    ) -> KernelGame:
        """Prepare ``variant_id`` of a model; ``depth`` forces the prefix depth (0: no prefix
        tables), else it is chosen per reel set."""
        from reelsmith.mechanics import evaluation, evaluator, own_kernel, round_face
        from reelsmith.mechanics import kernel_game as own_game

        round_face(model, "simulate")  # refuses a mechanic the kernel does not play, by name
        spin_kernel = own_kernel(model)
        if spin_kernel is not None:
            return cls._build_chain(model, variant_id, spin_kernel)
        build_own = own_game(model)
        if build_own is not None:
            built: KernelGame = build_own(cls, model, variant_id, depth)
            return built
        rules = mechanics(model)
        from reelsmith.analysis.catalogue_exact import total_coins

        # an evaluator that pays the whole window brings the round loop's tables of its own
        window_tables: Any = getattr(evaluation(model), "kernel_tables", None)
        ways = window_tables is not None
        if ways and rules.plugin is not None:
            raise ModelError(
                f"{model.source or model.id}: the kernel does not play a plug-in on "
                f"{evaluator(model).name} yet"
            )
        variant = model.variant(variant_id)
        free = rules.free_spins
        depth = 0 if ways else depth  # the ways read no payline prefix
        counted = (free.symbol, rules.trigger_mask) if free is not None else None
        base = ReelTables.build(model, variant.reel_sets["base"], model.line_pays, counted, depth)
        free_tables = (
            ReelTables.build(
                model, variant.reel_sets[free.reel_set], rules.free_line_pays, counted, depth
            )
            if free is not None
            else base
        )
        tables = StackedTables.stack(base, free_tables)
        present = np.zeros(tables.windows.shape[:3], dtype=np.bool_)
        required = np.zeros(model.reels, dtype=np.bool_)
        multipliers = np.ones(1, dtype=np.int64)
        if free is not None:
            present = (tables.windows == free.symbol).any(axis=3)
            if free.required is not None:
                required = free.required.copy()
            if free.trigger_multipliers is not None:
                multipliers = free.trigger_multipliers.astype(np.int64)
        scatter_pays = np.zeros((2, len(model.scatter_pays)), dtype=np.int64)
        if model.scatter >= 0:
            scatter_pays[0] = model.scatter_pays
            scatter_pays[1] = rules.free_scatter_pays
        values = np.ones(1, dtype=np.int64)
        cumulative = np.ones(1, dtype=np.int64)
        purpose = ""
        if free is not None and free.reveal is not None:
            reveal_values, weights = free.reveal_table(variant)
            values = np.array(reveal_values, dtype=np.int64)
            cumulative = np.cumsum(np.array(weights, dtype=np.int64))
            purpose = free.reveal
        empty = np.zeros(1, dtype=np.int64)
        total_bet = total_coins(model)
        return cls(
            model=model,
            variant_id=variant.id,
            tables=tables,
            scatter_pays=scatter_pays,
            total_bet=total_bet,
            trigger=free.trigger if free is not None else 0,
            spins_table=free.spins if free is not None else empty,
            revealed=free is not None and free.reveal is not None,
            reveal_purpose=purpose,
            reveal_values=values,
            reveal_cumulative=cumulative,
            retrigger=free.retrigger if free is not None else 2,
            retrigger_spins=free.retrigger_spins if free is not None else empty,
            spins_per_symbol=free.spins_per_symbol if free is not None else 0,
            max_spins=free.max_spins if free is not None else 0,
            plugin=rules.plugin,
            ways=window_tables(model, tables.windows, rules.free_line_pays) if ways else None,
            trigger_multipliers=multipliers,
            required=required,
            present=present,
            scatter_unit=1 if model.scatter_pays_per_coin else total_bet,
            cap_coins=_cap_coins(model, total_bet),
        )

    @classmethod
    def _build_chain(
        cls, model: GameModel, variant_id: str | None, spin_kernel: tuple[Any, Any]
    ) -> KernelGame:
        build, play = spin_kernel
        variant = model.variant(variant_id)
        chain = build(model, variant.id)
        empty = np.zeros(1, dtype=np.int64)
        return cls(
            model=model,
            variant_id=variant.id,
            tables=None,
            scatter_pays=np.zeros((2, 1), dtype=np.int64),
            total_bet=chain.total_bet,
            trigger=0,
            spins_table=empty,
            revealed=False,
            reveal_purpose="",
            reveal_values=empty,
            reveal_cumulative=empty,
            retrigger=2,
            retrigger_spins=empty,
            spins_per_symbol=0,
            max_spins=0,
            chain=chain,
            kernel_play=play,
            cap_coins=getattr(chain, "cap_coins", 0),
        )

    @classmethod
    def _build_ladder(
        cls, model: GameModel, variant_id: str | None, depth: int | None
    ) -> KernelGame:
        rules = ladder_rules(model)  # checks the variants (spacing, reveal table)
        variant = model.variant(variant_id)
        reveal = rules.gem_reveal(variant)
        symbols = [
            r.WILD_REEL_OUTCOME if o == WILD_REEL else model.symbol_index(o)
            for o in reveal.outcomes
        ]
        sets = (variant.reel_sets["base"], variant.reel_sets[rules.free_reel_set])
        for reel_set in sets:
            if reel_set.weighted:
                raise ValueError(
                    f"{model.id}: the kernel draws every stop of a ladder model's reel set "
                    f"alike; {reel_set.name} weighs its stops (stop_weights)"
                )
        counted = (rules.bonus, np.ones(model.reels, dtype=np.bool_))  # on every reel
        # an evaluator that pays the whole window (ways) brings the round loop's tables of its
        # own, and reads no payline prefix
        from reelsmith.mechanics import evaluation

        window_tables: Any = getattr(evaluation(model), "kernel_tables", None)
        if window_tables is not None:
            depth = 0
        base, free = (
            ReelTables.build(model, s, model.line_pays, counted, depth, gem=rules.gem) for s in sets
        )
        stacked = StackedTables.stack(base, free)
        empty = np.zeros(1, dtype=np.int64)
        return cls(
            model=model,
            variant_id=variant.id,
            tables=stacked,
            scatter_pays=np.zeros((2, max(len(model.scatter_pays), 1)), dtype=np.int64),
            total_bet=rules.lines,
            trigger=rules.trigger_count,
            spins_table=empty,
            revealed=False,
            reveal_purpose="gem_reveal",
            reveal_values=np.array(symbols, dtype=np.int64),
            reveal_cumulative=np.cumsum(np.array(reveal.weights, dtype=np.int64)),
            retrigger=2,
            retrigger_spins=empty,
            spins_per_symbol=0,
            max_spins=0,
            ladder=LadderPots(
                pot_names=tuple(j.name for j in rules.jackpots),
                seeds=np.array([j.seed for j in rules.jackpots], dtype=np.int64),
                lasts=np.array([j.last_trigger for j in rules.jackpots], dtype=np.int64),
                multipliers=np.array(rules.multipliers, dtype=np.int64),
                spins_per_level=rules.spins_per_level,
                spots=rules.spots,
                per_spot=rules.main_game_bonus_per_spot,
                meter_cdf=np.cumsum(meter_law(model, variant.id)),
                slots=r.StatSlots.of(model.reels, rules.levels, rules.spots),
            ),
            ways=(
                window_tables(model, stacked.windows, model.line_pays)
                if window_tables is not None
                else None
            ),
        )

    @property
    def n_stats(self) -> int:
        """How many integer statistics a run of this game keeps."""
        return r.N_INT_STATS if self.ladder is None else self.ladder.slots.size

    @property
    def round_fields(self) -> int:
        """How many results trace mode records per round."""
        if self.ladder is None:
            return r.ROUND_FIELDS
        return r.ladder_round_fields(self.model.reels)

    @property
    def square_unit(self) -> float:
        """What the float statistics' squared wins are counted in: coins^2 for a catalogue
        model; a ladder model's in line bets^2, its RTP's unit."""
        if self.ladder is None:
            return 1.0
        return float(self.total_bet) * float(self.total_bet)

    def kernel_args(self) -> tuple[Any, ...]:
        """The game as :func:`~reelsmith.analysis.kernel.rounds.play_rounds` reads it (in the
        order it unpacks it)."""
        t = self.tables
        assert t is not None, "a chain title's rounds are its mechanic's kernel's"
        ladder = self.ladder
        return (
            t.windows,
            t.shown_counts,
            t.lengths,
            t.totals,
            t.cumulative,
            t.weighted,
            t.depth,
            t.prefix,
            t.entries,
            t.open_lines,
            t.open_states,
            t.trans,
            t.last_pays,
            self.model.paylines,
            self.total_bet,
            r.band_edges_in_coins(self.total_bet),
            self.square_unit,
            self.trigger,
            self.reveal_values,
            self.reveal_cumulative,
            self.scatter_pays,
            self.spins_table,
            self.revealed,
            self.retrigger,
            self.retrigger_spins,
            self.spins_per_symbol,
            self.max_spins,
            ladder is not None,
            t.gem_row,
            self.model.wild,
            ladder.seeds if ladder else _NONE,
            ladder.lasts if ladder else _NONE,
            ladder.multipliers if ladder else _NONE,
            ladder.spins_per_level if ladder else 0,
            ladder.spots if ladder else 0,
            ladder.per_spot if ladder else -1,
            *self._ways_args(),
            t.cell_draws,
            t.radix,
        )

    def _ways_args(self) -> tuple[Any, ...]:
        """The ways' tables, the free spins' multipliers and required reels, and the scatter's
        unit, in the order the round loop unpacks them after the ladder's."""
        w = self.ways
        counts, wilds, pays, none = _NO_WAYS
        reels = self.model.reels
        return (
            w is not None,
            w.counts if w else counts,
            w.wilds if w else wilds,
            w.pays if w else pays,
            w.paying if w else none,
            self.model.substitutable,
            w.weights if w else np.ones(reels, dtype=np.int64),
            w.free_reels if w else none,
            w.free_values if w else np.zeros((1, 1), dtype=np.int64),
            w.free_cumulative if w else np.ones((1, 1), dtype=np.int64),
            w.min_run if w else 0,
            w.pure_wild if w else 0,
            self.trigger_multipliers,
            self.required if self.required.shape[0] == reels else np.zeros(reels, np.bool_),
            self.present,
            self.scatter_unit if self.scatter_unit else self.total_bet,
            w.shown if w else wilds,
            self.cap_coins,
        )

    def start_state(self, rng: npt.NDArray[np.uint64], start: str = "stationary") -> Carried:
        """(pots, trigger points, [meter]) a ladder model's player starts from, drawn from
        ``rng`` (see :data:`STARTS`); empty arrays, and no draw, for a catalogue model."""
        if start not in STARTS:
            raise ValueError(f"start must be one of {', '.join(STARTS)}, got {start!r}")
        ladder = self.ladder
        if ladder is None:
            return _no_state()
        pots = np.zeros(ladder.seeds.shape[0], dtype=np.int64)
        triggers = np.zeros(ladder.seeds.shape[0], dtype=np.int64)
        meter = np.zeros(1, dtype=np.int64)
        if start == "stationary":
            r.stationary_state(
                rng, ladder.seeds, ladder.lasts, ladder.meter_cdf, pots, triggers, meter
            )
        else:
            pots[:] = ladder.seeds
            drawn = bounded_block(rng, ladder.lasts - ladder.seeds)
            for reel, (seed, value) in enumerate(zip(ladder.seeds, drawn, strict=True)):
                triggers[reel] = trigger_point(int(seed), int(value))
        return pots, triggers, meter

    def play(
        self,
        rng: npt.NDArray[np.uint64],
        rounds: int,
        stats: npt.NDArray[np.int64],
        float_stats: npt.NDArray[np.float64],
        record: bool,
        results: npt.NDArray[np.int64],
        log: npt.NDArray[np.int64],
        ends: npt.NDArray[np.int64],
        *,
        state: Carried | None = None,
        batch_size: int = 1,
        batch_sums: npt.NDArray[np.int64] | None = None,
    ) -> int:
        """:func:`~reelsmith.analysis.kernel.rounds.play_rounds` on this game's tables
        (:func:`~reelsmith.analysis.kernel.rounds.play_plugin_rounds` with the model's plug-in,
        if it has one), carrying ``state`` (a ladder model's; empty by default)."""
        if state is None and self.ladder is not None:
            raise ValueError(f"{self.model.id}: a ladder model's rounds need a carried state")
        carried = state if state is not None else _no_state()
        if self.chain is not None:
            played_chain: int = self.kernel_play(
                rng, rounds, self.chain.args(), stats, float_stats, record, results, log, ends
            )
            return played_chain
        sums = batch_sums if batch_sums is not None else np.zeros(1, dtype=np.int64)
        args = self.kernel_args()
        run = (rng, rounds, args, carried, batch_size, sums, stats, float_stats)
        if self.plugin is None:
            played: int = r.play_rounds(*run, record, results, log, ends)
            return played
        played = r.play_plugin_rounds((*run, results, log, ends), record, self.plugin)
        return played

    def run(
        self,
        rng: npt.NDArray[np.uint64],
        rounds: int,
        start: str = "stationary",
        batch_size: int = BATCH_ROUNDS,
    ) -> tuple[list[int], list[float], npt.NDArray[np.int64]]:
        """Play ``rounds`` rounds (a ladder model's player from a start state drawn from
        ``rng``): their statistics (the ``S_*`` and ``F_*`` slots, and a ladder model's
        blocks) and, for a ladder model, the win of each batch of ``batch_size`` rounds (empty
        for a catalogue model, whose rounds are independent)."""
        state = self.start_state(rng, start)
        stats = np.zeros(self.n_stats, dtype=np.int64)
        float_stats = np.zeros(r.N_FLOAT_STATS, dtype=np.float64)
        batches = np.zeros(
            math.ceil(rounds / batch_size) if self.ladder is not None else 0, dtype=np.int64
        )
        unused = np.zeros((1, self.round_fields), dtype=np.int64)
        self.play(
            rng,
            rounds,
            stats,
            float_stats,
            False,
            unused,
            np.zeros((1, 3), np.int64),
            unused[0],
            state=state,
            batch_size=batch_size,
            batch_sums=batches if self.ladder is not None else None,
        )
        return [int(x) for x in stats], [float(x) for x in float_stats], batches

    def trace(
        self,
        rng: npt.NDArray[np.uint64],
        rounds: int,
        *,
        state: Carried | None = None,
    ) -> tuple[npt.NDArray[np.int64], list[npt.NDArray[np.int64]], list[int], list[float]]:
        """Play ``rounds`` rounds with the same kernel, keeping each one's results (the
        ``R_*`` fields of its kind) and draws ``(kind, bound, value)``; also returns the rounds'
        statistics. A ladder model's player starts from ``state`` (updated in place; by default
        drawn from ``rng`` from the long-run law, as a simulated chunk starts)."""
        if state is None:
            state = self.start_state(rng, "stationary")
        results = np.zeros((rounds, self.round_fields), dtype=np.int64)
        draws: list[npt.NDArray[np.int64]] = []
        stats = np.zeros(self.n_stats, dtype=np.int64)
        float_stats = np.zeros(r.N_FLOAT_STATS, dtype=np.float64)
        ends = np.zeros(rounds, dtype=np.int64)
        screen_rows = self.model.reels * (1 if self.ladder is None else 2)
        reel_sets = self.model.variant(self.variant_id).reel_sets.values()
        if any(s.cells is not None for s in reel_sets):  # drawn cells: one draw per cell
            screen_rows *= self.model.rows
        if self.ways is not None:
            screen_rows += len(self.ways.free_reels)
        capacity = max(rounds * (screen_rows + 3), 1024)
        done = 0
        while done < rounds:
            log = np.zeros((capacity, 3), dtype=np.int64)
            played = self.play(
                rng,
                rounds - done,
                stats,
                float_stats,
                True,
                results[done:],
                log,
                ends[done:],
                state=state,
            )
            start = 0
            for i in range(done, done + played):
                draws.append(log[start : ends[i]].copy())
                start = int(ends[i])
            if played == 0:
                capacity *= 4  # one round alone needs more rows than the log has
            done += played
        return results, draws, [int(x) for x in stats], [float(x) for x in float_stats]

    def draws_of(self, log: npt.NDArray[np.int64]) -> list[Draw]:
        """A trace's ``(kind, bound, value)`` rows as the draws live play records."""
        own = getattr(self.chain, "draw_purposes", None)  # a mechanic kernel's own draws
        if own is not None:
            purposes: tuple[str, ...] = tuple(own)
        elif self.ladder is not None:
            triggers = (f"jackpot_trigger_{name}" for name in self.ladder.pot_names)
            purposes = ("reel_stop", self.reveal_purpose, *triggers)
        else:
            plugin = self.plugin.purpose if self.plugin else ""
            purposes = ("reel_stop", self.reveal_purpose, plugin, "wild_weight", "cell")
        return [Draw(purposes[kind], int(bound), int(value)) for kind, bound, value in log]


def ladder_game(
    cls: type[KernelGame], model: GameModel, variant_id: str | None, depth: int | None
) -> KernelGame:
    """The round loop's game of a ladder-and-pots model (its meter, gems and pots' tables):
    the ladder mechanic's ``kernel_game``."""
    return cls._build_ladder(model, variant_id, depth)
