"""Egg scatter: pays anywhere, times the total coins bet, on top of line wins."""

from __future__ import annotations

from reelsmith.engine.evaluation import evaluate_screen
from tests.conftest import grid


def test_scatter_pays_times_total_coins_bet(tsar_model):
    """Seed: '2/3/4/5 eggs ... Multiply Total Coins Bet by 2/5/20/100.'"""
    rows = ["egg,nine,egg,queen,egg", "ten,egg,king,egg,nine", "queen,ten,nine,king,jack"]
    for count, mult in ((2, 2), (3, 5), (4, 20), (5, 100)):
        cells = [r.split(",") for r in rows]
        # keep the first `count` eggs (reels 1..count), replace the others
        shown = 0
        for reel in range(5):
            for row in range(3):
                if cells[row][reel] == "egg":
                    shown += 1
                    if shown > count:
                        cells[row][reel] = "jack"
        g = grid(tsar_model, "/".join(",".join(r) for r in cells))
        result = evaluate_screen(tsar_model, g, 25, 2, 50)
        assert result.scatter_count == count
        assert result.scatter_win is not None and result.scatter_win.coins == mult * 50


def test_one_egg_pays_nothing(tsar_model):
    g = grid(
        tsar_model, "egg,nine,ten,queen,king/ten,queen,king,nine,jack/queen,ten,nine,king,jack"
    )
    assert evaluate_screen(tsar_model, g, 25, 1, 25).scatter_win is None


def test_scatter_pays_whatever_paylines_are_enabled(tsar_model):
    """Seed: 'You are paid out for winning combinations on enabled paylines only, except for
    scatter wins.' With one line enabled, eggs off that line still pay."""
    g = grid(tsar_model, "egg,nine,ten,queen,egg/ten,queen,king,nine,jack/queen,ten,egg,king,jack")
    result = evaluate_screen(tsar_model, g, 1, 3, 3)
    assert result.scatter_win is not None
    assert result.scatter_win.count == 3 and result.scatter_win.coins == 5 * 3


def test_tsar_does_not_substitute_for_the_egg(tsar_model):
    """Seed: 'The Tsar symbol does not substitute for the Fabergé Egg symbol to complete
    winning scatter combinations.'"""
    g = grid(
        tsar_model, "egg,tsar,tsar,queen,king/ten,queen,king,nine,jack/queen,ten,nine,tsar,jack"
    )
    result = evaluate_screen(tsar_model, g, 25, 1, 25)
    assert result.scatter_count == 1 and result.scatter_win is None


def test_scatter_adds_to_line_wins(tsar_model):
    """Seed: 'The scatter win is added to the payline win.'"""
    g = grid(tsar_model, "egg,nine,ten,queen,egg/ace,ace,ace,nine,jack/queen,ten,nine,king,jack")
    result = evaluate_screen(tsar_model, g, 25, 1, 25)
    assert result.total_coins == result.line_coins + 2 * 25
    assert result.line_coins > 0
