"""``reelsmith play <catalogue title>``: any catalogue title in a terminal, against a
play-money balance.

The balance is in credits (exact decimals). The bet is taken when the spin starts; the win is
paid when the round completes (after free spins and any gamble); a voided round returns the
bet. Symbol names, the scatter, the free-spin awards and the gamble all come from the model.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

from rich.console import Console
from rich.markup import escape

from reelsmith.engine import catalogue_round as play
from reelsmith.engine.bets import BetError, CoinBet, credits, parse_decimal
from reelsmith.engine.catalogue import check_screen, mechanics
from reelsmith.engine.errors import RuleError
from reelsmith.engine.model import GameModel
from reelsmith.rng import RandomSource
from reelsmith.terminal.evaluation import EvaluateOptionError, EvaluateOptions, GridEvaluator
from reelsmith.terminal.screen import screen_table
from reelsmith.terminal.session import TerminalGame

HELP = (
    "[bold]s[/] spin   [bold]l N[/] paylines   [bold]c N[/] coins per line   "
    "[bold]z X[/] coin size   [bold]r[/] rules   [bold]q[/] quit"
)


class CatalogueTerminal(TerminalGame):
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
        self.rules = mechanics(model)
        self.options = play.bet_options(model)
        self.rng = rng
        self.bet: CoinBet = self.options.default
        self.names = {s.id: s.name for s in model.symbols}
        self.styles = {
            s.id: "bold magenta" if s.role == "wild" else "bold green"
            for s in model.symbols
            if s.role != "regular"
        }
        self.trigger_name = (
            model.symbols[self.rules.free_spins.symbol].name if self.rules.free_spins else ""
        )
        self.current: play.CatalogueRound | None = None
        self.history: list[play.CatalogueRound] = []

    def credits(self, coins: int) -> str:
        return f"{credits(coins, self.bet.coin_size):,.2f}"

    def status(self) -> None:
        b = self.bet
        self.console.print(
            f"\n[bold]{escape(self.model.name)}[/]  balance [bold]{self.balance:,.2f}[/] credits"
            f"   bet {b.lines} lines x {b.coins_per_line} coins x {b.coin_size} = "
            f"[bold]{b.total_credits:,.2f}[/] credits ({b.total_coins} coins)"
        )

    def show_spin(self, spin: play.SpinRecord, title: str) -> None:
        highlight = [p for w in spin.wins.line_wins for p in w.positions]
        if spin.wins.scatter_win:
            highlight.extend(spin.wins.scatter_win.positions)
        self.console.print(screen_table(spin.screen, self.names, self.styles, highlight, title))
        for win in spin.wins.line_wins:
            self.console.print(
                f"  payline {win.line}: {win.count} x {escape(self.names[win.symbol])} "
                f"pays {win.coins:,} coins"
            )
        if spin.wins.scatter_win:
            w = spin.wins.scatter_win
            self.console.print(
                f"  {w.count} {escape(self.names[w.symbol])} scattered pay {w.coins:,} coins"
            )
        if spin.kind == "base" and spin.spins_added:
            revealed = (
                " (revealed " + " + ".join(str(v) for v in spin.reveals) + ")"
                if spin.reveals
                else ""
            )
            self.console.print(
                f"  [bold green]{spin.triggers} {escape(self.trigger_name)} start the free "
                f"spins![/] [bold]{spin.spins_added} free spins[/]{revealed}"
            )
        elif spin.kind == "free" and spin.spins_added:
            self.console.print(f"  [green]+{spin.spins_added} free spins[/]")
        if spin.win_coins:
            self.console.print(
                f"  spin win [bold]{spin.win_coins:,}[/] coins "
                f"({self.credits(spin.win_coins)} credits)"
            )

    def set_bet(self, lines: int, coins_per_line: int, coin_size: str | Decimal) -> None:
        try:
            self.bet = self.options.validate(lines, coins_per_line, coin_size)
        except BetError as exc:
            self.console.print(f"[red]{escape(str(exc))}[/]")

    def play_round(self) -> None:
        if self.balance < self.bet.total_credits:
            self.console.print(
                f"[red]Insufficient balance: {self.balance:,.2f} credits is less than the bet "
                f"of {self.bet.total_credits:,.2f}[/]"
            )
            return
        self.balance -= self.bet.total_credits
        round_ = play.start_round(self.model, self.bet, self.rng, variant=self.variant)
        if round_.spins:
            self.show_spin(round_.spins[0], "Spin")
        self.current = round_
        try:
            self.play_features()
        except EOFError:
            # The player left mid-round: resolved as an incomplete round is (free spins
            # played out, the win collected).
            self.current = play.finish(self.model, self.current, self.rng)
            self.console.print("Input ended: the round was completed automatically.")
        self.settle(self.current)

    def play_features(self) -> None:
        round_ = self.current
        assert round_ is not None
        while round_.phase is play.Phase.FREE_SPINS:
            number = len(round_.spins)
            answer = self.read(
                f"Free spin {number} — {round_.free_spins_remaining} left "
                f"(free spins won so far {round_.free_spins_win_coins:,} coins). Enter to spin"
            )
            if answer.strip().lower() == "q":
                self.console.print("The free spins must be played out; playing on.")
            round_ = self.current = play.play_free_spin(self.model, round_, self.rng)
            if round_.phase is not play.Phase.VOIDED:
                self.show_spin(round_.spins[-1], f"Free spin {number}")
        if round_.free_spins_awarded and round_.phase is not play.Phase.VOIDED:
            self.console.print(
                f"[bold green]Free spins over:[/] {len(round_.free_spins)} spins won "
                f"{round_.free_spins_win_coins:,} coins"
            )
        while round_.phase is play.Phase.GAMBLE:
            round_ = self.current = self.gamble_step(round_)

    def gamble_step(self, round_: play.CatalogueRound) -> play.CatalogueRound:
        offered = play.gamble_choices(self.model, round_)
        self.console.print(
            f"Win [bold]{round_.win_coins:,}[/] coins ({self.credits(round_.win_coins)} "
            f"credits). Gamble {len(round_.gambles) + 1} of {round_.max_gambles}, limit "
            f"{self.credits(round_.gamble_limit_coins)} credits."
        )
        answer = self.read("Gamble on " + " / ".join(offered) + " — or [c]ollect").strip().lower()
        if answer in ("", "c", "collect"):
            return play.collect(round_)
        try:
            after = play.gamble(self.model, round_, answer, self.rng)
        except RuleError as exc:
            self.console.print(f"[red]{escape(str(exc))}[/]")
            return round_
        if after.phase is play.Phase.VOIDED:
            return after
        step = after.gambles[-1]
        verdict = "[green]right[/]" if step.won else "[red]wrong[/]"
        self.console.print(f"  The card is the {step.card} ({step.card.colour}): {verdict}.")
        if after.phase is play.Phase.COMPLETE and step.won:
            self.console.print("  Gamble limit reached: the win is collected.")
        return after

    def settle(self, round_: play.CatalogueRound) -> None:
        self.rounds_played += 1
        self.history.append(round_)
        if round_.phase is play.Phase.VOIDED:
            refund = credits(round_.refund_coins, round_.bet.coin_size)
            self.balance += refund
            self.console.print(
                f"[red]Malfunction: the round is void ({escape(str(round_.void_reason))}). "
                f"Your bet of {refund:,.2f} credits is returned.[/]"
            )
            return
        paid = credits(round_.paid_coins, round_.bet.coin_size)
        self.balance += paid
        if paid:
            self.console.print(
                f"[bold]You win {round_.paid_coins:,} coins = {paid:,.2f} credits[/]"
            )
        elif not round_.spin_win_coins:
            self.console.print("  no win")

    def bet_command(self, verb: str, argument: str) -> bool:
        if verb in ("l", "lines", "c", "coins"):
            try:
                value = int(argument)
            except ValueError:
                which = "lines" if verb in ("l", "lines") else "coins"
                self.console.print(
                    f"[red]{which} needs a whole number, got {escape(argument)!r}[/]"
                )
                return True
            if verb in ("l", "lines"):
                self.set_bet(value, self.bet.coins_per_line, self.bet.coin_size)
            else:
                self.set_bet(self.bet.lines, value, self.bet.coin_size)
        elif verb in ("z", "size"):
            self.set_bet(self.bet.lines, self.bet.coins_per_line, argument)
        else:
            return False
        return True


def grid_evaluator(model: GameModel, options: EvaluateOptions) -> GridEvaluator:
    """``reelsmith evaluate`` for a catalogue title: a coin bet (the model's default for any
    part not given), wins in coins and credits."""
    if options.bet is not None or options.level:
        raise EvaluateOptionError(
            f"{model.name} takes --lines, --coins-per-line and --coin-size, not --bet or --level"
        )
    bet_options = play.bet_options(model)
    default = bet_options.default
    try:
        bet = bet_options.validate(
            default.lines if options.lines is None else options.lines,
            default.coins_per_line if options.coins_per_line is None else options.coins_per_line,
            default.coin_size
            if options.coin_size is None
            else parse_decimal(options.coin_size, "coin size"),
        )
    except BetError as exc:
        raise EvaluateOptionError(str(exc)) from None
    describe = (
        f"bet {bet.lines} lines x {bet.coins_per_line} coins x {bet.coin_size} = "
        f"{bet.total_coins} coins"
    )

    def total(result: dict[str, Any]) -> str:
        return f"{result['total_coins']:,} coins = {result['total_credits']} credits"

    return GridEvaluator(
        describe=describe,
        unit="coins",
        check=check_screen,
        evaluate=lambda grid: dict(play.evaluate_grid(model, grid, bet)),
        total=total,
    )
