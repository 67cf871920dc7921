"""The expanding symbol in the terminal: the spin that started the free spins says which
symbol was drawn, and a free spin where it expanded says on which reels and what it paid."""

from __future__ import annotations

from typing import Any

from reelsmith.engine.model import GameModel
from reelsmith.engine.round import Round, Spin
from reelsmith.mechanics.expanding.live import Drawn, Expanded


class ExpandingTerminal:
    def __init__(self, model: GameModel) -> None:
        self.model = model

    def _name(self, symbol: str) -> str:
        return self.model.symbols[self.model.symbol_index(symbol)].name

    def show(self, game: Any, round_: Round, spin: Spin) -> None:
        record = spin.parts.get("expanding")
        if isinstance(record, Drawn):
            game.print(
                f"  [bold cyan]Expanding symbol for the free spins: {self._name(record.symbol)}[/]"
            )
        elif isinstance(record, Expanded):
            reels = ", ".join(str(r + 1) for r in record.reels)
            game.print(
                f"  [bold cyan]{self._name(record.symbol)} expands on reels {reels}: "
                f"{record.coins} coins on {record.lines} lines[/]"
            )


def face(model: GameModel) -> ExpandingTerminal:
    return ExpandingTerminal(model)
