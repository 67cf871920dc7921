"""The title boundary: the one interface (:class:`Title`) through which the server, the contract
suite and the tools reach a title, and the adapters of the titles with rules of their own.

A title turns the market's money into its engine's bets, starts and continues rounds, stores
and restores them, gives the player's view of a round, settles it in minor units, keeps the
player's carried state and renders its rules page for a market. Catalogue titles (a model file
alone) are played by :class:`reelsmith.server.catalogue_title.CatalogueTitle`; the registry
(:mod:`reelsmith.server.registry`) finds every title and picks its adapter.

A stored round is the *record* that replays it (bet, options or starting state, variant,
actions, draws): to continue an open round the server replays its record, which also proves
the stored round is intact, then applies the next action with a live random source.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, ClassVar

from babel.numbers import get_currency_name

from reelsmith.engine.bet_ladder import lower_bet
from reelsmith.engine.bets import BetError, CoinBet, CoinBetOptions
from reelsmith.engine.errors import RuleError
from reelsmith.engine.model import GameModel
from reelsmith.games import load_game
from reelsmith.games.sultan_spins import rules as sultan
from reelsmith.games.sultan_spins.state import BetState, bet_key
from reelsmith.help import Terms, language_of, page_locale
from reelsmith.rng import Draw, RandomSource
from reelsmith.rules_page import rules_document
from reelsmith.server.bet_bodies import BetBody, CoinBetBody, LadderBetBody, read_bet
from reelsmith.server.markets import Market

HIDDEN_DRAWS = ("jackpot_trigger",)  # trigger points stay secret from players


@dataclass(frozen=True)
class Outcome:
    """What settling a finished round moves: wins and jackpot wins in minor units."""

    status: str  # open complete voided
    win_minor: int
    jackpot_minor: int
    refund_minor: int


def public_draws(draws: list[list[Any]]) -> list[list[Any]]:
    return [
        [purpose, bound, None if str(purpose).startswith(HIDDEN_DRAWS) else value]
        for purpose, bound, value in draws
    ]


class Title(ABC):
    """A title as the server plays it. Rounds, bets and carried states are the title's own
    values (``Any`` here): only the title reads them; the server stores what :meth:`record`,
    :meth:`bet_json`, :meth:`view` and :meth:`kept_state` make of them."""

    game_id: str
    #: The bet a player sends for this title (documented in the OpenAPI spec).
    bet_body: ClassVar[type[BetBody]]
    #: The web client's script for the title: its own, or "catalogue" (any catalogue title).
    client: ClassVar[str]

    def __init__(self, model: GameModel | None = None) -> None:
        self.model: GameModel = model if model is not None else load_game(self.game_id)

    @property
    def name(self) -> str:
        return self.model.name

    def rules(
        self, market: Market, language: str = "en", resolve_after_seconds: int | None = None
    ) -> dict[str, Any]:
        """The paytable and rules page of the variant the market plays, in ``language``, for
        the market's bets, limits and features; ``resolve_after_seconds``: the server's period
        after which an incomplete round is resolved."""
        rules = market.game(self.game_id)
        lang = language_of(language)
        locale = page_locale(lang, market.locale)
        terms = Terms(
            market=market.id,
            money=lambda minor: market.currency.format(minor, locale),
            to_minor=market.currency.to_minor,
            currency=get_currency_name(market.currency.code, locale=locale),
            autoplay=market.autoplay,
            autoplay_loss_limit=market.autoplay_requires_loss_limit,
            autoplay_stop_on_jackpot=market.autoplay_requires_stop_on_jackpot,
            autoplay_stop_on_balance_change=market.autoplay_requires_stop_on_balance_change,
            turbo=market.turbo,
            slam_stop=market.slam_stop,
            gamble=market.gamble,
            max_stake_minor=market.currency.to_minor(market.max_stake),
            resolve_after_seconds=resolve_after_seconds,
            coin_sizes=rules.coin_sizes,
            bets_minor=self.rules_bets_minor(market),
            gamble_limit=rules.gamble_limit,
        )
        return rules_document(self.model, rules.variant, language=lang, locale=locale, terms=terms)

    def rules_bets_minor(self, market: Market) -> tuple[int, ...]:
        """The bets the rules page lists, in minor units, for a title bet in whole bet sizes
        (none for a coin-bet title, whose page lists the market's coin sizes)."""
        return ()

    # -- bets ------------------------------------------------------------------------
    @abstractmethod
    def parse_bet(self, market: Market, raw: dict[str, Any]) -> Any:
        """The bet ``raw`` (request JSON) asks for, checked against the title and the market;
        BetError naming what is wrong."""

    @abstractmethod
    def bet_minor(self, market: Market, bet: Any) -> int: ...

    @abstractmethod
    def bet_json(self, bet: Any) -> dict[str, Any]: ...

    @abstractmethod
    def sample_bet(self, market: Market) -> Any:
        """The smallest bet the market takes for this title (for warming the engine up)."""

    @abstractmethod
    def lower(self, market: Market, balance_minor: int, bet: Any) -> Any | None:
        """The bet to play when the balance may not cover ``bet`` (None: no bet fits)."""

    def state_key(self, bet: Any) -> str | None:
        """The key of the player's carried state for this bet, if the title has any."""
        return None

    def carried_view(self, market: Market, bet: Any, state: Any) -> dict[str, Any] | None:
        """What the player may see of the carried state for ``bet`` (None: the title carries
        no state); ``state`` None is the state of a bet never played."""
        return None

    # -- rounds ----------------------------------------------------------------------
    @abstractmethod
    def start(
        self, market: Market, bet: Any, state: Any, rng: RandomSource, gamble: bool = True
    ) -> Any:
        """A new round. ``gamble`` False: the player declines the gamble for this round, and a
        win is collected at once (titles without a gamble ignore it)."""

    @abstractmethod
    def act(self, round_: Any, action: str, rng: RandomSource) -> Any: ...

    @abstractmethod
    def finish(self, round_: Any, rng: RandomSource) -> Any: ...

    @abstractmethod
    def record(self, round_: Any) -> dict[str, Any]: ...

    @abstractmethod
    def restore(self, record: dict[str, Any]) -> Any: ...

    @abstractmethod
    def outcome(self, market: Market, round_: Any) -> Outcome: ...

    @abstractmethod
    def view(self, market: Market, round_: Any) -> dict[str, Any]: ...

    @abstractmethod
    def actions(self, round_: Any) -> list[str]: ...

    def feature_triggered(self, round_: Any) -> bool:
        return False

    def kept_state(self, round_: Any) -> tuple[str, dict[str, Any]] | None:
        return None

    def load_state(self, data: dict[str, Any] | None) -> Any:
        return None


# ---------------------------------------------------------------------------------------
# Coin bets (every catalogue title)
# ---------------------------------------------------------------------------------------


class CoinBetTitle(Title):
    """A title bet in paylines, coins per payline and a coin size from the market's list."""

    bet_body = CoinBetBody

    @property
    @abstractmethod
    def bet_options(self) -> CoinBetOptions:
        """The model's bet limits."""

    def parse_bet(self, market: Market, raw: dict[str, Any]) -> CoinBet:
        allowed = market.game(self.game_id).coin_sizes
        body = read_bet(CoinBetBody, raw)
        bet = self.bet_options.validate(body.lines, body.coins_per_line, body.coin_size)
        if bet.coin_size not in allowed:
            raise BetError(
                f"coin size {bet.coin_size} is not offered in this market; "
                f"the coin sizes are {', '.join(str(s) for s in allowed)}"
            )
        if bet.total_credits > market.max_stake:
            raise BetError(
                f"the bet {bet.total_credits} is above the market's maximum stake "
                f"{market.max_stake}"
            )
        return bet

    def bet_minor(self, market: Market, bet: CoinBet) -> int:
        return bet.total_coins * market.currency.to_minor(bet.coin_size)

    def sample_bet(self, market: Market) -> CoinBet:
        size = min(market.game(self.game_id).coin_sizes)
        return self.bet_options.validate(self.bet_options.max_lines, 1, str(size))

    def bet_json(self, bet: CoinBet) -> dict[str, Any]:
        return {
            "lines": bet.lines,
            "coins_per_line": bet.coins_per_line,
            "coin_size": str(bet.coin_size),
        }

    def lower(self, market: Market, balance_minor: int, bet: CoinBet) -> CoinBet | None:
        """Keep the paylines; lower the coins per line first, then the coin size."""
        if self.bet_minor(market, bet) <= balance_minor:
            return bet
        sizes = sorted(
            (s for s in market.game(self.game_id).coin_sizes if s <= bet.coin_size), reverse=True
        )
        for size in sizes:
            for cpl in range(bet.coins_per_line, 0, -1):
                candidate = CoinBet(bet.lines, cpl, size)
                if self.bet_minor(market, candidate) <= balance_minor:
                    return candidate
        return None


# ---------------------------------------------------------------------------------------
# Sultan Spins
# ---------------------------------------------------------------------------------------


class SultanSpins(Title):
    game_id = "sultan-spins"
    bet_body = LadderBetBody
    client = "sultan-spins"

    def __init__(self, model: GameModel | None = None) -> None:
        super().__init__(model)
        self.sultan = sultan.sultan_rules(self.model)

    def _allowed(self, market: Market) -> tuple[Decimal, ...]:
        return tuple(b for b in market.game(self.game_id).bets if b <= market.max_stake)

    def parse_bet(self, market: Market, raw: dict[str, Any]) -> Decimal:
        body = read_bet(LadderBetBody, raw)
        return self.sultan.ladder.validate(body.bet, self._allowed(market))

    def bet_minor(self, market: Market, bet: Decimal) -> int:
        return market.currency.to_minor(bet)

    def sample_bet(self, market: Market) -> Decimal:
        return min(self._allowed(market))

    def bet_json(self, bet: Decimal) -> dict[str, Any]:
        return {"bet": f"{bet:.2f}"}

    def lower(self, market: Market, balance_minor: int, bet: Decimal) -> Decimal | None:
        balance = market.currency.to_decimal(balance_minor)
        return lower_bet(self._allowed(market), balance, bet)

    def rules_bets_minor(self, market: Market) -> tuple[int, ...]:
        return tuple(self.bet_minor(market, b) for b in self._allowed(market))

    def state_key(self, bet: Decimal) -> str:
        return bet_key(bet)

    def load_state(self, data: dict[str, Any] | None) -> BetState | None:
        return None if data is None else BetState.from_json(data)

    def carried_view(
        self, market: Market, bet: Decimal, state: BetState | None
    ) -> dict[str, Any] | None:
        """Pots and meter for a bet size (trigger points stay hidden)."""
        bet_minor = self.bet_minor(market, bet)
        pots = list(state.pots) if state is not None else [j.seed for j in self.sultan.jackpots]
        return {
            "bet": self.bet_json(bet),
            "pots_minor": [p * bet_minor for p in pots],
            "pots": [market.money(p * bet_minor) for p in pots],
            "caps_minor": [j.cap * bet_minor for j in self.sultan.jackpots],
            "meter": 0 if state is None else state.meter,
            "spots": self.sultan.spots,
        }

    def start(
        self,
        market: Market,
        bet: Decimal,
        state: BetState | None,
        rng: RandomSource,
        gamble: bool = True,
    ) -> sultan.SultanRound:
        variant = market.game(self.game_id).variant
        return sultan.start_round(
            self.model, bet, state, rng, variant=variant, allowed_bets=self._allowed(market)
        )

    def act(self, round_: sultan.SultanRound, action: str, rng: RandomSource) -> sultan.SultanRound:
        if action != "free_spin":
            raise RuleError(f"{action!r} is not an action of Sultan Spins; the action is free_spin")
        return sultan.play_free_spin(self.model, round_, rng)

    def finish(self, round_: sultan.SultanRound, rng: RandomSource) -> sultan.SultanRound:
        return sultan.finish(self.model, round_, rng)

    def record(self, round_: sultan.SultanRound) -> dict[str, Any]:
        """The stored record; ``rules_version`` is left out for version 1, as records were
        written before versions existed."""
        out: dict[str, Any] = {
            "bet": self.bet_json(round_.bet),
            "state_before": None if round_.state_before is None else round_.state_before.to_json(),
            "variant": round_.variant,
            "actions": list(round_.actions),
            "draws": [d.to_json() for d in round_.draws],
        }
        if round_.rules_version != 1:
            out["rules_version"] = round_.rules_version
        return out

    def restore(self, record: dict[str, Any]) -> sultan.SultanRound:
        before = record["state_before"]
        return sultan.replay_from(
            self.model,
            Decimal(record["bet"]["bet"]),
            None if before is None else BetState.from_json(before),
            record["variant"],
            record["actions"],
            [Draw.from_json(d) for d in record["draws"]],
            rules_version=record.get("rules_version", 1),
        )

    def _minor(self, market: Market, coins: int, bet: Decimal) -> int:
        numerator = coins * market.currency.to_minor(bet)
        if numerator % self.sultan.lines:
            raise ArithmeticError(
                f"{coins} line bets at {bet} is not a whole number of minor units"
            )
        return numerator // self.sultan.lines

    def outcome(self, market: Market, round_: sultan.SultanRound) -> Outcome:
        status = {sultan.Phase.COMPLETE: "complete", sultan.Phase.VOIDED: "voided"}.get(
            round_.phase, "open"
        )
        if status != "complete":
            refund = market.currency.to_minor(round_.refund_amount)
            return Outcome(status, 0, 0, refund)
        jackpot = self._minor(market, round_.jackpot_coins, round_.bet)
        return Outcome(status, self._minor(market, round_.line_coins, round_.bet), jackpot, 0)

    def actions(self, round_: sultan.SultanRound) -> list[str]:
        return ["free_spin"] if round_.phase is sultan.Phase.FREE_SPINS else []

    def feature_triggered(self, round_: sultan.SultanRound) -> bool:
        return (
            bool(round_.free_spins)
            or round_.phase is sultan.Phase.FREE_SPINS
            or any(g.jackpot_bets for s in round_.spins for g in s.gems)
        )

    def kept_state(self, round_: sultan.SultanRound) -> tuple[str, dict[str, Any]] | None:
        kept = round_.kept_state
        return None if kept is None else (bet_key(round_.bet), kept.to_json())

    def view(self, market: Market, round_: sultan.SultanRound) -> dict[str, Any]:
        data = round_.to_json()
        data["draws"] = public_draws(data["draws"])  # type: ignore[arg-type]
        bet_minor = market.currency.to_minor(round_.bet)
        data["bet_minor"] = bet_minor
        data["win_minor"] = (
            self._minor(market, round_.line_coins + round_.jackpot_coins, round_.bet)
            if round_.phase is not sultan.Phase.VOIDED
            else 0
        )
        data["pots_minor"] = [p * bet_minor for p in round_.state.pots]
        data["caps_minor"] = [j.cap * bet_minor for j in self.sultan.jackpots]
        data["actions_allowed"] = self.actions(round_)
        data["multiplier"] = self.sultan.multipliers[round_.level - 1] if round_.level else 1
        return data


#: The titles with an adapter of their own, by id; every other title is a catalogue title,
#: played by CatalogueTitle from its model (see reelsmith.server.registry).
OWN_TITLES: dict[str, type[Title]] = {SultanSpins.game_id: SultanSpins}
