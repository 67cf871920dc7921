"""Ways in the terminal: each symbol's run and ways, its cells highlighted; ``reelsmith
evaluate``'s way wins."""

from __future__ import annotations

from typing import Any

from rich.markup import escape

from reelsmith.engine.evaluation import Position
from reelsmith.engine.model import GameModel
from reelsmith.engine.round import Round, Spin


class WaysTerminal:
    def highlight(self, spin: Spin) -> list[Position]:
        wins = spin.parts.get("ways")
        return [p for w in wins.wins for p in w.positions] if wins is not None else []

    def show(self, game: Any, round_: Round, spin: Spin) -> None:
        wins = spin.parts.get("ways")
        if wins is None:
            return
        if wins.weights is not None:
            wild = escape(game.names[game.model.symbols[game.model.wild].id])
            drawn = ", ".join(
                f"on reel {reel + 1} counts {weight}"
                for reel, weight in enumerate(wins.weights)
                if weight > 1
            )
            game.print(f"  {wild} {drawn}" if drawn else f"  {wild} counts 1")
        for win in wins.wins:
            game.print(
                f"  {win.count} x {escape(game.names[win.symbol])}, "
                f"{win.ways:,} {'way' if win.ways == 1 else 'ways'}, "
                f"pays {game.bets.pay_text(game, round_, win.coins)}"
            )

    def evaluate_json(self, model: GameModel, grid: Any, stake: Any, out: dict[str, Any]) -> None:
        from reelsmith.terminal.evaluation import evaluate_screen

        records, _coins = evaluate_screen(model, grid, None, stake)
        found = records["ways"]
        out["way_wins"] = [
            {k: v for k, v in w.to_json().items() if k != "positions"} for w in found.wins
        ]


def face(model: GameModel) -> WaysTerminal:
    return WaysTerminal()
