"""The resolver: rounds left open longer than the resolution delay are completed for the
player (remaining free spins played, a pending gamble collected, the winnings paid)."""

from __future__ import annotations

import logging

from reelsmith.server.services.context import Context
from reelsmith.server.services.player import read_player
from reelsmith.server.services.settlement import Settlement
from reelsmith.server.services.stored import restore, stored_price
from reelsmith.store import rounds

log = logging.getLogger("reelsmith.server")


class Resolver:
    def __init__(self, context: Context, settlement: Settlement) -> None:
        self.context = context
        self.settlement = settlement

    def resolve_stale_rounds(self) -> list[str]:
        """Complete the rounds left open for longer than the resolution delay, each in its own
        transaction under its player's lock: the ids resolved."""
        context = self.context
        cutoff = context.clock.now_ms() - context.settings.resolve_after_seconds * 1000
        with context.db.read() as connection:
            stale = rounds.stale(connection, cutoff)
        resolved = []
        for round_id, player_id, game in stale:
            title = context.title(game)
            with context.db.write() as connection:
                player = read_player(connection, player_id, context.db.is_sqlite, lock=True)
                row = rounds.round_mapping(connection, round_id)
                if row is None or row["status"] != "open" or row["updated_ms"] >= cutoff:
                    continue
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
                resolved.append(round_id)
                log.info(
                    "resolved round %s of player %s after the resolution delay", round_id, player_id
                )
        return resolved
