"""The free-spins ladder with local must-hit-by pots: a round from the main-game spin through
the ladder's levels, for any model that declares the mechanic (``[ladder]`` and
``[[jackpots]]``, read by :mod:`reelsmith.engine.features.ladder_tables`; see
``docs/model-format.md``).

Pure functions: each takes the model, the round so far and a random source, and returns the new
round. The player's state for the bet level (pots, hidden trigger points, collection meter)
comes in with the round and goes out with it (``round.state``). Every random number is recorded
(reel stops, gem reveals, trigger points), so :func:`replay` re-runs a round exactly.

Bets and settlement
-------------------
A bet is a bet level: a whole number of stake units (the model's ``[bet] levels``), spread
over the model's paylines, so a line win of ``c`` coins (line bets) is ``c x level / lines``
stake units and a pot of ``p`` bets is ``p x level``. The rules know no currency and round
nothing: a round's win is exact, in coins and in stake units (:attr:`LadderRound.paid_stake`,
a fraction); a market prices the stake unit and the server converts once.

Local jackpots
--------------
A gem landing on reel *i* raises pot *i* by one bet. If that takes the pot to its hidden trigger
point, the gem reveals the jackpot spin: the pot is won (never multiplied), resets to its seed
value and a new trigger point is drawn uniformly from seed + 1 to the pot's last trigger point.
Otherwise the gem reveals, by the variant's weights, a normal symbol, a wild, or a wild reel
(the whole reel turns wild for line evaluation). A gem that revealed the jackpot spin stays a
gem on the screen and pays nothing on the lines. The reels never show two gems (nor two bonus
symbols) on one reel.

Rules versions
--------------
A pot's ``cap`` is the value it "must be won before". A pot grows in whole bets (one bet per
gem, from its seed), so the last value it can hold before ``cap`` x bet is ``cap - 1`` bets: in
the bet's minor units, a pot at bet ``b`` pays at most ``(cap - 1) x b``, strictly less than
``cap x b``. Version 2 of the rules (:data:`RULES_VERSION`, every round played since) draws the
trigger point from seed + 1 to cap - 1. Version 1 drew it up to and including the cap, so a pot
could be won at exactly its cap. A round records the version it was played under (a record
without one is version 1) and is replayed and resolved under it, on that version's strips
(:meth:`LadderRules.variant`, from the title's ``variants/rules-<version>/``); a carried pot
keeps the trigger point it has, with the version it was drawn under
(``BetState.trigger_rules``), until it is won.

Free spins and the collection meter
-----------------------------------
``trigger`` or more bonus symbols in a main-game spin start the free spins at level 1. Each
level has ``spins_per_level`` spins, with its multiplier on line wins. The meter has ``spots``
spots and belongs to the player per bet level:

* main game: a spin with exactly ``meter_feed`` bonus symbols fills one spot (a full meter
  stays full);
* the free spins start with the meter as the player left it; a full meter unlocks level 2 at
  once and empties;
* each bonus symbol in a free spin fills one spot; when the meter is full and a higher level is
  still locked, the next level is unlocked and the meter empties (extra symbols carry over);
* when the last level is unlocked, bonus symbols keep filling the meter up to full; symbols
  beyond a full meter are not kept;
* after the last spin of a level, the next level is played if it is unlocked; otherwise the
  free spins end and the meter, as it stands, is carried into the main game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction
from functools import cache
from typing import Any

import numpy as np

from reelsmith.engine.bet_ladder import BetLevels
from reelsmith.engine.catalogue import is_catalogue
from reelsmith.engine.errors import RuleError
from reelsmith.engine.evaluation import ScreenWins, evaluate_screen
from reelsmith.engine.features.ladder_steps import (
    advance,
    collect,
    fill_spot,
    raise_pot,
    start_ladder,
    trigger_point,
)
from reelsmith.engine.features.ladder_tables import read_tables
from reelsmith.engine.ladder_state import BetState
from reelsmith.engine.model import (
    GameModel,
    ModelError,
    Variant,
    check_spacing,
    load_variant,
    weight_table,
)
from reelsmith.engine.rounds import guarded_step
from reelsmith.engine.screen import GridError, Screen, to_screen, window
from reelsmith.rng import RandomSource, RecordingSource, ReplaySource, weighted_index
from reelsmith.rng.source import Draw

WILD_REEL = "wild_reel"
JACKPOT = "jackpot"

#: The rules version new rounds are played under: every pot is won before its cap.
RULES_VERSION = 2
#: Every rules version a stored round or a carried trigger point may have been played under.
RULES_VERSIONS = (1, 2)
#: Where the strips of an earlier rules version live, beside the current ones.
RETIRED_VARIANTS = "variants/rules-{version}"


def declares_ladder(model: GameModel) -> bool:
    """Whether ``model`` declares the free-spins ladder with local pots (a catalogue model with
    a ``[ladder]`` table, played by these rules): the question the ladder kind of
    :mod:`reelsmith.engine.title` asks, through which every face finds these rules."""
    return is_catalogue(model) and "ladder" in model.features


def check_rules_version(version: object) -> int:
    """A rules version as stored (an int in :data:`RULES_VERSIONS`), or a clear error."""
    if isinstance(version, bool) or not isinstance(version, int) or version not in RULES_VERSIONS:
        known = ", ".join(str(v) for v in RULES_VERSIONS)
        raise RuleError(f"unknown ladder rules version {version!r}; the versions are {known}")
    return version


def last_trigger(cap: int, version: int) -> int:
    """The largest pot (in bets) a trigger point can be under rules ``version``: the cap itself
    in version 1, one bet below it from version 2 on (won *before* the cap)."""
    return cap if check_rules_version(version) == 1 else cap - 1


class Phase(StrEnum):
    FREE_SPINS = "free_spins"  # free spins remain: the next action is a free spin
    COMPLETE = "complete"  # settled: the win is paid, the state is the player's
    VOIDED = "voided"  # a malfunction voided the round: no pay, the bet is returned


# ---------------------------------------------------------------------------------------
# The title's parameters
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Jackpot:
    name: str
    reel: int  # 0-based
    seed: int  # in bets
    cap: int  # in bets: the help page's "must be won before" value
    last_trigger: int  # in bets: the largest pot it can be won at under these rules

    @property
    def trigger_span(self) -> int:
        """How many trigger points a reset can draw: ``seed + 1 .. last_trigger``."""
        return self.last_trigger - self.seed


@dataclass(frozen=True)
class GemReveal:
    """What a gem reveals when it does not hit the jackpot: symbol ids, "wild_reel"."""

    outcomes: tuple[str, ...]
    weights: tuple[int, ...]


@dataclass(frozen=True)
class LadderRules:
    model: GameModel
    version: int  # the rules version (see RULES_VERSION)
    bets: BetLevels  # the bet levels, in stake units
    jackpots: tuple[Jackpot, ...]
    trigger_count: int
    free_reel_set: str
    spins_per_level: int
    multipliers: tuple[int, ...]
    spots: int
    main_game_bonus_per_spot: int
    gem: int
    bonus: int

    @property
    def levels(self) -> int:
        return len(self.multipliers)

    @property
    def lines(self) -> int:
        return self.model.line_count

    def variant(self, variant_id: str | None = None) -> Variant:
        """The variant's strips and weights under this rules version: the model's own for the
        current version, the retired files (``variants/rules-<version>/``) for an earlier one."""
        if self.version == RULES_VERSION:
            return self.model.variant(variant_id)
        retired = _retired_variants(self.model, self.version)
        key = self.model.default_variant if variant_id is None else variant_id
        try:
            return retired[key]
        except KeyError:
            known = ", ".join(sorted(retired)) or "none"
            raise ModelError(
                f"{self.model.id} has no RTP variant {key!r} under rules version "
                f"{self.version}; the variants are: {known}"
            ) from None

    def gem_reveal(self, variant: Variant) -> GemReveal:
        raw = variant.parameters["gem_reveal"]
        return GemReveal(tuple(raw["outcomes"]), tuple(raw["weights"]))

    def stake_units(self, coins: int, bet_level: int) -> Fraction:
        """Coins are line bets: ``coins x bet level / lines`` stake units, exact."""
        return Fraction(coins * bet_level, self.lines)


def _check_variant(rules: LadderRules, variant: Variant) -> None:
    model = rules.model
    table = variant.parameters.get("rules")
    declared = table.get("version") if isinstance(table, dict) else None
    if declared != rules.version:
        raise ModelError(
            f"{variant.source or variant.id}: [rules] version = {declared!r}, but the variants "
            f"here are played under rules version {rules.version}"
        )
    check_spacing(model, variant, ("base", rules.free_reel_set), (rules.gem, rules.bonus))
    outcomes, _weights = weight_table(variant, "gem_reveal", "outcomes")
    allowed = {s.id for s in model.symbols if s.role in ("regular", "wild")} | {WILD_REEL}
    for outcome in outcomes:
        if outcome not in allowed:
            raise ModelError(
                f"{variant.source or variant.id}: gem_reveal outcome {outcome!r} must be a "
                f"paying symbol, wild or {WILD_REEL}"
            )


@cache
def _retired_variants(model: GameModel, version: int) -> dict[str, Variant]:
    """The variants of an earlier rules version, loaded from their own folder."""
    if model.source is None:
        return {}
    folder = model.source.parent / RETIRED_VARIANTS.format(version=version)
    index_of = {s.id: s.index for s in model.symbols}
    return {
        path.stem: load_variant(path, model.id, model.reels, model.rows, index_of)
        for path in sorted(folder.glob("*.toml"))
    }


@cache
def ladder_rules(model: GameModel, version: int = RULES_VERSION) -> LadderRules:
    """The model's ladder and pots under rules ``version``, checked (one per loaded model):
    the first problem of the tables (:func:`read_tables`) or of the variants is refused."""
    where = f"{model.id} model"
    try:
        version = check_rules_version(version)
    except RuleError as exc:
        raise ModelError(f"{where}: {exc}") from None
    roles = {s.id: s.role for s in model.symbols}
    ladder, pots, problems = read_tables(
        model.features, model.bet, roles, model.reels, model.rows, where
    )
    if problems or ladder is None:
        raise ModelError(problems[0] if problems else f"{where}: no [ladder] table")
    if model.wild < 0:
        raise ModelError(f"{where}: the ladder needs the wild symbol (a wild reel turns wild)")
    jackpots = tuple(
        Jackpot(p.name, p.reel - 1, p.seed, p.cap, last_trigger(p.cap, version)) for p in pots
    )
    for j in jackpots:
        if not 0 < j.seed < j.last_trigger:
            raise ModelError(
                f"{where}: jackpot {j.name}: the seed must be above 0 and below the largest "
                f"pot it can be won at ({j.last_trigger}x bet: before the cap of {j.cap}x)"
            )
    rules = LadderRules(
        model=model,
        version=version,
        bets=BetLevels.from_model(model),
        jackpots=jackpots,
        trigger_count=ladder.trigger,
        free_reel_set=ladder.reel_set,
        spins_per_level=ladder.spins_per_level,
        multipliers=ladder.multipliers,
        spots=ladder.spots,
        main_game_bonus_per_spot=ladder.meter_feed,
        gem=model.symbols_with_role("gem")[0].index,
        bonus=model.symbol_index(ladder.symbol),
    )
    variants = (
        model.variants.values()
        if version == RULES_VERSION
        else _retired_variants(model, version).values()
    )
    for variant in variants:
        _check_variant(rules, variant)
    return rules


# ---------------------------------------------------------------------------------------
# State
# ---------------------------------------------------------------------------------------


def draw_trigger(jackpot: Jackpot, rng: RandomSource) -> int:
    """A hidden trigger point, uniform from seed + 1 to the jackpot's last trigger point (in
    bets): below the cap from rules version 2 on. Live play, the kernel, the exact analysis and
    the simulation all take the range from :attr:`Jackpot.trigger_span` and the point from
    :func:`~reelsmith.engine.features.ladder_steps.trigger_point`."""
    drawn = rng.randbelow(jackpot.trigger_span, f"jackpot_trigger_{jackpot.name}")
    return trigger_point(jackpot.seed, drawn)


def new_bet_state(model: GameModel, rng: RandomSource, version: int = RULES_VERSION) -> BetState:
    """The state of a bet level never played: pots at their seeds, fresh trigger points."""
    rules = ladder_rules(model, version)
    return BetState(
        pots=tuple(j.seed for j in rules.jackpots),
        triggers=tuple(draw_trigger(j, rng) for j in rules.jackpots),
        meter=0,
        trigger_rules=(rules.version,) * model.reels,
    )


def check_state(model: GameModel, state: BetState, version: int = RULES_VERSION) -> None:
    """Refuse a state that breaks the must-be-won-before rules (a corrupted store, a forged
    value) for a round under rules ``version``: each trigger point inside the range of the
    version it was drawn under, which is not later than the round's."""
    rules = ladder_rules(model, version)
    if len(state.pots) != model.reels or len(state.triggers) != model.reels:
        raise ValueError(f"a bet state has {model.reels} pots and trigger points")
    if len(state.trigger_rules) != model.reels:
        raise ValueError(f"a bet state has {model.reels} trigger points' rules versions")
    for j, pot, trigger, drawn in zip(
        rules.jackpots, state.pots, state.triggers, state.trigger_rules, strict=True
    ):
        if drawn not in RULES_VERSIONS or drawn > rules.version:
            raise ValueError(
                f"{j.name} trigger point drawn under rules version {drawn!r}, which a round "
                f"under version {rules.version} cannot hold"
            )
        top = last_trigger(j.cap, drawn)
        if not j.seed <= pot < trigger <= top:
            raise ValueError(
                f"{j.name} pot {pot} with trigger {trigger} is outside {j.seed}..{top} "
                f"(rules version {drawn})"
            )
    if not 0 <= state.meter <= rules.spots:
        raise ValueError(f"meter {state.meter} is outside 0..{rules.spots}")


