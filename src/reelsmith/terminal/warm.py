"""A throwaway terminal session that loads (or compiles) the live engine's compiled code
before the player's first spin.

The live engine calls numba functions compiled on a machine's first use and loaded from the
cache afterwards. ``reelsmith play`` plays a few rounds of the title here first, with seeded
draws, its output discarded and every question after the spin answered by leaving (the round
is then completed as an incomplete round is), announced when the code was not cached yet
(:func:`live_phase`), so the first spin the player asks for answers at once.
"""

from __future__ import annotations

import io
from decimal import Decimal

from rich.console import Console

from reelsmith.engine.model import GameModel
from reelsmith.rng import SeededSource

#: Rounds the throwaway session plays.
ROUNDS = 20


def live_phase(model: GameModel) -> str:
    """The compile phase of playing ``model`` in the terminal (:mod:`reelsmith.compiled`)."""
    return f"play {model.id}"


def play_throwaway_session(model: GameModel, variant: str | None) -> int:
    """Play :data:`ROUNDS` rounds of ``model`` in a terminal session nobody sees, with play
    money of its own; returns the rounds played."""
    from reelsmith.terminal.game import TerminalGame

    asked = 0

    def read(prompt: str) -> str:
        nonlocal asked
        if not prompt.startswith("Command") or asked >= ROUNDS:
            raise EOFError
        asked += 1
        return ""

    console = Console(file=io.StringIO(), width=100)
    game = TerminalGame(
        model, console, SeededSource(2026), Decimal("1000.00"), read, variant=variant
    )
    game.run()
    return game.rounds_played
