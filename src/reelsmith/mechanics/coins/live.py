"""A coin bet's part of a round: the bet's fields of the round's JSON.

A round staked in coins has reported the same fields since its first stored rounds: its bet
and options, its win in credits, what it paid and refunded, and, for the mechanics the model
does not declare, the fields a coin-bet round has always shown of them at zero (no free spins
awarded, no gamble played, no scatter on a screen). :func:`part` gives those defaults for the
mechanics the composition lacks, so every stored round reads as it was written.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from reelsmith.engine.bets import CoinBet, CoinBetOptions, credits
from reelsmith.engine.model import GameModel, ModelError
from reelsmith.engine.round import Context, Part, Round, Spin
from reelsmith.engine.rounds import replaced
from reelsmith.rng import RandomSource

#: What a round is given at its start about the market's and the player's say: the gamble
#: allowed, its limit, the most gambles (``reelsmith.mechanics.gamble.live.RoundOptions``).
OPTIONS = "options"


@cache
def bet_options(model: GameModel) -> CoinBetOptions:
    """The model's bet options, read and checked once per loaded model."""
    return CoinBetOptions.from_model(model)


def problems(model: GameModel) -> list[str]:
    try:
        bet_options(model)
    except ModelError as exc:
        return [str(exc)]
    return []


@dataclass(frozen=True)
class _Defaults:
    """A spin's fields of the mechanics a coin-bet model does not declare, at zero."""

    fields: tuple[tuple[str, object], ...]

    def to_json(self) -> dict[str, object]:
        return {
            key: list(value) if isinstance(value, tuple) else value for key, value in self.fields
        }


SPIN_DEFAULTS = {
    "scatter": (("scatter_win", None), ("scatters", 0), ("scatter_positions", ())),
    "free_spins": (
        ("triggers", 0),
        ("reveals", ()),
        ("spins_added", 0),
        ("free_spins_remaining", 0),
    ),
}
ROUND_DEFAULTS = {
    "free_spins": (
        ("free_spins_awarded", 0),
        ("free_spins_remaining", 0),
        ("free_spins_win_coins", 0),
    ),
    "gamble": (("gambles", ()), ("gamble_limit_coins", 0), ("max_gambles", 0)),
}


class CoinsPart(Part):
    name = "coins"
    stage = 0

    def __init__(self, absent: frozenset[str]) -> None:
        spin = tuple(f for m, found in SPIN_DEFAULTS.items() if m in absent for f in found)
        self.spin_defaults = _Defaults(spin) if spin else None
        self.round_defaults = _Defaults(
            tuple(f for m, found in ROUND_DEFAULTS.items() if m in absent for f in found)
        )

    def after_spin(self, ctx: Context, round_: Round, spin: Spin, rng: RandomSource) -> Round:
        if self.spin_defaults is None:
            return round_
        filled = spin.with_record(self.name, self.spin_defaults, first=True)
        return replaced(round_, spins=(*round_.spins[:-1], filled))

    def round_json(self, ctx: Context, round_: Round) -> dict[str, object]:
        bet: CoinBet = round_.bet
        options = round_.part(OPTIONS)
        out: dict[str, object] = {
            "bet": bet.to_json(),
            "options": options.to_json(),
            "spin_win_coins": round_.spin_win_coins,
            "win_credits": str(credits(round_.win_coins, bet.coin_size)),
            "paid_coins": round_.paid_coins,
            "refund_coins": round_.refund_coins,
        }
        out.update(self.round_defaults.to_json())
        return out


def part(model: GameModel) -> CoinsPart:
    from reelsmith.mechanics import declared_names

    present = declared_names(model)
    return CoinsPart(frozenset(m for m in ("scatter", "free_spins", "gamble") if m not in present))
