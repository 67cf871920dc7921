"""Terminal play of Days of the Tsar on the generic catalogue terminal: the balance always adds
up, gambles included."""

from __future__ import annotations

import itertools
from decimal import Decimal

from rich.console import Console

from reelsmith.engine.bets import credits
from reelsmith.rng import SeededSource
from reelsmith.terminal.game import TerminalGame
from tests import catalogue_rounds as play


def _end():
    raise EOFError


def make_reader(commands, gamble_answers):
    """Commands in order; free spins played and gambles answered from ``gamble_answers``
    (with no answers, the input ends at the first feature prompt)."""
    commands = iter(commands)
    answers = itertools.cycle(gamble_answers)

    def read(prompt: str) -> str:
        if prompt.startswith("Free spin"):
            return "" if gamble_answers else _end()
        if prompt.startswith("Gamble"):
            return next(answers) if gamble_answers else _end()
        try:
            return next(commands)
        except StopIteration:
            raise EOFError from None

    return read


def test_balance_is_start_minus_bets_plus_wins(tsar_model):
    console = Console(record=True, width=120)
    commands = ["l 20", "c 2", "z 0.05"] + ["s"] * 400
    terminal = TerminalGame(
        tsar_model,
        console,
        SeededSource(12),
        Decimal("500.00"),
        make_reader(commands, ["red", "c", "hearts", "c"]),
    )
    terminal.run()
    history = [play.RoundView(tsar_model, r) for r in terminal.history]
    assert len(history) == 400
    assert any(r.free_spins_awarded for r in history), "the session should include free spins"
    assert any(r.gambles for r in history)
    bets = sum(r.bet.total_credits for r in history)
    wins = sum(credits(r.paid_coins, r.bet.coin_size) for r in history)
    assert terminal.balance == Decimal("500.00") - bets + wins
    assert all(r.bet.total_coins == 40 and r.bet.coin_size == Decimal("0.05") for r in history)
    text = console.export_text()
    assert "start the free spins" in text and "The card is the" in text
    assert "Fabergé Egg" in text and "revealed" in text


def test_insufficient_balance_refuses_the_spin(tsar_model):
    console = Console(record=True, width=120)
    terminal = TerminalGame(
        tsar_model, console, SeededSource(1), Decimal("0.10"), make_reader(["s"], ["c"])
    )
    terminal.run()
    assert terminal.history == [] and terminal.balance == Decimal("0.10")
    assert "Insufficient balance" in console.export_text()


def test_bad_bet_commands_are_explained(tsar_model):
    console = Console(record=True, width=120)
    terminal = TerminalGame(
        tsar_model,
        console,
        SeededSource(1),
        Decimal("10.00"),
        make_reader(["l 30", "c x", "z 0.07", "dance"], []),
    )
    terminal.run()
    text = console.export_text()
    assert "lines must be 1 to 25, got 30" in text
    assert "coins needs a whole number" in text
    assert "coin size 0.07 is not offered" in text
    assert "Unknown command 'dance'" in text
    assert terminal.bets.bet == play.bet_options(tsar_model).default


def test_leaving_mid_round_completes_it(tsar_model):
    """Input ending during free spins or a gamble resolves the round and pays it."""
    for seed in range(500):
        console = Console(record=True, width=120)

        read = make_reader(["s"], [])  # one spin, then the input ends

        terminal = TerminalGame(tsar_model, console, SeededSource(seed), Decimal("10.00"), read)
        terminal.run()
        [round_] = [play.RoundView(tsar_model, r) for r in terminal.history]
        if round_.free_spins_awarded:
            assert round_.phase is play.Phase.COMPLETE
            assert len(round_.free_spins) == round_.free_spins_awarded
            assert terminal.balance == Decimal("10.00") - round_.bet.total_credits + credits(
                round_.win_coins, round_.bet.coin_size
            )
            assert "completed automatically" in console.export_text()
            return
    raise AssertionError("no seed triggered free spins")


def test_malfunction_returns_the_bet(tsar_model):
    class Broken:
        def randbelow(self, bound, purpose):
            raise OSError("entropy source failed")

    console = Console(record=True, width=120)
    terminal = TerminalGame(tsar_model, console, Broken(), Decimal("10.00"), make_reader(["s"], []))
    terminal.run()
    assert terminal.balance == Decimal("10.00")
    assert terminal.history[0].phase == play.Phase.VOIDED
    assert "Malfunction: the round is void" in console.export_text()
