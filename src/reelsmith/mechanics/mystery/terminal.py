"""Mystery symbols in the terminal: the screen that showed mysteries says what they became and
where (the screen shown is the one the wins were read on)."""

from __future__ import annotations

from typing import Any

from reelsmith.engine.model import GameModel
from reelsmith.engine.round import Round, Spin


class MysteryTerminal:
    def __init__(self, model: GameModel) -> None:
        self.model = model

    def show(self, game: Any, round_: Round, spin: Spin) -> None:
        record = spin.parts.get("mystery")
        if record is None:
            return
        name = self.model.symbols[self.model.symbol_index(record.symbol)].name
        cells = ", ".join(f"reel {reel + 1} row {row + 1}" for row, reel in record.cells)
        game.print(f"  [bold cyan]Mystery symbols revealed {name}[/] ({cells})")


def face(model: GameModel) -> MysteryTerminal:
    return MysteryTerminal(model)
