"""A catalogue title's round: base spin, free spins with retriggers, the gamble, collect.

The functions are pure: each takes the model, the round so far and a random source and returns
the new round. Every random number consumed is recorded (reel stops, reveals, gamble cards), so
:func:`replay_from` re-runs a round exactly. The feature transitions are those of
:mod:`reelsmith.engine.catalogue`, which the simulation kernel and the exact analysis call too.

Round flow (``Phase``)::

    spin ──► free_spins ──(free_spin)*──► gamble ──(gamble)*──► complete
       └──────────────────────────────────► gamble ──(collect)──► complete
       └──────────────────────────────────────────────────────► complete (no win)

The gamble is offered only where the model has a ``[gamble]`` table and the round's options
allow it. A malfunction (an unexpected error while a step runs) voids the round: it pays
nothing, its bet is returned, and the record says so with the reason.

Draw order (the kernel makes the same draws): one ``reel_stop`` per reel (below the strip's
length, or below the reel's total weight where the reel set gives ``stop_weights``: see
:mod:`reelsmith.engine.stops`), then, where the model's plug-in acts on the screen
(:mod:`reelsmith.engine.plugins`), the plug-in's draw under its own purpose, if it makes one;
then, on a trigger whose award is revealed, one draw of the reveal table per triggering symbol;
each free spin draws its reel stops (and the plug-in's draw); each gamble one ``gamble_card``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from functools import cache, cached_property
from typing import Any

from reelsmith.engine.bets import CoinBet, CoinBetOptions, credits
from reelsmith.engine.catalogue import Mechanics, award_spins, mechanics, trigger_spins
from reelsmith.engine.errors import RuleError
from reelsmith.engine.evaluation import ScreenWins, evaluate_screen
from reelsmith.engine.gamble import CHOICES, Card, draw_card, guessed, is_colour
from reelsmith.engine.lines import count_symbol_on
from reelsmith.engine.model import GameModel, Variant
from reelsmith.engine.rounds import guarded_step, replaced
from reelsmith.engine.screen import Screen, to_screen, window
from reelsmith.engine.stops import draw_stops
from reelsmith.rng import Draw, RandomSource, RecordingSource, ReplaySource, weighted_index


class Phase(StrEnum):
    FREE_SPINS = "free_spins"  # free spins remain: the next action is a free spin
    GAMBLE = "gamble"  # a win waits: gamble it or collect it
    COMPLETE = "complete"  # settled: the win (if any) is paid
    VOIDED = "voided"  # a malfunction voided the round: no pay, the bet is returned


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
    triggers: int  # trigger symbols shown (on the reels they count on)
    reveals: tuple[int, ...]  # base spin with a revealed award: each symbol's reveal
    spins_added: int  # free spins this screen added
    free_spins_remaining: int  # after this screen
    #: Where the model's plug-in acted on this screen: its outcome (e.g. the multiplier drawn)
    #: and the screen's win after it; None where no plug-in acted.
    plugin_outcome: int | None = None
    plugin_win: int | None = None

    @cached_property
    def win_coins(self) -> int:
        """The screen's win: its lines and scatter, after the plug-in where one acted."""
        return self.wins.total_coins if self.plugin_win is None else self.plugin_win

    def to_json(self) -> dict[str, object]:
        """The screen as JSON: a new dict each call, its values shared between calls (a
        screen never changes, and a round's view lists every earlier screen again at each
        free spin, so the document is built once)."""
        return dict(self._json)

    @cached_property
    def _json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "stops": list(self.stops),
            "screen": [list(row) for row in self.screen],
            "line_wins": [
                {**w.to_json(), "positions": [list(p) for p in w.positions]}
                for w in self.wins.line_wins
            ],
            "scatter_win": self.wins.scatter_win.to_json() if self.wins.scatter_win else None,
            "scatters": self.wins.scatter_count,
            "scatter_positions": [list(p) for p in self.wins.scatter_positions],
            "triggers": self.triggers,
            "reveals": list(self.reveals),
            "spins_added": self.spins_added,
            "free_spins_remaining": self.free_spins_remaining,
            "win_coins": self.win_coins,
            **(
                {}
                if self.plugin_outcome is None
                else {"plugin": {"outcome": self.plugin_outcome, "win_coins": self.plugin_win}}
            ),
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
class CatalogueRound:
    """Everything about one round; immutable, each action returns a new one."""

    game: str
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
        return self.win_coins if self.phase is Phase.COMPLETE else 0

    @property
    def refund_coins(self) -> int:
        return self.bet.total_coins if self.phase is Phase.VOIDED else 0

    def to_json(self) -> dict[str, object]:
        return {
            "game": self.game,
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
            "draws": [[d.purpose, d.bound, d.value] for d in self.draws],  # Draw.to_json
            "void_reason": self.void_reason,
        }