# ---------------------------------------------------------------------------------------
# Records
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GemEvent:
    reel: int  # 0-based
    row: int
    jackpot: str  # the pot's name
    pot_after: int  # the pot (in bets) after this gem raised it
    reveal: str  # a symbol id, "wild_reel" or "jackpot"
    jackpot_bets: int  # the pot won, in bets (0 unless reveal == "jackpot")

    def to_json(self) -> dict[str, object]:
        return {
            "reel": self.reel + 1,
            "row": self.row,
            "jackpot": self.jackpot,
            "pot_after": self.pot_after,
            "reveal": self.reveal,
            "jackpot_bets": self.jackpot_bets,
        }


@dataclass(frozen=True)
class LadderSpin:
    kind: str  # "base" or "free"
    level: int  # 0 in the main game, 1 to the ladder's levels in free spins
    multiplier: int
    stops: tuple[int, ...]
    landed: Screen  # as the reels stopped, gems included
    screen: Screen  # after the gems' reveals: what the lines were evaluated on
    gems: tuple[GemEvent, ...]
    wins: ScreenWins  # line wins in line bets, before the multiplier
    bonus: int
    meter_after: int
    pots_after: tuple[int, ...]

    @property
    def line_coins(self) -> int:
        return self.wins.line_coins * self.multiplier

    @property
    def jackpot_bets(self) -> int:
        return sum(g.jackpot_bets for g in self.gems)

    @property
    def wild_reels(self) -> tuple[int, ...]:
        return tuple(g.reel for g in self.gems if g.reveal == WILD_REEL)

    def to_json(self, lines: int) -> dict[str, object]:
        return {
            "kind": self.kind,
            "level": self.level,
            "multiplier": self.multiplier,
            "stops": list(self.stops),
            "landed": [list(row) for row in self.landed],
            "screen": [list(row) for row in self.screen],
            "gems": [g.to_json() for g in self.gems],
            "wild_reels": [r + 1 for r in self.wild_reels],
            "line_wins": [
                {
                    **w.to_json(),
                    "coins": w.coins * self.multiplier,
                    "positions": [list(p) for p in w.positions],
                }
                for w in self.wins.line_wins
            ],
            "line_coins": self.line_coins,
            "jackpot_coins": self.jackpot_bets * lines,
            "win_coins": self.line_coins + self.jackpot_bets * lines,
            "bonus": self.bonus,
            "meter_after": self.meter_after,
            "pots_after": list(self.pots_after),
        }


