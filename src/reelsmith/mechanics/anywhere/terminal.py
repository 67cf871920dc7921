"""Pay anywhere in the terminal: each paying symbol's count, its cells highlighted;
``reelsmith evaluate``'s count wins."""

from __future__ import annotations

from typing import Any

from rich.markup import escape

from reelsmith.engine.evaluation import Position
from reelsmith.engine.model import GameModel
from reelsmith.engine.round import Round, Spin


class AnywhereTerminal:
    def highlight(self, spin: Spin) -> list[Position]:
        wins = spin.parts.get("anywhere")
        return [p for w in wins.wins for p in w.positions] if wins is not None else []

    def show(self, game: Any, round_: Round, spin: Spin) -> None:
        wins = spin.parts.get("anywhere")
        if wins is None:
            return
        for win in wins.wins:
            game.print(
                f"  {win.count} x {escape(game.names[win.symbol])} on the screen, "
                f"pays {game.bets.pay_text(game, round_, win.coins)}"
            )

    def evaluate_json(self, model: GameModel, grid: Any, stake: Any, out: dict[str, Any]) -> None:
        from reelsmith.terminal.evaluation import evaluate_screen

        records, _coins = evaluate_screen(model, grid, None, stake)
        out["count_wins"] = [
            {k: v for k, v in w.to_json().items() if k != "positions"}
            for w in records["anywhere"].wins
        ]


def face(model: GameModel) -> AnywhereTerminal:
    return AnywhereTerminal()
