"""The ladder-and-pots round as Sultan Spins' behavioural tests read it: the engine's composed
round (:mod:`reelsmith.engine.round`, through :mod:`reelsmith.mechanics`) played at a bet level
with the pots and the ladder, and seen through the fields those tests were written against (a
spin's ``gems``, ``bonus``, ``multiplier``; a round's ``state``, ``level``, ``unlocked``, ...).
The rules themselves (the pots, rules versions, the carried state's checks) are re-exported from
:mod:`reelsmith.engine.ladder`.

Nothing here plays a rule: every step is the composed round's; :class:`LadderView` and
:class:`LadderSpinView` only read the parts' records.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from functools import cached_property
from typing import Any

from reelsmith.engine import round as core
from reelsmith.engine.evaluation import ScreenWins
from reelsmith.engine.features.ladder_steps import collect
from reelsmith.engine.ladder import (  # noqa: F401 - the rules, as the tests name them
    JACKPOT,
    RULES_VERSION,
    RULES_VERSIONS,
    WILD_REEL,
    GemEvent,
    Jackpot,
    LadderRules,
    check_rules_version,
    check_screen,
    check_state,
    draw_trigger,
    ladder_rules,
    last_trigger,
    new_bet_state,
)
from reelsmith.engine.ladder_state import BetState
from reelsmith.engine.model import GameModel
from reelsmith.engine.round import Round, Stake
from reelsmith.mechanics import composition
from reelsmith.mechanics.levels.live import bet_levels
from reelsmith.mechanics.levels.server import LevelBet
from reelsmith.mechanics.pots.live import CARRIED, CARRIED_BEFORE, kept_state
from reelsmith.mechanics.pots.live import reveal_gems as _reveal_gems
from reelsmith.rng import Draw, RandomSource


class Phase(StrEnum):
    FREE_SPINS = "free_spins"
    COMPLETE = "complete"
    VOIDED = "voided"


@dataclass(frozen=True)
class LadderSpinView:
    spin: core.Spin
    lines: int

    @property
    def kind(self) -> str:
        return self.spin.kind

    @property
    def stops(self) -> tuple[int, ...]:
        return self.spin.stops

    @property
    def landed(self) -> Any:
        return self.spin.landed

    @property
    def screen(self) -> Any:
        return self.spin.screen

    @property
    def gems(self) -> tuple[GemEvent, ...]:
        return tuple(self.spin.parts["pots"].gems)

    @property
    def wild_reels(self) -> tuple[int, ...]:
        return tuple(self.spin.parts["pots"].wild_reels)

    @property
    def pots_after(self) -> tuple[int, ...]:
        return tuple(self.spin.parts["pots"].pots_after)

    @property
    def level(self) -> int:
        return int(self.spin.parts["ladder"].level)

    @property
    def multiplier(self) -> int:
        return int(self.spin.parts["ladder"].multiplier)

    @property
    def bonus(self) -> int:
        return int(self.spin.parts["ladder"].bonus)

    @property
    def meter_after(self) -> int:
        return int(self.spin.parts["ladder"].meter_after)

    @cached_property
    def wins(self) -> ScreenWins:
        """The line wins before the level's multiplier (as the rules table pays them)."""
        from dataclasses import replace

        lines = self.spin.parts["paylines"].wins
        m = self.multiplier
        return ScreenWins(tuple(replace(w, coins=w.coins // m) for w in lines), None, 0, ())

    @property
    def line_coins(self) -> int:
        return int(self.spin.parts["ladder"].line_coins)

    @property
    def jackpot_bets(self) -> int:
        return int(self.spin.parts["pots"].jackpot_bets)

    def to_json(self, lines: int | None = None) -> dict[str, object]:
        return self.spin.to_json()


@dataclass(frozen=True)
class LadderView:
    model: GameModel
    round: Round

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LadderView) and self.round == other.round

    @property
    def phase(self) -> Phase:
        return Phase(self.round.phase)

    @property
    def variant(self) -> str:
        return self.round.variant

    @property
    def bet_level(self) -> int:
        return int(self.round.bet.level)

    @property
    def lines(self) -> int:
        return self.round.stake.total_coins

    @property
    def rules_version(self) -> int:
        return self.round.rules_version

    @property
    def state(self) -> BetState:
        state: BetState = self.round.part(CARRIED)
        return state

    @property
    def state_before(self) -> BetState | None:
        before: BetState | None = self.round.part(CARRIED_BEFORE)
        return before

    @property
    def kept_state(self) -> BetState | None:
        return kept_state(self.round)

    @property
    def spins(self) -> tuple[LadderSpinView, ...]:
        return tuple(LadderSpinView(s, self.lines) for s in self.round.spins)

    @property
    def free_spins(self) -> tuple[LadderSpinView, ...]:
        return self.spins[1:]

    @property
    def level(self) -> int:
        return int(self.round.part("ladder").level)

    @property
    def unlocked(self) -> int:
        return int(self.round.part("ladder").unlocked)

    @property
    def level_spins_left(self) -> int:
        return int(self.round.part("ladder").level_spins_left)

    @property
    def line_coins(self) -> int:
        return sum(s.win_coins - s.fixed_coins for s in self.round.spins)

    @property
    def jackpot_coins(self) -> int:
        return sum(s.fixed_coins for s in self.round.spins)

    @property
    def win_coins(self) -> int:
        return 0 if self.round.phase == core.VOIDED else self.line_coins + self.jackpot_coins

    @property
    def free_spins_win_coins(self) -> int:
        return sum(s.win_coins for s in self.round.spins[1:])

    @property
    def paid_coins(self) -> int:
        return self.round.paid_coins

    @property
    def paid_stake(self) -> Fraction:
        return core.coins_in_units(self.round, self.round.paid_coins, self.bet_level)

    @property
    def refund_stake(self) -> int:
        return self.bet_level if self.round.phase == core.VOIDED else 0

    @property
    def is_finished(self) -> bool:
        return self.round.is_finished

    @property
    def actions(self) -> tuple[str, ...]:
        return self.round.actions

    @property
    def draws(self) -> tuple[Draw, ...]:
        return self.round.draws

    @property
    def void_reason(self) -> str | None:
        return self.round.void_reason

    @property
    def multiplier(self) -> int:
        return self.spins[-1].multiplier if self.round.spins else 1

    def to_json(self) -> dict[str, object]:
        return core.round_json(composition(self.model), self.round)


#: The round type the ladder's tests name.
LadderRound = LadderView


def _view(model: GameModel, round_: Round) -> LadderView:
    return LadderView(model, round_)


def start_round(
    model: GameModel,
    bet_level: int,
    state: BetState | None,
    rng: RandomSource,
    *,
    variant: str | None = None,
    allowed_levels: Sequence[int] | None = None,
    rules_version: int = RULES_VERSION,
) -> LadderView:
    rules = ladder_rules(model, check_rules_version(rules_version))
    level = bet_levels(model).validate(bet_level, allowed_levels)
    played = core.start_round(
        composition(model),
        LevelBet(level, Decimal(level)),
        Stake(rules.lines, 1),
        rng,
        variant=variant,
        parts={CARRIED_BEFORE: state},
        rules_version=rules.version,
    )
    return _view(model, played)


def play_free_spin(model: GameModel, round_: LadderView, rng: RandomSource) -> LadderView:
    return _view(model, core.act(composition(model), round_.round, "free_spin", rng))


def finish(model: GameModel, round_: LadderView, rng: RandomSource) -> LadderView:
    return _view(model, core.finish(composition(model), round_.round, rng))


def replay_from(
    model: GameModel,
    bet_level: int,
    state_before: BetState | None,
    variant: str,
    actions: Sequence[str],
    draws: Sequence[Draw],
    *,
    rules_version: int,
) -> LadderView:
    played = core.replay_from(
        composition(model),
        LevelBet(bet_level, Decimal(bet_level)),
        Stake(model.line_count, 1),
        variant,
        actions,
        draws,
        parts={CARRIED_BEFORE: state_before},
        rules_version=rules_version,
    )
    return _view(model, played)


def replay(model: GameModel, round_: LadderView) -> LadderView:
    return replay_from(
        model,
        round_.bet_level,
        round_.state_before,
        round_.variant,
        round_.actions,
        round_.draws,
        rules_version=round_.rules_version,
    )


def placed(
    round_: LadderView,
    *,
    level: int | None = None,
    unlocked: int | None = None,
    level_spins_left: int | None = None,
    state: BetState | None = None,
) -> LadderView:
    """``round_`` moved to another place on the ladder (and another carried state): a test
    starts a free spin from where it needs the ladder to be."""
    from dataclasses import replace

    from reelsmith.engine.rounds import replaced
    from reelsmith.mechanics.ladder.live import Climb

    climb: Climb = round_.round.part("ladder")
    climb = replace(
        climb,
        **{
            k: v
            for k, v in (
                ("level", level),
                ("unlocked", unlocked),
                ("level_spins_left", level_spins_left),
            )
            if v is not None
        },
    )
    parts = {**round_.round.parts, "ladder": climb}
    if state is not None:
        parts[CARRIED] = state
    return LadderView(round_.model, replaced(round_.round, parts=parts))


def collect_bonus(rules: LadderRules, meter: int, unlocked: int, bonus: int) -> tuple[int, int]:
    """The meter filled with a free spin's ``bonus`` symbols: the one rule every face calls."""
    return collect(meter, unlocked, bonus, rules.spots, rules.levels)


def reveal_gems(
    rules: LadderRules, reveal: Any, grid: Any, state: BetState, rng: RandomSource
) -> Any:
    """The pots' gem step on ``grid`` (``reveal`` is the variant's table: the default variant's
    is the one the pots read)."""
    variant = rules.model.variant()
    assert rules.gem_reveal(variant) == reveal
    return _reveal_gems(rules, variant, grid, state, rng)