@dataclass(frozen=True)
class LadderRound:
    """Everything about one round; immutable, each action returns a new one."""

    game: str  # the model's id
    variant: str
    bet_level: int  # the bet, in stake units
    lines: int
    phase: Phase
    state_before: BetState | None  # None: the bet level was never played
    state: BetState  # the player's state for this bet level as the round leaves it
    spins: tuple[LadderSpin, ...] = ()
    level: int = 0
    unlocked: int = 0
    level_spins_left: int = 0
    actions: tuple[str, ...] = ()
    draws: tuple[Draw, ...] = ()
    void_reason: str | None = None
    rules_version: int = RULES_VERSION  # the rules (and strips) the round is played under

    @property
    def kept_state(self) -> BetState | None:
        """The state the player keeps for this bet level: a voided round leaves it as it was
        (``None`` if the bet level had never been played)."""
        return self.state_before if self.phase is Phase.VOIDED else self.state

    @property
    def total_bet_coins(self) -> int:
        return self.lines

    @property
    def line_coins(self) -> int:
        return sum(s.line_coins for s in self.spins)

    @property
    def jackpot_coins(self) -> int:
        return sum(s.jackpot_bets for s in self.spins) * self.lines

    @property
    def win_coins(self) -> int:
        return 0 if self.phase is Phase.VOIDED else self.line_coins + self.jackpot_coins

    @property
    def free_spins(self) -> tuple[LadderSpin, ...]:
        return self.spins[1:]

    @property
    def free_spins_win_coins(self) -> int:
        return sum(s.line_coins + s.jackpot_bets * self.lines for s in self.free_spins)

    @property
    def is_finished(self) -> bool:
        return self.phase in (Phase.COMPLETE, Phase.VOIDED)

    @property
    def paid_coins(self) -> int:
        return self.win_coins if self.phase is Phase.COMPLETE else 0

    @property
    def paid_stake(self) -> Fraction:
        """What the round pays, in stake units (exact: line wins are fractions of the bet)."""
        return Fraction(self.paid_coins * self.bet_level, self.lines)

    @property
    def refund_stake(self) -> int:
        """What a voided round returns, in stake units: the bet."""
        return self.bet_level if self.phase is Phase.VOIDED else 0

    @property
    def multiplier(self) -> int:
        return self.spins[-1].multiplier if self.spins else 1

    def to_json(self) -> dict[str, object]:
        """The round's events and totals in coins and bets; the server adds the bet and the
        amounts in the market's money."""
        return {
            "game": self.game,
            "variant": self.variant,
            "phase": str(self.phase),
            "level": self.level,
            "unlocked": self.unlocked,
            "level_spins_left": self.level_spins_left,
            "meter": self.state.meter,
            "pots": list(self.state.pots),
            "spins": [s.to_json(self.lines) for s in self.spins],
            "line_coins": self.line_coins,
            "jackpot_coins": self.jackpot_coins,
            "win_coins": self.win_coins,
            "actions": list(self.actions),
            "draws": [d.to_json() for d in self.draws],
            "void_reason": self.void_reason,
        }


