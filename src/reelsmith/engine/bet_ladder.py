"""Bet ladders: a title's bet sizes in currency, and lowering the bet to what a balance covers.

Amounts here are exact decimals in currency units (``Decimal("1.20")``); the server converts to
integer minor units at its boundary.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal

from reelsmith.engine.bets import BetError, parse_decimal
from reelsmith.engine.model import GameModel, ModelError


@dataclass(frozen=True)
class BetLadder:
    """The bet sizes a title offers, ascending, and its default."""

    sizes: tuple[Decimal, ...]
    default: Decimal

    @classmethod
    def from_model(cls, model: GameModel) -> BetLadder:
        where = f"{model.id} model: [bet]"
        try:
            sizes = tuple(Decimal(s) for s in model.bet["ladder"])
            default = Decimal(model.bet["default"])
        except (KeyError, TypeError, ArithmeticError, ValueError) as exc:
            raise ModelError(f"{where} needs 'ladder' and 'default' amounts: {exc!r}") from None
        if not sizes or list(sizes) != sorted(set(sizes)) or sizes[0] <= 0:
            raise ModelError(f"{where}: the ladder must be positive amounts in ascending order")
        if default not in sizes:
            raise ModelError(f"{where}: default {default} is not on the ladder")
        return cls(sizes, default)

    def validate(self, amount: str | Decimal, allowed: Iterable[Decimal] | None = None) -> Decimal:
        """The bet as one of the ladder's sizes, or :class:`BetError` naming what is wrong."""
        value = parse_decimal(amount, "bet")
        offered = self.sizes if allowed is None else tuple(allowed)
        for size in offered:
            if size == value:
                return size
        listed = ", ".join(str(s) for s in offered)
        raise BetError(f"bet {amount} is not offered; the bets are {listed}")


def lower_bet(allowed: Sequence[Decimal], balance: Decimal, selected: Decimal) -> Decimal | None:
    """The bet to play when the balance may not cover the selected one.

    The selected bet stays when the balance covers it; otherwise the highest allowed bet the
    balance covers; ``None`` when the balance is below the lowest allowed bet.
    """
    if balance >= selected:
        return selected
    covered = [size for size in allowed if size <= balance]
    return max(covered) if covered else None
