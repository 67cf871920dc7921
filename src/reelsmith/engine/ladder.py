"""The rules of the free-spins ladder and its local must-hit-by pots, read from a model that
declares them (``[ladder]`` and ``[[jackpots]]``, read by
:mod:`reelsmith.engine.features.ladder_tables`; see ``docs/model-format.md``): the pots, their
rules versions, the reveal table, the carried state's checks. The rounds that play them are the
composed round's (:mod:`reelsmith.engine.round`), through the ``pots`` and ``ladder`` mechanics
(:mod:`reelsmith.mechanics.pots`, :mod:`reelsmith.mechanics.ladder`).

Bets and settlement
-------------------
A bet is a bet level: a whole number of stake units (the model's ``[bet] levels``), spread
over the model's paylines, so a line win of ``c`` coins (line bets) is ``c x level / lines``
stake units and a pot of ``p`` bets is ``p x level``. The rules know no currency and round
nothing: a round's win is exact, in coins and in stake units; a market prices the stake unit
and the server converts once.

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

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

from reelsmith.engine.bet_ladder import BetLevels
from reelsmith.engine.errors import RuleError
from reelsmith.engine.features.ladder_steps import (
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
from reelsmith.engine.screen import GridError
from reelsmith.rng import RandomSource

WILD_REEL = "wild_reel"
JACKPOT = "jackpot"

#: The rules version new rounds are played under: every pot is won before its cap.
RULES_VERSION = 2
#: Every rules version a stored round or a carried trigger point may have been played under.
RULES_VERSIONS = (1, 2)
#: Where the strips of an earlier rules version live, beside the current ones.
RETIRED_VARIANTS = "variants/rules-{version}"


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
        """The units the bet is spread over, a coin on each: the paylines, or the cost of a
        spin of a ways game (its evaluator's cost at one coin per unit)."""
        from reelsmith.mechanics.levels.live import spread

        return spread(self.model)

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
        """Coins are line bets (a ways game's: coins at one coin per unit): ``coins x bet
        level / lines`` stake units, exact."""
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


# ---------------------------------------------------------------------------------------
# A screen the reels can show
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
