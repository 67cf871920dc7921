"""Bet modes in the terminal: ``m NAME`` plays the next rounds in a mode (``m base`` goes back
to the base game), the status line names the mode and its price, and a round in a mode costs
its price x the bet: the bet face takes the bet, this face the rest, and the round starts with
the mode among its parts (a bought round plays no base spin)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from rich.markup import escape

from reelsmith.engine.model import GameModel
from reelsmith.mechanics.modes.rules import MODE, Mode, modes_of

HELP = "[bold]m NAME[/] bet mode ({names}, base)"


class ModesTerminal:
    def __init__(self, model: GameModel) -> None:
        self.modes = modes_of(model).modes
        self.chosen: Mode | None = None
        self.help = HELP.format(names=", ".join(self.modes))

    @staticmethod
    def _price(mode: Mode) -> Decimal:
        return Decimal(mode.price_text)

    def status(self, game: Any) -> None:
        offered = ", ".join(f"{m.name} {m.price_text} bets" for m in self.modes.values())
        playing = (
            f"mode [bold]{escape(self.chosen.name)}[/] ({self.chosen.price_text} x the bet)"
            if self.chosen is not None
            else "base game"
        )
        game.print(f"  {playing}; modes: {escape(offered)}  (m NAME, m base)")

    def command(self, game: Any, verb: str, argument: str) -> bool:
        if verb not in ("m", "mode"):
            return False
        name = argument.strip()
        if name in ("base", "off", ""):
            self.chosen = None
            game.print("Playing the base game.")
        elif name in self.modes:
            self.chosen = self.modes[name]
            game.print(
                f"Playing mode {escape(name)}: each round costs {self.chosen.price_text} x the bet."
            )
        else:
            known = ", ".join([*self.modes, "base"])
            game.print(f"[red]No mode {escape(name)!r}; the modes are: {escape(known)}[/]")
        return True

    def begin(self, game: Any, cost: Decimal, parts: dict[str, Any]) -> bool:
        """Charge the rest of the mode's price (the bet face took ``cost``, one bet) and name
        the mode in the round's parts; False, nothing charged, when the balance is short."""
        if self.chosen is None:
            return True
        rest = cost * (self._price(self.chosen) - 1)
        if game.balance < rest:
            game.print(
                f"[red]Insufficient balance for mode {escape(self.chosen.name)}: it costs "
                f"{cost + rest:,.2f} credits[/]"
            )
            return False
        game.balance -= rest
        parts[MODE] = self.chosen.name
        return True


def face(model: GameModel) -> ModesTerminal:
    return ModesTerminal(model)
