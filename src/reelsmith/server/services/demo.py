"""The demo player: one play-money player, made on first start, whose sessions visitors
share."""

from __future__ import annotations

import uuid
from typing import Any

from sqlalchemy.exc import IntegrityError

from reelsmith.server import tokens
from reelsmith.server.services.context import Context
from reelsmith.server.services.players import Players, amount_minor
from reelsmith.store import audit, players
from reelsmith.wallet import ledger


class Demo:
    def __init__(self, context: Context, players_: Players) -> None:
        self.context = context
        self.players = players_

    def ensure_player(self) -> str:
        """The demo player: the one player marked ``demo`` (a mark only this method sets), made
        with its play-money balance on first start. Never another player: one an operator
        created (whatever its ``external_ref``) is not playable through ``/demo/session``."""
        context = self.context
        with context.db.read() as connection:
            found = players.demo_player(connection)
        if found is not None:
            return found
        market = context.market(context.settings.demo_market)
        minor = amount_minor(market, {"amount": context.settings.demo_balance})
        player_id = str(uuid.uuid4())
        now = context.clock.now_ms()
        code = market.currency.code
        ref = f"demo:{player_id}"
        try:
            with context.db.write() as connection:
                players.insert_player(connection, player_id, ref, code, market.id, now, demo=True)
                wallet = ledger.open_wallet(connection, player_id, code)
                cash = context.house_account(connection, "cash", code)
                ledger.post(
                    connection, "deposit", player_id, [(wallet, minor), (cash, -minor)], now
                )
                audit.append(
                    connection,
                    player_id,
                    "player_created",
                    {"external_ref": ref, "currency": code, "market": market.id, "demo": True},
                    now,
                )
                audit.append(connection, player_id, "deposit", {"amount_minor": minor}, now)
        except IntegrityError:  # another process made it first (one demo player: an index)
            with context.db.read() as connection:
                made = players.demo_player(connection)
            assert made is not None
            return made
        return player_id

    def session(self, player_id: str) -> dict[str, Any]:
        """A session of the demo player: the newest live one while more than half its life is
        left (its token signed again: the same text), else a new one. Demo sessions grow by
        about two per token lifetime, however many visitors ask."""
        settings = self.context.settings
        now = self.context.clock.now_ms()
        half = settings.token_ttl_seconds * 500
        with self.context.db.read() as connection:
            row = players.fresh_session(connection, player_id, now + half)
        if row is None:
            return self.players.issue_session(player_id)
        claims = tokens.Claims(player_id, str(row["id"]), int(row["expires_ms"]))
        token = tokens.sign(settings.secret_key, claims)
        return {"token": token, "session_id": claims.session_id, "expires_ms": claims.expires_ms}
