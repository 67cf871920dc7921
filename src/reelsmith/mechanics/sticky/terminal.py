"""The sticky wilds in the terminal: a free spin with stuck wilds says how many cells are
stuck and how many stuck on this spin."""

from __future__ import annotations

from typing import Any

from reelsmith.engine.model import GameModel
from reelsmith.engine.round import Round, Spin
from reelsmith.mechanics.sticky.live import Stuck


class StickyTerminal:
    def __init__(self, model: GameModel) -> None:
        self.model = model

    def show(self, game: Any, round_: Round, spin: Spin) -> None:
        record = spin.parts.get("sticky")
        if isinstance(record, Stuck):
            name = self.model.symbols[self.model.symbol_index(record.symbol)].name
            game.print(
                f"  [bold cyan]Sticky {name}: {len(record.cells)} cells stuck "
                f"({len(record.landed)} new)[/]"
            )


def face(model: GameModel) -> StickyTerminal:
    return StickyTerminal(model)
