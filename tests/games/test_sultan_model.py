"""The Sultan Spins model: 5x4, 40 paylines, symbols, paytable, bets, jackpots, strips.

Seed: shared/seeds/sultan-spins.txt.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from reelsmith.engine.bet_ladder import lower_bet
from reelsmith.engine.bets import BetError
from reelsmith.engine.ladder import ladder_rules


def test_five_columns_four_rows_forty_distinct_paylines(sultan_model):
    """Seed: '“Sultan Spins” is a 5 columns and 4 rows slot machine featuring 40 paylines.'"""
    assert (sultan_model.reels, sultan_model.rows) == (5, 4)
    lines = [tuple(line) for line in sultan_model.paylines.tolist()]
    assert len(lines) == 40 and len(set(lines)) == 40
    assert all(0 <= row <= 3 for line in lines for row in line)
    assert lines[:4] == [(r,) * 5 for r in range(4)]


def test_symbols(sultan_model):
    """Issue: at least 4 high symbols and 5 royals; `wild` and `bonus` named so; lower-case ids."""
    roles = {s.id: s.role for s in sultan_model.symbols}
    assert roles["wild"] == "wild" and roles["bonus"] == "bonus" and roles["gem"] == "gem"
    assert {"ace", "king", "queen", "jack", "ten"} <= set(roles)
    highs = [s for s, r in roles.items() if r == "regular"]
    assert len(highs) >= 9
    assert all(s == s.lower() for s in roles)


def test_paytable_pays_every_regular_symbol(sultan_model):
    for symbol in sultan_model.symbols:
        row = sultan_model.line_pays[symbol.index]
        if symbol.role in ("regular", "wild"):
            assert row[3] > 0 and row[4] > row[3] and row[5] > row[4], symbol.id
        else:
            assert not row.any()


def test_bets_are_levels_of_stake_units(sultan_model):
    """The model's bets are whole stake units, no money: the ladder the title was specified
    with (0.20 to 100.00) is these levels at 0.20 a stake unit."""
    bets = ladder_rules(sultan_model).bets
    assert bets.levels == (1, 2, 3, 4, 5, 6, 8, 10, 15, 20, 25, 30, 40, 50, 100, 250, 500)
    assert bets.default == 5


def test_wins_are_exact_fractions_of_the_bet(sultan_model):
    """Each line pay at each level is ``pay x level / 40`` stake units, exactly (a fraction:
    nothing is rounded in the rules)."""
    rules = ladder_rules(sultan_model)
    for level in rules.bets.levels:
        for pay in {int(p) for p in sultan_model.line_pays.flatten() if p}:
            stake = rules.stake_units(pay, level)
            assert isinstance(stake, Fraction) and stake * 40 == pay * level


def test_the_rules_hold_no_money():
    """Money at the edge: Sultan Spins' rules, state and the bet levels import no decimal
    arithmetic (amounts of money are the server's)."""
    import ast
    import inspect

    from reelsmith.engine import bet_ladder, ladder, ladder_state

    for module in (ladder, ladder_state, bet_ladder):
        tree = ast.parse(inspect.getsource(module))
        imported = {
            alias.name.split(".")[0]
            for node in ast.walk(tree)
            if isinstance(node, ast.Import)
            for alias in node.names
        } | {
            (node.module or "").split(".")[0]
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom)
        }
        assert "decimal" not in imported, module.__name__


def test_jackpot_caps_are_the_seed_values(sultan_model):
    """Seed: 'Teal ... before 25x bet, Blue 50x, Green 250x, Purple 1250x, Red 5000x.'"""
    jackpots = ladder_rules(sultan_model).jackpots
    assert [(j.name, j.reel, j.cap) for j in jackpots] == [
        ("teal", 0, 25),
        ("blue", 1, 50),
        ("green", 2, 250),
        ("purple", 3, 1250),
        ("red", 4, 5000),
    ]
    assert all(0 < j.seed < j.last_trigger == j.cap - 1 for j in jackpots)


def test_levels_and_multipliers(sultan_model):
    """Seed: 'Level 1: 7 Free Spins with 1x Multiplier' ... 'Level 5: 7 Free Spins with 8x'."""
    rules = ladder_rules(sultan_model)
    assert rules.multipliers == (1, 2, 4, 6, 8)
    assert rules.spins_per_level == 7 and rules.spots == 5
    assert rules.trigger_count == 3 and rules.main_game_bonus_per_spot == 2


def test_strips_show_at_most_one_gem_and_one_bonus_per_reel(sultan_model):
    rules = ladder_rules(sultan_model)
    for variant in sultan_model.variants.values():
        for reel_set in variant.reel_sets.values():
            for reel in range(5):
                for stop in range(int(reel_set.lengths[reel])):
                    window = reel_set.padded[reel, stop : stop + 4]
                    assert int((window == rules.gem).sum()) <= 1
                    assert int((window == rules.bonus).sum()) <= 1


class TestBetLowering:
    """Seed: 'If your balance decreases so it becomes lower than the selected bet size, the bet
    size will automatically be lowered to the highest applicable bet size.' (amounts in minor
    units, as the server lowers them)"""

    allowed = (20, 40, 100, 200, 500)

    def test_exactly_enough_keeps_the_bet(self):
        assert lower_bet(self.allowed, 200, 200) == 200

    def test_one_cent_short_lowers_to_the_next_bet(self):
        assert lower_bet(self.allowed, 199, 200) == 100

    def test_lowers_to_the_highest_covered(self):
        assert lower_bet(self.allowed, 499, 500) == 200
        assert lower_bet(self.allowed, 39, 500) == 20

    def test_below_the_lowest_bet(self):
        assert lower_bet(self.allowed, 19, 200) is None
        assert lower_bet(self.allowed, 0, 20) is None

    def test_a_market_ladder_is_respected(self):
        assert lower_bet([100, 500], 400, 500) == 100


@pytest.mark.parametrize(
    ("level", "message"),
    [
        (7, "bet level 7 is not offered"),
        (0, "not a whole number of stake units above 0"),
        (-5, "not a whole number of stake units above 0"),
        ("5", "not a whole number of stake units"),
        (True, "not a whole number of stake units"),
        (5.0, "not a whole number of stake units"),
    ],
)
def test_bets_off_the_levels_are_refused(sultan_model, level, message):
    with pytest.raises(BetError, match=message):
        ladder_rules(sultan_model).bets.validate(level)


def test_market_subset_of_the_levels(sultan_model):
    bets = ladder_rules(sultan_model).bets
    with pytest.raises(BetError, match=r"the levels are 5, 10"):
        bets.validate(2, [5, 10])
    assert bets.validate(5, [5]) == 5
