"""``reelsmith evaluate``'s part of a kind of title: a screen's wins at a bet the command line
names.

Each kind of title (:mod:`reelsmith.engine.title`) names a factory of this shape in its
terminal module: it reads the options the kind takes (a coin bet, or a bet size and a
free-spins level), refuses those it does not take by name, and returns a
:class:`GridEvaluator` that checks and evaluates screens and says what their totals are in.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from reelsmith.engine.model import GameModel

Grid = npt.NDArray[np.int8]


class EvaluateOptionError(ValueError):
    """An option the title's kind does not take, or a value it does not offer; the message
    names the option."""


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
