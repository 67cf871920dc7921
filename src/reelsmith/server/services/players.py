"""Players and their money, for the operator: creating a player, deposits and withdrawals,
sessions issued and revoked, a player disabled and enabled."""

from __future__ import annotations

import uuid
from typing import Any

from sqlalchemy import Connection

from reelsmith.money import MoneyError
from reelsmith.server import inputs, tokens
from reelsmith.server.auth import acting_operator
from reelsmith.server.errors import (
    ConflictError,
    InsufficientBalanceError,
    InvalidInputError,
    NotAllowedError,
    not_found,
)
from reelsmith.server.markets import Market
from reelsmith.server.services.context import Context
from reelsmith.server.services.idempotency import Idempotency
from reelsmith.server.services.player import Player, read_player
from reelsmith.store import audit, players, sql
from reelsmith.wallet import ledger


def amount_minor(market: Market, body: dict[str, Any]) -> int:
    """The positive amount of ``body["amount"]`` (decimal text) in the market's minor units."""
    if "amount" not in body:
        raise InvalidInputError("invalid_amount", "the request needs an amount")
    try:
        value = inputs.decimal_text(body["amount"], "the amount")
    except inputs.DecimalSyntaxError as exc:
        raise InvalidInputError("invalid_amount", str(exc)) from None
    try:
        minor = market.currency.to_minor(value)
    except (MoneyError, ArithmeticError) as exc:
        raise InvalidInputError("invalid_amount", str(exc)) from None
    if minor <= 0:
        raise InvalidInputError("invalid_amount", "the amount must be positive")
    if minor > ledger.MAX_BALANCE_MINOR:
        raise InvalidInputError(
            "invalid_amount",
            f"the amount is above the largest balance a wallet holds "
            f"({market.currency.to_decimal(ledger.MAX_BALANCE_MINOR)})",
        )
    return minor


