"""Coin bets: paylines enabled, coins per line and coin size, checked against a model's options.

The engine counts coins. Credits (coins x coin size) are exact decimals, never floats.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from reelsmith.engine.model import GameModel, ModelError

CENT = Decimal("0.01")


class BetError(ValueError):
    """A bet the title does not accept; the message names the setting at fault."""


def credits(coins: int, coin_size: Decimal) -> Decimal:
    """Coins converted to credits: ``coins x coin size``, exact, with two decimals."""
    return (Decimal(coins) * coin_size).quantize(CENT)


def parse_decimal(text: str | Decimal | int, what: str) -> Decimal:
    if isinstance(text, float):
        raise BetError(f"{what} must be given as a decimal string, not a float")
    try:
        value = Decimal(str(text).strip())
    except InvalidOperation:
        raise BetError(f"{what} {text!r} is not a number") from None
    if not value.is_finite():
        raise BetError(f"{what} {text!r} is not a number")
    return value


@dataclass(frozen=True, slots=True)
class CoinBet:
    lines: int
    coins_per_line: int
    coin_size: Decimal

    @property
    def total_coins(self) -> int:
        return self.lines * self.coins_per_line

    @property
    def total_credits(self) -> Decimal:
        return credits(self.total_coins, self.coin_size)

    def to_json(self) -> dict[str, object]:
        return {
            "lines": self.lines,
            "coins_per_line": self.coins_per_line,
            "coin_size": str(self.coin_size),
            "total_coins": self.total_coins,
            "total_credits": str(self.total_credits),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> CoinBet:
        return cls(int(data["lines"]), int(data["coins_per_line"]), Decimal(data["coin_size"]))


@dataclass(frozen=True)
class CoinBetOptions:
    """What a coin-bet title accepts, read from the ``[bet]`` table of its model."""

    min_lines: int
    max_lines: int
    min_coins_per_line: int
    max_coins_per_line: int
    coin_sizes: tuple[Decimal, ...]
    max_total_coins: int
    default: CoinBet

    @classmethod
    def from_model(cls, model: GameModel) -> CoinBetOptions:
        raw = model.bet
        where = f"{model.id} model: [bet]"
        try:
            sizes = tuple(Decimal(s) for s in raw["coin_sizes"])
            default = raw["default"]
            options = cls(
                min_lines=int(raw["lines"]["min"]),
                max_lines=int(raw["lines"]["max"]),
                min_coins_per_line=int(raw["coins_per_line"]["min"]),
                max_coins_per_line=int(raw["coins_per_line"]["max"]),
                coin_sizes=sizes,
                max_total_coins=int(raw["max_total_coins"]),
                default=CoinBet(
                    int(default["lines"]),
                    int(default["coins_per_line"]),
                    Decimal(default["coin_size"]),
                ),
            )
        except (KeyError, TypeError, ValueError, InvalidOperation) as exc:
            raise ModelError(f"{where} is incomplete or malformed: {exc!r}") from None
        if model.line_count and options.max_lines > model.line_count:
            raise ModelError(
                f"{where}: max lines {options.max_lines} > {model.line_count} paylines"
            )
        options.validate(
            options.default.lines, options.default.coins_per_line, options.default.coin_size
        )
        return options

    def validate(self, lines: int, coins_per_line: int, coin_size: str | Decimal) -> CoinBet:
        """The bet as a :class:`CoinBet`, or :class:`BetError` naming what is wrong."""
        if isinstance(lines, bool) or not isinstance(lines, int):
            raise BetError(f"lines must be a whole number, got {lines!r}")
        if isinstance(coins_per_line, bool) or not isinstance(coins_per_line, int):
            raise BetError(f"coins per line must be a whole number, got {coins_per_line!r}")
        if not self.min_lines <= lines <= self.max_lines:
            raise BetError(f"lines must be {self.min_lines} to {self.max_lines}, got {lines}")
        if not self.min_coins_per_line <= coins_per_line <= self.max_coins_per_line:
            raise BetError(
                f"coins per line must be {self.min_coins_per_line} to "
                f"{self.max_coins_per_line}, got {coins_per_line}"
            )
        size = parse_decimal(coin_size, "coin size")
        matches = [s for s in self.coin_sizes if s == size]
        if not matches:
            allowed = ", ".join(str(s) for s in self.coin_sizes)
            raise BetError(f"coin size {coin_size} is not offered; the coin sizes are {allowed}")
        total = lines * coins_per_line
        if total > self.max_total_coins:
            raise BetError(
                f"total bet {total} coins is above the maximum of {self.max_total_coins} coins"
            )
        return CoinBet(lines, coins_per_line, matches[0])
