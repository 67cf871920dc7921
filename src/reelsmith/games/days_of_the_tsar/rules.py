"""Days of the Tsar: a round from the base spin through free spins and the gamble to collect.

The functions here are pure: each takes the model, the round so far, a random source and the
player's action, and returns the new round. Every random number consumed is recorded on the
round (reel stops, egg reveals, gamble cards), so :func:`replay` re-runs a round exactly.

Round flow (``Phase``)::

    spin ──► free_spins ──(free_spin)*──► gamble ──(gamble)*──► complete
       └──────────────────────────────────► gamble ──(collect)──► complete
       └──────────────────────────────────────────────────────► complete (no win)

A malfunction (an unexpected error while a step runs) voids the round: it pays nothing, its bet
is returned, and the record says so with the reason.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from functools import cache
from typing import Any

from reelsmith.engine.bets import CoinBet, CoinBetOptions, credits
from reelsmith.engine.catalogue import RETRIGGER_PER_SYMBOL, mechanics
from reelsmith.engine.errors import RuleError
from reelsmith.engine.evaluation import ScreenWins, evaluate_screen
from reelsmith.engine.gamble import CHOICES, Card, draw_card, guessed, is_colour
from reelsmith.engine.model import GameModel, ModelError, Variant, check_spacing, weight_table
from reelsmith.engine.rounds import guarded_step, replaced
from reelsmith.engine.screen import Screen, to_screen, window
from reelsmith.rng import (
    Draw,
    RandomSource,
    RecordingSource,
    ReplaySource,
    weighted_index,
)

GAME_ID = "days-of-the-tsar"


class Phase(StrEnum):
    FREE_SPINS = "free_spins"  # free spins remain: the next action is a free spin
    GAMBLE = "gamble"  # a win waits: gamble it or collect it
    COMPLETE = "complete"  # settled: the win (if any) is paid
    VOIDED = "voided"  # a malfunction voided the round: no pay, the bet is returned


# ---------------------------------------------------------------------------------------
# The title's parameters, read from the model once
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class EggReveal:
    values: tuple[int, ...]
    weights: tuple[int, ...]

    @property
    def total_weight(self) -> int:
        return sum(self.weights)

    def probability(self, index: int) -> float:
        return self.weights[index] / self.total_weight


@dataclass(frozen=True)
class TsarRules:
    model: GameModel
    bets: CoinBetOptions
    trigger_count: int
    extra_spins_per_egg: int
    free_reel_set: str
    max_gambles: int
    gamble_limit_credits: Decimal
    colour_multiplier: int
    suit_multiplier: int

    def egg_reveal(self, variant: Variant) -> EggReveal:
        raw = variant.parameters["egg_reveal"]
        return EggReveal(tuple(raw["values"]), tuple(raw["weights"]))


def _check_variant(model: GameModel, variant: Variant, free_reel_set: str) -> None:
    # A reel never shows two eggs: the egg scatter pays count eggs per screen on the premise
    # of at most one per reel, as on the machine.
    check_spacing(model, variant, ("base", free_reel_set), (model.scatter,))
    values, _weights = weight_table(variant, "egg_reveal", "values")
    if any(not isinstance(v, int) or v < 1 for v in values):
        raise ModelError(
            f"{variant.source or variant.id}: egg_reveal values must be whole numbers of spins >= 1"
        )


@cache
def tsar_rules(model: GameModel) -> TsarRules:
    """The title's parameters, checked (one per loaded model): the catalogue's tables."""
    rules = mechanics(model)
    free, gamble = rules.free_spins, rules.gamble
    if (
        free is None
        or gamble is None
        or free.reveal != "egg_reveal"
        or free.retrigger != RETRIGGER_PER_SYMBOL
        or free.multiplier != 1
    ):
        raise ModelError(
            f"{model.id} model: needs free spins revealed by egg_reveal, retriggered per egg, "
            "without a multiplier, and the gamble"
        )
    if model.scatter < 0 or model.wild < 0:
        raise ModelError(f"{model.id} model: needs the Tsar wild and the egg scatter")
    tsar = TsarRules(
        model=model,
        bets=CoinBetOptions.from_model(model),
        trigger_count=free.trigger,
        extra_spins_per_egg=free.spins_per_symbol,
        free_reel_set=free.reel_set,
        max_gambles=gamble.max_gambles,
        gamble_limit_credits=Decimal(gamble.win_limit_credits),
        colour_multiplier=gamble.colour_multiplier,
        suit_multiplier=gamble.suit_multiplier,
    )
    for variant in model.variants.values():
        _check_variant(model, variant, tsar.free_reel_set)
    return tsar


# ---------------------------------------------------------------------------------------
# Round records
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundOptions:
    """Settings fixed when the round starts (the market's and the player's say over the gamble)."""

    gamble_allowed: bool = True
    gamble_limit_credits: Decimal | None = None  # None: the model's default
    max_gambles: int | None = None  # None: the model's default

    def to_json(self) -> dict[str, object]:
        return {
            "gamble_allowed": self.gamble_allowed,
            "gamble_limit_credits": None
            if self.gamble_limit_credits is None
            else str(self.gamble_limit_credits),
            "max_gambles": self.max_gambles,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RoundOptions:
        limit = data.get("gamble_limit_credits")
        return cls(
            gamble_allowed=bool(data.get("gamble_allowed", True)),
            gamble_limit_credits=None if limit is None else Decimal(limit),
            max_gambles=data.get("max_gambles"),
        )


@dataclass(frozen=True)
class SpinRecord:
    """One screen of the round: the base spin or a free spin."""

    kind: str  # "base" or "free"
    stops: tuple[int, ...]
    screen: Screen
    wins: ScreenWins
    reveals: tuple[int, ...]  # base spin with a trigger: the number each egg revealed
    spins_added: int  # free spins this screen added
    free_spins_remaining: int  # after this screen

    @property
    def win_coins(self) -> int:
        return self.wins.total_coins

    @property
    def eggs(self) -> int:
        return self.wins.scatter_count

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "stops": list(self.stops),
            "screen": [list(row) for row in self.screen],
            "line_wins": [
                {**w.to_json(), "positions": [list(p) for p in w.positions]}
                for w in self.wins.line_wins
            ],
            "scatter_win": self.wins.scatter_win.to_json() if self.wins.scatter_win else None,
            "eggs": self.eggs,
            "egg_positions": [list(p) for p in self.wins.scatter_positions],
            "reveals": list(self.reveals),
            "spins_added": self.spins_added,
            "free_spins_remaining": self.free_spins_remaining,
            "win_coins": self.win_coins,
        }


@dataclass(frozen=True)
class GambleRecord:
    choice: str
    card: Card
    stake_coins: int
    won: bool
    result_coins: int

    def to_json(self) -> dict[str, object]:
        return {
            "choice": self.choice,
            "card": str(self.card),
            "card_colour": self.card.colour,
            "stake_coins": self.stake_coins,
            "won": self.won,
            "result_coins": self.result_coins,
        }


@dataclass(frozen=True)
class TsarRound:
    """Everything about one round; immutable, each action returns a new one."""

    variant: str
    bet: CoinBet
    options: RoundOptions
    phase: Phase
    spins: tuple[SpinRecord, ...] = ()
    free_spins_awarded: int = 0
    free_spins_remaining: int = 0
    gambles: tuple[GambleRecord, ...] = ()
    win_coins: int = 0  # the win as it stands (after any gambles)
    actions: tuple[str, ...] = ()
    draws: tuple[Draw, ...] = ()
    void_reason: str | None = None
    gamble_limit_coins: int = 0
    max_gambles: int = 0

    @property
    def base_spin(self) -> SpinRecord | None:
        return self.spins[0] if self.spins else None

    @property
    def free_spins(self) -> tuple[SpinRecord, ...]:
        return self.spins[1:]

    @property
    def spin_win_coins(self) -> int:
        """Base spin plus free spins, before any gamble."""
        return sum(s.win_coins for s in self.spins)

    @property
    def free_spins_win_coins(self) -> int:
        return sum(s.win_coins for s in self.free_spins)

    @property
    def is_finished(self) -> bool:
        return self.phase in (Phase.COMPLETE, Phase.VOIDED)

    @property
    def paid_coins(self) -> int:
        """Coins paid to the player when the round settles."""
        return self.win_coins if self.phase is Phase.COMPLETE else 0

    @property
    def refund_coins(self) -> int:
        """A voided round returns its bet."""
        return self.bet.total_coins if self.phase is Phase.VOIDED else 0

    @property
    def paid_credits(self) -> Decimal:
        return credits(self.paid_coins, self.bet.coin_size)

    def to_json(self) -> dict[str, object]:
        return {
            "game": GAME_ID,
            "variant": self.variant,
            "bet": self.bet.to_json(),
            "options": self.options.to_json(),
            "phase": str(self.phase),
            "spins": [s.to_json() for s in self.spins],
            "free_spins_awarded": self.free_spins_awarded,
            "free_spins_remaining": self.free_spins_remaining,
            "free_spins_win_coins": self.free_spins_win_coins,
            "spin_win_coins": self.spin_win_coins,
            "gambles": [g.to_json() for g in self.gambles],
            "gamble_limit_coins": self.gamble_limit_coins,
            "max_gambles": self.max_gambles,
            "win_coins": self.win_coins,
            "win_credits": str(credits(self.win_coins, self.bet.coin_size)),
            "paid_coins": self.paid_coins,
            "refund_coins": self.refund_coins,
            "actions": list(self.actions),
            "draws": [d.to_json() for d in self.draws],
            "void_reason": self.void_reason,
        }


# ---------------------------------------------------------------------------------------
# Steps
# ---------------------------------------------------------------------------------------


def _void(round_: TsarRound, reason: str) -> TsarRound:
    """Malfunctions void all plays and pays: no win, the bet is returned, the reason kept."""
    return replaced(
        round_, phase=Phase.VOIDED, win_coins=0, free_spins_remaining=0, void_reason=reason
    )


def _guarded(
    round_: TsarRound,
    rng: RandomSource,
    action: str,
    step: Callable[[TsarRound, RecordingSource], TsarRound],
) -> TsarRound:
    return guarded_step(round_, rng, action, step, _void)


def _spin(
    rules: TsarRules, variant: Variant, reel_set_name: str, bet: CoinBet, rng: RandomSource
) -> tuple[tuple[int, ...], Screen, ScreenWins]:
    model = rules.model
    reel_set = variant.reel_sets[reel_set_name]
    stops = tuple(rng.randbelow(int(n), "reel_stop") for n in reel_set.lengths)
    grid = window(reel_set, stops, model.rows)
    wins = evaluate_screen(model, grid, bet.lines, bet.coins_per_line, bet.total_coins)
    return stops, to_screen(model, grid), wins


def _after_win(rules: TsarRules, round_: TsarRound) -> TsarRound:
    """The spins are over: offer the gamble on a win, else the round is complete."""
    win = round_.spin_win_coins
    round_ = replaced(round_, win_coins=win, free_spins_remaining=0)
    if win > 0 and round_.options.gamble_allowed and gamble_choices(rules.model, round_, win):
        return replaced(round_, phase=Phase.GAMBLE)
    return replaced(round_, phase=Phase.COMPLETE)


def start_round(
    model: GameModel,
    bet: CoinBet,
    rng: RandomSource,
    *,
    variant: str | None = None,
    options: RoundOptions | None = None,
) -> TsarRound:
    """Spin the base game with ``bet`` (already validated) and return the new round."""
    rules = tsar_rules(model)
    chosen = model.variant(variant)
    options = options or RoundOptions()
    rules.bets.validate(bet.lines, bet.coins_per_line, bet.coin_size)
    limit_credits = (
        rules.gamble_limit_credits
        if options.gamble_limit_credits is None
        else options.gamble_limit_credits
    )
    empty = TsarRound(
        variant=chosen.id,
        bet=bet,
        options=options,
        phase=Phase.FREE_SPINS,
        gamble_limit_coins=math.floor(limit_credits / bet.coin_size),
        max_gambles=rules.max_gambles if options.max_gambles is None else options.max_gambles,
    )

    def step(round_: TsarRound, recorder: RecordingSource) -> TsarRound:
        stops, screen, wins = _spin(rules, chosen, "base", bet, recorder)
        reveals: tuple[int, ...] = ()
        if wins.scatter_count >= rules.trigger_count:
            table = rules.egg_reveal(chosen)
            reveals = tuple(
                table.values[weighted_index(recorder, table.weights, "egg_reveal")]
                for _ in range(wins.scatter_count)
            )
        awarded = sum(reveals)
        record = SpinRecord("base", stops, screen, wins, reveals, awarded, awarded)
        round_ = replaced(
            round_, spins=(record,), free_spins_awarded=awarded, free_spins_remaining=awarded
        )
        if awarded:
            return round_
        return _after_win(rules, round_)

    return _guarded(empty, rng, "spin", step)


def play_free_spin(model: GameModel, round_: TsarRound, rng: RandomSource) -> TsarRound:
    """Play the next free spin: same bet and paylines; each egg shown adds one spin."""
    rules = tsar_rules(model)
    if round_.phase is not Phase.FREE_SPINS:
        raise RuleError(f"no free spins to play: the round is {round_.phase}")
    chosen = model.variant(round_.variant)

    def step(round_: TsarRound, recorder: RecordingSource) -> TsarRound:
        stops, screen, wins = _spin(rules, chosen, rules.free_reel_set, round_.bet, recorder)
        added = wins.scatter_count * rules.extra_spins_per_egg
        remaining = round_.free_spins_remaining - 1 + added
        record = SpinRecord("free", stops, screen, wins, (), added, remaining)
        round_ = replaced(
            round_,
            spins=(*round_.spins, record),
            free_spins_awarded=round_.free_spins_awarded + added,
            free_spins_remaining=remaining,
        )
        if remaining > 0:
            return round_
        return _after_win(rules, round_)

    return _guarded(round_, rng, "free_spin", step)


def gamble_choices(
    model: GameModel, round_: TsarRound, stake: int | None = None
) -> tuple[str, ...]:
    """The gamble choices offered now: none past the gamble count, none whose win would pass
    the gamble amount limit."""
    rules = tsar_rules(model)
    stake = round_.win_coins if stake is None else stake
    if stake <= 0 or len(round_.gambles) >= round_.max_gambles:
        return ()
    offered: list[str] = []
    for choice in CHOICES:
        multiplier = rules.colour_multiplier if is_colour(choice) else rules.suit_multiplier
        if stake * multiplier <= round_.gamble_limit_coins:
            offered.append(choice)
    return tuple(offered)


def gamble(model: GameModel, round_: TsarRound, choice: str, rng: RandomSource) -> TsarRound:
    """Gamble the whole win on ``choice`` (a colour doubles, a suit quadruples)."""
    rules = tsar_rules(model)
    if round_.phase is not Phase.GAMBLE:
        raise RuleError(f"there is no win to gamble: the round is {round_.phase}")
    offered = gamble_choices(model, round_)
    if choice not in offered:
        if choice not in CHOICES:
            raise RuleError(
                f"{choice!r} is not a gamble choice; choose one of {', '.join(CHOICES)}"
            )
        raise RuleError(
            f"{choice} is not offered: its win would pass the gamble limit; "
            f"offered: {', '.join(offered)}"
        )

    def step(round_: TsarRound, recorder: RecordingSource) -> TsarRound:
        card = draw_card(recorder)
        won = guessed(choice, card)
        multiplier = rules.colour_multiplier if is_colour(choice) else rules.suit_multiplier
        result = round_.win_coins * multiplier if won else 0
        record = GambleRecord(choice, card, round_.win_coins, won, result)
        round_ = replaced(round_, gambles=(*round_.gambles, record), win_coins=result)
        if not won or not gamble_choices(model, round_):
            # lost, or a limit reached: the round settles (a win is collected automatically)
            return replaced(round_, phase=Phase.COMPLETE)
        return round_

    return _guarded(round_, rng, f"gamble {choice}", step)


def collect(round_: TsarRound) -> TsarRound:
    """Take the win; the round is complete."""
    if round_.phase is not Phase.GAMBLE:
        raise RuleError(f"nothing to collect: the round is {round_.phase}")
    return replaced(round_, phase=Phase.COMPLETE, actions=(*round_.actions, "collect"))


def finish(model: GameModel, round_: TsarRound, rng: RandomSource) -> TsarRound:
    """Resolve an incomplete round: play any remaining free spins, then collect."""
    while round_.phase is Phase.FREE_SPINS:
        round_ = play_free_spin(model, round_, rng)
    if round_.phase is Phase.GAMBLE:
        round_ = collect(round_)
    return round_


def apply_action(model: GameModel, round_: TsarRound, action: str, rng: RandomSource) -> TsarRound:
    """Apply a recorded action string (``free_spin``, ``gamble <choice>``, ``collect``)."""
    if action == "free_spin":
        return play_free_spin(model, round_, rng)
    if action == "collect":
        return collect(round_)
    verb, _, choice = action.partition(" ")
    if verb == "gamble" and choice:
        return gamble(model, round_, choice, rng)
    raise RuleError(f"unknown action {action!r}")


def replay(model: GameModel, round_: TsarRound) -> TsarRound:
    """Re-run a round from its recorded actions and draws; the result equals the original."""
    return replay_from(
        model, round_.bet, round_.options, round_.variant, round_.actions, round_.draws
    )


def replay_from(
    model: GameModel,
    bet: CoinBet,
    options: RoundOptions,
    variant: str,
    actions: Sequence[str],
    draws: Sequence[Draw],
) -> TsarRound:
    """Re-run a round from what was recorded of it: its bet, options, actions and draws."""
    if not actions or actions[0] != "spin":
        raise RuleError("a round record starts with its spin")
    source = ReplaySource(draws)
    replayed = start_round(model, bet, source, variant=variant, options=options)
    for action in actions[1:]:
        if replayed.is_finished:
            raise RuleError(f"the record continues with {action!r} after the round ended")
        replayed = apply_action(model, replayed, action, source)
    if source.remaining:
        raise RuleError(f"the record has {source.remaining} draws the round did not use")
    return replayed


# ---------------------------------------------------------------------------------------
# One screen, for QA and the command line
# ---------------------------------------------------------------------------------------


def check_screen(model: GameModel, grid: Any) -> None:
    """Reject a screen the reels cannot show: two eggs on one reel."""
    from reelsmith.engine.screen import GridError

    for reel in range(model.reels):
        eggs = int((grid[:, reel] == model.scatter).sum())
        if eggs > 1:
            raise GridError(
                f"reel {reel + 1} shows {eggs} eggs; "
                "the reels never show more than one egg per reel"
            )


def evaluate_grid(model: GameModel, grid: Any, bet: CoinBet) -> dict[str, object]:
    """Wins on one screen for ``bet``, in the command line's JSON shape."""
    rules = tsar_rules(model)
    check_screen(model, grid)
    wins = evaluate_screen(model, grid, bet.lines, bet.coins_per_line, bet.total_coins)
    return {
        "line_wins": [w.to_json() for w in wins.line_wins],
        "scatter_win": wins.scatter_win.to_json() if wins.scatter_win else None,
        "total_coins": wins.total_coins,
        "total_credits": str(credits(wins.total_coins, bet.coin_size)),
        "free_spins_triggered": wins.scatter_count >= rules.trigger_count,
    }
