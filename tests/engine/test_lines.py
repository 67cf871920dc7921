"""Line wins: the seed's payout rules, evaluated on typed screens.

Seed: shared/seeds/days-of-the-tsar.txt.
"""

from __future__ import annotations

import pytest

from reelsmith.engine.evaluation import evaluate_screen
from tests.conftest import grid

FILLER = "nine,ten,queen,king,jack"  # a row that wins nothing on its own


def screen(
    middle: str, top: str = "queen,nine,ace,ten,king", bottom: str = "jack,king,ten,nine,queen"
) -> str:
    return f"{top}/{middle}/{bottom}"


def wins(model, text, lines=1, cpl=1):
    g = grid(model, text)
    return evaluate_screen(model, g, lines, cpl, lines * cpl)


def test_winning_combinations_pay_out_from_left_to_right(tsar_model):
    """Seed: 'If three Ten symbols are displayed on reels 1, 2 and 3, you are paid out for a
    3 Ten symbol combination' and 'If three Ten symbols are displayed on reels 3, 4 and 5, you
    are not paid out, as the first symbol is not displayed on reel 1.'"""
    left = wins(tsar_model, screen("ten,ten,ten,king,queen"))
    assert [(w.line, w.symbol, w.count, w.coins) for w in left.line_wins] == [(1, "ten", 3, 5)]
    right = wins(tsar_model, screen("king,queen,ten,ten,ten"))
    assert right.line_wins == ()


def test_symbols_must_be_next_to_each_other(tsar_model):
    """Seed: 'The symbols must be next to each other on an enabled payline.'"""
    result = wins(tsar_model, screen("ace,ace,king,ace,ace"))
    assert result.line_wins == ()


def test_only_highest_combination_per_line(tsar_model):
    """Seed: 'Winnings are paid out on the highest combination on each enabled payline only.'
    Four Tsars and a Jack: 5 Jacks would pay 150, 4 Tsars pay 1,000; only 1,000 is paid."""
    result = wins(tsar_model, screen("tsar,tsar,tsar,tsar,jack"))
    assert [(w.symbol, w.count, w.coins) for w in result.line_wins] == [("tsar", 4, 1000)]


def test_substituted_combination_pays_when_higher(tsar_model):
    """Seed: 'The Tsar symbol ... acts as a wild symbol to substitute for other symbols to
    complete winning combinations.' Two Tsars + three Tsarinas: 5 Tsarinas (2,000) beat
    2 Tsars (10)."""
    result = wins(tsar_model, screen("tsar,tsar,tsarina,tsarina,tsarina"))
    assert [(w.symbol, w.count, w.coins) for w in result.line_wins] == [("tsarina", 5, 2000)]


def test_tsar_substitutes_anywhere_in_the_run(tsar_model):
    result = wins(tsar_model, screen("king,tsar,king,tsar,queen"))
    assert [(w.symbol, w.count, w.coins) for w in result.line_wins] == [("king", 4, 50)]


def test_tsar_runs_pay_their_own_row(tsar_model):
    """Seed: 'Multiple Tsar symbols on an enabled payline create Tsar symbol winning
    combinations.' 2/3/4/5 Tsars pay 10/200/1,000/10,000."""
    for count, pay in ((2, 10), (3, 200), (4, 1000), (5, 10000)):
        cells = ["tsar"] * count + ["egg"] + ["nine"] * (4 - count)
        result = wins(tsar_model, screen(",".join(cells[:5])))
        assert [(w.symbol, w.count, w.coins) for w in result.line_wins] == [("tsar", count, pay)]


def test_a_single_tsar_pays_nothing_alone(tsar_model):
    result = wins(tsar_model, screen("tsar,nine,ten,queen,king"))
    assert result.line_wins == ()


def test_tsar_combination_must_start_on_reel_one(tsar_model):
    """Seed: 'A symbol combination starting from the second, third, fourth or fifth slot reels
    does not pay out.'"""
    result = wins(tsar_model, screen("nine,tsar,tsar,tsar,tsar"))
    # Nine + 4 Tsars is 5 Nines (100); the Tsars alone do not start on reel 1.
    assert [(w.symbol, w.count) for w in result.line_wins] == [("nine", 5)]
    result = wins(tsar_model, screen("egg,tsar,tsar,tsar,tsar"))
    assert result.line_wins == ()


def test_egg_interrupts_a_line_and_is_not_substituted(tsar_model):
    """Seed: 'The Tsar symbol does not substitute for the Fabergé Egg symbol.'"""
    result = wins(tsar_model, screen("ace,ace,egg,ace,ace"))
    assert result.line_wins == ()
    result = wins(tsar_model, screen("tsar,egg,egg,nine,ten"))
    assert result.line_wins == ()  # one Tsar, then eggs: nothing on the line


def test_two_symbol_pays_for_top_symbols(tsar_model):
    """Paytable: Tsarina and Cathedral pay for 2; Royal Seal and below do not."""
    assert [
        (w.symbol, w.count, w.coins)
        for w in wins(tsar_model, screen("tsarina,tsarina,nine,ten,queen")).line_wins
    ] == [("tsarina", 2, 4)]
    assert [
        (w.symbol, w.count, w.coins)
        for w in wins(tsar_model, screen("cathedral,tsar,nine,ten,queen")).line_wins
    ] == [("cathedral", 2, 3)]
    assert wins(tsar_model, screen("statue,statue,nine,ten,queen")).line_wins == ()


def test_line_pay_is_table_coins_times_coins_per_line(tsar_model):
    """Seed: 'Regular wins are calculated by taking the number of coins won, multiplied by the
    number of coins bet per payline.'"""
    for cpl in (1, 7, 20):
        result = wins(tsar_model, screen("queen,queen,queen,queen,nine"), cpl=cpl)
        assert [w.coins for w in result.line_wins] == [25 * cpl]


def test_only_enabled_paylines_pay(tsar_model):
    """Seed: 'You are paid out for winning combinations on enabled paylines only.' The top
    row is payline 2: with one payline enabled it does not pay."""
    text = "ace,ace,ace,ace,ace/" + FILLER + "/jack,king,ten,nine,queen"
    assert wins(tsar_model, text, lines=1).line_wins == ()
    two = wins(tsar_model, text, lines=2)
    assert [(w.line, w.symbol, w.count) for w in two.line_wins] == [(2, "ace", 5)]


def test_wins_on_several_paylines_add(tsar_model):
    result = wins(tsar_model, "king,king,king,nine,ten/ace,ace,ace,jack,queen/" + FILLER, lines=25)
    lines = {(w.line, w.symbol) for w in result.line_wins}
    assert (1, "ace") in lines and (2, "king") in lines
    assert result.line_coins == sum(w.coins for w in result.line_wins)


@pytest.mark.parametrize("cells", ["tsar,tsar,tsar,tsar,tsar"])
def test_five_tsars_pay_ten_thousand(tsar_model, cells):
    assert [w.coins for w in wins(tsar_model, screen(cells)).line_wins] == [10000]
