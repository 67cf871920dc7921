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
from fractions import Fraction
from typing import Any, ClassVar

from babel.numbers import get_currency_name

from reelsmith.engine import ladder as sultan
from reelsmith.engine.bet_ladder import lower_bet
from reelsmith.engine.bets import BetError, CoinBet, CoinBetOptions
from reelsmith.engine.errors import RuleError
from reelsmith.engine.ladder_state import BetState, bet_key
from reelsmith.engine.model import GameModel
from reelsmith.games import load_game
from reelsmith.help import Terms, language_of, page_locale
from reelsmith.money import MoneyError
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
            credit_value=rules.credit_value,
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


@dataclass(frozen=True)
class PricedCoinBet:
    """A coin bet as the server handles it: the engine's bet (its coin size in the model's
    credits) and the coin's value in the player's market (what the API takes and shows)."""

    coins: CoinBet
    coin_size: Decimal


class CoinBetTitle(Title):
    """A title bet in paylines, coins per payline and a coin size from the market's list.

    The model's coin sizes and gamble limit are in credits; a market prices a credit in its
    currency (``credit_value``: 1 unless it says otherwise, 100 in yen), so the market's coin
    sizes are its money and the engine's are credits. Records keep the engine's bet, so a
    record reads the same in every market."""

    bet_body = CoinBetBody

    @property
    @abstractmethod
    def bet_options(self) -> CoinBetOptions:
        """The model's bet limits."""

    def _priced(
        self, market: Market, lines: int, coins_per_line: int, size: Decimal
    ) -> PricedCoinBet:
        credit = market.game(self.game_id).credit_value
        return PricedCoinBet(self.bet_options.validate(lines, coins_per_line, size / credit), size)

    def parse_bet(self, market: Market, raw: dict[str, Any]) -> PricedCoinBet:
        allowed = market.game(self.game_id).coin_sizes
        body = read_bet(CoinBetBody, raw)
        matches = [s for s in allowed if s == body.coin_size]
        if not matches:
            raise BetError(
                f"coin size {body.coin_size} is not offered in this market; "
                f"the coin sizes are {', '.join(str(s) for s in allowed)}"
            )
        bet = self._priced(market, body.lines, body.coins_per_line, matches[0])
        stake = bet.coins.total_coins * bet.coin_size
        if stake > market.max_stake:
            raise BetError(
                f"the bet {market.currency.to_decimal(market.currency.to_minor(stake))} is "
                f"above the market's maximum stake {market.max_stake}"
            )
        return bet

    def bet_minor(self, market: Market, bet: PricedCoinBet) -> int:
        return bet.coins.total_coins * market.currency.to_minor(bet.coin_size)

    def sample_bet(self, market: Market) -> PricedCoinBet:
        size = min(market.game(self.game_id).coin_sizes)
        return self._priced(market, self.bet_options.max_lines, 1, size)

    def bet_json(self, bet: PricedCoinBet) -> dict[str, Any]:
        return {
            "lines": bet.coins.lines,
            "coins_per_line": bet.coins.coins_per_line,
            "coin_size": str(bet.coin_size),
        }

    def lower(self, market: Market, balance_minor: int, bet: PricedCoinBet) -> PricedCoinBet | None:
        """Keep the paylines; lower the coins per line first, then the coin size."""
        if self.bet_minor(market, bet) <= balance_minor:
            return bet
        credit = market.game(self.game_id).credit_value
        sizes = sorted(
            (s for s in market.game(self.game_id).coin_sizes if s <= bet.coin_size), reverse=True
        )
        lines = bet.coins.lines
        for size in sizes:
            for cpl in range(bet.coins.coins_per_line, 0, -1):
                candidate = PricedCoinBet(CoinBet(lines, cpl, size / credit), size)
                if self.bet_minor(market, candidate) <= balance_minor:
                    return candidate
        return None


# ---------------------------------------------------------------------------------------
# Sultan Spins
# ---------------------------------------------------------------------------------------

#: The price of one stake unit when Sultan Spins' bets were amounts of money: every record and
#: carried state written then names its bet by the amount, which is the level at this price.
LEGACY_STAKE_UNIT = Decimal("0.20")


def legacy_level(amount: Decimal) -> int | None:
    """The bet level a bet of ``amount`` was before bet levels (None: no whole level)."""
    level = amount / LEGACY_STAKE_UNIT
    return int(level) if level == level.to_integral_value() and level > 0 else None


@dataclass(frozen=True)
class SultanBet:
    """A Sultan Spins bet as the server handles it: the engine's bet level, and the amount it
    was priced at in the player's market (what the API shows and the record keeps)."""

    level: int
    amount: Decimal