@cache
def bet_options(model: GameModel) -> CoinBetOptions:
    """The model's bet options, read and checked once per loaded model (as `mechanics`)."""
    return CoinBetOptions.from_model(model)


# ---------------------------------------------------------------------------------------
# Steps
# ---------------------------------------------------------------------------------------


def _void(round_: CatalogueRound, reason: str) -> CatalogueRound:
    """Malfunctions void all plays and pays: no win, the bet is returned, the reason kept."""
    return replaced(
        round_, phase=Phase.VOIDED, win_coins=0, free_spins_remaining=0, void_reason=reason
    )


def _guarded(
    round_: CatalogueRound,
    rng: RandomSource,
    action: str,
    step: Callable[[CatalogueRound, RecordingSource], CatalogueRound],
) -> CatalogueRound:
    return guarded_step(round_, rng, action, step, _void)


@dataclass(frozen=True)
class _Spin:
    stops: tuple[int, ...]
    screen: Screen
    wins: ScreenWins
    triggers: int
    plugin_outcome: int | None
    plugin_win: int | None


def _spin(
    rules: Mechanics,
    variant: Variant,
    free: bool,
    bet: CoinBet,
    rng: RandomSource,
) -> _Spin:
    """One screen: its reel stops, its pays and, where the model's plug-in acts, the plug-in's
    step on the screen's win (after the lines and scatter, before any reveal)."""
    model = rules.model
    name = rules.free_spins.reel_set if free and rules.free_spins else "base"
    reel_set = variant.reel_sets[name]
    stops = draw_stops(reel_set, rng)
    grid = window(reel_set, stops, model.rows)
    if free:
        wins = evaluate_screen(
            model,
            grid,
            bet.lines,
            bet.coins_per_line,
            bet.total_coins,
            line_pays=rules.free_line_pays,
            scatter_pays=rules.free_scatter_pays,
        )
    else:
        wins = evaluate_screen(model, grid, bet.lines, bet.coins_per_line, bet.total_coins)
    outcome = plugin_win = None
    plugin = rules.plugin
    if plugin is not None and plugin.acts(free):
        plugin_win, outcome = plugin.step(free, wins.total_coins, bet.total_coins, rng)
    triggers = 0
    if rules.free_spins is not None:
        triggers = int(count_symbol_on(grid, rules.free_spins.symbol, rules.trigger_mask))
    return _Spin(stops, to_screen(model, grid), wins, triggers, outcome, plugin_win)


def gamble_choices(
    model: GameModel, round_: CatalogueRound, stake: int | None = None
) -> tuple[str, ...]:
    """The gamble choices offered now: none past the gamble count, none whose win would pass
    the gamble amount limit, none where the model has no gamble."""
    gamble = mechanics(model).gamble
    stake = round_.win_coins if stake is None else stake
    if gamble is None or stake <= 0 or len(round_.gambles) >= round_.max_gambles:
        return ()
    offered: list[str] = []
    for choice in CHOICES:
        multiplier = gamble.colour_multiplier if is_colour(choice) else gamble.suit_multiplier
        if stake * multiplier <= round_.gamble_limit_coins:
            offered.append(choice)
    return tuple(offered)


