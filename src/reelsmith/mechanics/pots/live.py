"""The local pots' live step, before the evaluators read the screen: reel by reel, each gem
raises its reel's pot by one bet; a pot reaching its hidden trigger point is won (paid as
fixed coins, never multiplied), resets to its seed and draws a new trigger point (the gem stays
a gem on the screen); any other gem reveals a symbol, a wild or a wild reel by the variant's
weights (:mod:`reelsmith.engine.ladder` holds the rules and their versions).

The pots, their trigger points and the ladder's meter are the player's state for the bet
level (``Round.parts["carried"]``, a :class:`~reelsmith.engine.ladder_state.BetState`); a round
starts from the state it is given (``"carried_before"``; None for a bet level never played,
whose pots are created, their trigger points drawn, before the base spin) and a voided round
leaves it as it was.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from reelsmith.engine.features.ladder_steps import raise_pot
from reelsmith.engine.ladder import (
    JACKPOT,
    RULES_VERSION,
    WILD_REEL,
    GemEvent,
    LadderRules,
    check_state,
    draw_trigger,
    ladder_rules,
    new_bet_state,
)
from reelsmith.engine.ladder_state import BetState
from reelsmith.engine.model import GameModel, Variant
from reelsmith.engine.round import VOIDED, Context, Part, Round, SpinSetup
from reelsmith.engine.screen import Screen, to_screen
from reelsmith.rng import RandomSource, weighted_index

CARRIED = "carried"
CARRIED_BEFORE = "carried_before"


@dataclass(frozen=True)
class GemsShown:
    """A spin's gems: the screen as landed, each gem's event and the pots after them."""

    landed: Screen
    gems: tuple[GemEvent, ...]
    pots_after: tuple[int, ...]
    jackpot_bets: int
    jackpot_coins: int

    @property
    def wild_reels(self) -> tuple[int, ...]:
        return tuple(g.reel for g in self.gems if g.reveal == WILD_REEL)

    def to_json(self) -> dict[str, object]:
        return {
            "landed": [list(row) for row in self.landed],
            "gems": [g.to_json() for g in self.gems],
            "wild_reels": [r + 1 for r in self.wild_reels],
            "jackpot_coins": self.jackpot_coins,
            "pots_after": list(self.pots_after),
        }

    def events(self) -> list[dict[str, object]]:
        found: list[dict[str, object]] = [
            {"type": "gem_revealed", **gem.to_json()} for gem in self.gems
        ]
        if self.jackpot_coins:
            found.append(
                {
                    "type": "pot_won",
                    "coins": self.jackpot_coins,
                    "pots_after": list(self.pots_after),
                }
            )
        return found


def reveal_gems(
    rules: LadderRules,
    variant: Variant,
    grid: npt.NDArray[np.int8],
    state: BetState,
    rng: RandomSource,
) -> tuple[npt.NDArray[np.int8], tuple[GemEvent, ...], BetState]:
    """Raise the pots for every gem shown (reel by reel, top to bottom), reveal each; returns
    the screen the evaluators read, the gem events and the new state."""
    model = rules.model
    reveal = rules.gem_reveal(variant)
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


class PotsPart(Part):
    name = "pots"
    stage = 20

    def __init__(self, model: GameModel) -> None:
        self.model = model
        ladder_rules(model)  # the current rules, checked now

    def rules(self, round_: Round) -> LadderRules:
        return ladder_rules(self.model, round_.rules_version)

    def rules_version(self, ctx: Context) -> int:
        return RULES_VERSION

    def variant(self, ctx: Context, rules_version: int, variant_id: str | None) -> Variant | None:
        if rules_version == RULES_VERSION:
            return None
        return ladder_rules(self.model, rules_version).variant(variant_id)

    def prepare(self, ctx: Context, round_: Round) -> Round:
        """Check the carried state the round starts from (a bad one is refused before any
        draw: it is the store's fault, not a malfunction of the round) and hold the pots at
        their seeds until a never-played bet level draws its state."""
        rules = self.rules(round_)
        state: BetState | None = round_.part(CARRIED_BEFORE)
        if state is not None:
            check_state(self.model, state, rules.version)
            return round_.with_part(CARRIED, state)
        placeholder = BetState(tuple(j.seed for j in rules.jackpots), (0,) * self.model.reels)
        return round_.with_part(CARRIED, placeholder)

    def begin(self, ctx: Context, round_: Round, rng: RandomSource) -> Round:
        if round_.part(CARRIED_BEFORE) is not None:
            return round_
        return round_.with_part(CARRIED, new_bet_state(self.model, rng, round_.rules_version))

    def modify_window(
        self,
        ctx: Context,
        round_: Round,
        setup: SpinSetup,
        grid: npt.NDArray[np.int8],
        rng: RandomSource,
    ) -> tuple[Round, npt.NDArray[np.int8], GemsShown, int]:
        variant = ctx.variant(round_.variant, round_.rules_version)
        revealed, gems, state = reveal_gems(
            self.rules(round_), variant, grid, round_.part(CARRIED), rng
        )
        won = sum(g.jackpot_bets for g in gems)
        coins = won * round_.stake.total_coins
        shown = GemsShown(to_screen(self.model, grid), gems, state.pots, won, coins)
        return round_.with_part(CARRIED, state), revealed, shown, coins

    def void(self, ctx: Context, round_: Round, voided: Round) -> Round:
        before = round_.part(CARRIED_BEFORE)
        return voided.with_part(CARRIED, before or round_.part(CARRIED))

    def round_json(self, ctx: Context, round_: Round) -> dict[str, object]:
        state: BetState = round_.part(CARRIED)
        return {
            "pots": list(state.pots),
            "jackpot_coins": sum(
                s.parts[self.name].jackpot_coins for s in round_.spins if self.name in s.parts
            ),
        }


def kept_state(round_: Round) -> BetState | None:
    """The state the player keeps for the round's bet: as it was when the round voids (None
    for a bet level never played)."""
    if round_.phase == VOIDED:
        before: BetState | None = round_.part(CARRIED_BEFORE)
        return before
    state: BetState = round_.part(CARRIED)
    return state


def part(model: GameModel) -> PotsPart:
    return PotsPart(model)
