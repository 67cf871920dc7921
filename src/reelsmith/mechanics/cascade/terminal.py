"""The cascade in the terminal: after a spin's first screen, every later screen of its chain
(the cells above fallen in), its wins highlighted and listed by the other mechanics' faces."""

from __future__ import annotations

from typing import Any

from reelsmith.engine.model import GameModel
from reelsmith.engine.round import Round, Spin
from reelsmith.engine.rounds import replaced
from reelsmith.terminal.screen import screen_table


class CascadeTerminal:
    def show(self, game: Any, round_: Round, spin: Spin) -> None:
        chain = spin.parts.get("cascade")
        if chain is None:
            return
        others = [face for face in game.faces if face is not self]
        for fallen in chain.fallen:
            screen = replaced(
                spin, screen=fallen.screen, parts=fallen.records, win_coins=fallen.win_coins
            )
            highlight = [
                p for face in others if hasattr(face, "highlight") for p in face.highlight(screen)
            ]
            title = f"Cascade {fallen.step}" + (
                f" (wins x{fallen.multiplier})" if fallen.multiplier > 1 else ""
            )
            game.console.print(
                screen_table(fallen.screen, game.names, game.styles, highlight, title)
            )
            for face in others:
                if hasattr(face, "show"):
                    face.show(game, round_, screen)


def face(model: GameModel) -> CascadeTerminal:
    return CascadeTerminal()
