"""Any ladder title, served from its model alone.

:class:`LadderTitle` drives :mod:`reelsmith.engine.ladder` for a model that declares the
free-spins ladder with local pots (the ladder kind of :mod:`reelsmith.engine.title`). The engine
counts bets in bet levels (stake units) and settles in stake units; this adapter prices them
with the market's stake unit and converts every amount once, to the currency's minor units,
exactly (the market loader refuses a pricing that cannot be exact). The player's carried state
(pots, trigger points, meter) is keyed by bet level.

A record written before bet levels names its bet by the amount alone: the model's ``[bet]
legacy_stake_unit`` is the price those amounts were written at, and such a record's level is
the amount at that price (:meth:`LadderTitle.legacy_level`). Records keep that form when
they are written again, so they read as they were stored.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from reelsmith.engine import ladder
from reelsmith.engine.bet_ladder import lower_bet
from reelsmith.engine.bets import BetError
from reelsmith.engine.errors import RuleError
from reelsmith.engine.features.ladder_tables import legacy_unit
from reelsmith.engine.ladder_state import BetState, bet_key
from reelsmith.engine.model import GameModel, ModelError
from reelsmith.money import MoneyError
from reelsmith.rng import Draw, RandomSource
from reelsmith.server.bet_bodies import LadderBetBody, read_bet
from reelsmith.server.markets import Market
from reelsmith.server.titles import Outcome, Price, Title, public_draws


@dataclass(frozen=True)
class LadderBet:
    """A ladder title's bet as the server handles it: the engine's bet level, and the amount it
    was priced at in the player's market (what the API shows and the record keeps)."""

    level: int
    amount: Decimal


@dataclass(frozen=True)
class LadderPlay:
    """A round as the server holds it: the engine's round and the bet it was priced at."""

    round: ladder.LadderRound
    bet: LadderBet


