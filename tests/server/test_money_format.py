"""Amounts shown to players: the server's fast formatting is Babel's, to the character."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest

from reelsmith.money import Currency, MoneyError, _babel, _template

LOCALES = ["en_GB", "en_US", "de_DE", "de_CH", "fr_FR", "sv_SE", "pt_BR", "ja_JP", "ar_EG", "en_IN"]
CURRENCIES = ["EUR", "GBP", "JPY", "KWD", "INR", "CHF"]


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("code", CURRENCIES)
def test_formatting_matches_babel(locale, code):
    currency = Currency.of(code)
    draw = random.Random(f"{locale}{code}")
    amounts = [0, 1, -1, 99, 100, 10**15, -(10**15)]
    amounts += [draw.randint(-(10**15), 10**15) for _ in range(300)]
    amounts += [draw.randint(-(10**6), 10**6) for _ in range(300)]
    for minor in amounts:
        assert currency.format(minor, locale) == _babel(minor, code, currency.exponent, locale)


def test_locales_that_do_not_group_by_threes_fall_back_to_babel():
    # Indian English groups lakhs and crores (12,34,56,789): no template, Babel formats
    assert _template("INR", 2, "en_IN") is None
    assert Currency.of("INR").format(123_456_789_00, "en_IN") == "₹12,34,56,789.00"


def test_unknown_currency_is_refused():
    with pytest.raises(MoneyError, match="unknown currency"):
        Currency.of("XYZ")


@pytest.mark.parametrize("code", CURRENCIES)
def test_an_amount_in_currency_units_has_the_currencys_decimals(code):
    """``to_decimal`` writes every amount with exactly the currency's decimals, as quantizing
    to its minor unit would, and is exact, so ``to_minor`` takes it back."""
    currency = Currency.of(code)
    unit = Decimal(1).scaleb(-currency.exponent)
    draw = random.Random(code)
    amounts = [0, 1, -1, 5, 99, 100, -150, 10**15, -(10**15), 2**53]
    amounts += [draw.randint(-(2**53), 2**53) for _ in range(2000)]
    for minor in amounts:
        amount = currency.to_decimal(minor)
        assert (
            amount.as_tuple() == Decimal(minor).scaleb(-currency.exponent).quantize(unit).as_tuple()
        )
        assert currency.to_minor(amount) == minor
        assert currency.to_minor(str(amount)) == minor
    assert str(Currency.of("EUR").to_decimal(0)) == "0.00"
    assert str(Currency.of("JPY").to_decimal(2000)) == "2000"
    assert str(Currency.of("KWD").to_decimal(-1)) == "-0.001"
