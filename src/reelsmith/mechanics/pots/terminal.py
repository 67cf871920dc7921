"""The local pots in the terminal: the pots at the current bet (and what each must be won
before) in the status, and each gem's step in a spin."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from rich.table import Table

from reelsmith.engine.ladder import JACKPOT, WILD_REEL, ladder_rules
from reelsmith.engine.model import GameModel
from reelsmith.engine.round import Round, Spin

#: The pots' colours, reel by reel (repeated past the last).
POT_STYLES = ("cyan", "blue", "green", "magenta", "red")


class PotsTerminal:
    def __init__(self, model: GameModel) -> None:
        self.rules = ladder_rules(model)

    def status(self, game: Any) -> None:
        bet = game.bets.bet
        state = game.bets.state()
        table = Table(title=f"Jackpots at bet {bet}", title_justify="left")
        styles = (POT_STYLES[n % len(POT_STYLES)] for n in range(len(self.rules.jackpots)))
        for j, style in zip(self.rules.jackpots, styles, strict=True):
            table.add_column(f"[{style}]{j.name}[/] (reel {j.reel + 1})", justify="right")
        pots = state.pots if state else tuple(j.seed for j in self.rules.jackpots)
        table.add_row(*(f"{Decimal(p) * bet:,.2f}" for p in pots))
        table.add_row(*(f"[dim]won before {j.cap * bet:,.2f}[/]" for j in self.rules.jackpots))
        game.print(table)

    def show(self, game: Any, round_: Round, spin: Spin) -> None:
        shown = spin.parts.get("pots")
        if shown is None:
            return
        lines = round_.stake.total_coins  # a pot of p bets is p x the bet's coins
        for gem in shown.gems:
            pot = self.rules.jackpots[gem.reel]
            what = {WILD_REEL: "a WILD REEL", JACKPOT: "the JACKPOT SPIN"}.get(
                gem.reveal, game.names.get(gem.reveal, gem.reveal)
            )
            game.print(
                f"  gem on reel {gem.reel + 1}: {pot.name} pot up to "
                f"{game.money(round_, gem.pot_after * lines)}; it reveals {what}"
            )
            if gem.jackpot_bets:
                game.print(
                    f"  [bold]Jackpot spin: the {pot.name} jackpot pays "
                    f"{game.money(round_, gem.jackpot_bets * lines)}![/]"
                )


def face(model: GameModel) -> PotsTerminal:
    return PotsTerminal(model)
