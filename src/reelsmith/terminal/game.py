"""``reelsmith play``: any title in a terminal, against a play-money balance.

One game plays every title: its round is the composed round of the mechanics its model declares
(:mod:`reelsmith.engine.round`), and what the terminal shows of each mechanic is that
mechanic's own terminal face (``reelsmith.mechanics.<name>.terminal``): the bet mechanic's
(coins or levels) the bet, its commands, the balance and the settlement; the others their part
of a spin (line wins, a scatter, gems and pots, the ladder's meter, free spins awarded) and the
actions they offer (a free spin, a gamble). The bet is taken when the round starts; the win is
paid when it completes; a voided round returns the bet; a round the player leaves (input
ends) is completed as the server completes an incomplete one.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from rich.console import Console
from rich.markup import escape

from reelsmith.engine import round as core
from reelsmith.engine.model import GameModel
from reelsmith.engine.round import Round, Spin
from reelsmith.rng import RandomSource
from reelsmith.rules_page import render_rules, rules_document
from reelsmith.terminal.screen import screen_table


def terminal_faces(model: GameModel) -> tuple[Any, list[Any]]:
    """The bet mechanic's terminal face and the others' (in the registry's order), each made
    for ``model``; a mechanic without a terminal module shows nothing of its own."""
    from reelsmith.mechanics import declared

    bet = None
    faces = []
    for mechanic in declared(model.raw):
        name = f"reelsmith.mechanics.{mechanic.name}.terminal"
        if importlib.util.find_spec(name) is None:
            continue
        face = importlib.import_module(name).face(model)
        if mechanic.role == "bet":
            bet = face
        else:
            faces.append(face)
    assert bet is not None, f"{model.id}: no bet mechanic has a terminal face"
    return bet, faces


class TerminalGame:
    """A title played in the terminal (see the module's account)."""

    def __init__(
        self,
        model: GameModel,
        console: Console,
        rng: RandomSource,
        balance: Decimal,
        read: Callable[[str], str],
        variant: str | None = None,
    ) -> None:
        from reelsmith.mechanics import composition

        self.model = model
        self.composition = composition(model)
        self.console = console
        self.rng = rng
        self.balance = balance
        self.read = read
        self.variant = model.variant(variant).id
        self.rounds_played = 0
        self.history: list[Round] = []
        self.current: Round | None = None
        self.names = {s.id: s.name for s in model.symbols}
        self.bets, self.faces = terminal_faces(model)
        self.styles: dict[str, str] = self.bets.styles(model)
        self.help_text = "   ".join(
            [self.bets.help_text, *(face.help for face in self.faces if hasattr(face, "help"))]
        )

    # -- what every face may call --------------------------------------------------------
    def print(self, text: str, **options: Any) -> None:
        self.console.print(text, **options)

    def money(self, round_: Round, coins: int) -> str:
        """``coins`` of ``round_`` as the bet face shows an amount."""
        shown: str = self.bets.money(self, round_, coins)
        return shown

    def show_spin(self, round_: Round, spin: Spin, title: str) -> None:
        highlight = [
            p for face in self.faces if hasattr(face, "highlight") for p in face.highlight(spin)
        ]
        self.console.print(screen_table(spin.screen, self.names, self.styles, highlight, title))
        for face in self.faces:
            if hasattr(face, "show"):
                face.show(self, round_, spin)
        if spin.win_coins and self.bets.shows_spin_win:
            self.console.print(
                f"  spin win [bold]{spin.win_coins:,}[/] coins "
                f"({self.money(round_, spin.win_coins)} credits)"
            )

    # -- the session ---------------------------------------------------------------------
    def status(self) -> None:
        self.bets.status(self)
        for face in self.faces:
            if hasattr(face, "status"):
                face.status(self)

    def play_round(self) -> None:
        before = self.balance
        started = self.bets.take(self)
        if started is None:
            return
        bet, stake, parts = started
        cost = before - self.balance  # what the bet face took
        for face in self.faces:
            if hasattr(face, "begin") and not face.begin(self, cost, parts):
                self.balance += cost  # a face refused the round: nothing is played
                return
        round_ = core.start_round(
            self.composition, bet, stake, self.rng, variant=self.variant, parts=parts
        )
        if round_.spins:
            self.show_spin(round_, round_.spins[0], "Spin")
        self.current = round_
        try:
            self.play_actions()
        except EOFError:
            # The player left mid-round: resolved as an incomplete round is (free spins
            # played out, the win collected).
            self.current = core.finish(self.composition, self.current, self.rng)
            self.console.print("Input ended: the round was completed automatically.")
        self.settle(self.current)

    def play_actions(self) -> None:
        """Each open phase to the face whose phase it is, until the round is over."""
        round_ = self.current
        assert round_ is not None
        while not round_.is_finished:
            face = next((f for f in self.faces if hasattr(f, "step") and f.handles(round_)), None)
            if face is None:
                raise AssertionError(f"no terminal face plays the phase {round_.phase!r}")
            round_ = self.current = face.step(self, round_)
        for face in self.faces:
            if hasattr(face, "after"):
                face.after(self, round_)

    def settle(self, round_: Round) -> None:
        self.rounds_played += 1
        self.history.append(round_)
        self.bets.settle(self, round_)

    def run(self) -> None:
        rtp = self.model.variant(self.variant).rtp_percent()  # the id, or [figures] rtp
        self.console.print(f"[bold]{self.model.name}[/] — RTP {rtp}%")
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
            elif not self.bets.command(self, verb, argument) and not any(
                face.command(self, verb, argument)
                for face in self.faces
                if hasattr(face, "command")
            ):
                self.console.print(
                    f"[red]Unknown command {escape(repr(command))}.[/] {self.help_text}"
                )
        self.console.print(
            f"Goodbye: {self.rounds_played} rounds played, "
            f"balance {self.balance:,.2f}{self.bets.balance_unit}."
        )
