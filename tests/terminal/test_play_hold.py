"""The hold-and-spin in the terminal calls the coin symbol by its name in the model: Lucky
Lanterns' Lanterns stick, land and pay (never "coins"), and the test suite's hold title's
Coins likewise; a forced round that triggers with six, lands one more on the first respin and
nothing after shows each step and the feature's pay; a collector and a multiplier coin are
shown as such, with what the collector collected and the grid's multiplier."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest
from rich.console import Console

from reelsmith.engine.model import GameModel, load_model
from reelsmith.games import load_game
from reelsmith.mechanics.hold_and_spin.rules import hold_and_spin_rules
from reelsmith.mechanics.hold_and_spin.terminal import counted
from reelsmith.terminal.game import TerminalGame
from tests.games.test_lanterns import Forced
from tests.mechanics.hold_title import coins_hold_title, hold_title
from tests.terminal.test_play_tsar import make_reader


def _stops_showing(model: GameModel, coins: int) -> list[int]:
    """Base reel stops whose screen shows exactly ``coins`` coin symbols in all."""
    symbol = hold_and_spin_rules(model).symbol
    by_reel = []
    for strip in model.variant().reel_sets["base"].strips:
        n = len(strip)
        shown: dict[int, int] = {}
        for stop in range(n):
            count = sum(int(strip[(stop + r) % n]) == symbol for r in range(model.rows))
            shown.setdefault(count, stop)
        by_reel.append(shown)

    def choose(reel: int, left: int) -> list[int] | None:
        if reel == len(by_reel):
            return [] if left == 0 else None
        for count, stop in sorted(by_reel[reel].items(), reverse=True):
            if count <= left and (rest := choose(reel + 1, left - count)) is not None:
                return [stop, *rest]
        return None

    found = choose(0, coins)
    assert found is not None, f"no screen of {model.id} shows {coins} coin symbols"
    return found


def _play_forced(model: GameModel, values: list[int] | None = None) -> str:
    """A terminal round forced to trigger with the trigger count, every starting coin the
    value table's first, the first respin landing one more (the table's last) on the first
    empty cell, then nothing (``values``: the value draws instead): the terminal's text."""
    rules = hold_and_spin_rules(model)
    land = rules.coin_weight + rules.blank_weight
    if values is None:
        values = [0] * rules.trigger + [sum(rules.value_weights) - 1]
    source = Forced(
        reel_stop=_stops_showing(model, rules.trigger),
        hold_and_spin_value=values,
        hold_and_spin_cell=[0] + [land - 1] * (4 * rules.cells),
    )
    console = Console(record=True, width=200)
    game = TerminalGame(model, console, source, Decimal("100.00"), make_reader(["s"], []))
    game.run()
    assert len(game.history) == 1 and "hold_and_spin" in game.history[0].spins[0].parts
    return console.export_text()


def test_lucky_lanterns_says_lanterns() -> None:
    model = load_game("lucky-lanterns")
    rules = hold_and_spin_rules(model)
    text = _play_forced(model)
    last = rules.values[-1].label
    assert "Hold and Spin! 6 Lanterns stick: " in text
    assert f"respin 1: 1 Lantern landed: {last} at row" in text
    assert "respin 2: no Lantern landed; 2 left" in text
    assert "Hold and Spin over: 7 Lanterns pay " in text
    feature = text[text.index("Hold and Spin!") :]
    assert "coin stick" not in feature and "no coin" not in feature
    assert " coins stick" not in feature and " coins pay" not in feature


def test_the_hold_title_says_coins(tmp_path: Path) -> None:
    model = load_model(hold_title(tmp_path / "hold"))
    text = _play_forced(model)
    assert "Hold and Spin! 6 Coins stick: " in text
    assert "respin 1: 1 Coin landed: " in text and "respin 2: no Coin landed" in text
    assert "Hold and Spin over: 7 Coins pay " in text


def test_a_collector_and_a_multiplier_are_shown_with_what_they_did(tmp_path: Path) -> None:
    """Five coins of 2 and a collector stick, an x5 lands: the collector collects 10 x 5 = 50,
    and the grid pays (1 + 1) x 5 x 10 = 100 total bets."""
    model = load_model(coins_hold_title(tmp_path / "coins"))
    rules = hold_and_spin_rules(model)
    labels = [v.label for v in rules.values]
    starts = [sum(rules.value_weights[:i]) for i in range(len(labels))]

    def draw(label: str) -> int:
        return starts[labels.index(label)]

    text = _play_forced(model, [draw("2")] * 5 + [draw("collect"), draw("x5")])
    assert "collect at row" in text
    assert "respin 1: 1 Coin landed: x5 at row" in text
    assert "Hold and Spin over: 7 Coins pay 100x the bet, 1 collecting 50x the bet each, " in text
    assert "multiplier x5" in text


@pytest.mark.parametrize(
    ("count", "name", "shown"),
    [(1, "Lantern", "1 Lantern"), (6, "Lantern", "6 Lanterns"), (3, "Gold Bars", "3 Gold Bars")],
)
def test_counted_names_one_or_many(count: int, name: str, shown: str) -> None:
    assert counted(count, name) == shown