# ---------------------------------------------------------------------------------------
# One spin
# ---------------------------------------------------------------------------------------


def reveal_gems(
    rules: LadderRules,
    reveal: GemReveal,
    grid: np.ndarray,
    state: BetState,
    rng: RandomSource,
) -> tuple[np.ndarray, tuple[GemEvent, ...], BetState]:
    """Raise the pots for every gem shown (reel by reel), reveal each, return the screen the
    lines are evaluated on, the gem events and the new state."""
    model = rules.model
    revealed = grid.copy()
    pots = list(state.pots)
    triggers = list(state.triggers)
    drawn = list(state.trigger_rules)
    events = []
    for reel in range(model.reels):
        for row in range(model.rows):
            if grid[row, reel] != rules.gem:
                continue
            jackpot = rules.jackpots[reel]
            pot, hit = raise_pot(pots[reel], triggers[reel])
            pots[reel] = pot
            if hit:
                outcome, won = JACKPOT, pot
                pots[reel] = jackpot.seed
                triggers[reel] = draw_trigger(jackpot, rng)
                drawn[reel] = rules.version
            else:
                outcome = reveal.outcomes[weighted_index(rng, reveal.weights, "gem_reveal")]
                won = 0
            if outcome == WILD_REEL:
                revealed[:, reel] = model.wild
            elif outcome != JACKPOT and revealed[row, reel] == rules.gem:
                revealed[row, reel] = model.symbol_index(outcome)
            events.append(GemEvent(reel, row, jackpot.name, pot, outcome, won))
    after = replace(state, pots=tuple(pots), triggers=tuple(triggers), trigger_rules=tuple(drawn))
    return revealed, tuple(events), after


