"""Bet levels in the server: the market prices the stake unit and offers some of the model's
levels (up to its maximum stake); the bet a player sends is an amount, read as the level it
is at the market's price; a round's record, its carried state's key and its money.

A record written before bet levels names its bet by the amount alone: the model's ``[bet]
legacy_stake_unit`` is the price those amounts were written at, and such a record's level is
the amount at that price (:meth:`LevelBets.legacy_level`). Records keep that form when they are
written again, so they read as they were stored. A bet-level round is priced by its stake
unit: its units are its level.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from reelsmith.engine.bet_ladder import BetLevels, lower_bet
from reelsmith.engine.bets import BetError
from reelsmith.engine.errors import RuleError
from reelsmith.engine.features.ladder_tables import legacy_unit
from reelsmith.engine.ladder_state import BetState, bet_key
from reelsmith.engine.model import GameModel
from reelsmith.engine.round import Round, Stake, coins_in_units
from reelsmith.mechanics.levels.live import bet_levels, spread
from reelsmith.mechanics.pots.live import CARRIED_BEFORE
from reelsmith.money import MoneyError
from reelsmith.server.bet_bodies import LadderBetBody, read_bet
from reelsmith.server.markets import Market


@dataclass(frozen=True)
class LevelBet:
    """A bet as the server handles it: the engine's bet level, and the amount it was priced
    at in the player's market (what the API shows and the record keeps)."""

    level: int
    amount: Decimal


class LevelBets:
    """The bets of a title bet in levels (see the module's account)."""

    body = LadderBetBody

    def __init__(self, model: GameModel) -> None:
        self.model = model
        self.game_id = model.id
        self.levels: BetLevels = bet_levels(model)
        self.legacy_unit = legacy_unit(model.bet)

    def legacy_level(self, amount: Decimal) -> int | None:
        """The bet level a bet of ``amount`` was before bet levels, at the model's
        ``legacy_stake_unit`` (None: no whole level, or the model names no such price)."""
        if self.legacy_unit is None:
            return None
        level = amount / self.legacy_unit
        return int(level) if level == level.to_integral_value() and level > 0 else None

    def _unit_minor(self, market: Market) -> int:
        unit = market.game(self.game_id).stake_unit
        if unit is None:
            raise BetError(f"market {market.id} does not price {self.game_id}'s bet levels")
        return market.currency.to_minor(unit)

    def unit_minor(self, market: Market) -> int:
        return self._unit_minor(market)

    def _priced(self, market: Market, level: int) -> LevelBet:
        minor = level * self._unit_minor(market)
        return LevelBet(level, market.currency.to_decimal(minor))

    def allowed(self, market: Market) -> tuple[int, ...]:
        """The levels the market offers at or below its maximum stake."""
        unit = self._unit_minor(market)
        top = market.currency.to_minor(market.max_stake)
        return tuple(n for n in market.game(self.game_id).levels if n * unit <= top)

    def parse_bet(self, market: Market, raw: dict[str, Any]) -> LevelBet:
        body = read_bet(LadderBetBody, raw)
        unit = self._unit_minor(market)
        allowed = self.allowed(market)
        try:
            minor = market.currency.to_minor(body.bet)
        except MoneyError:
            minor = -1  # not an amount of this currency: refused below, naming the bets
        if minor > 0 and minor % unit == 0 and minor // unit in allowed:
            return self._priced(market, minor // unit)
        listed = ", ".join(str(self._priced(market, n).amount) for n in allowed)
        raise BetError(f"bet {body.bet} is not offered; the bets are {listed}")

    def bet_minor(self, market: Market, bet: LevelBet) -> int:
        return market.currency.to_minor(bet.amount)

    def sample_bet(self, market: Market) -> LevelBet:
        return self._priced(market, min(self.allowed(market)))

    def bet_json(self, bet: LevelBet) -> dict[str, Any]:
        return {"bet": str(bet.amount)}

    def lower(self, market: Market, balance_minor: int, bet: LevelBet) -> LevelBet | None:
        unit = self._unit_minor(market)
        prices = [n * unit for n in self.allowed(market)]
        lowered = lower_bet(prices, balance_minor, self.bet_minor(market, bet))
        if lowered is None:
            return None
        return (
            bet if lowered == self.bet_minor(market, bet) else self._priced(market, lowered // unit)
        )

    def rules_bets_minor(self, market: Market) -> tuple[int, ...]:
        return tuple(n * self._unit_minor(market) for n in self.allowed(market))

    # -- a round ---------------------------------------------------------------------
    def engine_bet(self, bet: LevelBet) -> tuple[LevelBet, Stake]:
        """The round's bet (its level checked against the model's) and its stake: one coin on
        every payline."""
        self.levels.validate(bet.level)
        return bet, Stake(spread(self.model), 1)

    def start_parts(self, market: Market, gamble: bool) -> dict[str, Any]:
        """A bet-level round starts from its carried state alone (the title adds it)."""
        return {}

    def market_bet_minor(self, market: Market, round_: Round) -> int:
        """The round's bet in minor units at ``market``'s price of a stake unit now."""
        bet: LevelBet = round_.bet
        return bet.level * self._unit_minor(market)

    def units(self, round_: Round) -> int:
        """A bet-level round is priced by its stake unit: its units are its level."""
        bet: LevelBet = round_.bet
        return bet.level

    def state_key(self, bet: LevelBet) -> str:
        return bet_key(bet.level)

    def record(self, round_: Round) -> dict[str, Any]:
        """The stored record. ``rules_version`` is left out for version 1, and ``bet_level``
        when the bet's amount is that level at the price records were written at before bet
        levels (:meth:`legacy_level`): such records read as they were stored."""
        before: BetState | None = round_.part(CARRIED_BEFORE)
        bet: LevelBet = round_.bet
        out: dict[str, Any] = {
            "bet": {"bet": str(bet.amount)},
            "state_before": None if before is None else before.to_json(),
            "variant": round_.variant,
            "actions": list(round_.actions),
            "draws": [d.to_json() for d in round_.draws],
        }
        if self.legacy_level(bet.amount) != bet.level:
            out["bet_level"] = bet.level
        if round_.rules_version != 1:
            out["rules_version"] = round_.rules_version
        return out

    def restored(self, record: dict[str, Any]) -> dict[str, Any]:
        before = record["state_before"]
        try:
            amount = Decimal(str(record["bet"]["bet"]))
        except ArithmeticError:
            raise RuleError(f"the record's bet {record['bet']!r} is not an amount") from None
        level = record.get("bet_level", self.legacy_level(amount))
        if isinstance(level, bool) or not isinstance(level, int):
            raise RuleError(f"the record's bet {amount} names no bet level ({level!r})")
        return {
            "bet": LevelBet(level, amount),
            "stake": Stake(spread(self.model), 1),
            "parts": {CARRIED_BEFORE: None if before is None else BetState.from_json(before)},
            "rules_version": record.get("rules_version", 1),
        }

    def view(self, price: Any, round_: Round, data: dict[str, Any]) -> None:
        """The round's bet, win, payment and refund in money, in the view ``data``."""
        bet: LevelBet = round_.bet
        level = bet.level
        data["bet"] = str(bet.amount)
        data["bet_minor"] = price.minor(level)
        win_coins = data["win_coins"]
        data["win_minor"] = price.minor(coins_in_units(round_, win_coins, level))
        paid = price.minor(coins_in_units(round_, round_.paid_coins, level))
        refund = price.minor(coins_in_units(round_, round_.refund_coins, level))
        data["paid_amount"] = str(price.currency.to_decimal(paid))
        data["refund_amount"] = str(price.currency.to_decimal(refund))
