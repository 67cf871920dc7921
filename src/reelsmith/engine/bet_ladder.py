"""Bet levels: the bets of a title staked in whole multiples of one stake unit, and lowering the
bet to what a balance covers.

The engine knows no currency: a bet level ``n`` stakes ``n`` stake units, and a round settles in
stake units. A market prices one stake unit in its currency and offers some of the levels; the
server converts, once, at its boundary (:mod:`reelsmith.server.ladder_title`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from reelsmith.engine.bets import BetError
from reelsmith.engine.model import GameModel, ModelError


def _is_level(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


@dataclass(frozen=True)
class BetLevels:
    """The bet levels a title offers (whole stake units), ascending, and its default."""

    levels: tuple[int, ...]
    default: int

    @classmethod
    def from_model(cls, model: GameModel) -> BetLevels:
        where = f"{model.id} model: [bet]"
        try:
            raw_levels, default = model.bet["levels"], model.bet["default"]
        except (KeyError, TypeError):
            raise ModelError(
                f"{where} needs 'levels' (whole stake units, ascending) and a 'default' level"
            ) from None
        if not isinstance(raw_levels, list) or not raw_levels:
            raise ModelError(f"{where}: levels must be a list of whole stake units")
        for level in raw_levels:
            if not _is_level(level):
                raise ModelError(
                    f"{where}: level {level!r} is not a whole number of stake units above 0"
                )
        levels = tuple(raw_levels)
        if list(levels) != sorted(set(levels)):
            raise ModelError(f"{where}: the levels must be in ascending order, each once")
        if default not in levels:
            raise ModelError(f"{where}: default level {default!r} is not one of the levels")
        return cls(levels, default)

    def validate(self, level: object, allowed: Iterable[int] | None = None) -> int:
        """The bet level as one of the title's (and of ``allowed``, when given), or
        :class:`BetError` naming what is wrong."""
        offered = self.levels if allowed is None else tuple(allowed)
        if not isinstance(level, int) or not _is_level(level):
            raise BetError(f"bet level {level!r} is not a whole number of stake units above 0")
        if level in offered and level in self.levels:
            return level
        listed = ", ".join(str(n) for n in offered)
        raise BetError(f"bet level {level} is not offered; the levels are {listed}")


def lower_bet(allowed: Sequence[int], balance: int, selected: int) -> int | None:
    """The bet to play when the balance may not cover the selected one, all in one exact unit
    (a currency's minor units, say).

    The selected bet stays when the balance covers it; otherwise the highest allowed bet the
    balance covers; ``None`` when the balance is below the lowest allowed bet.
    """
    if balance >= selected:
        return selected
    covered = [size for size in allowed if size <= balance]
    return max(covered) if covered else None