@dataclass(frozen=True)
class SultanPlay:
    """A round as the server holds it: the engine's round and the bet it was priced at."""

    round: sultan.LadderRound
    bet: SultanBet


class SultanSpins(Title):
    """Sultan Spins' engine counts bets in bet levels (stake units) and settles in stake units;
    this adapter prices them with the market's stake unit and converts every amount once, to
    the currency's minor units, exactly (the market loader refuses a pricing that cannot be
    exact). Carried state is keyed by bet level."""

    game_id = "sultan-spins"
    bet_body = LadderBetBody
    client = "sultan-spins"

    def __init__(self, model: GameModel | None = None) -> None:
        super().__init__(model)
        self.sultan = sultan.ladder_rules(self.model)

    def _unit_minor(self, market: Market) -> int:
        unit = market.game(self.game_id).stake_unit
        if unit is None:
            raise BetError(f"market {market.id} does not price {self.game_id}'s bet levels")
        return market.currency.to_minor(unit)

    def _priced(self, market: Market, level: int) -> SultanBet:
        minor = level * self._unit_minor(market)
        return SultanBet(level, market.currency.to_decimal(minor))

    def _allowed(self, market: Market) -> tuple[int, ...]:
        """The levels the market offers at or below its maximum stake."""
        unit = self._unit_minor(market)
        top = market.currency.to_minor(market.max_stake)
        return tuple(n for n in market.game(self.game_id).levels if n * unit <= top)

    def parse_bet(self, market: Market, raw: dict[str, Any]) -> SultanBet:
        body = read_bet(LadderBetBody, raw)
        unit = self._unit_minor(market)
        allowed = self._allowed(market)
        try:
            minor = market.currency.to_minor(body.bet)
        except MoneyError:
            minor = -1  # not an amount of this currency: refused below, naming the bets
        if minor > 0 and minor % unit == 0 and minor // unit in allowed:
            return self._priced(market, minor // unit)
        listed = ", ".join(str(self._priced(market, n).amount) for n in allowed)
        raise BetError(f"bet {body.bet} is not offered; the bets are {listed}")

    def bet_minor(self, market: Market, bet: SultanBet) -> int:
        return market.currency.to_minor(bet.amount)

    def sample_bet(self, market: Market) -> SultanBet:
        return self._priced(market, min(self._allowed(market)))

    def bet_json(self, bet: SultanBet) -> dict[str, Any]:
        return {"bet": str(bet.amount)}

    def lower(self, market: Market, balance_minor: int, bet: SultanBet) -> SultanBet | None:
        unit = self._unit_minor(market)
        prices = [n * unit for n in self._allowed(market)]
        lowered = lower_bet(prices, balance_minor, self.bet_minor(market, bet))
        if lowered is None:
            return None
        return (
            bet if lowered == self.bet_minor(market, bet) else self._priced(market, lowered // unit)
        )

    def rules_bets_minor(self, market: Market) -> tuple[int, ...]:
        return tuple(n * self._unit_minor(market) for n in self._allowed(market))

    def state_key(self, bet: SultanBet) -> str:
        return bet_key(bet.level)

    def load_state(self, data: dict[str, Any] | None) -> BetState | None:
        return None if data is None else BetState.from_json(data)

    def carried_view(
        self, market: Market, bet: SultanBet, state: BetState | None
    ) -> dict[str, Any] | None:
        """Pots and meter for a bet level (trigger points stay hidden)."""
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
        bet: SultanBet,
        state: BetState | None,
        rng: RandomSource,
        gamble: bool = True,
    ) -> SultanPlay:
        variant = market.game(self.game_id).variant
        round_ = sultan.start_round(
            self.model,
            bet.level,
            state,
            rng,
            variant=variant,
            allowed_levels=self._allowed(market),
        )
        return SultanPlay(round_, bet)

    def act(self, play: SultanPlay, action: str, rng: RandomSource) -> SultanPlay:
        if action != "free_spin":
            raise RuleError(f"{action!r} is not an action of Sultan Spins; the action is free_spin")
        return SultanPlay(sultan.play_free_spin(self.model, play.round, rng), play.bet)

    def finish(self, play: SultanPlay, rng: RandomSource) -> SultanPlay:
        return SultanPlay(sultan.finish(self.model, play.round, rng), play.bet)

    def record(self, play: SultanPlay) -> dict[str, Any]:
        """The stored record. ``rules_version`` is left out for version 1, and ``bet_level``
        when the bet's amount is that level at the price records were written at before bet
        levels (:data:`LEGACY_STAKE_UNIT`): such records read as they were stored."""
        round_ = play.round
        out: dict[str, Any] = {
            "bet": self.bet_json(play.bet),
            "state_before": None if round_.state_before is None else round_.state_before.to_json(),
            "variant": round_.variant,
            "actions": list(round_.actions),
            "draws": [d.to_json() for d in round_.draws],
        }
        if legacy_level(play.bet.amount) != play.bet.level:
            out["bet_level"] = play.bet.level
        if round_.rules_version != 1:
            out["rules_version"] = round_.rules_version
        return out

    def restore(self, record: dict[str, Any]) -> SultanPlay:
        before = record["state_before"]
        try:
            amount = Decimal(str(record["bet"]["bet"]))
        except ArithmeticError:
            raise RuleError(f"the record's bet {record['bet']!r} is not an amount") from None
        level = record.get("bet_level", legacy_level(amount))
        if isinstance(level, bool) or not isinstance(level, int):
            raise RuleError(f"the record's bet {amount} names no bet level ({level!r})")
        round_ = sultan.replay_from(
            self.model,
            level,
            None if before is None else BetState.from_json(before),
            record["variant"],
            record["actions"],
            [Draw.from_json(d) for d in record["draws"]],
            rules_version=record.get("rules_version", 1),
        )
        return SultanPlay(round_, SultanBet(level, amount))

    def _minor(self, market: Market, bet: SultanBet, stake: Fraction) -> int:
        """``stake`` (stake units) in minor units at the price the bet was played at: the one
        conversion from the engine's units to money."""
        minor = stake * self.bet_minor(market, bet) / bet.level
        if minor.denominator != 1:
            raise ArithmeticError(
                f"{stake} stake units at a bet of {bet.amount} {market.currency.code} is not a "
                "whole number of minor units"
            )
        return int(minor)

    def _coins_minor(self, market: Market, play: SultanPlay, coins: int) -> int:
        return self._minor(market, play.bet, self.sultan.stake_units(coins, play.bet.level))

    def outcome(self, market: Market, play: SultanPlay) -> Outcome:
        round_ = play.round
        status = {sultan.Phase.COMPLETE: "complete", sultan.Phase.VOIDED: "voided"}.get(
            round_.phase, "open"
        )
        if status != "complete":
            refund = self._minor(market, play.bet, Fraction(round_.refund_stake))
            return Outcome(status, 0, 0, refund)
        jackpot = self._coins_minor(market, play, round_.jackpot_coins)
        return Outcome(status, self._coins_minor(market, play, round_.line_coins), jackpot, 0)

    def actions(self, play: SultanPlay) -> list[str]:
        return ["free_spin"] if play.round.phase is sultan.Phase.FREE_SPINS else []

    def feature_triggered(self, play: SultanPlay) -> bool:
        round_ = play.round
        return (
            bool(round_.free_spins)
            or round_.phase is sultan.Phase.FREE_SPINS
            or any(g.jackpot_bets for s in round_.spins for g in s.gems)
        )

    def kept_state(self, play: SultanPlay) -> tuple[str, dict[str, Any]] | None:
        kept = play.round.kept_state
        return None if kept is None else (bet_key(play.bet.level), kept.to_json())

    def view(self, market: Market, play: SultanPlay) -> dict[str, Any]:
        round_ = play.round
        data = round_.to_json()
        data["draws"] = public_draws(data["draws"])  # type: ignore[arg-type]
        bet_minor = self.bet_minor(market, play.bet)
        data["bet"] = str(play.bet.amount)
        data["bet_minor"] = bet_minor
        win_minor = (
            self._coins_minor(market, play, round_.line_coins + round_.jackpot_coins)
            if round_.phase is not sultan.Phase.VOIDED
            else 0
        )
        data["win_minor"] = win_minor
        paid = self._minor(market, play.bet, round_.paid_stake)
        refund = self._minor(market, play.bet, Fraction(round_.refund_stake))
        data["paid_amount"] = str(market.currency.to_decimal(paid))
        data["refund_amount"] = str(market.currency.to_decimal(refund))
        data["pots_minor"] = [p * bet_minor for p in round_.state.pots]
        data["caps_minor"] = [j.cap * bet_minor for j in self.sultan.jackpots]
        data["actions_allowed"] = self.actions(play)
        data["multiplier"] = self.sultan.multipliers[round_.level - 1] if round_.level else 1
        return data


#: The titles with an adapter of their own, by id; every other title is a catalogue title,
#: played by CatalogueTitle from its model (see reelsmith.server.registry).
OWN_TITLES: dict[str, type[Title]] = {SultanSpins.game_id: SultanSpins}
