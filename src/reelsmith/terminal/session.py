"""The command loop both terminal titles share: status, read a command, act, say goodbye."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Protocol

from rich.console import Console

from reelsmith.engine.model import GameModel
from reelsmith.rng import RandomSource
from reelsmith.rules_page import render_rules, rules_document


class TerminalGame:
    """A title played in the terminal; subclasses draw the status, play a round and handle
    their own bet commands."""

    help_text = ""
    balance_unit = ""

    def __init__(
        self,
        model: GameModel,
        console: Console,
        balance: Decimal,
        read: Callable[[str], str],
        variant: str | None = None,
    ) -> None:
        self.model = model
        self.console = console
        self.balance = balance
        self.read = read
        self.variant = model.variant(variant).id
        self.rounds_played = 0

    def status(self) -> None:
        raise NotImplementedError

    def play_round(self) -> None:
        raise NotImplementedError

    def bet_command(self, verb: str, argument: str) -> bool:
        """Handle a title's bet command; False if ``verb`` is not one."""
        return False

    def run(self) -> None:
        self.console.print(f"[bold]{self.model.name}[/] — RTP {self.variant}%")
        self.console.print(self.help_text)
        while True:
            self.status()
            try:
                command = self.read("Command (Enter spins)").strip().lower()
            except EOFError:
                break
            verb, _, argument = command.partition(" ")
            if verb in ("", "s", "spin"):
                self.play_round()
            elif verb in ("q", "quit", "exit"):
                break
            elif verb in ("r", "rules"):
                self.console.print(render_rules(rules_document(self.model, self.variant)))
            elif verb in ("h", "help", "?"):
                self.console.print(self.help_text)
            elif not self.bet_command(verb, argument):
                self.console.print(f"[red]Unknown command {command!r}.[/] {self.help_text}")
        self.console.print(
            f"Goodbye: {self.rounds_played} rounds played, "
            f"balance {self.balance:,.2f}{self.balance_unit}."
        )


class TerminalGameClass(Protocol):
    """What a kind of title names for ``reelsmith play`` (:mod:`reelsmith.engine.title`): a
    terminal game made from the model, the console, the random source, the starting balance,
    the line reader and the variant."""

    def __call__(
        self,
        model: GameModel,
        console: Console,
        rng: RandomSource,
        balance: Decimal,
        read: Callable[[str], str],
        variant: str | None = None,
    ) -> TerminalGame: ...