class LadderTitle(Title):
    """A ladder model as a served title (one instance per model); see the module's account."""

    bet_body = LadderBetBody
    client = "ladder"

    def __init__(self, model: GameModel) -> None:
        self.ladder = ladder.ladder_rules(model)  # a model the ladder cannot play is refused
        super().__init__(model)
        if not model.variants:
            raise ModelError(f"{model.source or model.id}: a served title needs a variant")
        self.game_id = model.id
        self.legacy_unit = legacy_unit(model.bet)

    def client_info(self) -> dict[str, Any]:
        """The ladder's symbols and meter, which the ladder script draws (the pots and levels
        are on the rules page)."""
        rules = self.ladder
        return {
            "ladder": {
                "bonus_symbol": self.model.symbol_id(rules.bonus),
                "gem_symbol": self.model.symbol_id(rules.gem),
                "spots": rules.spots,
                "meter_feed": rules.main_game_bonus_per_spot,
            }
        }

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

    def _priced(self, market: Market, level: int) -> LadderBet:
        minor = level * self._unit_minor(market)
        return LadderBet(level, market.currency.to_decimal(minor))

    def _allowed(self, market: Market) -> tuple[int, ...]:
        """The levels the market offers at or below its maximum stake."""
        unit = self._unit_minor(market)
        top = market.currency.to_minor(market.max_stake)
        return tuple(n for n in market.game(self.game_id).levels if n * unit <= top)

    def parse_bet(self, market: Market, raw: dict[str, Any]) -> LadderBet:
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

    def bet_minor(self, market: Market, bet: LadderBet) -> int:
        return market.currency.to_minor(bet.amount)

    def sample_bet(self, market: Market) -> LadderBet:
        return self._priced(market, min(self._allowed(market)))

    def bet_json(self, bet: LadderBet) -> dict[str, Any]:
        return {"bet": str(bet.amount)}

    def lower(self, market: Market, balance_minor: int, bet: LadderBet) -> LadderBet | None:
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

    def state_key(self, bet: LadderBet) -> str:
        return bet_key(bet.level)

    def load_state(self, data: dict[str, Any] | None) -> BetState | None:
        return None if data is None else BetState.from_json(data)

    def carried_view(
        self, market: Market, bet: LadderBet, state: BetState | None
    ) -> dict[str, Any] | None:
        """Pots and meter for a bet level (trigger points stay hidden)."""
        bet_minor = self.bet_minor(market, bet)
        pots = list(state.pots) if state is not None else [j.seed for j in self.ladder.jackpots]
        return {
            "bet": self.bet_json(bet),
            "pots_minor": [p * bet_minor for p in pots],
            "pots": [market.money(p * bet_minor) for p in pots],
            "caps_minor": [j.cap * bet_minor for j in self.ladder.jackpots],
            "meter": 0 if state is None else state.meter,
            "spots": self.ladder.spots,
        }

    def start(
        self,
        market: Market,
        bet: LadderBet,
        state: BetState | None,
        rng: RandomSource,
        gamble: bool = True,
    ) -> LadderPlay:
        variant = market.game(self.game_id).variant
        round_ = ladder.start_round(
            self.model,
            bet.level,
            state,
            rng,
            variant=variant,
            allowed_levels=self._allowed(market),
        )
        return LadderPlay(round_, bet)

    def act(self, play: LadderPlay, action: str, rng: RandomSource) -> LadderPlay:
        if action != "free_spin":
            raise RuleError(
                f"{action!r} is not an action of {self.model.name}; the action is free_spin"
            )
        return LadderPlay(ladder.play_free_spin(self.model, play.round, rng), play.bet)

    def finish(self, play: LadderPlay, rng: RandomSource) -> LadderPlay:
        return LadderPlay(ladder.finish(self.model, play.round, rng), play.bet)

    def record(self, play: LadderPlay) -> dict[str, Any]:
        """The stored record. ``rules_version`` is left out for version 1, and ``bet_level``
        when the bet's amount is that level at the price records were written at before bet
        levels (:meth:`legacy_level`): such records read as they were stored."""
        round_ = play.round
        out: dict[str, Any] = {
            "bet": self.bet_json(play.bet),
            "state_before": None if round_.state_before is None else round_.state_before.to_json(),
            "variant": round_.variant,
            "actions": list(round_.actions),
            "draws": [d.to_json() for d in round_.draws],
        }
        if self.legacy_level(play.bet.amount) != play.bet.level:
            out["bet_level"] = play.bet.level
        if round_.rules_version != 1:
            out["rules_version"] = round_.rules_version
        return out

    def restore(self, record: dict[str, Any]) -> LadderPlay:
        before = record["state_before"]
        try:
            amount = Decimal(str(record["bet"]["bet"]))
        except ArithmeticError:
            raise RuleError(f"the record's bet {record['bet']!r} is not an amount") from None
        level = record.get("bet_level", self.legacy_level(amount))
        if isinstance(level, bool) or not isinstance(level, int):
            raise RuleError(f"the record's bet {amount} names no bet level ({level!r})")
        round_ = ladder.replay_from(
            self.model,
            level,
            None if before is None else BetState.from_json(before),
            record["variant"],
            record["actions"],
            [Draw.from_json(d) for d in record["draws"]],
            rules_version=record.get("rules_version", 1),
        )
        return LadderPlay(round_, LadderBet(level, amount))

    def bet_units(self, play: LadderPlay) -> int:
        """A bet-level title is priced by its stake unit: its units are its bet level."""
        return play.bet.level

    def market_price(self, market: Market, play: LadderPlay) -> Price:
        return Price(market.currency, self._unit_minor(market))

    def _coins_minor(self, price: Price, play: LadderPlay, coins: int) -> int:
        return price.minor(self.ladder.stake_units(coins, play.bet.level))

    def outcome(self, price: Price, play: LadderPlay) -> Outcome:
        round_ = play.round
        status = {ladder.Phase.COMPLETE: "complete", ladder.Phase.VOIDED: "voided"}.get(
            round_.phase, "open"
        )
        if status != "complete":
            return Outcome(status, 0, 0, price.minor(round_.refund_stake))
        jackpot = self._coins_minor(price, play, round_.jackpot_coins)
        return Outcome(status, self._coins_minor(price, play, round_.line_coins), jackpot, 0)

    def actions(self, play: LadderPlay) -> list[str]:
        return ["free_spin"] if play.round.phase is ladder.Phase.FREE_SPINS else []

    def feature_triggered(self, play: LadderPlay) -> bool:
        round_ = play.round
        return (
            bool(round_.free_spins)
            or round_.phase is ladder.Phase.FREE_SPINS
            or any(g.jackpot_bets for s in round_.spins for g in s.gems)
        )

    def kept_state(self, play: LadderPlay) -> tuple[str, dict[str, Any]] | None:
        kept = play.round.kept_state
        return None if kept is None else (bet_key(play.bet.level), kept.to_json())

    def view(self, price: Price, play: LadderPlay) -> dict[str, Any]:
        round_ = play.round
        data = round_.to_json()
        data["draws"] = public_draws(data["draws"])  # type: ignore[arg-type]
        bet_minor = price.minor(play.bet.level)
        data["bet"] = str(play.bet.amount)
        data["bet_minor"] = bet_minor
        win_minor = (
            self._coins_minor(price, play, round_.line_coins + round_.jackpot_coins)
            if round_.phase is not ladder.Phase.VOIDED
            else 0
        )
        data["win_minor"] = win_minor
        paid = price.minor(round_.paid_stake)
        refund = price.minor(round_.refund_stake)
        data["paid_amount"] = str(price.currency.to_decimal(paid))
        data["refund_amount"] = str(price.currency.to_decimal(refund))
        data["pots_minor"] = [p * bet_minor for p in round_.state.pots]
        data["caps_minor"] = [j.cap * bet_minor for j in self.ladder.jackpots]
        data["actions_allowed"] = self.actions(play)
        data["multiplier"] = self.ladder.multipliers[round_.level - 1] if round_.level else 1
        return data
