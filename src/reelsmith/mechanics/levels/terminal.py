"""Bet levels in the terminal: a play-money table prices a stake unit at
:data:`PLAY_STAKE_UNIT` and shows bets and wins as amounts (``b X`` sets the bet); the bet is
lowered automatically when the balance no longer covers it; the player's carried state per bet
level lives in this session (the server keeps it per player)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from reelsmith.engine.bet_ladder import lower_bet
from reelsmith.engine.bets import BetError, parse_decimal
from reelsmith.engine.ladder_state import PlayerState
from reelsmith.engine.model import GameModel
from reelsmith.engine.round import VOIDED, Round, Stake, coins_in_units
from reelsmith.mechanics.levels.live import bet_levels, spread
from reelsmith.mechanics.levels.server import LevelBet
from reelsmith.mechanics.pots.live import CARRIED_BEFORE, kept_state

ROLE_STYLES = {"wild": "bold magenta", "bonus": "bold green", "gem": "bold blue"}
#: The regular symbols' colours, from the highest-paying (by its full line) down.
RANK_STYLES = ("bold red", "bold cyan", "bold yellow", "bold white")
#: What one stake unit is worth in play money here: every pay of a bet-level title is a whole
#: number of cents at this price when its paytable is (line pays even over 40 paylines).
PLAY_STAKE_UNIT = Decimal("0.20")

HELP = "[bold]s[/] spin   [bold]b X[/] bet size   [bold]r[/] rules   [bold]q[/] quit"


def money(stake: Fraction | int) -> Decimal:
    """Stake units as play money: exact, since a line win is a whole cent at 0.20."""
    stake = Fraction(stake)
    return Decimal(stake.numerator) * PLAY_STAKE_UNIT / stake.denominator


class LevelsTerminal:
    help_text = HELP
    balance_unit = ""
    shows_spin_win = False

    def __init__(self, model: GameModel) -> None:
        self.model = model
        self.levels = bet_levels(model)
        self.bet = self.levels.default * PLAY_STAKE_UNIT
        self.player = PlayerState()
        from reelsmith.mechanics import declared_names

        self.carries = "pots" in declared_names(model)

    def styles(self, model: GameModel) -> dict[str, str]:
        """Colours by role, and for the highest-paying regular symbols by rank."""
        styles = {s.id: ROLE_STYLES[s.role] for s in model.symbols if s.role in ROLE_STYLES}
        regulars = [s for s in model.symbols if s.role == "regular"]
        ranked = sorted(
            regulars, key=lambda s: (-int(model.line_pays[s.index, model.reels]), s.index)
        )
        styles.update((s.id, style) for s, style in zip(ranked, RANK_STYLES, strict=False))
        return styles

    @staticmethod
    def level(bet: Decimal) -> int:
        return int(bet / PLAY_STAKE_UNIT)

    def state(self) -> Any:
        return self.player.for_bet(self.level(self.bet))

    def money(self, game: Any, round_: Round, coins: int) -> str:
        bet: LevelBet = round_.bet
        return f"{money(coins_in_units(round_, coins, bet.level)):,.2f}"

    def pay_text(self, game: Any, round_: Round, coins: int) -> str:
        return self.money(game, round_, coins)

    def status(self, game: Any) -> None:
        extra = "".join(
            f"   {face.status_segment(self.state())}"
            for face in game.faces
            if hasattr(face, "status_segment")
        )
        game.print(
            f"\n[bold]{self.model.name}[/]  balance [bold]{game.balance:,.2f}[/]   "
            f"bet [bold]{self.bet}[/]{extra}"
        )

    def take(self, game: Any) -> tuple[LevelBet, Stake, dict[str, Any]] | None:
        allowed = [n * PLAY_STAKE_UNIT for n in self.levels.levels]
        cents = [int(a * 100) for a in allowed]
        lowest = lower_bet(cents, int(game.balance * 100), int(self.bet * 100))
        lowered = None if lowest is None else allowed[cents.index(lowest)]
        if lowered is None:
            game.print(
                f"[red]Insufficient balance: {game.balance:,.2f} is below the lowest bet "
                f"{allowed[0]}[/]"
            )
            return None
        if lowered != self.bet:
            game.print(f"[yellow]Bet lowered to {lowered}: your balance is below {self.bet}[/]")
            self.bet = lowered
        game.balance -= self.bet
        level = self.level(self.bet)
        parts = {CARRIED_BEFORE: self.player.for_bet(level)} if self.carries else {}
        return LevelBet(level, self.bet), Stake(spread(self.model), 1), parts

    def settle(self, game: Any, round_: Round) -> None:
        bet: LevelBet = round_.bet
        if self.carries:
            kept = kept_state(round_)
            if kept is not None:
                self.player = self.player.with_bet(bet.level, kept)
        if round_.phase == VOIDED:
            refund = money(coins_in_units(round_, round_.refund_coins, bet.level))
            game.balance += refund
            game.print(
                f"[red]Malfunction: the round is void ({round_.void_reason}). "
                f"Your bet of {refund} is returned.[/]"
            )
            return
        paid = money(coins_in_units(round_, round_.paid_coins, bet.level))
        game.balance += paid
        if round_.paid_coins:
            game.print(f"[bold]You win {paid:,.2f}[/]")
        else:
            game.print("  no win")

    def command(self, game: Any, verb: str, argument: str) -> bool:
        if verb not in ("b", "bet"):
            return False
        try:
            amount = parse_decimal(argument, "bet")
            sizes = [n * PLAY_STAKE_UNIT for n in self.levels.levels]
            if amount not in sizes:
                listed = ", ".join(str(a) for a in sizes)
                raise BetError(f"bet {argument} is not offered; the bets are {listed}")
            self.bet = sizes[sizes.index(amount)]
        except BetError as exc:
            game.print(f"[red]{exc}[/]")
        return True


def evaluate_bet(model: GameModel, options: Any) -> tuple[LevelBet, str]:
    """``reelsmith evaluate``'s bet: a bet size priced as the terminal prices it."""
    from reelsmith.terminal.evaluation import EvaluateOptionError

    if (
        options.lines is not None
        or options.coins_per_line is not None
        or options.coin_size is not None
    ):
        raise EvaluateOptionError(
            f"{model.name} takes --bet, not --lines, --coins-per-line or --coin-size"
        )
    levels = bet_levels(model)
    sizes = [n * PLAY_STAKE_UNIT for n in levels.levels]
    try:
        amount = (
            levels.default * PLAY_STAKE_UNIT
            if options.bet is None
            else parse_decimal(options.bet, "bet")
        )
    except BetError as exc:
        raise EvaluateOptionError(str(exc)) from None
    if amount not in sizes:
        listed = ", ".join(str(a) for a in sizes)
        raise EvaluateOptionError(f"bet {options.bet} is not offered; the bets are {listed}")
    level = levels.levels[sizes.index(amount)]
    over = f"{model.line_count} paylines" if model.line_count else f"{spread(model)} coins a spin"
    return LevelBet(level, amount), f"bet {amount} over {over}"


