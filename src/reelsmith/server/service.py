"""The game service: the server's services put together over one database, one set of
markets and titles, one clock and one random source.

Each part has one job (see `reelsmith.server.services`); the routes reach them as
``service.players``, ``service.rounds``, ``service.autoplays``, ``service.recall``,
``service.resolver`` and ``service.demo``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from reelsmith.rng import RandomSource, SystemSource
from reelsmith.server.clock import Clock
from reelsmith.server.markets import Market
from reelsmith.server.metrics import Metrics
from reelsmith.server.registry import TitleRegistry
from reelsmith.server.services.autoplay import Autoplays
from reelsmith.server.services.context import Context
from reelsmith.server.services.demo import Demo
from reelsmith.server.services.free_rounds import FreeRounds
from reelsmith.server.services.idempotency import Idempotency
from reelsmith.server.services.payouts import PayoutReport, verify_payouts
from reelsmith.server.services.players import Players
from reelsmith.server.services.recall import Recall
from reelsmith.server.services.resolver import Resolver
from reelsmith.server.services.rounds import Rounds
from reelsmith.server.services.seamless import SeamlessSpins
from reelsmith.server.services.settlement import Settlement
from reelsmith.server.sessions import LiveSessions
from reelsmith.server.settings import Settings
from reelsmith.store import audit, rounds
from reelsmith.store.db import Database
from reelsmith.wallet import ledger
from reelsmith.wallet.seamless import SeamlessWallet


class GameService:
    def __init__(
        self,
        db: Database,
        settings: Settings,
        markets: dict[str, Market],
        clock: Clock,
        metrics: Metrics | None = None,
        rng: RandomSource | None = None,
        titles: TitleRegistry | None = None,
    ) -> None:
        self.context = Context(
            db,
            settings,
            markets,
            clock,
            metrics or Metrics(),
            rng or SystemSource(),
            titles if titles is not None else TitleRegistry.load(),
        )
        # the cache of live sessions the routes check tokens against, refreshed by the
        # session reads of state-changing requests too (see `reelsmith.server.sessions`)
        self.sessions = LiveSessions(db, clock, settings.session_recheck_ms)
        idempotency = self.idempotency = Idempotency(self.context, self.sessions)
        self.settlement = Settlement(self.context)
        self.players = Players(self.context, idempotency)
        self.autoplays = Autoplays(self.context, idempotency)
        self.rounds = Rounds(self.context, idempotency, self.settlement, self.autoplays)
        self.recall = Recall(self.context)
        self.free_rounds = FreeRounds(self.context, idempotency, self.rounds)
        self.resolver = Resolver(self.context, self.settlement)
        self.demo = Demo(self.context, self.players)
        self.seamless_spins: SeamlessSpins | None = None
        if settings.wallet == "seamless":
            wallet = SeamlessWallet.from_settings(
                db,
                settings.seamless_url,
                Path(settings.seamless_keys_dir),
                settings.seamless_timeout_seconds,
                sorted({market.currency.code for market in markets.values()}),
            )
            self.context.seamless = wallet
            self.seamless_spins = SeamlessSpins(self.rounds, wallet)

    def warm_up(self) -> int:
        """Play throwaway rounds of every title in every market that offers it, in memory
        (no database, seeded draws), until a few have gone through free spins and the
        gamble: the first call of each compiled kernel loads it (a quarter of a second or
        more), which a player's first spin would otherwise wait for. Returns the rounds."""
        from reelsmith.server.warm import play_throwaway_rounds

        return play_throwaway_rounds(self.context.titles, self.context.markets)

    def verify_ledger(self) -> ledger.LedgerReport:
        with self.context.db.read() as connection:
            return ledger.verify(connection)

    def verify_payouts(self) -> PayoutReport:
        with self.context.db.read() as connection:
            return verify_payouts(connection, self.context.titles)

    def verify_audit(self) -> audit.AuditReport:
        with self.context.db.read() as connection:
            return audit.verify(connection)

    def set_aside_rounds(self) -> list[dict[str, Any]]:
        """The open rounds the resolver failed to finish (`services.resolver`), oldest first."""
        with self.context.db.read() as connection:
            found = rounds.set_aside_rounds(connection)
        return [
            {
                "round_id": row["id"],
                "player_id": row["player_id"],
                "game": row["game"],
                "updated_ms": int(row["updated_ms"]),
                "failures": int(row["resolve_failures"]),
                "error": row["resolve_error"],
                "retry_ms": row["resolve_retry_ms"],
            }
            for row in found
        ]
