"""Money at the edge: integer minor units plus an ISO 4217 currency.

The engine counts coins and bets; the server converts to minor units here, exactly, and
refuses any amount that does not fit the currency's minor unit. No float ever holds money.
Display formatting goes through Babel, for the player's locale; a currency made for a market
carries the market's sign (`Currency.of` with ``sign``), which every locale then writes in
place of its own: locales disagree on a currency's sign (the yen is "JP¥" in British English,
"¥" in English and German, "￥" in Japanese), and one screen must not show two signs for one
currency.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache

from babel.numbers import (
    format_currency,
    get_currency_precision,
    get_currency_symbol,
    list_currencies,
)


class MoneyError(ValueError):
    """An amount that is not a whole number of the currency's minor unit, or a bad currency."""


@dataclass(frozen=True, slots=True)
class Currency:
    code: str
    exponent: int
    #: The sign every amount is written with, in any locale (None: each locale's own sign).
    sign: str | None = None

    @classmethod
    def of(cls, code: str, sign: str | None = None) -> Currency:
        """The currency ``code``; with ``sign``, its amounts are written with that sign,
        whatever locale writes them."""
        code = code.upper()
        if len(code) != 3 or not code.isalpha():
            raise MoneyError(f"{code!r} is not an ISO 4217 currency code")
        if code not in list_currencies():
            raise MoneyError(f"unknown currency {code!r}")
        if sign is not None and (
            not sign.strip() or sign != sign.strip() or any(ch.isdigit() for ch in sign)
        ):
            raise MoneyError(f"{sign!r} is not a currency sign (no digits, no outer spaces)")
        return cls(code, int(get_currency_precision(code)), sign)

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
        """``minor`` minor units in currency units, written with the currency's decimals
        ("1.50", "0.00", "2000"): an integer's ``scaleb`` is exact below 10**28 and carries
        the exponent it is given."""
        return Decimal(minor).scaleb(-self.exponent)

    def format(self, minor: int, locale: str) -> str:
        """The amount as ``locale`` writes it (digits, separators, where the sign stands),
        with the currency's own sign when it has one."""
        return _format(minor, self.code, self.exponent, locale, self.sign)


def locale_sign(code: str, locale: str) -> str:
    """The sign ``locale`` writes amounts of ``code`` with (Babel's CLDR data)."""
    try:
        return str(get_currency_symbol(code, locale=locale))
    except (ValueError, LookupError) as exc:
        raise MoneyError(f"unknown locale {locale!r}: {exc}") from None


def _babel(minor: int, code: str, exponent: int, locale: str) -> str:
    amount = Decimal(minor).scaleb(-exponent).quantize(Decimal(1).scaleb(-exponent))
    return format_currency(amount, code, locale=locale)


def _digits(minor: int, exponent: int, group: str, decimal: str) -> str:
    """``abs(minor)`` as a plain number: thousands grouped by threes, ``exponent`` decimals."""
    whole, fraction = divmod(abs(minor), 10**exponent)
    text = f"{whole:,}".replace(",", group)
    return f"{text}{decimal}{fraction:0{exponent}d}" if exponent else text


@lru_cache(maxsize=256)
def _template(code: str, exponent: int, locale: str) -> tuple[str, str, str, str] | None:
    """How a locale writes amounts of a currency, read from Babel once: (positive template,
    negative template, group symbol, decimal symbol), each template holding ``{}`` where the
    digits go. None when the locale's pattern is not plain grouping by threes (then Babel
    formats every amount)."""
    probes = (1_234_567_891, 5, 1_000, 98_765_432_100)
    first = _babel(probes[0], code, exponent, locale)
    digits = [i for i, ch in enumerate(first) if ch.isdigit()]
    number = first[digits[0] : digits[-1] + 1]
    decimal = ""
    if exponent:
        decimal = number[-exponent - 1]
        number_whole = number[: -exponent - 1]
    else:
        number_whole = number
    separators = {ch for ch in number_whole if not ch.isdigit()}
    if len(separators) > 1:
        return None
    group = separators.pop() if separators else ""
    positive = first.replace(number, "{}", 1)
    negative_text = _babel(-probes[0], code, exponent, locale)
    if number not in negative_text:
        return None
    negative = negative_text.replace(number, "{}", 1)
    found = (positive, negative, group, decimal)
    # every length of amount up to 10^15 minor units, both signs
    checks = [int(str(d) * k) for k in range(1, 16) for d in (4, 9)] + [*probes, 10**15]
    for minor in (*checks, *(-m for m in checks)):
        if _render(found, minor, exponent) != _babel(minor, code, exponent, locale):
            return None
    return found


def _render(template: tuple[str, str, str, str], minor: int, exponent: int) -> str:
    positive, negative, group, decimal = template
    return (negative if minor < 0 else positive).format(_digits(minor, exponent, group, decimal))


def _signed_as(text: str, code: str, locale: str, sign: str | None) -> str:
    """``text`` (written by ``locale``) with the locale's sign for ``code`` replaced by
    ``sign``; unchanged when there is no sign to put or the locale writes none."""
    if sign is None:
        return text
    own = get_currency_symbol(code, locale=locale)
    return text.replace(own, sign, 1) if own and own != sign else text


@lru_cache(maxsize=256)
def _signed_template(
    code: str, exponent: int, locale: str, sign: str | None
) -> tuple[str, str, str, str] | None:
    template = _template(code, exponent, locale)
    if template is None:
        return None
    positive, negative, group, decimal = template
    return (
        _signed_as(positive, code, locale, sign),
        _signed_as(negative, code, locale, sign),
        group,
        decimal,
    )


def _format(minor: int, code: str, exponent: int, locale: str, sign: str | None = None) -> str:
    """The amount as the locale writes it (Babel's CLDR data), with ``sign`` in place of the
    locale's own sign when given. Babel's own formatting costs a quarter of a millisecond per
    amount, and a spin's response holds several: the locale's pattern is read once and
    applied here, checked against Babel on probe amounts first."""
    template = _signed_template(code, exponent, locale, sign)
    if template is None:
        return _signed_as(_babel(minor, code, exponent, locale), code, locale, sign)
    return _render(template, minor, exponent)
