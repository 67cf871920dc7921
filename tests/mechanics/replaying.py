"""Replaying a round the tests played: its own bet, stake, variant, actions and draws, with the
gamble not offered (as the tests play their rounds)."""

from __future__ import annotations

from reelsmith.engine import round as core
from reelsmith.engine.round import Composition, Round
from reelsmith.mechanics.gamble.live import OPTIONS, RoundOptions

#: The starting parts of a round played without the gamble.
NO_GAMBLE = {OPTIONS: RoundOptions(gamble_allowed=False)}


def replayed(composition: Composition, played: Round, mode: str | None = None) -> Round:
    """``played`` run again from its record (:func:`reelsmith.engine.round.replay_from`), in
    the bet mode it was played in (``mode``; None: the base game)."""
    return core.replay_from(
        composition,
        played.bet,
        played.stake,
        played.variant,
        played.actions,
        played.draws,
        parts=NO_GAMBLE if mode is None else {**NO_GAMBLE, "mode": mode},
    )
