"""Money at the edge: integer minor units plus an ISO 4217 currency.

The engine counts coins and bets; the server converts to minor units here, exactly, and
refuses any amount that does not fit the currency's minor unit. No float ever holds money.
Display formatting goes through Babel, for the player's locale.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache

from babel.numbers import format_currency, get_currency_precision, list_currencies


class MoneyError(ValueError):
    """An amount that is not a whole number of the currency's minor unit, or a bad currency."""


@dataclass(frozen=True, slots=True)
class Currency:
    code: str
    exponent: int

    @classmethod
    def of(cls, code: str) -> Currency:
        code = code.upper()
        if len(code) != 3 or not code.isalpha():
            raise MoneyError(f"{code!r} is not an ISO 4217 currency code")
        if code not in list_currencies():
            raise MoneyError(f"unknown currency {code!r}")
        return cls(code, int(get_currency_precision(code)))

    @property
    def unit(self) -> Decimal:
        return Decimal(1).scaleb(-self.exponent)

    def to_minor(self, amount: Decimal | str | int) -> int:
        """An exact amount in currency units as minor units; refuses fractions of a minor unit."""
        try:
            value = amount if isinstance(amount, Decimal) else Decimal(str(amount).strip())
        except ArithmeticError:
            raise MoneyError(f"{amount!r} is not an amount") from None
        if not value.is_finite():
            raise MoneyError(f"{amount!r} is not an amount")
        minor = value.scaleb(self.exponent)
        if minor != minor.to_integral_value():
            raise MoneyError(
                f"{amount} {self.code} is not a whole number of minor units "
                f"({self.exponent} decimals)"
            )
        return int(minor)

    def to_decimal(self, minor: int) -> Decimal:
        return Decimal(minor).scaleb(-self.exponent).quantize(self.unit)

    def format(self, minor: int, locale: str) -> str:
        return _format(minor, self.code, self.exponent, locale)


@lru_cache(maxsize=65_536)
def _format(minor: int, code: str, exponent: int, locale: str) -> str:
    """Babel's formatting is slow and amounts repeat (bets, wins): remember recent ones."""
    amount = Decimal(minor).scaleb(-exponent).quantize(Decimal(1).scaleb(-exponent))
    return format_currency(amount, code, locale=locale)
