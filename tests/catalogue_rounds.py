"""The free-spins round as the catalogue's behavioural tests read it: the engine's composed round
(:mod:`reelsmith.engine.round`, through :mod:`reelsmith.mechanics`) played as a coin-bet title
with the paylines, the scatter, free spins, the gamble and a plug-in plays it, and seen through
the fields those tests were written against (a spin's ``wins``, ``triggers``, ``reveals``; a
round's ``free_spins_awarded``, ``gambles``, ...).

Nothing here plays a rule: every step is the composed round's (``start_round``, ``act``,
``finish``, ``replay_from``); :class:`RoundView` and :class:`SpinView` only read the parts'
records, so the tests judge the engine the server and the kernel parity use.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property
from typing import Any

from reelsmith.engine import round as core
from reelsmith.engine.bets import CoinBet, credits
from reelsmith.engine.evaluation import ScreenWins
from reelsmith.engine.model import GameModel
from reelsmith.engine.round import Round, Stake
from reelsmith.mechanics import composition
from reelsmith.mechanics.coins.live import bet_options
from reelsmith.mechanics.gamble.live import GAMBLE, OPTIONS, GamblePart, RoundOptions
from reelsmith.rng import Draw, RandomSource

__all__ = [
    "CatalogueRound",
    "Phase",
    "RoundOptions",
    "RoundView",
    "SpinView",
    "apply_action",
    "bet_options",
    "collect",
    "finish",
    "gamble",
    "gamble_choices",
    "play_free_spin",
    "replay",
    "replay_from",
    "start_round",
]


class Phase(StrEnum):
    FREE_SPINS = "free_spins"
    GAMBLE = "gamble"
    COMPLETE = "complete"
    VOIDED = "voided"


@dataclass(frozen=True)
class SpinView:
    """A spin of the composed round, by the old record's fields."""

    spin: core.Spin

    @property
    def kind(self) -> str:
        return self.spin.kind

    @property
    def stops(self) -> tuple[int, ...]:
        return self.spin.stops

    @property
    def screen(self) -> Any:
        return self.spin.screen

    @cached_property
    def wins(self) -> ScreenWins:
        lines = self.spin.parts.get("paylines")
        scatter = self.spin.parts.get("scatter")
        return ScreenWins(
            lines.wins if lines is not None else (),
            scatter.win if scatter is not None else None,
            scatter.count if scatter is not None else 0,
            scatter.positions if scatter is not None else (),
        )

    def _award(self, field: str, default: Any) -> Any:
        award = self.spin.parts.get("free_spins")
        return getattr(award, field) if award is not None else default

    @property
    def triggers(self) -> int:
        return int(self._award("triggers", 0))

    @property
    def reveals(self) -> tuple[int, ...]:
        return tuple(self._award("reveals", ()))

    @property
    def spins_added(self) -> int:
        return int(self._award("spins_added", 0))

    @property
    def free_spins_remaining(self) -> int:
        return int(self._award("free_spins_remaining", 0))

    @property
    def plugin_outcome(self) -> int | None:
        found = self.spin.parts.get("plugin")
        return None if found is None else found.outcome

    @property
    def plugin_win(self) -> int | None:
        found = self.spin.parts.get("plugin")
        return None if found is None else found.win_coins

    @property
    def win_coins(self) -> int:
        return self.spin.win_coins

    def to_json(self) -> dict[str, object]:
        return self.spin.to_json()


