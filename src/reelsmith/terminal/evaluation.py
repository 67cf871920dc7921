"""``reelsmith evaluate``: a screen's wins at a bet the command line names, for any title.

The bet mechanic's terminal face reads the bet options it takes (a coin bet, or a bet size)
and refuses the others by name; a spin feature's face may read ``--level`` (the ladder's level,
whose multiplier pays the lines). The screen is paid by the title's own evaluators
(:func:`evaluate_screen`), as a spin's screen is once its window modifiers are done (a typed
grid is the screen the wins are read on), and each face adds what it says of a screen: a
scatter count past what the reels can show is refused, a trigger is reported, a plug-in's law
of the new win is given.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from reelsmith.engine.model import GameModel
from reelsmith.engine.round import Round, SpinSetup, Stake, context

Grid = npt.NDArray[np.int8]


class EvaluateOptionError(ValueError):
    """An option the title does not take, or a value it does not offer; the message names
    the option."""


@dataclass(frozen=True)
class EvaluateOptions:
    """The bet options of ``reelsmith evaluate`` as given (None: not given)."""

    lines: int | None = None
    coins_per_line: int | None = None
    coin_size: str | None = None
    bet: str | None = None
    level: int = 0


@dataclass(frozen=True)
class GridEvaluator:
    """Checks and evaluates the screens of one bet."""

    #: The bet, as the output's header line reads it.
    describe: str
    #: What a line win counts in ("coins", "line bets").
    unit: str
    #: Raises GridError for a screen the reels cannot show.
    check: Callable[[GameModel, Grid], None]
    #: The screen's wins as a JSON-ready dict (``line_wins``, ``total_coins``,
    #: ``free_spins_triggered``, ... ).
    evaluate: Callable[[Grid], dict[str, Any]]
    #: The total line of the text output for an evaluated screen.
    total: Callable[[dict[str, Any]], str]


class GridEvaluatorFactory(Protocol):
    def __call__(self, model: GameModel, options: EvaluateOptions) -> GridEvaluator: ...


def evaluate_screen(
    model: GameModel, grid: Grid, bet: Any, stake: Stake, setup: SpinSetup | None = None
) -> tuple[dict[str, Any], int]:
    """Each evaluator's record of ``grid`` and the coins they pay in all, at ``stake`` and
    ``setup`` (the base spin's by default)."""
    from reelsmith.mechanics import composition

    ctx = context(composition(model))
    setup = setup or ctx.base_setup
    round_ = Round(model.id, model.default_variant, bet, stake, "evaluate")
    records: dict[str, Any] = {}
    coins = 0
    for part in ctx.evaluators:
        found = part.evaluate(ctx, round_, setup, grid)
        if found is not None:
            records[part.name], paid = found
            coins += paid
    return records, coins


def grid_evaluator(model: GameModel, options: EvaluateOptions) -> GridEvaluator:
    """``reelsmith evaluate``'s evaluator for ``model`` at the bet ``options`` name: its bet
    mechanic's (:func:`reelsmith.terminal.game.terminal_faces`)."""
    from reelsmith.terminal.game import terminal_faces

    bets, faces = terminal_faces(model)
    evaluator: GridEvaluator = bets.grid_evaluator(model, options, faces)
    return evaluator
