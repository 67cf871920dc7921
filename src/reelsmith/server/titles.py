"""The title boundary: the one interface (:class:`Title`) through which the server, the contract
suite and the tools reach a title, and the pieces its adapters share.

A title turns the market's money into its engine's bets, starts and continues rounds, stores
and restores them, gives the player's view of a round, settles it in minor units, keeps the
player's carried state and renders its rules page for a market. Every title is a model file
played by the adapter its kind names (:mod:`reelsmith.engine.title`, the one table of kinds
every face dispatches through): the catalogue's free spins by
:class:`reelsmith.server.catalogue_title.CatalogueTitle`, the free-spins ladder with local
pots by :class:`reelsmith.server.ladder_title.LadderTitle`; the registry
(:mod:`reelsmith.server.registry`) finds every title and builds it with that adapter. The
protocol lives here rather than in the engine because every method takes a market, which
prices bets in money.

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

from reelsmith.engine.bets import BetError, CoinBet, CoinBetOptions
from reelsmith.engine.model import GameModel
from reelsmith.games import load_game
from reelsmith.help import Terms, language_of, page_locale
from reelsmith.money import Currency
from reelsmith.rng import RandomSource
from reelsmith.rules_page import rules_document
from reelsmith.server.bet_bodies import BetBody, CoinBetBody, read_bet
from reelsmith.server.markets import Market

HIDDEN_DRAWS = ("jackpot_trigger",)  # trigger points stay secret from players


@dataclass(frozen=True)
class Outcome:
    """What settling a finished round moves: wins and jackpot wins in minor units."""

    status: str  # open complete voided
    win_minor: int
    jackpot_minor: int
    refund_minor: int


@dataclass(frozen=True)
class Price:
    """What a round is paid at: the currency of the player's wallet and the minor units one
    unit of the round's bet is worth (a coin-bet title's coin, a bet-level title's stake
    unit); every amount the round settles is a count of those units times ``unit_minor``.

    A round's price is its bet as it was taken at the start (``rounds.bet_minor``, in the
    wallet's currency) over its bet in units (:meth:`Title.price`): the same figure at every
    step, whatever a market's pricing has become since ("Once a spin has been initiated, the
    bet size for that round is locked"), and whether or not the market still exists."""

    currency: Currency
    unit_minor: int

    def minor(self, units: int | Fraction) -> int:
        """``units`` of the round's bet in minor units; a fraction of a minor unit is an
        error (a market's pricing is refused at load when it could make one)."""
        minor = units * self.unit_minor
        if isinstance(minor, Fraction):
            if minor.denominator != 1:
                raise ArithmeticError(
                    f"{units} units at {self.unit_minor} minor units of {self.currency.code} is"
                    " not a whole number of minor units"
                )
            return int(minor)
        return minor


def public_draws(draws: list[list[Any]]) -> list[list[Any]]:
    """``draws`` (``[purpose, bound, value]`` lists of the caller's own, made for this view)
    with the value of each draw players must not see blanked, in place."""
    for draw in draws:
        if str(draw[0]).startswith(HIDDEN_DRAWS):
            draw[2] = None
    return draws


class Title(ABC):
    """A title as the server plays it. Rounds, bets and carried states are the title's own
    values (``Any`` here): only the title reads them; the server stores what :meth:`record`,
    :meth:`bet_json`, :meth:`view` and :meth:`kept_state` make of them."""

    game_id: str
    #: The bet a player sends for this title (documented in the OpenAPI spec).
    bet_body: ClassVar[type[BetBody]]
    #: The web client's script for the title: the name of its kind ("catalogue", "ladder"; see
    #: :mod:`reelsmith.engine.title`). One script draws every title of a kind, from the rules
    #: page and :meth:`client_info`; the title's art is chosen by its id.
    client: str

    def __init__(self, model: GameModel | None = None) -> None:
        self.model: GameModel = model if model is not None else load_game(self.game_id)

    @property
    def name(self) -> str:
        return self.model.name

    def game_info(self, market: Market) -> dict[str, Any]:
        """The title as ``GET /api/games`` lists it for ``market`` (``schemas.GameInfo``): its
        id, name, the variant the market plays, its kind's client script and what that script
        needs beyond the rules page."""
        return {
            "id": self.game_id,
            "name": self.name,
            "variant": market.game(self.game_id).variant,
            "client": self.client,
            **self.client_info(),
        }

    def client_info(self) -> dict[str, Any]:
        """What the kind's client script needs to draw the title that its rules page does not
        say (none: the rules page says it all)."""
        return {}

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
    def bet_units(self, round_: Any) -> int:
        """The round's bet in the units it is priced in (see :class:`Price`)."""

    def price(self, currency: Currency, bet_minor: int, round_: Any) -> Price:
        """The price of a round whose bet was ``bet_minor`` minor units of ``currency`` when it
        started: ValueError when that bet is not a whole number of minor units per unit (a
        stored round whose bet and record disagree)."""
        units = self.bet_units(round_)
        unit_minor, rest = divmod(bet_minor, units) if units > 0 else (0, 1)
        if rest or unit_minor <= 0:
            raise ValueError(
                f"a bet of {bet_minor} minor units is not a whole, positive number of minor"
                f" units per unit of a bet of {units} units"
            )
        return Price(currency, unit_minor)

    @abstractmethod
    def market_price(self, market: Market, round_: Any) -> Price:
        """The price ``market`` puts on the round's bet now: what a spin in that market starts
        such a round at (a round already started keeps its own, :meth:`price`)."""

    @abstractmethod
    def outcome(self, price: Price, round_: Any) -> Outcome:
        """What the round settles, at its price."""

    @abstractmethod
    def view(self, price: Price, round_: Any) -> dict[str, Any]:
        """The round as the client renders it, its amounts at its price."""

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


#: How many bets a coin-bet title keeps read (`CoinBetTitle.parse_bet`); all are dropped when
#: full, so a client sending ever new bets costs memory up to here only.
PARSED_BETS_KEPT = 1024


class CoinBetTitle(Title):
    """A title bet in paylines, coins per payline and a coin size from the market's list.

    The model's coin sizes and gamble limit are in credits; a market prices a credit in its
    currency (``credit_value``: 1 unless it says otherwise, 100 in yen), so the market's coin
    sizes are its money and the engine's are credits. Records keep the engine's bet, so a
    record reads the same in every market."""

    bet_body = CoinBetBody

    def __init__(self, model: GameModel | None = None) -> None:
        super().__init__(model)
        # the bets read so far: (market id, each field's name, type and value) -> (market, bet)
        self._parsed: dict[tuple[Any, ...], tuple[Market, PricedCoinBet]] = {}

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
        # Players send the same few bets again and again: a bet read once for a market is
        # kept, keyed by its fields with their exact types (``1`` and ``True`` are not the
        # same bet), and only a bet read without error is kept.
        try:
            key = (id(market), *((name, type(value), value) for name, value in raw.items()))
            found = self._parsed.get(key)
        except (TypeError, AttributeError):  # a field's value unhashable, or no object at all
            return self._parse_bet(market, raw)
        if found is not None and found[0] is market:
            return found[1]
        bet = self._parse_bet(market, raw)
        if len(self._parsed) >= PARSED_BETS_KEPT:
            self._parsed.clear()
        self._parsed[key] = (market, bet)
        return bet

    def _parse_bet(self, market: Market, raw: dict[str, Any]) -> PricedCoinBet:
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