def _spin(
    rules: LadderRules,
    variant: Variant,
    reel_set_name: str,
    state: BetState,
    kind: str,
    level: int,
    rng: RandomSource,
) -> tuple[LadderSpin, BetState]:
    model = rules.model
    reel_set = variant.reel_sets[reel_set_name]
    stops = tuple(rng.randbelow(int(n), "reel_stop") for n in reel_set.lengths)
    grid = window(reel_set, stops, model.rows)
    revealed, gems, state = reveal_gems(rules, rules.gem_reveal(variant), grid, state, rng)
    wins = evaluate_screen(model, revealed, rules.lines, 1, rules.lines)
    bonus = int((grid == rules.bonus).sum())
    multiplier = rules.multipliers[level - 1] if level else 1
    spin = LadderSpin(
        kind=kind,
        level=level,
        multiplier=multiplier,
        stops=stops,
        landed=to_screen(model, grid),
        screen=to_screen(model, revealed),
        gems=gems,
        wins=wins,
        bonus=bonus,
        meter_after=state.meter,
        pots_after=state.pots,
    )
    return spin, state


# ---------------------------------------------------------------------------------------
# Steps
# ---------------------------------------------------------------------------------------


def _void(round_: LadderRound, reason: str) -> LadderRound:
    """Malfunctions void all plays and pays: no win, the bet returned, the pots and meter as
    they were before the round."""
    restored = round_.state_before or round_.state
    return replace(round_, phase=Phase.VOIDED, state=restored, void_reason=reason)


