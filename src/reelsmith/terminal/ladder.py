"""``reelsmith play <ladder title>``: any title with the free-spins ladder and local pots in a
terminal, against a play-money balance.

Shows the pots for the current bet size, the collection meter, and in the free spins the
level, multiplier and spins left. The player's state per bet size lives in this session (the
server keeps it per player). The bet is lowered automatically when the balance no longer
covers it.

The engine counts bets in bet levels (stake units); this play-money table prices a stake unit
at :data:`PLAY_STAKE_UNIT` and shows bets and wins as amounts. Symbol names, pots, levels and
meter all come from the model; the symbols are coloured by role (wild, bonus, gem) and the
highest-paying regular symbols by their rank in the paytable.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from typing import Any

from rich.console import Console
from rich.table import Table

from reelsmith.engine import ladder as live
from reelsmith.engine.bet_ladder import lower_bet
from reelsmith.engine.bets import BetError, parse_decimal
from reelsmith.engine.ladder_state import BetState, PlayerState
from reelsmith.engine.model import GameModel
from reelsmith.rng import RandomSource
from reelsmith.terminal.evaluation import EvaluateOptionError, EvaluateOptions, Grid, GridEvaluator
from reelsmith.terminal.screen import screen_table
from reelsmith.terminal.session import TerminalGame

ROLE_STYLES = {"wild": "bold magenta", "bonus": "bold green", "gem": "bold blue"}
#: The regular symbols' colours, from the highest-paying (by its full line) down.
RANK_STYLES = ("bold red", "bold cyan", "bold yellow", "bold white")
#: The pots' colours, reel by reel (repeated past the last).
POT_STYLES = ("cyan", "blue", "green", "magenta", "red")
#: What one stake unit is worth in play money here: every pay of a ladder title is a whole
#: number of cents at this price when its paytable is (line pays even over 40 paylines).
PLAY_STAKE_UNIT = Decimal("0.20")


def symbol_styles(model: GameModel) -> dict[str, str]:
    """Colours by role, and for the highest-paying regular symbols by rank."""
    styles = {s.id: ROLE_STYLES[s.role] for s in model.symbols if s.role in ROLE_STYLES}
    regulars = [s for s in model.symbols if s.role == "regular"]
    ranked = sorted(regulars, key=lambda s: (-int(model.line_pays[s.index, model.reels]), s.index))
    styles.update((s.id, style) for s, style in zip(ranked, RANK_STYLES, strict=False))
    return styles


HELP = "[bold]s[/] spin   [bold]b X[/] bet size   [bold]r[/] rules   [bold]q[/] quit"


class LadderTerminal(TerminalGame):
    help_text = HELP

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
        self.rules = live.ladder_rules(model)
        self.styles = symbol_styles(model)
        self.rng = rng
        self.bet = self.rules.bets.default * PLAY_STAKE_UNIT
        self.player = PlayerState()
        self.names = {s.id: s.name for s in model.symbols}
        self.history: list[live.LadderRound] = []

    @staticmethod
    def level(bet: Decimal) -> int:
        return int(bet / PLAY_STAKE_UNIT)

    @staticmethod
    def money(stake: Fraction | int) -> Decimal:
        """Stake units as play money: exact, since a line win is a whole cent at 0.20."""
        stake = Fraction(stake)
        return Decimal(stake.numerator) * PLAY_STAKE_UNIT / stake.denominator

    def amount(self, coins: int, bet: Decimal | None = None) -> str:
        stake = self.rules.stake_units(coins, self.level(bet or self.bet))
        return f"{self.money(stake):,.2f}"

    def pots_table(self, state: BetState | None) -> Table:
        table = Table(title=f"Jackpots at bet {self.bet}", title_justify="left")
        styles = (POT_STYLES[n % len(POT_STYLES)] for n in range(len(self.rules.jackpots)))
        for j, style in zip(self.rules.jackpots, styles, strict=True):
            table.add_column(f"[{style}]{j.name}[/] (reel {j.reel + 1})", justify="right")
        pots = state.pots if state else tuple(j.seed for j in self.rules.jackpots)
        table.add_row(*(f"{Decimal(p) * self.bet:,.2f}" for p in pots))
        table.add_row(*(f"[dim]won before {j.cap * self.bet:,.2f}[/]" for j in self.rules.jackpots))
        return table

    def meter(self, state: BetState | None) -> str:
        filled = state.meter if state else 0
        return "●" * filled + "○" * (self.rules.spots - filled)

    def status(self) -> None:
        state = self.player.for_bet(self.level(self.bet))
        self.console.print(
            f"\n[bold]{self.model.name}[/]  balance [bold]{self.balance:,.2f}[/]   "
            f"bet [bold]{self.bet}[/]   collection meter {self.meter(state)}"
        )
        self.console.print(self.pots_table(state))

    def show_spin(self, spin: live.LadderSpin, round_: live.LadderRound, title: str) -> None:
        highlight = [p for w in spin.wins.line_wins for p in w.positions]
        self.console.print(screen_table(spin.screen, self.names, self.styles, highlight, title))
        for gem in spin.gems:
            pot = self.rules.jackpots[gem.reel]
            what = {
                live.WILD_REEL: "a WILD REEL",
                live.JACKPOT: "the JACKPOT SPIN",
            }.get(gem.reveal, self.names.get(gem.reveal, gem.reveal))
            self.console.print(
                f"  gem on reel {gem.reel + 1}: {pot.name} pot up to "
                f"{self.money(gem.pot_after * round_.bet_level):,.2f}; it reveals {what}"
            )
            if gem.jackpot_bets:
                self.console.print(
                    f"  [bold]Jackpot spin: the {pot.name} jackpot pays "
                    f"{self.money(gem.jackpot_bets * round_.bet_level):,.2f}![/]"
                )
        for win in spin.wins.line_wins:
            mult = f" x{spin.multiplier}" if spin.multiplier > 1 else ""
            self.console.print(
                f"  payline {win.line}: {win.count} x {self.names[win.symbol]} pays "
                f"{self.amount(win.coins * spin.multiplier)}{mult}"
            )
        if spin.bonus:
            self.console.print(
                f"  {spin.bonus} bonus symbols; meter {spin.meter_after}/{self.rules.spots}"
            )

    def play_round(self) -> None:
        allowed = [n * PLAY_STAKE_UNIT for n in self.rules.bets.levels]
        cents = [int(a * 100) for a in allowed]
        lowest = lower_bet(cents, int(self.balance * 100), int(self.bet * 100))
        lowered = None if lowest is None else allowed[cents.index(lowest)]
        if lowered is None:
            self.console.print(
                f"[red]Insufficient balance: {self.balance:,.2f} is below the lowest bet "
                f"{allowed[0]}[/]"
            )
            return
        if lowered != self.bet:
            self.console.print(
                f"[yellow]Bet lowered to {lowered}: your balance is below {self.bet}[/]"
            )
            self.bet = lowered
        self.balance -= self.bet
        level = self.level(self.bet)
        state = self.player.for_bet(level)
        round_ = live.start_round(self.model, level, state, self.rng, variant=self.variant)
        if round_.spins:
            self.show_spin(round_.spins[0], round_, "Spin")
        self.current = round_
        try:
            self.play_free_spins()
        except EOFError:
            self.current = live.finish(self.model, self.current, self.rng)
            self.console.print("Input ended: the round was completed automatically.")
        self.settle(self.current)

    def play_free_spins(self) -> None:
        round_ = self.current
        if round_.phase is live.Phase.FREE_SPINS:
            self.console.print("[bold green]Free spins![/]")
        while round_.phase is live.Phase.FREE_SPINS:
            level = round_.level
            mult = self.rules.multipliers[level - 1]
            self.read(
                f"Level {level} ({mult}x): {round_.level_spins_left} spins left, "
                f"unlocked up to level {round_.unlocked}, meter {self.meter(round_.state)}. "
                "Enter to spin"
            )
            round_ = self.current = live.play_free_spin(self.model, round_, self.rng)
            if round_.phase is live.Phase.VOIDED:
                break
            spin = round_.spins[-1]
            self.show_spin(spin, round_, f"Level {spin.level} free spin ({spin.multiplier}x)")

    def settle(self, round_: live.LadderRound) -> None:
        self.history.append(round_)
        self.rounds_played += 1
        kept = round_.kept_state
        if kept is not None:
            self.player = self.player.with_bet(round_.bet_level, kept)
        if round_.phase is live.Phase.VOIDED:
            refund = self.money(round_.refund_stake)
            self.balance += refund
            self.console.print(
                f"[red]Malfunction: the round is void ({round_.void_reason}). "
                f"Your bet of {refund} is returned.[/]"
            )
            return
        paid = self.money(round_.paid_stake)
        self.balance += paid
        if round_.free_spins:
            self.console.print(
                f"[bold green]Free spins over:[/] {len(round_.free_spins)} spins won "
                f"{self.amount(round_.free_spins_win_coins)}"
            )
        if round_.paid_coins:
            self.console.print(f"[bold]You win {paid:,.2f}[/]")
        else:
            self.console.print("  no win")

    def bet_command(self, verb: str, argument: str) -> bool:
        if verb not in ("b", "bet"):
            return False
        try:
            amount = parse_decimal(argument, "bet")
            sizes = [n * PLAY_STAKE_UNIT for n in self.rules.bets.levels]
            if amount not in sizes:
                listed = ", ".join(str(a) for a in sizes)
                raise BetError(f"bet {argument} is not offered; the bets are {listed}")
            self.bet = sizes[sizes.index(amount)]
        except BetError as exc:
            self.console.print(f"[red]{exc}[/]")
        return True


def grid_evaluator(model: GameModel, options: EvaluateOptions) -> GridEvaluator:
    """``reelsmith evaluate`` for a ladder title: a bet size priced as the terminal prices it
    (:data:`PLAY_STAKE_UNIT`) and a free-spins level, wins in line bets and play money."""
    if (
        options.lines is not None
        or options.coins_per_line is not None
        or options.coin_size is not None
    ):
        raise EvaluateOptionError(
            f"{model.name} takes --bet, not --lines, --coins-per-line or --coin-size"
        )
    rules = live.ladder_rules(model)
    sizes = [n * PLAY_STAKE_UNIT for n in rules.bets.levels]
    try:
        amount = (
            rules.bets.default * PLAY_STAKE_UNIT
            if options.bet is None
            else parse_decimal(options.bet, "bet")
        )
    except BetError as exc:
        raise EvaluateOptionError(str(exc)) from None
    if amount not in sizes:
        listed = ", ".join(str(a) for a in sizes)
        raise EvaluateOptionError(f"bet {options.bet} is not offered; the bets are {listed}")
    bet_level = rules.bets.levels[sizes.index(amount)]
    level = options.level
    if not 0 <= level <= rules.levels:
        raise EvaluateOptionError(
            f"--level must be 0 (main game) or 1 to {rules.levels}, got {level}"
        )
    multiplier = rules.multipliers[level - 1] if level else 1
    describe = f"bet {amount} over {rules.lines} paylines" + (
        f", free-spins level {level} ({multiplier}x line wins)" if level else ""
    )

    def evaluate(grid: Grid) -> dict[str, Any]:
        result = live.evaluate_grid(model, grid, bet_level, level)
        stake = Fraction(str(result["total_stake"]))
        return {
            **result,
            "bet": str(amount),
            "total_amount": f"{stake.numerator * PLAY_STAKE_UNIT / stake.denominator:.2f}",
        }

    def total(result: dict[str, Any]) -> str:
        text = f"{result['total_coins']:,} line bets = {result['total_amount']}"
        if result["bonus"]:
            text += f"   {result['bonus']} bonus symbols"
        if result["collection_spot"]:
            text += " (one collection spot)"
        return text

    return GridEvaluator(
        describe=describe, unit="line bets", check=live.check_screen, evaluate=evaluate, total=total
    )
