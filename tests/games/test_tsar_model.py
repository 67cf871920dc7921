"""The Days of the Tsar model: paytable copied from the seed, paylines, bets, strips."""

from __future__ import annotations

from decimal import Decimal

import numpy as np
import pytest

from reelsmith.engine.bets import BetError, credits
from tests.catalogue_rounds import bet_options

# The Regular Payout Schedule of the seed, transcribed independently of model.toml.
SEED_PAYTABLE = {
    "tsar": (10, 200, 1000, 10000),
    "tsarina": (4, 50, 300, 2000),
    "cathedral": (3, 25, 250, 1000),
    "royal_seal": (0, 20, 100, 500),
    "statue": (0, 20, 100, 500),
    "ace": (0, 15, 50, 200),
    "king": (0, 15, 50, 200),
    "queen": (0, 10, 25, 150),
    "jack": (0, 10, 25, 150),
    "ten": (0, 5, 20, 100),
    "nine": (0, 5, 20, 100),
}


def test_symbols_in_the_documented_order(tsar_model):
    assert list(tsar_model.symbol_ids) == (
        [
            "tsar",
            "tsarina",
            "cathedral",
            "royal_seal",
            "statue",
            "ace",
            "king",
            "queen",
            "jack",
            "ten",
            "nine",
            "egg",
        ]
    )
    assert tsar_model.symbols[tsar_model.wild].id == "tsar"
    assert tsar_model.symbols[tsar_model.scatter].id == "egg"


def test_paytable_is_the_seed_paytable(tsar_model):
    """Seed: Regular Payout Schedule (2/3/4/5 symbols)."""
    for symbol, pays in SEED_PAYTABLE.items():
        row = tsar_model.line_pays[tsar_model.symbol_index(symbol)]
        assert tuple(int(x) for x in row[2:]) == pays, symbol
        assert row[0] == 0 and row[1] == 0
    assert not tsar_model.line_pays[tsar_model.scatter].any()


def test_scatter_table_is_the_seed_table(tsar_model):
    """Seed: '5 -> 100, 4 -> 20, 3 -> 5, 2 -> 2' times total coins bet."""
    assert [int(x) for x in tsar_model.scatter_pays] == [0, 0, 2, 5, 20, 100]


def test_five_reels_three_rows_twenty_five_distinct_paylines(tsar_model):
    """Seed: 'a five reel, twenty-five payline ... slot machine.'"""
    assert (tsar_model.reels, tsar_model.rows) == (5, 3)
    lines = [tuple(line) for line in tsar_model.paylines.tolist()]
    assert len(lines) == 25 and len(set(lines)) == 25
    assert all(0 <= row <= 2 for line in lines for row in line)


def test_first_five_payline_shapes(tsar_model):
    lines = tsar_model.paylines.tolist()
    assert lines[0] == [1, 1, 1, 1, 1]  # middle row
    assert lines[1] == [0, 0, 0, 0, 0]  # top row
    assert lines[2] == [2, 2, 2, 2, 2]  # bottom row
    assert lines[3] == [0, 1, 2, 1, 0]  # V
    assert lines[4] == [2, 1, 0, 1, 2]  # inverted V


def test_lines_six_to_twenty_five_come_in_mirrored_pairs(tsar_model):
    lines = tsar_model.paylines.tolist()
    for first in range(5, 25, 2):
        assert lines[first + 1] == [2 - r for r in lines[first]]


def test_bet_options(tsar_model):
    """Issue: the first 1-25 paylines, 1-20 coins per line, coin sizes 0.01-0.25, 500 coins max."""
    bets = bet_options(tsar_model)
    assert (bets.min_lines, bets.max_lines) == (1, 25)
    assert (bets.min_coins_per_line, bets.max_coins_per_line) == (1, 20)
    assert [str(s) for s in bets.coin_sizes] == ["0.01", "0.02", "0.05", "0.10", "0.20", "0.25"]
    assert bets.max_total_coins == 500
    top = bets.validate(25, 20, "0.25")
    assert top.total_coins == 500 and top.total_credits == Decimal("125.00")


@pytest.mark.parametrize(
    ("lines", "cpl", "size", "message"),
    [
        (0, 1, "0.01", "lines must be 1 to 25"),
        (26, 1, "0.01", "lines must be 1 to 25"),
        (25, 0, "0.01", "coins per line must be 1 to 20"),
        (25, 21, "0.01", "coins per line must be 1 to 20"),
        (25, 1, "0.03", "coin size 0.03 is not offered"),
        (25, 1, "abc", "is not a number"),
        (25, 1, "NaN", "is not a number"),
    ],
)
def test_bad_bets_name_what_is_wrong(tsar_model, lines, cpl, size, message):
    with pytest.raises(BetError, match=message):
        bet_options(tsar_model).validate(lines, cpl, size)


def test_coin_size_equal_values_are_accepted(tsar_model):
    bet = bet_options(tsar_model).validate(15, 20, "0.2")
    assert bet.coin_size == Decimal("0.20") and str(bet.coin_size) == "0.20"


def test_credits_are_exact_decimals():
    """Seed: 'Number of coins x coin size bet = amount in credits.'"""
    assert credits(1300, Decimal("0.20")) == Decimal("260.00")
    assert credits(3, Decimal("0.10")) == Decimal("0.30")  # 0.1 * 3 != 0.3 in floats
    assert isinstance(credits(1, Decimal("0.01")), Decimal)


def test_strips_never_show_two_eggs_on_one_reel(tsar_model):
    for variant in tsar_model.variants.values():
        for reel_set in variant.reel_sets.values():
            for reel in range(tsar_model.reels):
                for stop in range(int(reel_set.lengths[reel])):
                    window = reel_set.padded[reel, stop : stop + 3]
                    assert int((window == tsar_model.scatter).sum()) <= 1


def test_every_symbol_appears_on_every_base_reel(tsar_model):
    for variant in tsar_model.variants.values():
        for strip in variant.reel_sets["base"].strips:
            assert set(np.unique(strip)) == set(range(len(tsar_model.symbols)))


def test_variants_are_named_by_their_rtp(tsar_model):
    assert set(tsar_model.variants) >= {"96.00", "94.00"}
    assert tsar_model.default_variant == "96.00"