def face(model: GameModel) -> LevelsTerminal:
    return LevelsTerminal(model)


def _grid_evaluator(self: LevelsTerminal, model: GameModel, options: Any, faces: list[Any]) -> Any:
    """``reelsmith evaluate`` for a bet-level title: a bet size priced as the terminal prices
    it (:data:`PLAY_STAKE_UNIT`) and, with the ladder, a free-spins level; wins in line bets
    and play money."""
    from reelsmith.terminal.evaluation import (
        EvaluateOptionError,
        GridEvaluator,
        evaluate_screen,
    )

    bet, describe = evaluate_bet(model, options)
    stake = Stake(spread(model), 1)
    setup = None
    for found in faces:
        if hasattr(found, "evaluate_setup"):
            setup, more = found.evaluate_setup(model, options.level)
            describe += more
    if setup is None and options.level:
        raise EvaluateOptionError(f"{model.name} has no free-spins levels: --level is not taken")

    def evaluate(grid: Any) -> dict[str, Any]:
        records, coins = evaluate_screen(model, grid, bet, stake, setup)
        lines = records.get("paylines")
        units = Fraction(coins * bet.level, spread(model))
        out: dict[str, Any] = {
            "line_wins": [w.to_json() for w in lines.wins] if lines is not None else [],
            "multiplier": setup.line_multiplier if setup is not None else 1,
            "total_coins": coins,
            "total_stake": str(units),
            "bet_level": bet.level,
        }
        for found in faces:
            if hasattr(found, "evaluate_json"):
                found.evaluate_json(model, grid, stake, out)
        out["bet"] = str(bet.amount)
        out["total_amount"] = f"{money(units):.2f}"
        return out

    def check(model: GameModel, grid: Any) -> None:
        for found in faces:
            if hasattr(found, "check"):
                found.check(model, grid)

    def total(result: dict[str, Any]) -> str:
        text = f"{result['total_coins']:,} line bets = {result['total_amount']}"
        if result.get("bonus"):
            text += f"   {result['bonus']} bonus symbols"
        if result.get("collection_spot"):
            text += " (one collection spot)"
        return text

    return GridEvaluator(
        describe=describe, unit="line bets", check=check, evaluate=evaluate, total=total
    )


LevelsTerminal.grid_evaluator = _grid_evaluator  # type: ignore[attr-defined]
