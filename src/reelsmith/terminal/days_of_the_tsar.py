"""``reelsmith play days-of-the-tsar``: the game in a terminal, against a play-money balance.

The balance is in credits (exact decimals). The bet is taken when the spin starts; the win is
paid when the round completes (after free spins and any gamble); a voided round returns the bet.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

from rich.console import Console

from reelsmith.engine.bets import BetError, CoinBet, credits
from reelsmith.engine.errors import RuleError
from reelsmith.engine.model import GameModel
from reelsmith.games.days_of_the_tsar import rules as tsar
from reelsmith.rng import RandomSource
from reelsmith.terminal.screen import screen_table
from reelsmith.terminal.session import TerminalGame

STYLES = {
    "tsar": "bold magenta",
    "tsarina": "bold red",
    "cathedral": "bold cyan",
    "royal_seal": "bold yellow",
    "statue": "bold white",
    "egg": "bold green",
}

HELP = (
    "[bold]s[/] spin   [bold]l N[/] paylines   [bold]c N[/] coins per line   "
    "[bold]z X[/] coin size   [bold]r[/] rules   [bold]q[/] quit"
)


class TsarTerminal(TerminalGame):
    help_text = HELP
    balance_unit = " credits"

    def __init__(
        self,
        model: GameModel,
        console: Console,
        rng: RandomSource,
        balance: Decimal,
        read: Callable[[str], str],
        variant: str | None = None,
    ) -> None:
        super().__init__(model, console, balance, read, variant)
        self.rules = tsar.tsar_rules(model)
        self.rng = rng
        self.bet: CoinBet = self.rules.bets.default
        self.names = {s.id: s.name for s in model.symbols}
        self.current: tsar.TsarRound | None = None
        self.history: list[tsar.TsarRound] = []

    # -- output ----------------------------------------------------------------------
    def credits(self, coins: int) -> str:
        return f"{credits(coins, self.bet.coin_size):,.2f}"

    def status(self) -> None:
        b = self.bet
        self.console.print(
            f"\n[bold]{self.model.name}[/]  balance [bold]{self.balance:,.2f}[/] credits   "
            f"bet {b.lines} lines x {b.coins_per_line} coins x {b.coin_size} = "
            f"[bold]{b.total_credits:,.2f}[/] credits ({b.total_coins} coins)"
        )

    def show_spin(self, spin: tsar.SpinRecord, title: str) -> None:
        highlight = [p for w in spin.wins.line_wins for p in w.positions]
        if spin.wins.scatter_win:
            highlight.extend(spin.wins.scatter_win.positions)
        self.console.print(screen_table(spin.screen, self.names, STYLES, highlight, title))
        for win in spin.wins.line_wins:
            self.console.print(
                f"  payline {win.line}: {win.count} x {self.names[win.symbol]} "
                f"pays {win.coins:,} coins"
            )
        if spin.wins.scatter_win:
            w = spin.wins.scatter_win
            self.console.print(f"  {w.count} Fabergé Eggs scattered pay {w.coins:,} coins")
        if spin.kind == "base" and spin.reveals:
            shown = " + ".join(str(v) for v in spin.reveals)
            self.console.print(
                f"  [bold green]{spin.eggs} eggs start the Free Spins bonus game![/] "
                f"The eggs reveal {shown} = [bold]{spin.spins_added} free spins[/]"
            )
        elif spin.kind == "free" and spin.spins_added:
            self.console.print(f"  [green]+{spin.spins_added} free spins from eggs[/]")
        if spin.win_coins:
            self.console.print(
                f"  spin win [bold]{spin.win_coins:,}[/] coins "
                f"({self.credits(spin.win_coins)} credits)"
            )

    # -- actions ---------------------------------------------------------------------
    def set_bet(self, lines: int, coins_per_line: int, coin_size: str | Decimal) -> None:
        try:
            self.bet = self.rules.bets.validate(lines, coins_per_line, coin_size)
        except BetError as exc:
            self.console.print(f"[red]{exc}[/]")

    def play_round(self) -> None:
        if self.balance < self.bet.total_credits:
            self.console.print(
                f"[red]Insufficient balance: {self.balance:,.2f} credits is less than the bet "
                f"of {self.bet.total_credits:,.2f}[/]"
            )
            return
        self.balance -= self.bet.total_credits
        round_ = tsar.start_round(self.model, self.bet, self.rng, variant=self.variant)
        if round_.spins:
            self.show_spin(round_.spins[0], "Spin")
        self.current = round_
        try:
            self.play_features()
        except EOFError:
            # The player left mid-round: resolve it as an incomplete game would be
            # (remaining free spins played out, the win collected).
            self.current = tsar.finish(self.model, self.current, self.rng)
            self.console.print("Input ended: the round was completed automatically.")
        self.settle(self.current)

    def play_features(self) -> None:
        """Free spins, then the gamble; ``self.current`` always holds the round so far."""
        round_ = self.current
        assert round_ is not None  # a round was started
        while round_.phase is tsar.Phase.FREE_SPINS:
            number = len(round_.spins)
            answer = self.read(
                f"Free spin {number} — {round_.free_spins_remaining} left "
                f"(free spins won so far {round_.free_spins_win_coins:,} coins). Enter to spin"
            )
            if answer.strip().lower() == "q":
                self.console.print("The free spins must be played out; playing on.")
            round_ = self.current = tsar.play_free_spin(self.model, round_, self.rng)
            if round_.phase is not tsar.Phase.VOIDED:
                self.show_spin(round_.spins[-1], f"Free spin {number}")
        if round_.free_spins_awarded and round_.phase is not tsar.Phase.VOIDED:
            self.console.print(
                f"[bold green]Free spins over:[/] {len(round_.free_spins)} spins won "
                f"{round_.free_spins_win_coins:,} coins"
            )
        while round_.phase is tsar.Phase.GAMBLE:
            round_ = self.current = self.gamble_step(round_)

    def gamble_step(self, round_: tsar.TsarRound) -> tsar.TsarRound:
        offered = tsar.gamble_choices(self.model, round_)
        done = len(round_.gambles)
        self.console.print(
            f"Win [bold]{round_.win_coins:,}[/] coins ({self.credits(round_.win_coins)} credits). "
            f"Gamble {done + 1} of {round_.max_gambles}, limit "
            f"{self.credits(round_.gamble_limit_coins)} credits."
        )
        answer = self.read("Gamble on " + " / ".join(offered) + " — or [c]ollect").strip().lower()
        if answer in ("", "c", "collect"):
            return tsar.collect(round_)
        try:
            after = tsar.gamble(self.model, round_, answer, self.rng)
        except RuleError as exc:
            self.console.print(f"[red]{exc}[/]")
            return round_
        if after.phase is tsar.Phase.VOIDED:
            return after
        step = after.gambles[-1]
        verdict = "[green]right[/]" if step.won else "[red]wrong[/]"
        self.console.print(f"  The card is the {step.card} ({step.card.colour}): {verdict}.")
        if after.phase is tsar.Phase.COMPLETE and step.won:
            self.console.print("  Gamble limit reached: the win is collected.")
        return after

    def settle(self, round_: tsar.TsarRound) -> None:
        self.rounds_played += 1
        self.history.append(round_)
        if round_.phase is tsar.Phase.VOIDED:
            refund = credits(round_.refund_coins, round_.bet.coin_size)
            self.balance += refund
            self.console.print(
                f"[red]Malfunction: the round is void ({round_.void_reason}). "
                f"Your bet of {refund:,.2f} credits is returned.[/]"
            )
            return
        paid = round_.paid_credits
        self.balance += paid
        if paid:
            self.console.print(
                f"[bold]You win {round_.paid_coins:,} coins = {paid:,.2f} credits[/]"
            )
        elif not round_.spin_win_coins:
            self.console.print("  no win")

    # -- loop ------------------------------------------------------------------------
    def bet_command(self, verb: str, argument: str) -> bool:
        if verb in ("l", "lines"):
            self.set_int_bet(argument, "lines")
        elif verb in ("c", "coins"):
            self.set_int_bet(argument, "coins")
        elif verb in ("z", "size"):
            self.set_bet(self.bet.lines, self.bet.coins_per_line, argument)
        else:
            return False
        return True

    def set_int_bet(self, argument: str, which: str) -> None:
        try:
            value = int(argument)
        except ValueError:
            self.console.print(f"[red]{which} needs a whole number, got {argument!r}[/]")
            return
        if which == "lines":
            self.set_bet(value, self.bet.coins_per_line, self.bet.coin_size)
        else:
            self.set_bet(self.bet.lines, value, self.bet.coin_size)
