"""Terminal play of Sultan Spins: balance, bet lowering, state per bet size."""

from __future__ import annotations

from decimal import Decimal

from rich.console import Console

from reelsmith.mechanics.levels.terminal import PLAY_STAKE_UNIT, money
from reelsmith.rng import SeededSource
from reelsmith.terminal.game import TerminalGame
from tests import ladder_rounds as sultan


def reader(commands):
    commands = iter(commands)

    def read(prompt: str) -> str:
        if prompt.startswith("Level"):
            return ""
        try:
            return next(commands)
        except StopIteration:
            raise EOFError from None

    return read


def test_balance_adds_up_and_state_is_kept_per_bet(sultan_model):
    console = Console(record=True, width=140)
    commands = ["b 0.40"] + ["s"] * 150 + ["b 1.00"] + ["s"] * 150
    terminal = TerminalGame(
        sultan_model, console, SeededSource(8), Decimal("400.00"), reader(commands)
    )
    terminal.run()
    history = [sultan.LadderView(sultan_model, r) for r in terminal.history]
    assert len(history) == 300
    # the engine's rounds are in stake units; the terminal prices one at 0.20
    staked = sum(r.bet_level for r in history) * PLAY_STAKE_UNIT
    paid = sum(r.paid_stake for r in history)
    assert terminal.balance == Decimal("400.00") - staked + money(paid)
    for level in (2, 5):  # bets 0.40 and 1.00
        last = [r for r in history if r.bet_level == level][-1]
        assert terminal.bets.player.for_bet(level) == last.state
    assert any(r.free_spins for r in history)
    text = console.export_text()
    assert "Jackpots at bet 0.40" in text and "Jackpots at bet 1.00" in text
    assert "collection meter" in text


def test_bet_is_lowered_when_the_balance_falls_short(sultan_model):
    console = Console(record=True, width=140)
    terminal = TerminalGame(
        sultan_model, console, SeededSource(2), Decimal("1.50"), reader(["b 2.00", "s"])
    )
    terminal.run()
    assert terminal.history[0].bet.level == 6  # 1.20
    assert "Bet lowered to 1.20" in console.export_text()


def test_below_the_lowest_bet_no_round(sultan_model):
    console = Console(record=True, width=140)
    terminal = TerminalGame(sultan_model, console, SeededSource(2), Decimal("0.19"), reader(["s"]))
    terminal.run()
    assert terminal.history == [] and "Insufficient balance" in console.export_text()


def test_free_spins_show_level_multiplier_and_spins_left(sultan_model):
    for seed in range(300):
        console = Console(record=True, width=140)
        prompts = []
        commands = iter(["s"])

        def read(prompt, commands=commands, prompts=prompts):
            prompts.append(prompt)
            if prompt.startswith("Level"):
                return ""
            return next(commands, "q")

        terminal = TerminalGame(sultan_model, console, SeededSource(seed), Decimal("100.00"), read)
        terminal.run()
        first_round = sultan.LadderView(sultan_model, terminal.history[0])
        if first_round.phase is sultan.Phase.COMPLETE and first_round.free_spins:
            first = next(p for p in prompts if p.startswith("Level"))
            assert first.startswith("Level 1 (1x): 7 spins left")
            assert "meter" in first
            return
    raise AssertionError("no seed triggered free spins")