def _after_win(model: GameModel, round_: CatalogueRound) -> CatalogueRound:
    """The spins are over: offer the gamble on a win, else the round is complete."""
    win = round_.spin_win_coins
    round_ = replaced(round_, win_coins=win, free_spins_remaining=0)
    if win > 0 and round_.options.gamble_allowed and gamble_choices(model, round_, win):
        return replaced(round_, phase=Phase.GAMBLE)
    return replaced(round_, phase=Phase.COMPLETE)


def start_round(
    model: GameModel,
    bet: CoinBet,
    rng: RandomSource,
    *,
    variant: str | None = None,
    options: RoundOptions | None = None,
) -> CatalogueRound:
    """Spin the base game with ``bet`` and return the new round."""
    rules = mechanics(model)
    chosen = model.variant(variant)
    options = options or RoundOptions()
    bet_options(model).validate(bet.lines, bet.coins_per_line, bet.coin_size)
    gamble = rules.gamble
    limit_credits = options.gamble_limit_credits
    if limit_credits is None and gamble is not None:
        limit_credits = Decimal(gamble.win_limit_credits)
    empty = CatalogueRound(
        game=model.id,
        variant=chosen.id,
        bet=bet,
        options=options,
        phase=Phase.FREE_SPINS,
        gamble_limit_coins=0
        if limit_credits is None
        else math.floor(limit_credits / bet.coin_size),
        max_gambles=(gamble.max_gambles if gamble else 0)
        if options.max_gambles is None
        else options.max_gambles,
    )
    free = rules.free_spins

    def step(round_: CatalogueRound, recorder: RecordingSource) -> CatalogueRound:
        spin = _spin(rules, chosen, False, bet, recorder)
        triggers = spin.triggers
        reveals: tuple[int, ...] = ()
        awarded = 0
        if free is not None and triggers >= free.trigger:
            if free.reveal is not None:
                values, weights = free.reveal_table(chosen)
                reveals = tuple(
                    values[weighted_index(recorder, weights, free.reveal)] for _ in range(triggers)
                )
            revealed = sum(reveals) if free.reveal is not None else -1
            awarded = int(trigger_spins(free.spins, triggers, revealed, free.max_spins))
        record = SpinRecord(
            "base",
            spin.stops,
            spin.screen,
            spin.wins,
            triggers,
            reveals,
            awarded,
            awarded,
            spin.plugin_outcome,
            spin.plugin_win,
        )
        round_ = replaced(
            round_, spins=(record,), free_spins_awarded=awarded, free_spins_remaining=awarded
        )
        if awarded:
            return round_
        return _after_win(model, round_)

    return _guarded(empty, rng, "spin", step)


def play_free_spin(model: GameModel, round_: CatalogueRound, rng: RandomSource) -> CatalogueRound:
    """Play the next free spin: same bet and paylines, paid from the free-spin tables; the
    trigger symbols it shows may add spins."""
    rules = mechanics(model)
    free = rules.free_spins
    if round_.phase is not Phase.FREE_SPINS or free is None:
        raise RuleError(f"no free spins to play: the round is {round_.phase}")
    chosen = model.variant(round_.variant)

    def step(round_: CatalogueRound, recorder: RecordingSource) -> CatalogueRound:
        spin = _spin(rules, chosen, True, round_.bet, recorder)
        added = award_spins(
            free.retrigger,
            free.retrigger_spins,
            free.spins_per_symbol,
            spin.triggers,
            round_.free_spins_awarded,
            free.max_spins,
        )
        remaining = round_.free_spins_remaining - 1 + added
        record = SpinRecord(
            "free",
            spin.stops,
            spin.screen,
            spin.wins,
            spin.triggers,
            (),
            added,
            remaining,
            spin.plugin_outcome,
            spin.plugin_win,
        )
        round_ = replaced(
            round_,
            spins=(*round_.spins, record),
            free_spins_awarded=round_.free_spins_awarded + added,
            free_spins_remaining=remaining,
        )
        if remaining > 0:
            return round_
        return _after_win(model, round_)

    return _guarded(round_, rng, "free_spin", step)