@dataclass(frozen=True)
class RoundView:
    """A composed round, by the old round's fields."""

    model: GameModel
    round: Round

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RoundView) and self.round == other.round

    @property
    def game(self) -> str:
        return self.round.game

    @property
    def variant(self) -> str:
        return self.round.variant

    @property
    def bet(self) -> CoinBet:
        bet: CoinBet = self.round.bet
        return bet

    @property
    def options(self) -> RoundOptions:
        options: RoundOptions = self.round.part(OPTIONS)
        return options

    @property
    def phase(self) -> Phase:
        return Phase(self.round.phase)

    @property
    def spins(self) -> tuple[SpinView, ...]:
        return tuple(SpinView(s) for s in self.round.spins)

    @property
    def free_spins(self) -> tuple[SpinView, ...]:
        return self.spins[1:]

    @property
    def free_spins_awarded(self) -> int:
        state = self.round.part("free_spins")
        return 0 if state is None else int(state.awarded)

    @property
    def free_spins_remaining(self) -> int:
        state = self.round.part("free_spins")
        return 0 if state is None else int(state.remaining)

    @property
    def free_spins_win_coins(self) -> int:
        return sum(s.win_coins for s in self.round.spins[1:])

    @property
    def spin_win_coins(self) -> int:
        return self.round.spin_win_coins

    @property
    def gambles(self) -> tuple[Any, ...]:
        state = self.round.part(GAMBLE)
        return () if state is None else tuple(state.played)

    @property
    def gamble_limit_coins(self) -> int:
        state = self.round.part(GAMBLE)
        return 0 if state is None else int(state.limit_coins)

    @property
    def max_gambles(self) -> int:
        state = self.round.part(GAMBLE)
        return 0 if state is None else int(state.max_gambles)

    @property
    def win_coins(self) -> int:
        return self.round.win_coins

    @property
    def paid_coins(self) -> int:
        return self.round.paid_coins

    @property
    def refund_coins(self) -> int:
        return self.round.refund_coins

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
    def total_credits(self) -> Any:
        return credits(self.round.win_coins, self.bet.coin_size)

    def to_json(self) -> dict[str, object]:
        return core.round_json(composition(self.model), self.round)


#: The round type the catalogue's tests name.
CatalogueRound = RoundView


def _view(model: GameModel, round_: Round) -> RoundView:
    return RoundView(model, round_)


def start_round(
    model: GameModel,
    bet: CoinBet,
    rng: RandomSource,
    *,
    variant: str | None = None,
    options: RoundOptions | None = None,
) -> RoundView:
    bet_options(model).validate(bet.lines, bet.coins_per_line, bet.coin_size)
    parts = {OPTIONS: options or RoundOptions()}
    played = core.start_round(
        composition(model),
        bet,
        Stake(bet.lines, bet.coins_per_line),
        rng,
        variant=variant,
        parts=parts,
    )
    return _view(model, played)


def apply_action(model: GameModel, round_: RoundView, action: str, rng: RandomSource) -> RoundView:
    return _view(model, core.act(composition(model), round_.round, action, rng))


def play_free_spin(model: GameModel, round_: RoundView, rng: RandomSource) -> RoundView:
    return apply_action(model, round_, "free_spin", rng)


def gamble(model: GameModel, round_: RoundView, choice: str, rng: RandomSource) -> RoundView:
    return apply_action(model, round_, f"gamble {choice}", rng)


def collect(round_: RoundView) -> RoundView:
    return apply_action(round_.model, round_, "collect", _NO_DRAWS)


def finish(model: GameModel, round_: RoundView, rng: RandomSource) -> RoundView:
    return _view(model, core.finish(composition(model), round_.round, rng))


def gamble_choices(
    model: GameModel, round_: RoundView, stake: int | None = None
) -> tuple[str, ...]:
    part = composition(model).named(GAMBLE)
    if not isinstance(part, GamblePart):
        return ()
    return part.choices(round_.round, stake)


def replay_from(
    model: GameModel,
    bet: CoinBet,
    options: RoundOptions,
    variant: str,
    actions: Sequence[str],
    draws: Sequence[Draw],
) -> RoundView:
    played = core.replay_from(
        composition(model),
        bet,
        Stake(bet.lines, bet.coins_per_line),
        variant,
        actions,
        draws,
        parts={OPTIONS: options},
    )
    return _view(model, played)


def with_draws(round_: RoundView, draws: Sequence[Draw]) -> RoundView:
    """``round_`` with its record's draws replaced (a tampered record, for the replay)."""
    from reelsmith.engine.rounds import replaced

    return RoundView(round_.model, replaced(round_.round, draws=tuple(draws)))


def replay(model: GameModel, round_: RoundView) -> RoundView:
    return replay_from(
        model, round_.bet, round_.options, round_.variant, round_.actions, round_.draws
    )


class _NoDraws:
    def randbelow(self, bound: int, purpose: str) -> int:
        raise AssertionError(f"collect draws nothing, not {purpose}")


_NO_DRAWS = _NoDraws()
