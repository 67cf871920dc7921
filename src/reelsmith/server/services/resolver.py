"""The resolver: rounds left open longer than the resolution delay are completed for the
player (remaining free spins played, a pending gamble collected, the winnings paid).

One round that cannot be finished (a damaged record, a title no longer served, a bug) stops
nothing: each round is resolved in its own transaction, and one that fails is set aside (its
failure stored with it, `store.rounds.set_aside`), reported (an error log line naming it, the
``reelsmith_rounds_set_aside`` gauge, ``GET /operator/rounds/set-aside``) and tried again
after a pause that doubles with each failure. The others are resolved, oldest first. A round
that met a database lock or statement timeout is only left for the next pass: its failure is
the moment's, not the round's."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.exc import OperationalError

from reelsmith.server.services.context import Context
from reelsmith.server.services.player import read_player
from reelsmith.server.services.settlement import Settlement
from reelsmith.server.services.stored import restore, stored_price
from reelsmith.store import rounds
from reelsmith.store.db import busy

log = logging.getLogger("reelsmith.server")

# A round set aside is tried again after this pause times 2 ** (its failures - 1), at most
# ``MAX_RETRY_MS``: a lasting fault is tried a few times a day, a passing one soon again.
FIRST_RETRY_MS = 10 * 60_000
MAX_RETRY_MS = 86_400_000


def retry_pause_ms(failures: int) -> int:
    """How long a round that has failed ``failures`` times is left before the next try."""
    return min(MAX_RETRY_MS, FIRST_RETRY_MS << min(max(failures, 1) - 1, 20))


@dataclass
class Pass:
    """What one pass of the resolver did: the rounds resolved, set aside (failed now) and
    left for the next pass (a database timeout)."""

    resolved: list[str] = field(default_factory=list)
    set_aside: list[str] = field(default_factory=list)
    deferred: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"resolved": self.resolved, "set_aside": self.set_aside, "deferred": self.deferred}


class Resolver:
    def __init__(self, context: Context, settlement: Settlement) -> None:
        self.context = context
        self.settlement = settlement

    def resolve_stale_rounds(self) -> Pass:
        """Complete the rounds left open for longer than the resolution delay, oldest first,
        each in its own transaction under its player's lock; a round that fails is set aside
        (see the module) and the pass goes on."""
        context = self.context
        now = context.clock.now_ms()
        cutoff = now - context.settings.resolve_after_seconds * 1000
        with context.db.read() as connection:
            stale = rounds.stale(connection, cutoff, now)
        done = Pass()
        for round_id, player_id, game in stale:
            try:
                if self._resolve(round_id, player_id, game, cutoff):
                    done.resolved.append(round_id)
            except Exception as exc:
                if isinstance(exc, OperationalError) and busy(exc):
                    done.deferred.append(round_id)
                    log.warning(
                        "round %s: the database was busy; it is resolved at a later pass",
                        round_id,
                    )
                    continue
                self._set_aside(round_id, player_id, game, exc)
                done.set_aside.append(round_id)
        with context.db.read() as connection:
            context.metrics.set_aside.set(rounds.count_set_aside(connection))
        return done

    def _resolve(self, round_id: str, player_id: str, game: str, cutoff: int) -> bool:
        context = self.context
        with context.db.write() as connection:
            player = read_player(connection, player_id, context.db.is_sqlite, lock=True)
            row = rounds.round_mapping(connection, round_id)
            if row is None or row["status"] != "open" or row["updated_ms"] >= cutoff:
                return False
            context.title(game)  # a title no longer served: the round is set aside
            title = context.versions.of_round(connection, row)  # the version it was played on
            engine_round = title.finish(restore(title, row), context.rng)
            self.settlement.settle(
                connection,
                player,
                stored_price(title, row, engine_round),
                title,
                round_id,
                engine_round,
                "auto_resolve",
                context.clock.now_ms(),
                resolved_by="auto",
            )
        log.info("resolved round %s of player %s after the resolution delay", round_id, player_id)
        return True

    def _set_aside(self, round_id: str, player_id: str, game: str, exc: Exception) -> None:
        """Store the failure with the round (in a transaction of its own: the round's was
        rolled back) and report it."""
        context = self.context
        error = f"{type(exc).__name__}: {exc}".strip()
        with context.db.write() as connection:
            failures = rounds.resolve_failures(connection, round_id) + 1
            retry_ms = context.clock.now_ms() + retry_pause_ms(failures)
            rounds.set_aside(connection, round_id, failures, error, retry_ms)
        context.metrics.resolve_failures.inc()
        log.error(
            "round %s of player %s (%s) could not be resolved, set aside until %d"
            " (%d failures): %s",
            round_id,
            player_id,
            game,
            retry_ms,
            failures,
            error,
            exc_info=exc,
            extra={
                "fields": {
                    "event": "round_set_aside",
                    "round_id": round_id,
                    "player_id": player_id,
                    "game": game,
                    "failures": failures,
                    "retry_ms": retry_ms,
                    "error": error,
                }
            },
        )
