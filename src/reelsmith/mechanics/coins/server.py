"""Coin bets in the server: the market's coin sizes and maximum stake, the bet a player sends
read and checked, its price, the round's record and the coin-bet round's money in its view.

The model's coin sizes and gamble limit are in credits; a market prices a credit in its
currency (``credit_value``: 1 unless it says otherwise, 100 in yen), so the market's coin sizes
are its money and the engine's are credits. A record keeps the engine's bet, so it reads the
same in every market. A coin-bet round is priced by its coin: its units are its coins.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from reelsmith.engine.bets import BetError, CoinBet, CoinBetOptions
from reelsmith.engine.model import GameModel
from reelsmith.engine.round import Round, Stake
from reelsmith.mechanics.coins.live import bet_options
from reelsmith.mechanics.gamble.live import OPTIONS, RoundOptions
from reelsmith.server.bet_bodies import CoinBetBody, read_bet
from reelsmith.server.markets import Market

#: How many bets a coin-bet title keeps read (:meth:`CoinBets.parse_bet`); all are dropped when
#: full, so a client sending ever new bets costs memory up to here only.
PARSED_BETS_KEPT = 1024


@dataclass(frozen=True)
class PricedCoinBet:
    """A coin bet as the server handles it: the engine's bet (its coin size in the model's
    credits) and the coin's value in the player's market (what the API takes and shows)."""

    coins: CoinBet
    coin_size: Decimal


class CoinBets:
    """The bets of a title bet in coins (see the module's account)."""

    body = CoinBetBody

    def __init__(self, model: GameModel) -> None:
        self.model = model
        self.game_id = model.id
        self.options: CoinBetOptions = bet_options(model)
        # the bets read so far: (market id, each field's name, type and value) -> (market, bet)
        self._parsed: dict[tuple[Any, ...], tuple[Market, PricedCoinBet]] = {}

    def _priced(
        self, market: Market, lines: int, coins_per_line: int, size: Decimal
    ) -> PricedCoinBet:
        credit = market.game(self.game_id).credit_value
        return PricedCoinBet(self.options.validate(lines, coins_per_line, size / credit), size)

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
        return self._priced(market, self.options.max_lines, 1, size)

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

    def rules_bets_minor(self, market: Market) -> tuple[int, ...]:
        """A coin-bet title's rules page lists the market's coin sizes, not bets."""
        return ()

    # -- a round ---------------------------------------------------------------------
    def engine_bet(self, bet: PricedCoinBet) -> tuple[CoinBet, Stake]:
        coins = bet.coins
        return coins, Stake(coins.lines, coins.coins_per_line)

    def start_parts(self, market: Market, gamble: bool) -> dict[str, Any]:
        """A coin-bet round starts with its options: the gamble's say (see
        :func:`reelsmith.mechanics.gamble.server.round_options`)."""
        from reelsmith.mechanics.gamble.server import round_options

        return {OPTIONS: round_options(self.model, market, gamble)}

    def market_bet_minor(self, market: Market, round_: Round) -> int:
        """The round's bet in minor units at ``market``'s price of a credit now."""
        bet: CoinBet = round_.bet
        credit = market.game(self.game_id).credit_value
        return bet.total_coins * market.currency.to_minor(bet.coin_size * credit)

    def units(self, round_: Round) -> int:
        """A coin bet is priced by its coin: its units are its coins."""
        bet: CoinBet = round_.bet
        return bet.total_coins

    def state_key(self, bet: PricedCoinBet) -> str | None:
        return None

    def record(self, round_: Round) -> dict[str, Any]:
        """The stored record: the engine's bet (its coin size in credits), the options, the
        variant, the actions and the draws."""
        bet: CoinBet = round_.bet
        options: RoundOptions = round_.part(OPTIONS)
        return {
            "bet": {
                "lines": bet.lines,
                "coins_per_line": bet.coins_per_line,
                "coin_size": str(bet.coin_size),
            },
            "options": options.to_json(),
            "variant": round_.variant,
            "actions": list(round_.actions),
            "draws": [[d.purpose, d.bound, d.value] for d in round_.draws],  # Draw.to_json
        }

    def restored(self, record: dict[str, Any]) -> dict[str, Any]:
        """What :func:`reelsmith.engine.round.replay_from` needs of a record, beside its
        variant, actions and draws."""
        bet = CoinBet.from_json(record["bet"])
        return {
            "bet": bet,
            "stake": Stake(bet.lines, bet.coins_per_line),
            "parts": {OPTIONS: RoundOptions.from_json(record["options"])},
        }

    def view(self, market_price: Any, round_: Round, data: dict[str, Any]) -> None:
        """The round's bet and win in money, in the view ``data`` (in place)."""
        bet: CoinBet = round_.bet
        size = market_price.unit_minor
        shown = market_price.currency.to_decimal(size)  # the coin in the wallet's money: "10"
        data["bet"] = {**data["bet"], "coin_size": str(shown)}
        data["bet_minor"] = bet.total_coins * size
        data["win_minor"] = round_.win_coins * size
        data["coin_size_minor"] = size
        # what a coin-bet round's view has always shown of a free spins or gamble the title
        # does not have (their faces, where the title has them, write their own)
        data["free_spins_multiplier"] = 1
        data["gamble_choices"] = []
        data["gamble_limit_minor"] = 0