def _guarded(
    round_: LadderRound,
    rng: RandomSource,
    action: str,
    step: Callable[[LadderRound, RecordingSource], LadderRound],
) -> LadderRound:
    return guarded_step(round_, rng, action, step, _void)


def start_round(
    model: GameModel,
    bet_level: int,
    state: BetState | None,
    rng: RandomSource,
    *,
    variant: str | None = None,
    allowed_levels: Sequence[int] | None = None,
    rules_version: int = RULES_VERSION,
) -> LadderRound:
    """Spin the main game at ``bet_level`` (stake units) with the player's state for that level
    (``None`` for a level never played: its pots are created in this round), under
    ``rules_version`` (the current rules unless a stored round of an earlier version is
    replayed)."""
    rules = ladder_rules(model, check_rules_version(rules_version))
    chosen = rules.variant(variant)
    level = rules.bets.validate(bet_level, allowed_levels)
    if state is not None:
        check_state(model, state, rules.version)
    placeholder = state or BetState(tuple(j.seed for j in rules.jackpots), (0,) * model.reels)
    empty = LadderRound(
        game=model.id,
        variant=chosen.id,
        bet_level=level,
        lines=rules.lines,
        phase=Phase.COMPLETE,
        state_before=state,
        state=placeholder,
        rules_version=rules.version,
    )

    def step(round_: LadderRound, recorder: RecordingSource) -> LadderRound:
        current = state if state is not None else new_bet_state(model, recorder, rules.version)
        spin, current = _spin(rules, chosen, "base", current, "base", 0, recorder)
        meter = current.meter
        level = unlocked = spins_left = 0
        phase = Phase.COMPLETE
        if spin.bonus >= rules.trigger_count:
            phase, level, spins_left = Phase.FREE_SPINS, 1, rules.spins_per_level
            unlocked, meter = start_ladder(meter, rules.spots)
        elif spin.bonus == rules.main_game_bonus_per_spot:
            meter = fill_spot(meter, rules.spots)
        current = replace(current, meter=meter)
        spin = replace(spin, meter_after=meter)
        return replace(
            round_,
            phase=phase,
            state=current,
            spins=(spin,),
            level=level,
            unlocked=unlocked,
            level_spins_left=spins_left,
        )

    return _guarded(empty, rng, "spin", step)


def collect_bonus(rules: LadderRules, meter: int, unlocked: int, bonus: int) -> tuple[int, int]:
    """Fill the meter with ``bonus`` symbols collected in a free spin: ``(meter, unlocked)``
    (the one rule the kernel and the exact analysis call too:
    :func:`~reelsmith.engine.features.ladder_steps.collect`)."""
    return collect(meter, unlocked, bonus, rules.spots, rules.levels)


