"""Coin bets in the terminal: the balance in credits (exact decimals), the bet's commands
(``l N`` paylines, ``c N`` coins per line, ``z X`` coin size), the bet taken when a round
starts and the win paid when it completes; and ``reelsmith evaluate``'s coin bet."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from rich.markup import escape

from reelsmith.engine.bets import BetError, CoinBet, credits, parse_decimal
from reelsmith.engine.model import GameModel
from reelsmith.engine.round import VOIDED, Round, Stake
from reelsmith.mechanics.coins.live import bet_options
from reelsmith.mechanics.gamble.live import OPTIONS, RoundOptions

HELP = (
    "[bold]s[/] spin   [bold]l N[/] paylines   [bold]c N[/] coins per line   "
    "[bold]z X[/] coin size   [bold]r[/] rules   [bold]q[/] quit"
)
#: A ways game's bet has no paylines to choose: its cost is fixed, its multiplier is not.
WAYS_HELP = (
    "[bold]s[/] spin   [bold]c N[/] bet multiplier   "
    "[bold]z X[/] coin size   [bold]r[/] rules   [bold]q[/] quit"
)


def describe_bet(model: GameModel, bet: CoinBet) -> str:
    """The bet in words: paylines x coins per line x coin size, or a ways game's cost x its
    multiplier x coin size."""
    if "ways" in model.raw or "anywhere" in model.raw:
        return f"bet {bet.lines} coins x {bet.coins_per_line} x {bet.coin_size}"
    return f"bet {bet.lines} lines x {bet.coins_per_line} coins x {bet.coin_size}"


class CoinsTerminal:
    help_text = HELP
    balance_unit = " credits"
    shows_spin_win = True

    def __init__(self, model: GameModel) -> None:
        self.model = model
        self.help_text = WAYS_HELP if "ways" in model.raw or "anywhere" in model.raw else HELP
        self.options = bet_options(model)
        self.bet: CoinBet = self.options.default

    def styles(self, model: GameModel) -> dict[str, str]:
        return {
            s.id: "bold magenta" if s.role == "wild" else "bold green"
            for s in model.symbols
            if s.role != "regular"
        }

    def money(self, game: Any, round_: Round, coins: int) -> str:
        return f"{credits(coins, round_.bet.coin_size):,.2f}"

    def pay_text(self, game: Any, round_: Round, coins: int) -> str:
        return f"{coins:,} coins"

    def status(self, game: Any) -> None:
        b = self.bet
        game.print(
            f"\n[bold]{escape(self.model.name)}[/]  balance [bold]{game.balance:,.2f}[/] credits"
            f"   {describe_bet(self.model, b)} = "
            f"[bold]{b.total_credits:,.2f}[/] credits ({b.total_coins} coins)"
        )

    def take(self, game: Any) -> tuple[CoinBet, Stake, dict[str, Any]] | None:
        if game.balance < self.bet.total_credits:
            game.print(
                f"[red]Insufficient balance: {game.balance:,.2f} credits is less than the bet "
                f"of {self.bet.total_credits:,.2f}[/]"
            )
            return None
        game.balance -= self.bet.total_credits
        bet = self.bet
        return bet, Stake(bet.lines, bet.coins_per_line), {OPTIONS: RoundOptions()}

    def settle(self, game: Any, round_: Round) -> None:
        bet: CoinBet = round_.bet
        if round_.phase == VOIDED:
            refund = credits(round_.refund_coins, bet.coin_size)
            game.balance += refund
            game.print(
                f"[red]Malfunction: the round is void ({escape(str(round_.void_reason))}). "
                f"Your bet of {refund:,.2f} credits is returned.[/]"
            )
            return
        paid = credits(round_.paid_coins, bet.coin_size)
        game.balance += paid
        if paid:
            game.print(f"[bold]You win {round_.paid_coins:,} coins = {paid:,.2f} credits[/]")
        elif not round_.spin_win_coins:
            game.print("  no win")

    def set_bet(self, game: Any, lines: int, coins_per_line: int, size: str | Decimal) -> None:
        try:
            self.bet = self.options.validate(lines, coins_per_line, size)
        except BetError as exc:
            game.print(f"[red]{escape(str(exc))}[/]")

    def command(self, game: Any, verb: str, argument: str) -> bool:
        if verb in ("l", "lines", "c", "coins"):
            try:
                value = int(argument)
            except ValueError:
                which = "lines" if verb in ("l", "lines") else "coins"
                game.print(f"[red]{which} needs a whole number, got {escape(argument)!r}[/]")
                return True
            if verb in ("l", "lines"):
                self.set_bet(game, value, self.bet.coins_per_line, self.bet.coin_size)
            else:
                self.set_bet(game, self.bet.lines, value, self.bet.coin_size)
        elif verb in ("z", "size"):
            self.set_bet(game, self.bet.lines, self.bet.coins_per_line, argument)
        else:
            return False
        return True


def evaluate_bet(model: GameModel, options: Any) -> tuple[CoinBet, str]:
    """``reelsmith evaluate``'s coin bet: the model's default for any part not given."""
    from reelsmith.terminal.evaluation import EvaluateOptionError

    if options.bet is not None or options.level:
        raise EvaluateOptionError(
            f"{model.name} takes --lines, --coins-per-line and --coin-size, not --bet or --level"
        )
    found = bet_options(model)
    default = found.default
    try:
        bet = found.validate(
            default.lines if options.lines is None else options.lines,
            default.coins_per_line if options.coins_per_line is None else options.coins_per_line,
            default.coin_size
            if options.coin_size is None
            else parse_decimal(options.coin_size, "coin size"),
        )
    except BetError as exc:
        raise EvaluateOptionError(str(exc)) from None
    return bet, f"{describe_bet(model, bet)} = {bet.total_coins} coins"


def face(model: GameModel) -> CoinsTerminal:
    return CoinsTerminal(model)


def _grid_evaluator(self: CoinsTerminal, model: GameModel, options: Any, faces: list[Any]) -> Any:
    """``reelsmith evaluate`` for a coin-bet title: a coin bet (the model's default for any
    part not given), wins in coins and credits."""
    from reelsmith.terminal.evaluation import GridEvaluator, evaluate_screen

    bet, describe = evaluate_bet(model, options)
    stake = Stake(bet.lines, bet.coins_per_line)

    def evaluate(grid: Any) -> dict[str, Any]:
        records, coins = evaluate_screen(model, grid, bet, stake)
        lines = records.get("paylines")
        scatter = records.get("scatter")
        out: dict[str, Any] = {
            "line_wins": [w.to_json() for w in lines.wins] if lines is not None else [],
            "scatter_win": scatter.win.to_json() if scatter is not None and scatter.win else None,
            "total_coins": coins,
            "total_credits": str(credits(coins, bet.coin_size)),
            "free_spins_triggered": False,
        }
        for found in faces:
            if hasattr(found, "evaluate_json"):
                found.evaluate_json(model, grid, stake, out)
        return out

    def check(model: GameModel, grid: Any) -> None:
        for found in faces:
            if hasattr(found, "check"):
                found.check(model, grid)

    def total(result: dict[str, Any]) -> str:
        return f"{result['total_coins']:,} coins = {result['total_credits']} credits"

    return GridEvaluator(
        describe=describe, unit="coins", check=check, evaluate=evaluate, total=total
    )


CoinsTerminal.grid_evaluator = _grid_evaluator  # type: ignore[attr-defined]
