"""The game service: every operation the API offers, each in one database transaction.

A state-changing operation locks the player, checks its idempotency key, moves the round and
the money together (round row, steps, ledger postings, wallet balance, carried game state,
session and autoplay counters, audit entry) and stores its response under the key, all in one
transaction: either everything is written or nothing is.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import orjson
from sqlalchemy import Connection, bindparam, insert, select, text, update
from sqlalchemy.exc import IntegrityError

from reelsmith.engine.bets import BetError
from reelsmith.engine.errors import RuleError
from reelsmith.money import MoneyError
from reelsmith.rng import RandomSource, ReplayError, SystemSource
from reelsmith.server import inputs, tokens
from reelsmith.server.clock import Clock
from reelsmith.server.errors import ApiError, bad_request, conflict, not_found
from reelsmith.server.markets import Market, MarketError
from reelsmith.server.metrics import Metrics
from reelsmith.server.registry import TitleRegistry
from reelsmith.server.sessions import SESSION_QUERY
from reelsmith.server.sessions import refusal as session_refusal
from reelsmith.server.settings import Settings
from reelsmith.server.titles import Title
from reelsmith.store import audit, sql
from reelsmith.store.db import Database
from reelsmith.store.tables import (
    autoplays,
    players,
    round_steps,
    rounds,
    sessions,
)
from reelsmith.wallet import ledger

log = logging.getLogger("reelsmith.server")


# 'open' written out, not bound: a planner uses a partial index (ix_rounds_open_updated, open
# rounds only) only when the query's condition visibly implies the index's
IDEMPOTENCY_QUERY = (
    "SELECT request_hash, status_code, response FROM idempotency_keys"
    " WHERE scope = :scope AND key = :key"
)
OPEN_ROUND_QUERY = (
    "SELECT * FROM rounds WHERE player_id = :player AND game = :game AND status = 'open'"
)
ROUND_QUERY = "SELECT * FROM rounds WHERE id = :id"
STALE_ROUNDS = (
    "SELECT id, player_id, game FROM rounds WHERE status = 'open' AND updated_ms < :cutoff"
)


# A history page's rounds and steps, as (JSON key, column, whether the column holds JSON).
HISTORY_ROUND = (
    ("round_id", "id", False),
    ("number", "number", False),
    ("game", "game", False),
    ("variant", "variant", False),
    ("status", "status", False),
    ("bet", "bet", True),
    ("bet_minor", "bet_minor", False),
    ("win_minor", "win_minor", False),
    ("currency", "currency", False),
    ("balance_before_minor", "balance_before", False),
    ("balance_after_minor", "balance_after", False),
    ("resolved_by", "resolved_by", False),
    ("created_ms", "created_ms", False),
    ("completed_ms", "completed_ms", False),
    ("round", "view", True),
)
HISTORY_STEP = (
    ("seq", "seq", False),
    ("action", "action", False),
    ("balance_after_minor", "balance_after", False),
    ("created_ms", "created_ms", False),
    ("view", "view", True),
)


def _json_object(sqlite: bool, fields: Sequence[tuple[str, str, bool]]) -> str:
    """SQL that makes a row's JSON object of ``fields`` (a JSON column goes in as JSON)."""
    if sqlite:
        pairs = ", ".join(f"'{key}', {f'json({col})' if js else col}" for key, col, js in fields)
        return f"json_object({pairs})"
    pairs = ", ".join(f"'{key}', {f'{col}::json' if js else col}" for key, col, js in fields)
    return f"json_build_object({pairs})::text"


def remembered(refusal: ApiError) -> bool:
    """Whether an idempotency key remembers this refusal of its request's handler: every 4xx
    decided once the key was claimed (402 insufficient balance, 409 round open or finished,
    403 game not offered, 400 a bet the market does not take, ...), so that a retry can
    never turn a refusal into a payment later; but not a 429 (its answer is to send the
    same request again later: a minimum round duration) and not a 5xx (nothing was applied,
    and an operator may repair the cause)."""
    return 400 <= refusal.status < 500 and refusal.status != 429


class Rendered(dict[str, Any]):
    """A response with its JSON text, written once: the text stored with the request's
    idempotency key is the one sent (and sent again on a retry)."""

    __slots__ = ("text",)

    def __init__(self, data: dict[str, Any], text: str) -> None:
        super().__init__(data)
        self.text = text


def time_ordered_id(now_ms: int) -> str:
    """A UUID of version 7 (RFC 9562): the time in milliseconds, then 74 random bits.

    Rounds get these ids: they sort by creation time, so a new round's entry in every index
    keyed by round (the rounds' key, the steps', the ledger's) lands at the index's end, on a
    page the last rounds already brought into memory, where a random id lands on any page of
    an index that grows with every round (one more page read and written per index)."""
    value = (now_ms & (2**48 - 1)) << 80 | int.from_bytes(os.urandom(10), "big")
    value = value & ~(0xF << 76) | 0x7 << 76  # version 7
    value = value & ~(0x3 << 62) | 0x2 << 62  # the RFC's variant
    return str(uuid.UUID(int=value))


def json_text(data: Any, sort_keys: bool) -> str:
    """Compact JSON text. orjson writes it, except for what only the standard library can
    (integers beyond 64 bits, which a client may send): the same text either way."""
    option = orjson.OPT_NON_STR_KEYS | (orjson.OPT_SORT_KEYS if sort_keys else 0)
    try:
        return orjson.dumps(data, option=option).decode()
    except TypeError:
        return json.dumps(data, separators=(",", ":"), sort_keys=sort_keys, ensure_ascii=False)


def _dumps(data: Any) -> str:
    """Compact JSON with sorted keys (rounds' records and views, bets, carried state)."""
    return json_text(data, sort_keys=True)


def request_hash(method: str, path: str, body: Any) -> str:
    return hashlib.sha256(f"{method} {path} {_dumps(body)}".encode()).hexdigest()


class PrefixedSource:
    """Forced draws first (dev mode QA), then the live source."""

    def __init__(self, values: list[int], then: RandomSource) -> None:
        self.values = list(values)
        self.then = then

    def randbelow(self, bound: int, purpose: str) -> int:
        if self.values:
            value = self.values.pop(0)
            if not 0 <= value < bound:
                raise ReplayError(f"forced draw {value} does not fit {purpose} below {bound}")
            return value
        return self.then.randbelow(bound, purpose)