def play_free_spin(model: GameModel, round_: LadderRound, rng: RandomSource) -> LadderRound:
    """Play the next free spin at the current level's multiplier, under the round's rules."""
    rules = ladder_rules(model, round_.rules_version)
    if round_.phase is not Phase.FREE_SPINS:
        raise RuleError(f"no free spins to play: the round is {round_.phase}")
    chosen = rules.variant(round_.variant)

    def step(round_: LadderRound, recorder: RecordingSource) -> LadderRound:
        spin, current = _spin(
            rules, chosen, rules.free_reel_set, round_.state, "free", round_.level, recorder
        )
        meter, unlocked = collect_bonus(rules, current.meter, round_.unlocked, spin.bonus)
        current = replace(current, meter=meter)
        spin = replace(spin, meter_after=meter)
        level, left, over = advance(
            round_.level, round_.level_spins_left, unlocked, rules.spins_per_level
        )
        phase = Phase.COMPLETE if over else Phase.FREE_SPINS
        return replace(
            round_,
            phase=phase,
            state=current,
            spins=(*round_.spins, spin),
            level=level,
            unlocked=unlocked,
            level_spins_left=left,
        )

    return _guarded(round_, rng, "free_spin", step)


def finish(model: GameModel, round_: LadderRound, rng: RandomSource) -> LadderRound:
    """Resolve an incomplete round: play out the remaining free spins."""
    while round_.phase is Phase.FREE_SPINS:
        round_ = play_free_spin(model, round_, rng)
    return round_


def replay(model: GameModel, round_: LadderRound) -> LadderRound:
    """Re-run a round from its recorded draws and the state it started from."""
    return replay_from(
        model,
        round_.bet_level,
        round_.state_before,
        round_.variant,
        round_.actions,
        round_.draws,
        rules_version=round_.rules_version,
    )


def replay_from(
    model: GameModel,
    bet_level: int,
    state_before: BetState | None,
    variant: str,
    actions: Sequence[str],
    draws: Sequence[Draw],
    *,
    rules_version: int,
) -> LadderRound:
    """Re-run a round from what was recorded of it: bet level, starting state, actions, draws and
    the rules version (1 for a record from before versions were recorded)."""
    if not actions or actions[0] != "spin":
        raise RuleError("a round record starts with its spin")
    source = ReplaySource(draws)
    replayed = start_round(
        model, bet_level, state_before, source, variant=variant, rules_version=rules_version
    )
    for action in actions[1:]:
        if action != "free_spin":
            raise RuleError(f"unknown action {action!r}")
        if replayed.is_finished:
            raise RuleError(f"the record continues with {action!r} after the round ended")
        replayed = play_free_spin(model, replayed, source)
    if source.remaining:
        raise RuleError(f"the record has {source.remaining} draws the round did not use")
    return replayed


# ---------------------------------------------------------------------------------------
# One revealed screen, for QA and the command line
# ---------------------------------------------------------------------------------------


def check_screen(model: GameModel, grid: Any) -> None:
    rules = ladder_rules(model)
    for reel in range(model.reels):
        for symbol in (rules.bonus, rules.gem):
            shown = int((grid[:, reel] == symbol).sum())
            if shown > 1:
                raise GridError(
                    f"reel {reel + 1} shows {shown} {model.symbol_id(symbol)} symbols; "
                    "the reels never show more than one per reel"
                )


def evaluate_grid(model: GameModel, grid: Any, bet_level: int, level: int = 0) -> dict[str, object]:
    """Line wins on a revealed screen at ``bet_level`` (and a free-spins level's multiplier):
    in coins (line bets) and in stake units."""
    rules = ladder_rules(model)
    bet_level = rules.bets.validate(bet_level)
    check_screen(model, grid)
    if not 0 <= level <= rules.levels:
        raise RuleError(f"level must be 0 (main game) or 1 to {rules.levels}, got {level}")
    multiplier = rules.multipliers[level - 1] if level else 1
    wins = evaluate_screen(model, grid, rules.lines, 1, rules.lines)
    bonus = int((grid == rules.bonus).sum())
    total = wins.line_coins * multiplier
    return {
        "line_wins": [{**w.to_json(), "coins": w.coins * multiplier} for w in wins.line_wins],
        "multiplier": multiplier,
        "total_coins": total,
        "total_stake": str(rules.stake_units(total, bet_level)),
        "bet_level": bet_level,
        "bonus": bonus,
        "free_spins_triggered": level == 0 and bonus >= rules.trigger_count,
        "collection_spot": level == 0 and bonus == rules.main_game_bonus_per_spot,
    }
