"""A bet mode in the terminal: ``m NAME`` plays rounds in the mode at its price, the balance
adds up (the price of every round taken, every win paid), ``m base`` goes back, an unknown mode
is named, and a balance short of the price plays nothing."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

from rich.console import Console

from reelsmith.engine.bets import credits
from reelsmith.engine.model import load_model
from reelsmith.rng import SeededSource
from reelsmith.terminal.game import TerminalGame
from tests.mechanics.moded_title import moded_title
from tests.terminal.test_play_tsar import make_reader


def _play(tmp_path: Path, commands: list[str], balance: str) -> tuple[TerminalGame, str]:
    model = load_model(moded_title(tmp_path / "moded"))
    console = Console(record=True, width=140)
    game = TerminalGame(
        model, console, SeededSource(5), Decimal(balance), make_reader(commands, [])
    )
    game.run()
    return game, console.export_text()


def test_rounds_in_a_mode_cost_its_price_and_the_balance_adds_up(tmp_path: Path) -> None:
    commands = ["m buy", *["s"] * 20, "m ante", *["s"] * 30, "m base", *["s"] * 10, "m turbo"]
    game, text = _play(tmp_path, commands, "500.00")
    modes = [r.part("mode") for r in game.history]
    assert modes == ["buy"] * 20 + ["ante"] * 30 + [None] * 10
    prices = {"buy": Decimal("3.8"), "ante": Decimal("1.25"), None: Decimal(1)}
    paid = sum(credits(r.paid_coins, r.bet.coin_size) for r in game.history)
    cost = sum(r.bet.total_credits * prices[r.part("mode")] for r in game.history)
    assert game.balance == Decimal("500.00") - cost + paid
    assert all(not r.spins or r.spins[0].kind != "base" for r in game.history[:20])
    assert "mode buy (3.8 x the bet)" in text and "No mode 'turbo'" in text


def test_a_balance_short_of_the_price_plays_nothing(tmp_path: Path) -> None:
    game, text = _play(tmp_path, ["m buy", "s"], "1.00")  # a bet of 0.60, the buy 2.28
    assert game.history == [] and game.balance == Decimal("1.00")
    assert "Insufficient balance for mode buy" in text