class Players:
    def __init__(self, context: Context, idempotency: Idempotency) -> None:
        self.context = context
        self.idempotency = idempotency

    def _read(self, connection: Connection, player_id: str, lock: bool) -> Player:
        return read_player(connection, player_id, self.context.db.is_sqlite, lock)

    def player_json(self, connection: Connection, player_id: str) -> dict[str, Any]:
        player = self._read(connection, player_id, lock=False)
        market = self.context.market_of(player.market, player.currency)
        return {
            "id": player.id,
            "external_ref": player.external_ref,
            "currency": player.currency,
            "market": player.market,
            "balance": market.money(player.balance_minor),
        }

    def create_player(
        self, external_ref: str, currency: str, market_id: str, key: str | None, fingerprint: str
    ) -> tuple[int, dict[str, Any]]:
        market = self.context.market(market_id)
        if currency.upper() != market.currency.code:
            raise InvalidInputError(
                "wrong_currency",
                f"market {market.id} plays in {market.currency.code}, not {currency}",
            )
        external_ref = inputs.external_ref(external_ref)

        def work(connection: Connection, _player: Player | None) -> tuple[int, dict[str, Any]]:
            existing = players.id_of(connection, external_ref)
            if existing is not None:
                raise ConflictError(
                    "player_exists",
                    f"a player with external_ref {external_ref!r} exists",
                    player_id=existing,
                )
            player_id = str(uuid.uuid4())
            now = self.context.clock.now_ms()
            code = market.currency.code
            players.insert_player(connection, player_id, external_ref, code, market.id, now)
            ledger.open_wallet(connection, player_id, code)
            audit.append(
                connection,
                player_id,
                "player_created",
                {
                    "external_ref": external_ref,
                    "currency": code,
                    "market": market.id,
                    **acting_operator(),
                },
                now,
            )
            return 201, self.player_json(connection, player_id)

        return self.idempotency.run("operator", key, fingerprint, work)

    def get_player(self, player_id: str, session_id: str | None = None) -> dict[str, Any]:
        """The player and wallet; with ``session_id``, when the session started (and the
        server's clock now, for the client's session clock) and, where the market shows it,
        the session's net position (wins and refunds less bets)."""
        with self.context.db.read() as connection:
            data = self.player_json(connection, player_id)
            market = self.context.market_of(data["market"], data["currency"])
            if session_id:
                data["server_ms"] = self.context.clock.now_ms()
                row = players.session_totals(connection, session_id, player_id)
                if row is not None:
                    data["session_started_ms"] = int(row["created_ms"])
                    if market.show_session_net:
                        data["session_net"] = market.money(
                            int(row["wins_minor"]) - int(row["bets_minor"])
                        )
            return data

    def transfer(
        self, player_id: str, kind: str, body: dict[str, Any], key: str | None, fingerprint: str
    ) -> tuple[int, dict[str, Any]]:
        """A deposit or a withdrawal."""
        if self.context.seamless is not None:
            raise NotAllowedError(
                "seamless_wallet",
                "the operator holds the players' money (the seamless wallet): this server"
                " takes no deposit and pays no withdrawal",
            )

        def work(connection: Connection, locked: Player | None) -> tuple[int, dict[str, Any]]:
            assert locked is not None
            player = locked
            market = self.context.market_of(player.market, player.currency)
            if kind == "deposit" and market.closed:
                raise ConflictError(
                    "market_closed",
                    f"market {market.id} is no longer served: its players take no deposit"
                    " (their money can be withdrawn)",
                )
            if "currency" in body and str(body["currency"]).upper() != player.currency:
                raise InvalidInputError(
                    "wrong_currency",
                    f"the player's wallet is in {player.currency}, not {body['currency']}",
                )
            minor = amount_minor(market, body)
            if kind == "deposit" and player.balance_minor + minor > ledger.MAX_BALANCE_MINOR:
                raise ConflictError(
                    "balance_limit",
                    f"the deposit would take the balance above the cap of "
                    f"{market.currency.to_decimal(ledger.MAX_BALANCE_MINOR)} {player.currency}",
                )
            wallet = ledger.wallet(connection, player_id)
            cash = self.context.house_account(connection, "cash", player.currency)
            now = self.context.clock.now_ms()
            sign = 1 if kind == "deposit" else -1
            try:
                ledger.post(
                    connection,
                    kind,
                    player_id,
                    [(wallet.account_id, sign * minor), (cash, -sign * minor)],
                    now,
                )
            except ledger.InsufficientFundsError:
                raise InsufficientBalanceError(
                    "insufficient_balance", "the balance does not cover the withdrawal"
                ) from None
            audit.append(
                connection, player_id, kind, {"amount_minor": minor, **acting_operator()}, now
            )
            return 200, self.player_json(connection, player_id)

        return self.idempotency.run(
            f"operator:{player_id}", key, fingerprint, work, player_id=player_id
        )

    def issue_session(self, player_id: str, operator_token: str | None = None) -> dict[str, Any]:
        """A new session for the player, and its token. With the seamless wallet the operator
        gives its own token for the player (``operator_token``), which every bet carries."""
        seamless = self.context.seamless is not None
        if seamless and (not isinstance(operator_token, str) or not operator_token.strip()):
            raise InvalidInputError(
                "operator_token_required",
                "with the seamless wallet a session needs the operator's token for the player:"
                ' send {"operator_token": "..."}',
            )
        if operator_token is not None and not seamless:
            raise InvalidInputError(
                "operator_token_not_used",
                "this server keeps the players' money itself (the transfer wallet): a session"
                " takes no operator_token",
            )
        if operator_token is not None and len(operator_token) > 1024:
            raise InvalidInputError(
                "invalid_operator_token", "the operator_token is longer than 1024 characters"
            )
        now = self.context.clock.now_ms()
        settings = self.context.settings
        expires = now + settings.token_ttl_seconds * 1000
        session_id = str(uuid.uuid4())
        with self.context.db.write() as connection:
            if self._read(connection, player_id, lock=True).disabled_ms is not None:
                raise NotAllowedError(
                    "player_disabled", f"player {player_id} is disabled: no new session"
                )
            players.insert_session(connection, session_id, player_id, now, expires)
            if seamless:
                sql.run(
                    connection,
                    "INSERT INTO wallet_sessions (session_id, player_id, operator_token)"
                    " VALUES (:session, :player, :token)",
                    {"session": session_id, "player": player_id, "token": operator_token},
                )
            audit.append(
                connection,
                player_id,
                "session_issued",
                {"session_id": session_id, "expires_ms": expires, **acting_operator()},
                now,
            )
        token = tokens.sign(settings.secret_key, tokens.Claims(player_id, session_id, expires))
        return {"token": token, "session_id": session_id, "expires_ms": expires}

    def revoke_sessions(
        self, player_id: str | None = None, session_id: str | None = None, by: str = "operator"
    ) -> dict[str, Any]:
        """End one session (``session_id``) or every live session of a player: their tokens
        are refused from then on. Ending an ended session again changes nothing."""
        now = self.context.clock.now_ms()
        with self.context.db.write() as connection:
            if session_id is not None:
                owner = players.session_owner(connection, session_id)
                if owner is None or (player_id is not None and owner != player_id):
                    raise not_found(f"session {session_id}")
                player_id = owner
            assert player_id is not None
            self._read(connection, player_id, lock=True)
            ended = players.end_live_sessions(connection, player_id, now, session_id)
            if ended:
                audit.append(
                    connection,
                    player_id,
                    "sessions_revoked",
                    {"session_ids": ended, "by": by, **acting_operator()},
                    now,
                )
        return {"player_id": player_id, "revoked": ended}

    def set_disabled(self, player_id: str, disabled: bool) -> dict[str, Any]:
        """Disable a player (every session ended, no new one, no round) or enable it again.
        The operator's money calls (deposit, withdrawal) still work: a disabled player can
        be paid out."""
        now = self.context.clock.now_ms()
        revoked: list[str] = []
        with self.context.db.write() as connection:
            player = self._read(connection, player_id, lock=True)
            if (player.disabled_ms is not None) != disabled:
                players.set_disabled(connection, player_id, now if disabled else None)
                audit.append(
                    connection,
                    player_id,
                    "player_disabled" if disabled else "player_enabled",
                    acting_operator(),
                    now,
                )
            if disabled:
                revoked = players.end_every_session(connection, player_id, now)
            data = self.player_json(connection, player_id)
        data["disabled"] = disabled
        data["revoked"] = revoked
        return data
