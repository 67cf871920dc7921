"""A round as stored: its engine round replayed from its record, and the state a player
carries into a round at a bet; either unusable is a fault, logged for an operator."""

from __future__ import annotations

import json
import logging
from typing import Any

from sqlalchemy import Connection

from reelsmith.engine.errors import RuleError
from reelsmith.money import Currency, MoneyError
from reelsmith.rng import ReplayError
from reelsmith.server.errors import FaultError
from reelsmith.server.titles import Price, Title
from reelsmith.store import rounds

log = logging.getLogger("reelsmith.server")


def broken_start(player_id: str, game: str, state: Any, exc: Exception) -> FaultError:
    """A round that cannot start for want of a sound carried state (or an engine fault):
    logged for an operator, answered as the server's fault, with nothing written."""
    if state is None:
        log.error("a %s round of player %s does not start: %s", game, player_id, exc)
        return FaultError("internal_error", "the round could not start; nothing was taken")
    log.error("the stored %s state of player %s is unusable: %s", game, player_id, exc)
    return FaultError(
        "game_state_corrupt",
        "the game state stored for this bet is unusable; nothing was taken, and an operator"
        " must look at it",
    )


def restore(title: Title, row: Any) -> Any:
    """The engine round a stored round's record replays to."""
    try:
        return title.restore(json.loads(row["record"]))
    except (RuleError, ReplayError, ValueError, KeyError) as exc:
        log.error("round %s does not replay from its record: %s", row["id"], exc)
        raise FaultError(
            "round_record_corrupt", "the stored round does not replay; an operator must look at it"
        ) from None


def stored_price(title: Title, row: Any, engine_round: Any) -> Price:
    """The price ``row``'s round started with: its bet as taken (``bet_minor``, in the
    wallet's currency) over its bet in units, read from the round and never from a market."""
    try:
        return title.price(Currency.of(str(row["currency"])), int(row["bet_minor"]), engine_round)
    except (MoneyError, ValueError) as exc:
        log.error("round %s has no sound price: %s", row["id"], exc)
        raise FaultError(
            "round_record_corrupt",
            "the stored round's bet does not price it; an operator must look at it",
        ) from None


def load_state(connection: Connection, player_id: str, title: Title, bet: Any) -> Any:
    """The state the player carries at ``bet`` (None for a title that carries none)."""
    key = title.state_key(bet)
    if key is None:
        return None
    raw = rounds.carried_state(connection, player_id, title.game_id, key)
    try:
        return title.load_state(None if raw is None else json.loads(raw))
    except ValueError as exc:  # json.JSONDecodeError is one
        raise broken_start(player_id, title.game_id, raw, exc) from None