def gamble(
    model: GameModel, round_: CatalogueRound, choice: str, rng: RandomSource
) -> CatalogueRound:
    """Gamble the whole win on ``choice`` (a colour doubles, a suit quadruples)."""
    rules = mechanics(model).gamble
    if round_.phase is not Phase.GAMBLE or rules is None:
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

    def step(round_: CatalogueRound, recorder: RecordingSource) -> CatalogueRound:
        card = draw_card(recorder)
        won = guessed(choice, card)
        multiplier = rules.colour_multiplier if is_colour(choice) else rules.suit_multiplier
        result = round_.win_coins * multiplier if won else 0
        record = GambleRecord(choice, card, round_.win_coins, won, result)
        round_ = replaced(round_, gambles=(*round_.gambles, record), win_coins=result)
        if not won or not gamble_choices(model, round_):
            return replaced(round_, phase=Phase.COMPLETE)
        return round_

    return _guarded(round_, rng, f"gamble {choice}", step)


def collect(round_: CatalogueRound) -> CatalogueRound:
    """Take the win; the round is complete."""
    if round_.phase is not Phase.GAMBLE:
        raise RuleError(f"nothing to collect: the round is {round_.phase}")
    return replaced(round_, phase=Phase.COMPLETE, actions=(*round_.actions, "collect"))


def finish(model: GameModel, round_: CatalogueRound, rng: RandomSource) -> CatalogueRound:
    """Resolve an incomplete round: play any remaining free spins, then collect."""
    while round_.phase is Phase.FREE_SPINS:
        round_ = play_free_spin(model, round_, rng)
    if round_.phase is Phase.GAMBLE:
        round_ = collect(round_)
    return round_


def apply_action(
    model: GameModel, round_: CatalogueRound, action: str, rng: RandomSource
) -> CatalogueRound:
    """Apply a recorded action string (``free_spin``, ``gamble <choice>``, ``collect``)."""
    if action == "free_spin":
        return play_free_spin(model, round_, rng)
    if action == "collect":
        return collect(round_)
    verb, _, choice = action.partition(" ")
    if verb == "gamble" and choice:
        return gamble(model, round_, choice, rng)
    raise RuleError(f"unknown action {action!r}")


def replay_from(
    model: GameModel,
    bet: CoinBet,
    options: RoundOptions,
    variant: str,
    actions: Sequence[str],
    draws: Sequence[Draw],
) -> CatalogueRound:
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


def replay(model: GameModel, round_: CatalogueRound) -> CatalogueRound:
    return replay_from(
        model, round_.bet, round_.options, round_.variant, round_.actions, round_.draws
    )


def evaluate_grid(model: GameModel, grid: Any, bet: CoinBet) -> dict[str, object]:
    """Wins on one base-game screen for ``bet``, in the command line's JSON shape."""
    rules = mechanics(model)
    wins = evaluate_screen(model, grid, bet.lines, bet.coins_per_line, bet.total_coins)
    free = rules.free_spins
    triggers = int(count_symbol_on(grid, free.symbol, rules.trigger_mask)) if free else 0
    out: dict[str, object] = {
        "line_wins": [w.to_json() for w in wins.line_wins],
        "scatter_win": wins.scatter_win.to_json() if wins.scatter_win else None,
        "total_coins": wins.total_coins,
        "total_credits": str(credits(wins.total_coins, bet.coin_size)),
        "free_spins_triggered": free is not None and triggers >= free.trigger,
    }
    plugin = rules.plugin
    if plugin is not None and plugin.in_base:
        # the plug-in's draw is not part of a screen: give the law of the win it leads to
        law = plugin.law(False, wins.total_coins, bet.total_coins)
        total = sum(weight for _, weight in law)
        out["plugin"] = {
            "name": plugin.name,
            "wins": [{"total_coins": win, "probability": weight / total} for win, weight in law],
        }
    return out