class OpenRounds:
    """The engine state of recently played open rounds, by round id, with the record text it
    was stored as.

    A step restores its round by replaying the stored record's draws; when this process wrote
    that very record (same text), the engine round it wrote it from is the same value (rounds
    are immutable) and the replay is skipped. Another process's write changes the text, so a
    stale entry is never used.
    """

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self._items: OrderedDict[str, tuple[str, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def keep(self, round_id: str, record_text: str, engine_round: Any) -> None:
        with self._lock:
            self._items[round_id] = (record_text, engine_round)
            self._items.move_to_end(round_id)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def get(self, round_id: str, record_text: str) -> Any:
        with self._lock:
            found = self._items.get(round_id)
        if found is None or found[0] != record_text:
            return None
        return found[1]

    def forget(self, round_id: str) -> None:
        with self._lock:
            self._items.pop(round_id, None)


@dataclass
class Player:
    id: str
    external_ref: str
    currency: str
    market: str
    balance_minor: int
    last_round_ms: int | None
    rounds_played: int = 0
    account_id: int = 0
    audit_seq: int = 0
    audit_hash: str = ""
    disabled_ms: int | None = None


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
        self.db = db
        self.settings = settings
        self.markets = markets
        self.clock = clock
        self.metrics = metrics or Metrics()
        self.rng: RandomSource = rng or SystemSource()
        self.titles: TitleRegistry = titles if titles is not None else TitleRegistry.load()
        self._rounds = OpenRounds()
        self._house: dict[tuple[str, str], int] = {}

    # ------------------------------------------------------------------------------
    # helpers
    # ------------------------------------------------------------------------------
    def title(self, game: str) -> Title:
        try:
            return self.titles[game]
        except KeyError:
            known = ", ".join(sorted(self.titles))
            raise ApiError(
                404, "unknown_game", f"unknown game {game!r}; the games are {known}"
            ) from None

    def warm_up(self) -> int:
        """Play throwaway rounds of every title in every market that offers it, in memory
        (no database, seeded draws), until a few have gone through free spins and the
        gamble: the first call of each compiled kernel loads it (a quarter of a second or
        more), which a player's first spin would otherwise wait for. Returns the rounds."""
        from reelsmith.rng import SeededSource

        rng = SeededSource(2026)
        played = 0
        for market in self.markets.values():
            for game, title in self.titles.items():
                if game not in market.games:
                    continue
                bet = title.sample_bet(market)
                featured = 0
                for _ in range(2000):
                    round_ = title.start(market, bet, title.load_state(None), rng)
                    played += 1
                    title.view(market, round_)
                    title.record(round_)
                    if title.actions(round_):
                        featured += 1
                        while "free_spin" in title.actions(round_):
                            round_ = title.act(round_, "free_spin", rng)
                        title.finish(round_, rng)
                    if featured >= 3:
                        break
        return played

    def prepare_house_accounts(self) -> None:
        """Create (once, committed) and remember every house account the markets can use."""
        with self.db.write() as connection:
            for market in self.markets.values():
                code = market.currency.code
                for name in ("cash", *(f"game:{game}" for game in self.titles)):
                    self._house[(name, code)] = ledger.house_account(connection, name, code)

    def _house_account(self, connection: Connection, name: str, currency: str) -> int:
        """House account ids never change once created (see prepare_house_accounts)."""
        found = self._house.get((name, currency))
        return found if found is not None else ledger.house_account(connection, name, currency)

    def market(self, market_id: str) -> Market:
        try:
            return self.markets[market_id]
        except KeyError:
            known = ", ".join(sorted(self.markets))
            raise bad_request(
                "unknown_market", f"unknown market {market_id!r}; the markets are {known}"
            ) from None

    def _player_query(self, lock: bool) -> str:
        query = (
            "SELECT p.id, p.external_ref, p.currency, p.market, p.last_round_ms, p.rounds_played,"
            " p.audit_seq, p.audit_hash, p.disabled_ms, a.id AS account_id, a.balance"
            " FROM players p JOIN accounts a ON a.player_id = p.id"
            " WHERE p.id = :id"
        )
        if lock and not self.db.is_sqlite:
            # Both rows: a statement that waited for the lock then reads the newest version of
            # every row it locks, but a joined row it does not lock as of before the wait (a
            # stale balance, under READ COMMITTED).
            query += " FOR UPDATE OF p, a"
        return query

    def _player(self, connection: Connection, player_id: str, lock: bool) -> Player:
        """The player and its wallet; ``lock`` takes the player's row lock (PostgreSQL) for the
        rest of the transaction (SQLite's write transaction already excludes other writers)."""
        row = sql.one(connection, self._player_query(lock), {"id": player_id})
        if row is None:
            raise not_found(f"player {player_id}")
        return Player(
            str(row["id"]),
            str(row["external_ref"]),
            str(row["currency"]),
            str(row["market"]),
            int(row["balance"]),
            row["last_round_ms"],
            int(row["rounds_played"]),
            int(row["account_id"]),
            int(row["audit_seq"]),
            str(row["audit_hash"] or ""),
            row["disabled_ms"],
        )

    def money(self, market: Market, minor: int) -> dict[str, Any]:
        return market.money(minor)

    @contextmanager
    def _idempotent(
        self, connection: Connection, scope: str, key: str | None, fingerprint: str
    ) -> Iterator[dict[str, Any]]:
        """Yields a dict; if it holds ``"replay"`` the stored response must be returned as is.
        Otherwise the caller sets ``"response"`` and ``"status"``, which are stored."""
        if not key:
            raise bad_request(
                "idempotency_key_required",
                "send an Idempotency-Key header with every state-changing request",
            )
        if len(key) > 128:
            raise bad_request(
                "invalid_idempotency_key", "the Idempotency-Key is longer than 128 characters"
            )
        row = sql.one(connection, IDEMPOTENCY_QUERY, {"scope": scope, "key": key})
        holder: dict[str, Any] = {}
        if row is not None:
            if row["request_hash"] != fingerprint:
                raise conflict(
                    "idempotency_key_reused",
                    "this Idempotency-Key was used with a different request",
                )
            text = str(row["response"])
            holder["replay"] = (int(row["status_code"]), Rendered(json.loads(text), text))
            yield holder
            return
        yield holder
        # key order kept (not sorted): a replay is byte-for-byte the first response
        holder["text"] = json_text(holder["response"], sort_keys=False)
        sql.send(
            connection,
            "INSERT INTO idempotency_keys (scope, key, request_hash, status_code, response,"
            " created_ms) VALUES (:scope, :key, :hash, :status, :response, :now)",
            {
                "scope": scope,
                "key": key,
                "hash": fingerprint,
                "status": holder.get("status", 200),
                "response": holder["text"],
                "now": self.clock.now_ms(),
            },
        )

    def _run_idempotent(
        self,
        scope: str,
        key: str | None,
        fingerprint: str,
        work: Callable[[Connection, Player | None], tuple[int, dict[str, Any]]],
        player_id: str | None = None,
        prefetch: Sequence[tuple[str, dict[str, Any]]] = (),
        session_id: str | None = None,
    ) -> tuple[int, dict[str, Any]]:
        """Run ``work`` in one write transaction under the idempotency key; with ``player_id``
        the player's row is locked first and ``work`` gets the player (wallet and audit head
        as of the lock). ``prefetch`` names reads ``work`` will make first: on PostgreSQL they
        go to the server with the lock and the idempotency lookup, in one round trip. With
        ``session_id`` (a player's request) the session's row is read with them, and a
        session that is not live refuses the request (401) before anything else.

        A refusal ``work`` raises (it reached the handler: the key was free and the player
        locked) is remembered under the key like a success, unless it says to retry later
        (see `remembered`): its transaction is rolled back, and the refusal stored in one of
        its own (`_store_refusal`)."""
        for attempt in range(3):
            refusal: ApiError | None = None
            try:
                with self.db.write() as connection:
                    if player_id is not None:
                        sql.prefetch(connection, self._player_query(True), {"id": player_id})
                        if session_id is not None:
                            sql.prefetch(connection, SESSION_QUERY, {"id": session_id})
                        if key:
                            sql.prefetch(
                                connection, IDEMPOTENCY_QUERY, {"scope": scope, "key": key}
                            )
                        for query, params in prefetch:
                            sql.prefetch(connection, query, params)
                    player = (
                        None
                        if player_id is None
                        else self._player(connection, player_id, lock=True)
                    )
                    if session_id is not None and player_id is not None:
                        row = sql.one(connection, SESSION_QUERY, {"id": session_id})
                        ended = session_refusal(row, player_id, self.clock.now_ms())
                        if ended is not None:
                            raise ended
                    with self._idempotent(connection, scope, key, fingerprint) as holder:
                        if "replay" in holder:
                            return holder["replay"]  # type: ignore[no-any-return]
                        try:
                            status, response = work(connection, player)
                        except ApiError as exc:
                            if remembered(exc):
                                refusal = exc
                            raise
                        holder["status"], holder["response"] = status, response
                    return status, Rendered(response, holder["text"])
            except ApiError as exc:
                if exc is not refusal:
                    raise
                assert key is not None  # _idempotent refuses a request without one
                return self._store_refusal(scope, key, fingerprint, exc, player_id)
            except IntegrityError:
                # a concurrent request with the same key won the race: return its response
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    def _store_refusal(
        self, scope: str, key: str, fingerprint: str, refusal: ApiError, player_id: str | None
    ) -> tuple[int, dict[str, Any]]:
        """Store a refusal under its key (the work's own transaction was rolled back, nothing
        of it is left) and return it as the response, the same text a retry gets. Under the
        player's lock again: a request with the same key that came in meanwhile and stored
        its response first is the key's answer instead."""
        body = refusal.body()
        text_ = json_text(body, sort_keys=False)
        with self.db.write() as connection:
            if player_id is not None:
                self._player(connection, player_id, lock=True)
            sql.run(
                connection,
                "INSERT INTO idempotency_keys (scope, key, request_hash, status_code, response,"
                " created_ms) VALUES (:scope, :key, :hash, :status, :response, :now)"
                " ON CONFLICT (scope, key) DO NOTHING",
                {
                    "scope": scope,
                    "key": key,
                    "hash": fingerprint,
                    "status": refusal.status,
                    "response": text_,
                    "now": self.clock.now_ms(),
                },
            )
            row = sql.one(connection, IDEMPOTENCY_QUERY, {"scope": scope, "key": key})
        if row is None or row["request_hash"] != fingerprint:
            raise conflict(
                "idempotency_key_reused", "this Idempotency-Key was used with a different request"
            )
        stored = str(row["response"])
        return int(row["status_code"]), Rendered(json.loads(stored), stored)

    # ------------------------------------------------------------------------------
    # operator: players and money
    # ------------------------------------------------------------------------------
    def create_player(
        self, external_ref: str, currency: str, market_id: str, key: str | None, fingerprint: str
    ) -> tuple[int, dict[str, Any]]:
        market = self.market(market_id)
        if currency.upper() != market.currency.code:
            raise bad_request(
                "wrong_currency",
                f"market {market.id} plays in {market.currency.code}, not {currency}",
            )
        if not external_ref or len(external_ref) > 128:
            raise bad_request("invalid_external_ref", "external_ref must be 1 to 128 characters")

        def work(connection: Connection, _player: Player | None) -> tuple[int, dict[str, Any]]:
            existing = connection.execute(
                select(players.c.id).where(players.c.external_ref == external_ref)
            ).scalar()
            if existing is not None:
                raise conflict(
                    "player_exists",
                    f"a player with external_ref {external_ref!r} exists",
                    player_id=existing,
                )
            player_id = str(uuid.uuid4())
            now = self.clock.now_ms()
            connection.execute(
                insert(players).values(
                    id=player_id,
                    external_ref=external_ref,
                    currency=market.currency.code,
                    market=market.id,
                    created_ms=now,
                )
            )
            ledger.open_wallet(connection, player_id, market.currency.code)
            audit.append(
                connection,
                player_id,
                "player_created",
                {
                    "external_ref": external_ref,
                    "currency": market.currency.code,
                    "market": market.id,
                },
                now,
            )
            return 201, self._player_json(connection, player_id)

        return self._run_idempotent("operator", key, fingerprint, work)

    def _player_json(self, connection: Connection, player_id: str) -> dict[str, Any]:
        player = self._player(connection, player_id, lock=False)
        market = self.market(player.market)
        return {
            "id": player.id,
            "external_ref": player.external_ref,
            "currency": player.currency,
            "market": player.market,
            "balance": self.money(market, player.balance_minor),
        }

    def get_player(self, player_id: str, session_id: str | None = None) -> dict[str, Any]:
        """The player and wallet; with ``session_id``, when the session started (and the
        server's clock now, for the client's session clock) and, where the market shows it,
        the session's net position (wins and refunds less bets)."""
        with self.db.read() as connection:
            data = self._player_json(connection, player_id)
            market = self.market(data["market"])
            if session_id:
                data["server_ms"] = self.clock.now_ms()
                row = sql.one(
                    connection,
                    "SELECT bets_minor, wins_minor, created_ms FROM sessions WHERE id = :id"
                    " AND player_id = :player",
                    {"id": session_id, "player": player_id},
                )
                if row is not None:
                    data["session_started_ms"] = int(row["created_ms"])
                    if market.show_session_net:
                        data["session_net"] = self.money(
                            market, int(row["wins_minor"]) - int(row["bets_minor"])
                        )
            return data

    def _amount_minor(self, market: Market, body: dict[str, Any]) -> int:
        if "amount" not in body:
            raise bad_request("invalid_amount", "the request needs an amount")
        try:
            value = inputs.decimal_text(body["amount"], "the amount")
        except inputs.DecimalSyntaxError as exc:
            raise bad_request("invalid_amount", str(exc)) from None
        try:
            minor = market.currency.to_minor(value)
        except (MoneyError, ArithmeticError) as exc:
            raise bad_request("invalid_amount", str(exc)) from None
        if minor <= 0:
            raise bad_request("invalid_amount", "the amount must be positive")
        if minor > ledger.MAX_BALANCE_MINOR:
            raise bad_request(
                "invalid_amount",
                f"the amount is above the largest balance a wallet holds "
                f"({market.currency.to_decimal(ledger.MAX_BALANCE_MINOR)})",
            )
        return minor

    def transfer(
        self, player_id: str, kind: str, body: dict[str, Any], key: str | None, fingerprint: str
    ) -> tuple[int, dict[str, Any]]:
        """A deposit or a withdrawal."""

        def work(connection: Connection, locked: Player | None) -> tuple[int, dict[str, Any]]:
            assert locked is not None
            player = locked
            market = self.market(player.market)
            if "currency" in body and str(body["currency"]).upper() != player.currency:
                raise bad_request(
                    "wrong_currency",
                    f"the player's wallet is in {player.currency}, not {body['currency']}",
                )
            minor = self._amount_minor(market, body)
            if kind == "deposit" and player.balance_minor + minor > ledger.MAX_BALANCE_MINOR:
                raise conflict(
                    "balance_limit",
                    f"the deposit would take the balance above the cap of "
                    f"{market.currency.to_decimal(ledger.MAX_BALANCE_MINOR)} {player.currency}",
                )
            wallet = ledger.wallet(connection, player_id)
            cash = self._house_account(connection, "cash", player.currency)
            now = self.clock.now_ms()
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
                raise ApiError(
                    402, "insufficient_balance", "the balance does not cover the withdrawal"
                ) from None
            audit.append(connection, player_id, kind, {"amount_minor": minor}, now)
            return 200, self._player_json(connection, player_id)

        return self._run_idempotent(
            f"operator:{player_id}", key, fingerprint, work, player_id=player_id
        )

    def issue_session(self, player_id: str) -> dict[str, Any]:
        now = self.clock.now_ms()
        expires = now + self.settings.token_ttl_seconds * 1000
        session_id = str(uuid.uuid4())
        with self.db.write() as connection:
            if self._player(connection, player_id, lock=True).disabled_ms is not None:
                raise ApiError(
                    403, "player_disabled", f"player {player_id} is disabled: no new session"
                )
            connection.execute(
                insert(sessions).values(
                    id=session_id, player_id=player_id, created_ms=now, expires_ms=expires
                )
            )
            audit.append(
                connection,
                player_id,
                "session_issued",
                {"session_id": session_id, "expires_ms": expires},
                now,
            )
        token = tokens.sign(self.settings.secret_key, tokens.Claims(player_id, session_id, expires))
        return {"token": token, "session_id": session_id, "expires_ms": expires}

    def revoke_sessions(
        self, player_id: str | None = None, session_id: str | None = None, by: str = "operator"
    ) -> dict[str, Any]:
        """End one session (``session_id``) or every live session of a player: their tokens
        are refused from then on. Ending an ended session again changes nothing."""
        now = self.clock.now_ms()
        with self.db.write() as connection:
            if session_id is not None:
                row = sql.one(
                    connection,
                    "SELECT player_id FROM sessions WHERE id = :id",
                    {"id": session_id},
                )
                if row is None or (player_id is not None and row["player_id"] != player_id):
                    raise not_found(f"session {session_id}")
                player_id = str(row["player_id"])
            assert player_id is not None
            self._player(connection, player_id, lock=True)
            query = (
                "SELECT id FROM sessions WHERE player_id = :player AND revoked_ms IS NULL"
                " AND expires_ms > :now"
            )
            params: dict[str, Any] = {"player": player_id, "now": now}
            if session_id is not None:
                query += " AND id = :id"
                params["id"] = session_id
            ended = [str(r.id) for r in connection.execute(text(query), params)]
            for ended_id in ended:
                connection.execute(
                    update(sessions).where(sessions.c.id == ended_id).values(revoked_ms=now)
                )
            if ended:
                audit.append(
                    connection,
                    player_id,
                    "sessions_revoked",
                    {"session_ids": ended, "by": by},
                    now,
                )
        return {"player_id": player_id, "revoked": ended}

    def set_disabled(self, player_id: str, disabled: bool) -> dict[str, Any]:
        """Disable a player (every session ended, no new one, no round) or enable it again.
        The operator's money calls (deposit, withdrawal) still work: a disabled player can
        be paid out."""
        now = self.clock.now_ms()
        revoked: list[str] = []
        with self.db.write() as connection:
            player = self._player(connection, player_id, lock=True)
            if (player.disabled_ms is not None) != disabled:
                connection.execute(
                    update(players)
                    .where(players.c.id == player_id)
                    .values(disabled_ms=now if disabled else None)
                )
                audit.append(
                    connection,
                    player_id,
                    "player_disabled" if disabled else "player_enabled",
                    {},
                    now,
                )
            if disabled:
                revoked = [
                    str(r.id)
                    for r in connection.execute(
                        text(
                            "UPDATE sessions SET revoked_ms = :now WHERE player_id = :player"
                            " AND revoked_ms IS NULL RETURNING id"
                        ),
                        {"now": now, "player": player_id},
                    )
                ]
            data = self._player_json(connection, player_id)
        data["disabled"] = disabled
        data["revoked"] = revoked
        return data

    def is_demo(self, player_id: str) -> bool:
        with self.db.read() as connection:
            return bool(
                connection.execute(select(players.c.demo).where(players.c.id == player_id)).scalar()
            )

    # ------------------------------------------------------------------------------
    # player: games and rounds
    # ------------------------------------------------------------------------------
    def _open_round(self, connection: Connection, player_id: str, game: str) -> Any:
        return sql.one(connection, OPEN_ROUND_QUERY, {"player": player_id, "game": game})

    def _load_state(self, connection: Connection, player_id: str, title: Title, bet: Any) -> Any:
        key = title.state_key(bet)
        if key is None:
            return None
        raw = sql.scalar(
            connection,
            "SELECT state FROM game_states WHERE player_id = :player AND game = :game"
            " AND bet_key = :key",
            {"player": player_id, "game": title.game_id, "key": key},
        )
        try:
            return title.load_state(None if raw is None else json.loads(raw))
        except ValueError as exc:  # json.JSONDecodeError is one
            raise self._broken_start(player_id, title.game_id, raw, exc) from None

    @staticmethod
    def _broken_start(player_id: str, game: str, state: Any, exc: Exception) -> ApiError:
        """A round that cannot start for want of a sound carried state (or an engine fault):
        logged for an operator, answered as the server's 500, with nothing written."""
        if state is None:
            log.error("a %s round of player %s does not start: %s", game, player_id, exc)
            return ApiError(500, "internal_error", "the round could not start; nothing was taken")
        log.error("the stored %s state of player %s is unusable: %s", game, player_id, exc)
        return ApiError(
            500,
            "game_state_corrupt",
            "the game state stored for this bet is unusable; nothing was taken, and an operator"
            " must look at it",
        )

    def _save_state(
        self, connection: Connection, player_id: str, title: Title, engine_round: Any, now: int
    ) -> None:
        kept = title.kept_state(engine_round)
        if kept is None:
            return
        key, state = kept
        sql.send(
            connection,
            "INSERT INTO game_states (player_id, game, bet_key, state, updated_ms)"
            " VALUES (:player, :game, :key, :state, :now)"
            " ON CONFLICT (player_id, game, bet_key)"
            " DO UPDATE SET state = excluded.state, updated_ms = excluded.updated_ms",
            {
                "player": player_id,
                "game": title.game_id,
                "key": key,
                "state": _dumps(state),
                "now": now,
            },
        )

    def _source(self, forced: list[int] | None) -> RandomSource:
        if forced is None:
            return self.rng
        if not self.settings.dev_mode:
            raise ApiError(403, "dev_mode_only", "forced draws are only accepted in dev mode")
        if not isinstance(forced, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in forced
        ):
            raise bad_request("invalid_forced_draw", "forced_draws must be a list of integers")
        return PrefixedSource(forced, self.rng)

    def _settle(
        self,
        connection: Connection,
        player: Player,
        market: Market,
        title: Title,
        round_id: str,
        engine_round: Any,
        action: str,
        now: int,
        resolved_by: str = "player",
        started_with: int | None = None,
        new_round: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Move the money a step settles and write the round's new state and its step.

        ``started_with`` is the bet when this step is the spin that started the round: the
        player's round count and the session's bets move here too, in the same statements as
        the audit head and the session's wins. ``new_round`` is then the new round's row (its
        columns known at the start): the round is written once, with the state this step
        leaves it in, rather than inserted and then updated."""
        outcome = title.outcome(market, engine_round)
        game_account = self._house_account(connection, f"game:{title.game_id}", player.currency)
        balance = player.balance_minor
        for kind, amount in (
            ("win", outcome.win_minor),
            ("jackpot_win", outcome.jackpot_minor),
            ("refund", outcome.refund_minor),
        ):
            if amount:
                ledger.post(
                    connection,
                    kind,
                    player.id,
                    [(player.account_id, amount), (game_account, -amount)],
                    now,
                    round_id,
                    wallets=(player.account_id,),
                )
                balance += amount
        finished = outcome.status != "open"
        view = title.view(market, engine_round)
        record = title.record(engine_round)
        paid = outcome.win_minor + outcome.jackpot_minor
        view_text = _dumps(view)
        record_text = _dumps(record)
        if outcome.status == "voided":
            log.warning(
                "round %s of player %s voided (%s): no pay, bet of %d minor units returned",
                round_id,
                player.id,
                view.get("void_reason") or "no reason given",
                outcome.refund_minor,
            )
        settled_row = {
            "status": outcome.status,
            "record": record_text,
            "view": view_text,
            "win": paid,
            "now": now,
            "after": balance if finished else None,
            "completed": now if finished else None,
            "resolved": (resolved_by if outcome.status == "complete" else "void")
            if finished
            else None,
            "id": round_id,
        }
        if new_round is None:
            sql.send(
                connection,
                "UPDATE rounds SET status = :status, record = :record, view = :view,"
                " win_minor = :win, updated_ms = :now, balance_after = :after,"
                " completed_ms = :completed, resolved_by = :resolved WHERE id = :id",
                settled_row,
            )
        else:
            sql.send(
                connection,
                "INSERT INTO rounds (id, player_id, number, session_id, game, variant, currency,"
                " bet_minor, bet, status, record, view, win_minor, balance_before,"
                " balance_after, autoplay_id, resolved_by, created_ms, updated_ms, completed_ms)"
                " VALUES (:id, :player, :number, :session, :game, :variant, :currency,"
                " :bet_minor, :bet, :status, :record, :view, :win, :before, :after, :autoplay,"
                " :resolved, :now, :now, :completed)",
                {**new_round, **settled_row},
            )
        if finished:
            self._save_state(connection, player.id, title, engine_round, now)
        sql.send(
            connection,
            "INSERT INTO round_steps (round_id, seq, action, view, balance_after, created_ms)"
            " VALUES (:round, :seq, :action, :view, :balance, :now)",
            {
                "round": round_id,
                "seq": len(record["actions"]),
                "action": action,
                "view": view_text,
                "balance": balance,
                "now": now,
            },
        )
        player.audit_hash = audit.append(
            connection,
            player.id,
            "round_step",
            {
                "round_id": round_id,
                "game": title.game_id,
                "action": action,
                "status": outcome.status,
                "win_minor": outcome.win_minor,
                "jackpot_minor": outcome.jackpot_minor,
                "refund_minor": outcome.refund_minor,
                "balance_minor": balance,
            },
            now,
            round_id,
            head=(player.audit_seq, player.audit_hash),
            move_head=False,
        )
        player.audit_seq += 1
        started = started_with is not None
        sql.send(
            connection,
            "UPDATE players SET audit_seq = :seq, audit_hash = :hash"
            + (", last_round_ms = :now, rounds_played = rounds_played + 1" if started else "")
            + " WHERE id = :id",
            {"seq": player.audit_seq, "hash": player.audit_hash, "now": now, "id": player.id},
        )
        if started or finished:
            sql.send(
                connection,
                "UPDATE sessions SET bets_minor = bets_minor + :bet, rounds = rounds + :started,"
                " wins_minor = wins_minor + :wins"
                " WHERE id = (SELECT session_id FROM rounds WHERE id = :round)",
                {
                    "bet": started_with or 0,
                    "started": int(started),
                    "wins": paid + outcome.refund_minor if finished else 0,
                    "round": round_id,
                },
            )
        if finished:
            self.metrics.round_finished(title.game_id, outcome.status, paid)
        player.balance_minor = balance
        if finished:
            self._rounds.forget(round_id)
        else:
            self._rounds.keep(round_id, record_text, engine_round)
        return {"view": view, "balance": balance, "finished": finished, "outcome": outcome}

    def _round_response(
        self,
        connection: Connection,
        player: Player,
        market: Market,
        round_id: str,
        settled: dict[str, Any],
        session_id: str | None,
        extra: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        view = settled["view"]
        bet_minor = view["bet_minor"]
        win_minor = view["win_minor"]
        response: dict[str, Any] = {
            "round_id": round_id,
            "round": view,
            "status": settled["outcome"].status,
            "balance": self.money(market, settled["balance"]),
            "win": self.money(market, win_minor),
            "bet": self.money(market, bet_minor),
            "celebrate": win_minor > 0
            and (market.celebrate_wins_not_above_stake or win_minor > bet_minor),
        }
        if market.show_session_net and session_id:
            row = sql.one(
                connection,
                "SELECT bets_minor, wins_minor FROM sessions WHERE id = :id",
                {"id": session_id},
            )
            if row is not None:
                response["session_net"] = self.money(
                    market, int(row["wins_minor"]) - int(row["bets_minor"])
                )
        if extra:
            response.update(extra)
        return response

    def spin(
        self,
        player_id: str,
        session_id: str | None,
        game: str,
        body: dict[str, Any],
        key: str | None,
        fingerprint: str,
    ) -> tuple[int, dict[str, Any]]:
        title = self.title(game)
        forced = body.get("forced_draws")
        source = self._source(forced)
        bet_raw = body.get("bet")
        if not isinstance(bet_raw, dict):
            raise bad_request("invalid_bet", "the request needs a bet object")
        autoplay_id = body.get("autoplay_id")
        gamble = body.get("gamble", True)
        if not isinstance(gamble, bool):
            raise bad_request("invalid_request", "gamble must be true or false")

        def work(connection: Connection, locked: Player | None) -> tuple[int, dict[str, Any]]:
            assert locked is not None
            player = locked
            market = self.market(player.market)
            try:
                market.game(game)
                selected = title.parse_bet(market, bet_raw)
            except MarketError as exc:
                raise ApiError(403, "game_not_offered", str(exc)) from None
            except (BetError, MoneyError) as exc:
                raise bad_request("invalid_bet", str(exc)) from None
            open_round = self._open_round(connection, player.id, game)
            if open_round is not None:
                raise conflict(
                    "round_open",
                    "finish the open round of this game first",
                    round_id=open_round["id"],
                )
            if player.balance_minor > ledger.MAX_BALANCE_MINOR:
                raise conflict(
                    "balance_limit",
                    f"the balance is above the cap of "
                    f"{market.currency.to_decimal(ledger.MAX_BALANCE_MINOR)} {player.currency}"
                    "; a round starts only below it (withdraw first)",
                )
            now = self.clock.now_ms()
            if (
                market.min_round_ms
                and player.last_round_ms is not None
                and now - player.last_round_ms < market.min_round_ms
            ):
                wait = market.min_round_ms - (now - player.last_round_ms)
                raise ApiError(
                    429,
                    "min_round_duration",
                    f"a round lasts at least {market.min_round_ms} ms in this market; "
                    f"wait {wait} ms",
                    retry_after_ms=wait,
                )
            autoplay = self._autoplay_for_spin(connection, player, market, game, autoplay_id)
            if autoplay is not None and json.loads(autoplay["bet"]) != title.bet_json(selected):
                # an autoplay plays the bet it was started with (or the one lowering left it)
                raise conflict(
                    "autoplay_bet_mismatch",
                    f"autoplay {autoplay['id']} plays the bet {autoplay['bet']}; this spin asked"
                    f" for {_dumps(title.bet_json(selected))}",
                    autoplay=self._autoplay_json(autoplay),
                )
            if autoplay is not None and self._balance_changed(autoplay, player):
                # stopped for good (committed), and this spin refused: it was not played
                stopped = self._stop_autoplay_row(connection, autoplay, "balance_changed", now)
                return 409, conflict(
                    "autoplay_finished",
                    f"autoplay {autoplay['id']} stopped: the balance changed outside it",
                    autoplay=stopped,
                ).body()
            bet = title.lower(market, player.balance_minor, selected)
            if bet is None:
                raise ApiError(
                    402, "insufficient_balance", "the balance does not cover the lowest bet"
                )
            lowered = (
                None
                if bet == selected
                else {"from": title.bet_json(selected), "to": title.bet_json(bet)}
            )
            bet_minor = title.bet_minor(market, bet)
            state = self._load_state(connection, player.id, title, bet)
            try:
                engine_round = title.start(market, bet, state, source, gamble)
            except ReplayError as exc:
                raise bad_request("invalid_forced_draw", str(exc)) from None
            except (RuleError, ValueError) as exc:
                # the bet and the forced draws are checked above: what is left is the state the
                # server stored for the player, or the engine itself, never the player's request
                raise self._broken_start(player.id, game, state, exc) from None
            round_id = time_ordered_id(now)
            game_account = self._house_account(connection, f"game:{game}", player.currency)
            new_round = {  # the columns known at the start; _settle adds the id and the rest
                "player": player.id,
                "number": player.rounds_played + 1,
                "session": session_id,
                "game": game,
                "variant": market.game(game).variant,
                "currency": player.currency,
                "bet_minor": bet_minor,
                "bet": _dumps(title.bet_json(bet)),
                "before": player.balance_minor,
                "autoplay": autoplay["id"] if autoplay else None,
            }
            try:
                ledger.post(
                    connection,
                    "bet",
                    player.id,
                    [(player.account_id, -bet_minor), (game_account, bet_minor)],
                    now,
                    round_id,
                    wallets={player.account_id: player.balance_minor},
                )
            except ledger.InsufficientFundsError:
                raise ApiError(
                    402, "insufficient_balance", "the balance does not cover the bet"
                ) from None
            player.balance_minor -= bet_minor
            self.metrics.bet(game, bet_minor)
            settled = self._settle(
                connection,
                player,
                market,
                title,
                round_id,
                engine_round,
                "spin",
                now,
                started_with=bet_minor,
                new_round=new_round,
            )
            extra: dict[str, Any] = {"bet_lowered": lowered}
            following = self._next_bet(title, market, bet, settled)
            if following is not None:
                extra["next_bet"] = following
            if autoplay:
                extra["autoplay"] = self._autoplay_after_step(
                    connection, autoplay, title, engine_round, settled, now, player, bet_minor
                )
                held = following["to"] if following else lowered["to"] if lowered else None
                if held is not None:
                    self._autoplay_holds(connection, autoplay, held, extra["autoplay"])
            return 200, self._round_response(
                connection, player, market, round_id, settled, session_id, extra
            )

        return self._run_idempotent(
            f"player:{player_id}",
            key,
            fingerprint,
            work,
            player_id=player_id,
            prefetch=[(OPEN_ROUND_QUERY, {"player": player_id, "game": game})],
            session_id=session_id,
        )

    def act(
        self,
        player_id: str,
        session_id: str | None,
        game: str,
        round_id: str,
        action: str,
        body: dict[str, Any],
        key: str | None,
        fingerprint: str,
    ) -> tuple[int, dict[str, Any]]:
        title = self.title(game)
        source = self._source(body.get("forced_draws"))

        def work(connection: Connection, locked: Player | None) -> tuple[int, dict[str, Any]]:
            assert locked is not None
            player = locked
            market = self.market(player.market)
            row = sql.one(connection, ROUND_QUERY, {"id": round_id})
            if row is None or row["player_id"] != player.id or row["game"] != game:
                raise not_found(f"round {round_id}")
            if row["status"] != "open":
                raise conflict(
                    "round_finished",
                    f"round {round_id} is {row['status']}; there is nothing left to play",
                )
            engine_round = self._rounds.get(round_id, row["record"]) or self._restore(title, row)
            if action not in title.actions(engine_round):
                allowed = ", ".join(title.actions(engine_round))
                verb = action.split(" ")[0]
                if verb == "gamble" and not any(
                    a.startswith("gamble") for a in title.actions(engine_round)
                ):
                    raise conflict(
                        "gamble_not_available", f"no gamble is available now; allowed: {allowed}"
                    )
                raise conflict(
                    "action_not_allowed", f"{action!r} is not allowed now; allowed: {allowed}"
                )
            try:
                engine_round = title.act(engine_round, action, source)
            except ReplayError as exc:
                raise bad_request("invalid_forced_draw", str(exc)) from None
            except RuleError as exc:
                raise conflict("action_not_allowed", str(exc)) from None
            now = self.clock.now_ms()
            settled = self._settle(
                connection, player, market, title, round_id, engine_round, action, now
            )
            extra: dict[str, Any] = {}
            following = None
            if settled["finished"]:
                try:
                    bet = title.parse_bet(market, json.loads(row["bet"]))
                except (BetError, MoneyError, MarketError):
                    pass  # a bet the market has stopped offering: the next spin chooses again
                else:
                    following = self._next_bet(title, market, bet, settled)
                    if following is not None:
                        extra["next_bet"] = following
            if row["autoplay_id"]:
                autoplay = sql.one(
                    connection, "SELECT * FROM autoplays WHERE id = :id", {"id": row["autoplay_id"]}
                )
                if autoplay is not None:
                    extra["autoplay"] = self._autoplay_after_step(
                        connection, autoplay, title, engine_round, settled, now, player
                    )
                    if following is not None:
                        self._autoplay_holds(
                            connection, autoplay, following["to"], extra["autoplay"]
                        )
            return 200, self._round_response(
                connection, player, market, round_id, settled, session_id, extra
            )

        return self._run_idempotent(
            f"player:{player_id}",
            key,
            fingerprint,
            work,
            player_id=player_id,
            prefetch=[(ROUND_QUERY, {"id": round_id})],
            session_id=session_id,
        )

    def _restore(self, title: Title, row: Any) -> Any:
        try:
            return title.restore(json.loads(row["record"]))
        except (RuleError, ReplayError, ValueError, KeyError) as exc:
            log.error("round %s does not replay from its record: %s", row["id"], exc)
            raise ApiError(
                500,
                "round_record_corrupt",
                "the stored round does not replay; an operator must look at it",
            ) from None

    def game_state(
        self, player_id: str, game: str, bet_raw: dict[str, Any] | None
    ) -> dict[str, Any]:
        title = self.title(game)
        with self.db.read() as connection:
            player = self._player(connection, player_id, lock=False)
            market = self.market(player.market)
            try:
                rules = market.game(game)
            except MarketError as exc:
                raise ApiError(403, "game_not_offered", str(exc)) from None
            row = self._open_round(connection, player.id, game)
            result: dict[str, Any] = {
                "game": game,
                "variant": rules.variant,
                "balance": self.money(market, player.balance_minor),
                "market": market.to_json(),
                "open_round": None,
            }
            if row is not None:
                result["open_round"] = {"round_id": row["id"], "round": json.loads(row["view"])}
            if bet_raw is not None:
                try:
                    bet = title.parse_bet(market, bet_raw)
                except (BetError, MoneyError) as exc:
                    raise bad_request("invalid_bet", str(exc)) from None
                state = self._load_state(connection, player.id, title, bet)
                carried = title.carried_view(market, bet, state)
                if carried is not None:
                    result["carried_state"] = carried
            active = (
                connection.execute(
                    select(autoplays).where(
                        autoplays.c.player_id == player.id,
                        autoplays.c.game == game,
                        autoplays.c.status == "active",
                    )
                )
                .mappings()
                .first()
            )
            result["autoplay"] = None if active is None else self._autoplay_json(active)
            return result

    # ------------------------------------------------------------------------------
    # autoplay
    # ------------------------------------------------------------------------------
    def _autoplay_json(self, row: Any) -> dict[str, Any]:
        return {
            "id": row["id"],
            "game": row["game"],
            "bet": json.loads(row["bet"]),
            "total": row["total"],
            "remaining": row["remaining"],
            "status": row["status"],
            "stop_reason": row["stop_reason"],
            "stop_on_feature": bool(row["stop_on_feature"]),
            "stop_on_jackpot": bool(row["stop_on_jackpot"]),
            "stop_on_balance_change": bool(row["stop_on_balance_change"]),
            "stop_on_win_above_minor": row["stop_on_win_above_minor"],
            "loss_limit_minor": row["loss_limit_minor"],
            "net_minor": row["net_minor"],
        }

    def start_autoplay(
        self,
        player_id: str,
        game: str,
        body: dict[str, Any],
        key: str | None,
        fingerprint: str,
        session_id: str | None = None,
    ) -> tuple[int, dict[str, Any]]:
        title = self.title(game)

        def work(connection: Connection, locked: Player | None) -> tuple[int, dict[str, Any]]:
            assert locked is not None
            player = locked
            market = self.market(player.market)
            if not market.autoplay:
                raise ApiError(
                    403, "autoplay_not_allowed", f"autoplay is not allowed in market {market.id}"
                )
            try:
                market.game(game)
                raw_bet = body.get("bet")
                bet = title.parse_bet(market, raw_bet if isinstance(raw_bet, dict) else {})
            except MarketError as exc:
                raise ApiError(403, "game_not_offered", str(exc)) from None
            except (BetError, MoneyError) as exc:
                raise bad_request("invalid_bet", str(exc)) from None
            total = body.get("rounds")
            if not isinstance(total, int) or isinstance(total, bool) or not 1 <= total <= 1000:
                raise bad_request("invalid_rounds", "rounds must be a whole number from 1 to 1000")
            limits: dict[str, int | None] = {}
            for name in ("stop_on_win_above", "loss_limit"):
                value = body.get(name)
                if value is None:
                    limits[name] = None
                    continue
                try:
                    limits[name] = self._amount_minor(market, {"amount": value})
                except ApiError as exc:
                    raise bad_request(f"invalid_{name}", f"{name}: {exc.message}") from None
            if limits["loss_limit"] is None and market.autoplay_requires_loss_limit:
                raise bad_request(
                    "loss_limit_required", f"market {market.id} requires a loss limit for autoplay"
                )
            stops = {}
            for name in ("stop_on_feature", "stop_on_jackpot", "stop_on_balance_change"):
                stops[name] = body.get(name, False)
                if not isinstance(stops[name], bool):
                    raise bad_request(f"invalid_{name}", f"{name} must be true or false")
            # what the market requires applies whatever the player chose
            stops["stop_on_jackpot"] |= market.autoplay_requires_stop_on_jackpot
            stops["stop_on_balance_change"] |= market.autoplay_requires_stop_on_balance_change
            now = self.clock.now_ms()
            connection.execute(
                update(autoplays)
                .where(
                    autoplays.c.player_id == player.id,
                    autoplays.c.game == game,
                    autoplays.c.status == "active",
                )
                .values(status="stopped", stop_reason="replaced", updated_ms=now)
            )
            autoplay_id = str(uuid.uuid4())
            connection.execute(
                insert(autoplays).values(
                    id=autoplay_id,
                    player_id=player.id,
                    game=game,
                    bet=_dumps(title.bet_json(bet)),
                    total=total,
                    remaining=total,
                    **stops,
                    stop_on_win_above_minor=limits["stop_on_win_above"],
                    loss_limit_minor=limits["loss_limit"],
                    balance_minor=player.balance_minor,
                    net_minor=0,
                    status="active",
                    created_ms=now,
                    updated_ms=now,
                )
            )
            row = (
                connection.execute(select(autoplays).where(autoplays.c.id == autoplay_id))
                .mappings()
                .one()
            )
            return 201, self._autoplay_json(row)

        return self._run_idempotent(
            f"player:{player_id}",
            key,
            fingerprint,
            work,
            player_id=player_id,
            session_id=session_id,
        )

    def stop_autoplay(
        self,
        player_id: str,
        autoplay_id: str,
        key: str | None,
        fingerprint: str,
        session_id: str | None = None,
    ) -> tuple[int, dict[str, Any]]:
        def work(connection: Connection, _player: Player | None) -> tuple[int, dict[str, Any]]:
            row = (
                connection.execute(select(autoplays).where(autoplays.c.id == autoplay_id))
                .mappings()
                .first()
            )
            if row is None or row["player_id"] != player_id:
                raise not_found(f"autoplay {autoplay_id}")
            if row["status"] == "active":
                connection.execute(
                    update(autoplays)
                    .where(autoplays.c.id == autoplay_id)
                    .values(status="stopped", stop_reason="player", updated_ms=self.clock.now_ms())
                )
            row = (
                connection.execute(select(autoplays).where(autoplays.c.id == autoplay_id))
                .mappings()
                .one()
            )
            return 200, self._autoplay_json(row)

        return self._run_idempotent(
            f"player:{player_id}",
            key,
            fingerprint,
            work,
            player_id=player_id,
            session_id=session_id,
        )

    def _autoplay_for_spin(
        self, connection: Connection, player: Player, market: Market, game: str, autoplay_id: Any
    ) -> Any:
        if autoplay_id is None:
            return None
        if not market.autoplay:
            raise ApiError(
                403, "autoplay_not_allowed", f"autoplay is not allowed in market {market.id}"
            )
        row = (
            connection.execute(select(autoplays).where(autoplays.c.id == str(autoplay_id)))
            .mappings()
            .first()
        )
        if row is None or row["player_id"] != player.id or row["game"] != game:
            raise not_found(f"autoplay {autoplay_id}")
        if row["status"] != "active" or row["remaining"] <= 0:
            raise conflict(
                "autoplay_finished",
                f"autoplay {autoplay_id} is {row['status']}",
                autoplay=self._autoplay_json(row),
            )
        return row

    def _next_bet(
        self, title: Title, market: Market, bet: Any, settled: dict[str, Any]
    ) -> dict[str, Any] | None:
        """The bet the next spin is played at, when the step that finished a round left the
        balance below this round's bet: "If your balance decreases so it becomes lower than
        the selected bet size, the bet size will automatically be lowered to the highest
        applicable bet size", told with that step so the player sees the new bet at once.
        None while the round is open, when the bet still fits, and when no bet fits (the
        bet stays; the next spin is refused for want of balance)."""
        if not settled["finished"]:
            return None
        after = title.lower(market, settled["balance"], bet)
        if after is None or after == bet:
            return None
        return {
            "from": title.bet_json(bet),
            "to": title.bet_json(after),
            "total": self.money(market, title.bet_minor(market, after)),
        }

    @staticmethod
    def _autoplay_holds(
        connection: Connection, autoplay: Any, bet: dict[str, Any], shown: dict[str, Any]
    ) -> None:
        """An autoplay goes on at a lowered bet: it holds that bet from now on."""
        sql.send(
            connection,
            "UPDATE autoplays SET bet = :bet WHERE id = :id",
            {"bet": _dumps(bet), "id": autoplay["id"]},
        )
        shown["bet"] = bet

    @staticmethod
    def _balance_changed(autoplay: Any, player: Player) -> bool:
        """Whether an autoplay that stops on a balance change finds a balance its own last
        step did not leave (a deposit, a withdrawal, play outside it)."""
        return (
            bool(autoplay["stop_on_balance_change"])
            and autoplay["balance_minor"] is not None
            and int(autoplay["balance_minor"]) != player.balance_minor
        )

    def _stop_autoplay_row(
        self, connection: Connection, autoplay: Any, reason: str, now: int
    ) -> dict[str, Any]:
        connection.execute(
            update(autoplays)
            .where(autoplays.c.id == autoplay["id"])
            .values(status="stopped", stop_reason=reason, updated_ms=now)
        )
        row = dict(autoplay)
        row.update(status="stopped", stop_reason=reason)
        return self._autoplay_json(row)

    def _autoplay_after_step(
        self,
        connection: Connection,
        autoplay: Any,
        title: Title,
        engine_round: Any,
        settled: dict[str, Any],
        now: int,
        player: Player,
        bet_minor: int | None = None,
    ) -> dict[str, Any]:
        """Count an autoplay round and apply its stop conditions.

        The spin that starts a round (``bet_minor`` given) counts it down, takes its bet from
        the autoplay's net position and stops autoplay on a feature. The step that finishes the
        round (the same spin, or the last free spin, gamble or collect) adds what the round paid
        to the net position and applies the other two conditions to the round's whole win: a
        single win above the limit, and the loss limit. A step that pays a jackpot stops it
        (with stop_on_jackpot). Every step records the balance it leaves, which the next
        autoplay spin compares with (stop_on_balance_change)."""
        remaining = int(autoplay["remaining"])
        net = int(autoplay["net_minor"])
        status, reason = str(autoplay["status"]), autoplay["stop_reason"]
        if bet_minor is not None:
            remaining -= 1
            net -= bet_minor
        outcome = settled["outcome"]
        win = outcome.win_minor + outcome.jackpot_minor
        if settled["finished"]:
            net += win + outcome.refund_minor
        if status == "active":
            if (
                bet_minor is not None
                and autoplay["stop_on_feature"]
                and title.feature_triggered(engine_round)
            ):
                status, reason = "stopped", "feature"
            elif autoplay["stop_on_jackpot"] and outcome.jackpot_minor > 0:
                status, reason = "stopped", "jackpot"
            elif settled["finished"] and (
                autoplay["stop_on_win_above_minor"] is not None
                and win > int(autoplay["stop_on_win_above_minor"])
            ):
                status, reason = "stopped", "single_win_above"
            elif (
                settled["finished"]
                and autoplay["loss_limit_minor"] is not None
                and -net >= int(autoplay["loss_limit_minor"])
            ):
                status, reason = "stopped", "loss_limit"
            elif remaining <= 0 and settled["finished"]:
                status, reason = "finished", "rounds_done"
        sql.send(
            connection,
            "UPDATE autoplays SET remaining = :remaining, net_minor = :net, status = :status,"
            " stop_reason = :reason, balance_minor = :balance, updated_ms = :now WHERE id = :id",
            {
                "remaining": remaining,
                "net": net,
                "status": status,
                "reason": reason,
                "balance": player.balance_minor,
                "now": now,
                "id": autoplay["id"],
            },
        )
        row = dict(autoplay)
        row.update(
            remaining=remaining,
            net_minor=net,
            status=status,
            stop_reason=reason,
            balance_minor=player.balance_minor,
        )
        return self._autoplay_json(row)

    # ------------------------------------------------------------------------------
    # history, recall, resolution
    # ------------------------------------------------------------------------------
    def _round_json(
        self,
        connection: Connection,
        row: Any,
        market: Market,
        steps: bool = True,
        operator: bool = False,
    ) -> dict[str, Any]:
        data: dict[str, Any] = {
            "round_id": row["id"],
            "number": row["number"],
            "game": row["game"],
            "variant": row["variant"],
            "status": row["status"],
            "bet": json.loads(row["bet"]),
            "bet_minor": row["bet_minor"],
            "win_minor": row["win_minor"],
            "currency": row["currency"],
            "balance_before_minor": row["balance_before"],
            "balance_after_minor": row["balance_after"],
            "resolved_by": row["resolved_by"],
            "created_ms": row["created_ms"],
            "completed_ms": row["completed_ms"],
            "round": json.loads(row["view"]),
        }
        if steps:
            data["steps"] = [
                {
                    "seq": s.seq,
                    "action": s.action,
                    "balance_after_minor": s.balance_after,
                    "created_ms": s.created_ms,
                    "view": json.loads(s.view),
                }
                for s in connection.execute(
                    select(round_steps)
                    .where(round_steps.c.round_id == row["id"])
                    .order_by(round_steps.c.seq)
                )
            ]
        if operator:
            data["record"] = json.loads(row["record"])
            data["player_id"] = row["player_id"]
        return data

    def history(self, player_id: str, game: str | None, limit: int) -> Rendered:
        """The player's last ``limit`` rounds, newest first, each with its steps.

        Two queries, the rounds and then all their steps, however many rounds, and the
        database writes each round's and each step's JSON, the stored JSON of its bet and
        view inside as it is: the server only joins the texts (a page of 100 rounds holds
        a few megabytes of views; parsing and writing them again in Python cost about ten
        times the queries, all of it holding Python's global lock). The server runs it off
        the event loop (see the app)."""
        if not 1 <= limit <= self.settings.history_limit:
            raise bad_request("invalid_limit", f"limit must be 1 to {self.settings.history_limit}")
        if game is not None:
            self.title(game)
        sqlite = self.db.is_sqlite
        with self.db.read() as connection:
            player = self._player(connection, player_id, lock=False)
            where = "player_id = :player" + (" AND game = :game" if game is not None else "")
            found = connection.execute(
                text(
                    f"SELECT id, {_json_object(sqlite, HISTORY_ROUND)} FROM rounds"
                    f" WHERE {where} ORDER BY number DESC LIMIT :limit"
                ),
                {"player": player.id, "game": game, "limit": limit},
            ).all()
            steps: dict[str, list[str]] = {row[0]: [] for row in found}
            if found:
                for round_id, step in connection.execute(
                    text(
                        f"SELECT round_id, {_json_object(sqlite, HISTORY_STEP)} FROM round_steps"
                        " WHERE round_id IN :ids ORDER BY round_id, seq"
                    ).bindparams(bindparam("ids", expanding=True)),
                    {"ids": list(steps)},
                ):
                    steps[round_id].append(step)
        # each round's object, its steps added before its closing brace
        texts = [f'{body[:-1]},"steps":[{",".join(steps[rid])}]}}' for rid, body in found]
        return Rendered({}, '{"rounds":[' + ",".join(texts) + "]}")

    def player_round(self, player_id: str, round_id: str) -> dict[str, Any]:
        with self.db.read() as connection:
            row = (
                connection.execute(select(rounds).where(rounds.c.id == round_id)).mappings().first()
            )
            if row is None or row["player_id"] != player_id:
                raise not_found(f"round {round_id}")
            player = self._player(connection, player_id, lock=False)
            return self._round_json(connection, row, self.market(player.market))

    def operator_round(self, round_id: str) -> dict[str, Any]:
        with self.db.read() as connection:
            row = (
                connection.execute(select(rounds).where(rounds.c.id == round_id)).mappings().first()
            )
            if row is None:
                raise not_found(f"round {round_id}")
            player = self._player(connection, row["player_id"], lock=False)
            return self._round_json(connection, row, self.market(player.market), operator=True)

    def replay_round(self, round_id: str) -> dict[str, Any]:
        """Re-run a stored round from its draws and compare with what was stored."""
        with self.db.read() as connection:
            row = (
                connection.execute(select(rounds).where(rounds.c.id == round_id)).mappings().first()
            )
            if row is None:
                raise not_found(f"round {round_id}")
            player = self._player(connection, row["player_id"], lock=False)
        market = self.market(player.market)
        title = self.title(row["game"])
        record = json.loads(row["record"])
        if row["status"] == "voided":
            return {
                "round_id": round_id,
                "identical": None,
                "message": "a voided round is not replayed: "
                "its malfunction is not part of its draws",
            }
        replayed = self._restore(title, row)
        view = title.view(market, replayed)
        stored = json.loads(row["view"])
        return {
            "round_id": round_id,
            "identical": view == stored and title.record(replayed) == record,
            "replayed": view,
            "stored": stored,
        }

    def resolve_stale_rounds(self) -> list[str]:
        """Complete rounds left open for longer than the resolution delay (2 days): play out
        the remaining free spins, collect a pending gamble, pay the winnings."""
        cutoff = self.clock.now_ms() - self.settings.resolve_after_seconds * 1000
        with self.db.read() as connection:
            stale = [
                (str(r.id), str(r.player_id), str(r.game))
                for r in connection.execute(text(STALE_ROUNDS), {"cutoff": cutoff})
            ]
        resolved = []
        for round_id, player_id, game in stale:
            title = self.title(game)
            with self.db.write() as connection:
                player = self._player(connection, player_id, lock=True)
                row = (
                    connection.execute(select(rounds).where(rounds.c.id == round_id))
                    .mappings()
                    .first()
                )
                if row is None or row["status"] != "open" or row["updated_ms"] >= cutoff:
                    continue
                market = self.market(player.market)
                engine_round = title.finish(self._restore(title, row), self.rng)
                now = self.clock.now_ms()
                self._settle(
                    connection,
                    player,
                    market,
                    title,
                    round_id,
                    engine_round,
                    "auto_resolve",
                    now,
                    resolved_by="auto",
                )
                resolved.append(round_id)
                log.info(
                    "resolved round %s of player %s after the resolution delay", round_id, player_id
                )
        return resolved

    def ensure_demo_player(self) -> str:
        """The demo player: the one player marked ``demo`` (a mark only this method sets), made
        with its play-money balance on first start. Never another player: one an operator
        created (whatever its ``external_ref``) is not playable through ``/demo/session``."""
        query = select(players.c.id).where(players.c.demo.is_(True))
        with self.db.read() as connection:
            found = connection.execute(query).scalar()
        if found is not None:
            return str(found)
        market = self.market(self.settings.demo_market)
        minor = self._amount_minor(market, {"amount": self.settings.demo_balance})
        player_id = str(uuid.uuid4())
        now = self.clock.now_ms()
        try:
            with self.db.write() as connection:
                connection.execute(
                    insert(players).values(
                        id=player_id,
                        external_ref=f"demo:{player_id}",
                        currency=market.currency.code,
                        market=market.id,
                        created_ms=now,
                        demo=True,
                    )
                )
                wallet = ledger.open_wallet(connection, player_id, market.currency.code)
                cash = self._house_account(connection, "cash", market.currency.code)
                ledger.post(
                    connection, "deposit", player_id, [(wallet, minor), (cash, -minor)], now
                )
                audit.append(
                    connection,
                    player_id,
                    "player_created",
                    {
                        "external_ref": f"demo:{player_id}",
                        "currency": market.currency.code,
                        "market": market.id,
                        "demo": True,
                    },
                    now,
                )
                audit.append(connection, player_id, "deposit", {"amount_minor": minor}, now)
        except IntegrityError:  # another process made it first (one demo player: an index)
            with self.db.read() as connection:
                return str(connection.execute(query).scalar_one())
        return player_id

    def demo_session(self, player_id: str) -> dict[str, Any]:
        """A session of the demo player: the newest live one while more than half its life is
        left (its token signed again: the same text), else a new one. Demo sessions grow by
        about two per token lifetime, however many visitors ask."""
        now = self.clock.now_ms()
        half = self.settings.token_ttl_seconds * 500
        with self.db.read() as connection:
            row = sql.one(
                connection,
                "SELECT id, expires_ms FROM sessions WHERE player_id = :player"
                " AND revoked_ms IS NULL AND expires_ms > :fresh"
                " ORDER BY expires_ms DESC LIMIT 1",
                {"player": player_id, "fresh": now + half},
            )
        if row is None:
            return self.issue_session(player_id)
        claims = tokens.Claims(player_id, str(row["id"]), int(row["expires_ms"]))
        token = tokens.sign(self.settings.secret_key, claims)
        return {"token": token, "session_id": claims.session_id, "expires_ms": claims.expires_ms}

    def verify_ledger(self) -> ledger.LedgerReport:
        with self.db.read() as connection:
            return ledger.verify(connection)

    def verify_audit(self) -> audit.AuditReport:
        with self.db.read() as connection:
            return audit.verify(connection)


def decimal_or_none(value: Any) -> Decimal | None:
    return None if value is None else Decimal(str(value))
