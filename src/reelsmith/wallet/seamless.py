"""The seamless wallet: the operator (casino) keeps the balance and the game server calls it
for every bet, win and rollback, in the shape of Hub88's supplier wallet API
(docs/operator-integration.md).

Money is never lost or doubled because every call is first an intent in the game's database,
in ``wallet_calls``, and its outcome is written when the answer comes:

- a **bet** is written (pending) in a transaction committed before it is sent; the round is
  played only after the operator acknowledged it, in the transaction that marks it
  acknowledged. A bet with no usable answer (a timeout, a 5xx, a truncated or unsigned
  answer, a balance in the wrong shape) is marked unanswered and a **rollback** of it is
  written in the same transaction; so is a bet left pending longer than
  :attr:`SeamlessWallet.abandon_after_ms` (its server died between the call and the play);
- a **win** is written with the round step that won it, in that step's transaction, and sent
  once that transaction committed by the win sender (:class:`WinSender`), off the request's
  path; the player's next bet is sent after the operator answered it;
- wins and rollbacks are sent until acknowledged (:meth:`SeamlessWallet.drain`, the outbox
  worker, run by every server process and surviving restarts because the intent is in the
  database), each attempt with the same ``request_uuid`` and ``transaction_uuid``, so the
  operator answers a repeat with its first answer and never moves money twice. They carry no
  session token: a win is paid after the player left.

Amounts at the operator are integers in 1/100,000 of the currency's unit
(:data:`SUB_UNITS`); the game counts minor units, and an operator's balance that is not a
whole number of minor units is refused as a malformed answer.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import logging
import select
import socket
import ssl
import threading
import uuid
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import Connection, text

from reelsmith.money import Currency
from reelsmith.store import sql
from reelsmith.store.db import CommitGroup, Database
from reelsmith.wallet.signing import (
    SIGNATURE_HEADER,
    SignatureError,
    Signer,
    Verifier,
    load_signer,
    load_verifier,
)

log = logging.getLogger("reelsmith.wallet")

SUB_UNITS = 100_000  # the operator's amounts: 1/100,000 of the currency's unit
ACCOUNT = "operator"  # the house account on the other side of a seamless player's money
STATUSES = frozenset(
    {
        "RS_OK",
        "RS_ERROR_UNKNOWN",
        "RS_ERROR_INVALID_PARTNER",
        "RS_ERROR_INVALID_TOKEN",
        "RS_ERROR_INVALID_GAME",
        "RS_ERROR_WRONG_CURRENCY",
        "RS_ERROR_NOT_ENOUGH_MONEY",
        "RS_ERROR_USER_DISABLED",
        "RS_ERROR_INVALID_SIGNATURE",
        "RS_ERROR_TOKEN_EXPIRED",
        "RS_ERROR_WRONG_SYNTAX",
        "RS_ERROR_WRONG_TYPES",
        "RS_ERROR_DUPLICATE_TRANSACTION",
        "RS_ERROR_TRANSACTION_DOES_NOT_EXIST",
    }
)
# A bet refused with one of these moved nothing at the operator: no rollback is needed.
BET_REFUSALS = frozenset(
    {
        "RS_ERROR_INVALID_TOKEN",
        "RS_ERROR_TOKEN_EXPIRED",
        "RS_ERROR_NOT_ENOUGH_MONEY",
        "RS_ERROR_WRONG_CURRENCY",
        "RS_ERROR_USER_DISABLED",
        "RS_ERROR_INVALID_GAME",
    }
)
# A win acknowledged: done now or before. A rollback also when its bet never arrived.
WIN_DONE = frozenset({"RS_OK", "RS_ERROR_DUPLICATE_TRANSACTION"})
ROLLBACK_DONE = WIN_DONE | {"RS_ERROR_TRANSACTION_DOES_NOT_EXIST"}
PATHS = {
    "balance": "/user/balance",
    "bet": "/transaction/bet",
    "win": "/transaction/win",
    "rollback": "/transaction/rollback",
}
MAX_BACKOFF_MS = 60_000


def _rows(connection: Connection, statement: str, params: dict[str, Any]) -> list[Any]:
    """Every row of a read, as dicts keyed by column name (on the driver's cursor)."""
    return sql.rows(connection, statement, params)


class NoAnswerError(Exception):
    """The operator's answer did not come or cannot be trusted: what happened at the operator
    is unknown. ``reason`` names it without keys, tokens or bodies."""


def _step(currency: Currency) -> int:
    """Sub-units per minor unit of ``currency`` (1,000 for a two-decimal currency)."""
    return SUB_UNITS // int(10 ** int(currency.exponent))


def to_sub_units(minor: int, currency: Currency) -> int:
    """Minor units (cents for EUR) as the operator's sub-units."""
    return minor * _step(currency)


def from_sub_units(amount: object, currency: Currency) -> int:
    """The operator's sub-units as minor units; :class:`NoAnswerError` for an amount that is
    not a whole number of minor units (an operator counting in another sub-unit)."""
    if not isinstance(amount, int) or isinstance(amount, bool):
        raise NoAnswerError(f"balance {amount!r} is not a whole number of sub-units")
    step = _step(currency)
    if amount % step:
        raise NoAnswerError(
            f"balance {amount} is not a whole number of {currency.code} minor units"
            f" ({step} sub-units each): the operator counts in another sub-unit"
        )
    return int(amount // step)


@dataclass(frozen=True)
class Answer:
    """An operator's answer, signed and well formed."""

    status: str
    balance: int | None  # sub-units, when the answer carries one
    currency: str | None


MAX_LINE = 65_536  # an answer's status or header line longer than this is refused
MAX_HEADERS = 100
MAX_ANSWER = 1 << 20  # an answer's body longer than this (1 MiB) is refused


class _Connection:
    """One HTTP/1.1 connection to the operator, kept alive between calls: a request written
    as bytes, its answer read (status line, headers, a ``Content-Length``, chunked or
    read-until-close body). What a wallet call needs of HTTP and nothing else: no redirects,
    cookies, proxies or compression, and ``http.client``'s header parsing (the e-mail
    parser) and object building out of the path. An answer it cannot read whole is raised
    as ``http.client``'s exceptions (the call is then unanswered)."""

    def __init__(
        self, host: str, port: int, timeout: float, context: ssl.SSLContext | None
    ) -> None:
        self.host = host
        self.port = port
        self.timeout = timeout
        self.context = context
        self.sock: socket.socket | None = None
        self.reader: Any = None

    def stale(self) -> bool:
        """The operator closed (or wrote to) this kept-alive connection while no answer was
        due: not to be used again."""
        if self.sock is None:
            return False
        if isinstance(self.sock, ssl.SSLSocket) and self.sock.pending():
            return True
        return bool(select.select([self.sock], [], [], 0)[0])

    def close(self) -> None:
        sock, self.sock = self.sock, None
        reader, self.reader = self.reader, None
        if reader is not None:
            reader.close()
        if sock is not None:
            sock.close()

    def exchange(self, request: bytes) -> tuple[int, dict[str, str], bytes, bool]:
        """Send ``request`` (a whole HTTP/1.1 request) and read its answer: the status, the
        headers (names in lower case), the body, and whether the connection stays open."""
        if self.sock is None:
            sock = socket.create_connection((self.host, self.port), self.timeout)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            if self.context is not None:
                sock = self.context.wrap_socket(sock, server_hostname=self.host)
            self.sock = sock
            self.reader = sock.makefile("rb")
        self.sock.sendall(request)
        reader = self.reader
        while True:
            line = reader.readline(MAX_LINE + 1)
            if not line:
                raise http.client.RemoteDisconnected("the operator closed the connection")
            if len(line) > MAX_LINE:
                raise http.client.LineTooLong("status line")
            version, _, rest = line.decode("latin-1").partition(" ")
            code = rest[:3]
            if not version.startswith("HTTP/1.") or not code.isdigit():
                raise http.client.BadStatusLine(line.decode("latin-1").strip()[:80])
            status = int(code)
            headers = self._headers(reader)
            if not 100 <= status < 200:  # an interim answer (100 Continue): the next one
                break
        connection = headers.get("connection", "").lower()
        keep = "close" not in connection and (version == "HTTP/1.1" or "keep-alive" in connection)
        if "chunked" in headers.get("transfer-encoding", "").lower():
            body = self._chunked(reader)
        elif "content-length" in headers:
            try:
                length = int(headers["content-length"])
            except ValueError:
                raise http.client.HTTPException("bad Content-Length") from None
            if not 0 <= length <= MAX_ANSWER:
                raise http.client.HTTPException("Content-Length out of range")
            body = reader.read(length)
            if len(body) < length:
                raise http.client.IncompleteRead(body, length - len(body))
        elif status in (204, 304):
            body = b""
        else:  # the answer ends where the connection does
            body = reader.read(MAX_ANSWER + 1)
            if len(body) > MAX_ANSWER:
                raise http.client.HTTPException("answer too long")
            keep = False
        return status, headers, body, keep

    @staticmethod
    def _headers(reader: Any) -> dict[str, str]:
        headers: dict[str, str] = {}
        for _ in range(MAX_HEADERS + 1):
            line = reader.readline(MAX_LINE + 1)
            if len(line) > MAX_LINE:
                raise http.client.LineTooLong("header line")
            if line in (b"\r\n", b"\n"):
                return headers
            if not line:
                raise http.client.IncompleteRead(b"")
            name, colon, value = line.decode("latin-1").partition(":")
            if not colon:
                raise http.client.HTTPException("a header line without a colon")
            key = name.strip().lower()
            value = value.strip()
            headers[key] = f"{headers[key]}, {value}" if key in headers else value
        raise http.client.HTTPException("too many headers")

    @staticmethod
    def _chunked(reader: Any) -> bytes:
        parts: list[bytes] = []
        size = 0
        while True:
            line = reader.readline(MAX_LINE + 1)
            if not line or len(line) > MAX_LINE:
                raise http.client.IncompleteRead(b"".join(parts))
            try:
                chunk = int(line.split(b";", 1)[0].strip(), 16)
            except ValueError:
                raise http.client.IncompleteRead(b"".join(parts)) from None
            if chunk == 0:
                break
            size += chunk
            if size > MAX_ANSWER:
                raise http.client.HTTPException("answer too long")
            data = reader.read(chunk)
            if len(data) < chunk or reader.read(2) != b"\r\n":
                raise http.client.IncompleteRead(b"".join(parts) + data)
            parts.append(data)
        while True:  # trailers, to the blank line
            line = reader.readline(MAX_LINE + 1)
            if not line:
                raise http.client.IncompleteRead(b"".join(parts))
            if line in (b"\r\n", b"\n"):
                return b"".join(parts)


class OperatorClient:
    """Signed calls to the operator's wallet: a request's body signed with the game's key, its
    answer's checked against the operator's key before anything is read from it."""

    def __init__(
        self, url: str, signer: Signer, verifier: Verifier, timeout_seconds: float
    ) -> None:
        self.url = url.rstrip("/")
        self.signer = signer
        self.verifier = verifier
        self.timeout_seconds = timeout_seconds
        parts = urlsplit(self.url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"the operator's URL {url!r} is not an http(s) URL")
        self._https = parts.scheme == "https"
        self._host = parts.hostname
        self._port = parts.port or (443 if self._https else 80)
        self._path = parts.path
        self._ssl = ssl.create_default_context() if self._https else None
        default_port = 443 if self._https else 80
        host = f"[{self._host}]" if ":" in self._host else self._host
        self._host_header = host if self._port == default_port else f"{host}:{self._port}"
        # one kept-alive connection to the operator per calling thread: a call costs no new
        # TCP (or TLS) connection, and no pool, cookie jar or redirect handling it never needs
        self._local = threading.local()
        self._opened: list[_Connection] = []
        self._opened_lock = threading.Lock()

    def close(self) -> None:
        with self._opened_lock:
            opened, self._opened = self._opened, []
        for connection in opened:
            connection.close()

    def _connection(self) -> _Connection:
        """This thread's connection to the operator: its kept-alive one, unless the operator
        closed it meanwhile (its socket readable while no answer is due: the end of it)."""
        connection: _Connection | None = getattr(self._local, "connection", None)
        if connection is not None and connection.stale():
            connection.close()
            self._forget(connection)
            connection = None
        if connection is None:
            connection = _Connection(self._host, self._port, self.timeout_seconds, self._ssl)
            self._local.connection = connection
            with self._opened_lock:
                self._opened.append(connection)
        return connection

    def _post(self, path: str, raw: bytes) -> tuple[int, bytes, str | None]:
        """POST ``raw``: the answer's status, body and signature header. Any failure closes
        the connection (the next call opens another) and is raised."""
        connection = self._connection()
        head = (
            f"POST {self._path}{path} HTTP/1.1\r\nHost: {self._host_header}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(raw)}\r\n"
            f"{SIGNATURE_HEADER}: {self.signer.sign(raw)}\r\n\r\n"
        )
        try:
            status, headers, content, keep = connection.exchange(head.encode("latin-1") + raw)
        except BaseException:
            connection.close()
            self._forget(connection)
            raise
        if not keep:
            connection.close()
            self._forget(connection)
        return status, content, headers.get(SIGNATURE_HEADER.lower())

    def _forget(self, connection: _Connection) -> None:
        self._local.connection = None
        with self._opened_lock:
            if connection in self._opened:
                self._opened.remove(connection)

    def call(self, kind: str, body: dict[str, Any]) -> Answer:
        """Send one call; its answer, or :class:`NoAnswerError` when none usable came."""
        raw = json.dumps(body, separators=(",", ":")).encode()
        try:
            status_code, content, signature = self._post(PATHS[kind], raw)
        except TimeoutError:
            raise NoAnswerError(f"{kind}: no answer within the timeout") from None
        except (OSError, http.client.HTTPException) as exc:
            raise NoAnswerError(f"{kind}: {type(exc).__name__}") from None
        if status_code != 200:
            raise NoAnswerError(f"{kind}: HTTP {status_code}")
        try:
            self.verifier.verify(content, signature)
        except SignatureError as exc:
            raise NoAnswerError(f"{kind}: answer refused: {exc}") from None
        try:
            data = json.loads(content)
        except ValueError:
            raise NoAnswerError(f"{kind}: the answer is not JSON") from None
        if not isinstance(data, dict):
            raise NoAnswerError(f"{kind}: the answer is not a JSON object")
        status = data.get("status")
        if status not in STATUSES:
            raise NoAnswerError(f"{kind}: unknown status {status!r}")
        if data.get("request_uuid") != body["request_uuid"]:
            raise NoAnswerError(f"{kind}: the answer is for another request_uuid")
        balance = data.get("balance")
        if status == "RS_OK" and (
            not isinstance(balance, int) or isinstance(balance, bool) or balance < 0
        ):
            raise NoAnswerError(f"{kind}: RS_OK without a whole balance >= 0")
        currency = data.get("currency")
        if balance is not None and not isinstance(balance, int):
            balance = None
        return Answer(str(status), balance, currency if isinstance(currency, str) else None)


@dataclass(frozen=True)
class BetResult:
    """What came of a bet: ``acknowledged`` (balance in minor units after it), ``refused``
    (``status`` says why; nothing moved) or ``unanswered`` (a rollback is queued)."""

    outcome: str
    status: str
    balance_minor: int | None = None


CALL_COLUMNS = (
    "id, request_uuid, kind, player_id, user_ref, game, round_id, reference_id, currency,"
    " amount_minor, round_closed, state, status, attempts, next_attempt_ms, balance_minor,"
    " idempotency_key, created_ms, updated_ms, is_free"
)


class SeamlessWallet:
    """The seamless adapter: intents in the game's database, calls to the operator, and the
    outbox of wins and rollbacks."""

    def __init__(
        self,
        db: Database,
        client: OperatorClient,
        currencies: dict[str, Currency],
        abandon_after_ms: int,
        retry_base_ms: int = 250,
    ) -> None:
        self.db = db
        self.client = client
        self.currencies = currencies
        self.abandon_after_ms = abandon_after_ms
        self.retry_base_ms = retry_base_ms
        # how long the outbox leaves a new win to the win sender: a call's timeout and then some
        self.handover_ms = int(client.timeout_seconds * 1000) * 2 + 1000
        # the threads the server runs seamless work on (spins, the outbox): never the event
        # loop's default executor, one of whose threads may hold the SQLite writer lock for a
        # commit group (`CommitGroup`), which a write on that same thread would refuse
        self.threads = ThreadPoolExecutor(max_workers=32, thread_name_prefix="seamless")
        # recent bets as written (for their call) and acknowledged (round -> bet, for the
        # round's wins): each saves a read; a miss reads the database
        self._lock = threading.Lock()
        self._written: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._acknowledged: OrderedDict[str, tuple[str, bool]] = OrderedDict()
        self.sender = WinSender(self)
        self._group: tuple[CommitGroup, asyncio.AbstractEventLoop] | None = None

    @classmethod
    def from_settings(
        cls, db: Database, url: str, keys: Path, timeout_seconds: float, currencies: list[str]
    ) -> SeamlessWallet:
        """The adapter a seamless deployment's settings describe; keys from ``keys``
        (``game_private.pem`` signs, ``operator_public.pem`` checks)."""
        client = OperatorClient(
            url,
            load_signer(keys / "game_private.pem"),
            load_verifier(keys / "operator_public.pem"),
            timeout_seconds,
        )
        # a bet still pending this long after it was written was not answered in its request
        abandon = int(timeout_seconds * 1000) * 3 + 5_000
        return cls(db, client, {code: Currency.of(code) for code in currencies}, abandon)

    def currency(self, code: str) -> Currency:
        found = self.currencies.get(code)
        return found if found is not None else Currency.of(code)

    # -- the intents ---------------------------------------------------------------------------

    def insert_call(
        self,
        connection: Connection,
        kind: str,
        player_id: str,
        user_ref: str,
        game: str,
        round_id: str,
        currency: str,
        amount_minor: int,
        now: int,
        reference_id: str | None = None,
        round_closed: bool = False,
        idempotency_key: str | None = None,
        is_free: bool = False,
        due_in_ms: int = 0,
    ) -> str:
        """Write one call's intent (pending, due for the outbox ``due_in_ms`` from now); its
        transaction_uuid. ``is_free``: the call belongs to a free round (a campaign's): sent
        with ``is_free: true``."""
        call_id = str(uuid.uuid4())
        params = {
            "id": call_id,
            "request": str(uuid.uuid4()),
            "kind": kind,
            "player": player_id,
            "user": user_ref,
            "game": game,
            "round": round_id,
            "reference": reference_id,
            "currency": currency,
            "amount": amount_minor,
            "closed": round_closed,
            "key": idempotency_key,
            "free": is_free,
            "now": now,
            "due": now + due_in_ms,
        }
        if kind == "bet":  # what `place_bet` sends, without reading it back
            with self._lock:
                self._written[call_id] = {
                    "id": call_id,
                    "request_uuid": params["request"],
                    "kind": kind,
                    "player_id": player_id,
                    "user_ref": user_ref,
                    "game": game,
                    "round_id": round_id,
                    "reference_id": reference_id,
                    "currency": currency,
                    "amount_minor": amount_minor,
                    "round_closed": round_closed,
                    "is_free": is_free,
                }
                while len(self._written) > 4096:
                    self._written.popitem(last=False)
        sql.send(
            connection,
            "INSERT INTO wallet_calls (id, request_uuid, kind, player_id, user_ref, game,"
            " round_id, reference_id, currency, amount_minor, round_closed, state, attempts,"
            " next_attempt_ms, idempotency_key, created_ms, updated_ms, is_free) VALUES (:id,"
            " :request, :kind, :player, :user, :game, :round, :reference, :currency, :amount,"
            " :closed, 'pending', 0, :due, :key, :now, :now, :free)",
            params,
        )
        return call_id

    def queue_win(
        self,
        connection: Connection,
        player_id: str,
        user_ref: str,
        game: str,
        round_id: str,
        currency: str,
        amount_minor: int,
        round_closed: bool,
        now: int,
    ) -> str | None:
        """Write a round step's win (in the step's transaction): the amount it paid, and
        whether it closed the round. The win references the round's acknowledged bet, and is
        free when that bet was (a free round's); a round with none (played before the
        deployment went seamless) queues nothing."""
        with self._lock:
            known = self._acknowledged.get(round_id)
        if known is None:
            bet = sql.one(
                connection,
                "SELECT id, is_free FROM wallet_calls WHERE round_id = :round AND kind = 'bet'"
                " AND state = 'acknowledged'",
                {"round": round_id},
            )
            if bet is None:
                log.error("round %s has no acknowledged bet: its win is not sent", round_id)
                return None
            known = (str(bet["id"]), bool(bet["is_free"]))
        bet_id, is_free = known
        return self.insert_call(
            connection,
            "win",
            player_id,
            user_ref,
            game,
            round_id,
            currency,
            amount_minor,
            now,
            reference_id=bet_id,
            round_closed=round_closed,
            is_free=is_free,
            # the win sender sends it first (`send_wins`); the outbox, should that not be
            # done by then (a crash, a restart, a sender behind), after this
            due_in_ms=self.handover_ms,
        )

    def earlier_bet(self, connection: Connection, player_id: str, game: str, key: str) -> Any:
        """The bet a spin with idempotency key ``key`` wrote, else a pending bet of the
        player's in ``game`` (a spin between its call and its play), else None: one read."""
        return sql.one(
            connection,
            "SELECT idempotency_key, state, status FROM wallet_calls WHERE player_id = :player"
            " AND kind = 'bet' AND (idempotency_key = :key OR (state = 'pending'"
            " AND game = :game)) ORDER BY CASE WHEN idempotency_key = :key THEN 0 ELSE 1 END"
            " LIMIT 1",
            {"player": player_id, "key": key, "game": game},
        )

    def acknowledge_bet(
        self,
        connection: Connection,
        bet_id: str,
        balance_minor: int,
        now: int,
        round_id: str | None = None,
        is_free: bool = False,
    ) -> bool:
        """Mark a pending bet acknowledged, in the transaction that plays its round: False
        when it is no longer pending (the outbox took it as abandoned and rolls it back).
        ``is_free``: the bet is a free round's (its wins go as free)."""
        moved = sql.run(
            connection,
            "UPDATE wallet_calls SET state = 'acknowledged', status = 'RS_OK', attempts = 1,"
            " balance_minor = :balance, updated_ms = :now WHERE id = :id AND state = 'pending'",
            {"id": bet_id, "balance": balance_minor, "now": now},
        )
        if moved == 1 and round_id is not None:
            # kept for the round's wins; should this transaction roll back, no round of this
            # id exists, so no win ever looks it up
            with self._lock:
                self._acknowledged[round_id] = (bet_id, is_free)
                while len(self._acknowledged) > 4096:
                    self._acknowledged.popitem(last=False)
        return moved == 1

    def known_balance(self, connection: Connection, player_id: str) -> int:
        """The player's balance as the operator last told it, with the wins written since that
        it has not acknowledged yet (for a step's answer; the operator's is the balance)."""
        last = sql.one(
            connection,
            "SELECT balance_minor, updated_ms FROM wallet_calls WHERE player_id = :player"
            " AND balance_minor IS NOT NULL ORDER BY updated_ms DESC LIMIT 1",
            {"player": player_id},
        )
        # the wins the operator acknowledged whose outcome is not written yet count as
        # written: the balance the operator answered, and no longer pending
        answered = self.sender.answered_of(player_id)
        known = None if last is None else (int(last["updated_ms"]), int(last["balance_minor"]))
        for at_ms, balance in answered.values():
            if balance is not None and (known is None or at_ms > known[0]):
                known = (at_ms, balance)
        if known is None:
            return 0
        pending = connection.execute(
            text(
                "SELECT id, amount_minor FROM wallet_calls WHERE player_id = :player"
                " AND kind = 'win' AND state = 'pending'"
            ),
            {"player": player_id},
        ).all()
        return known[1] + sum(
            int(amount) for call_id, amount in pending if str(call_id) not in answered
        )

    def operator_token(self, connection: Connection, session_id: str | None) -> str | None:
        if session_id is None:
            return None
        found = sql.scalar(
            connection,
            "SELECT operator_token FROM wallet_sessions WHERE session_id = :id",
            {"id": session_id},
        )
        return None if found is None else str(found)

    # -- the calls -----------------------------------------------------------------------------

    def _body(self, row: Any, token: str | None = None) -> dict[str, Any]:
        currency = self.currency(str(row["currency"]))
        body: dict[str, Any] = {
            "user": row["user_ref"],
            "transaction_uuid": row["id"],
            "supplier_transaction_id": row["id"],
            "request_uuid": row["request_uuid"],
            "round": row["round_id"],
            "round_closed": bool(row["round_closed"]),
            "game_code": row["game"],
        }
        if row["kind"] == "rollback":
            body["reference_transaction_uuid"] = row["reference_id"]
            return body
        body.update(
            {
                "currency": currency.code,
                "amount": to_sub_units(int(row["amount_minor"]), currency),
                "is_free": bool(row["is_free"]),
                "is_aggregated": False,
            }
        )
        if row["kind"] == "bet":
            body["token"] = token
        else:
            body["reference_transaction_uuid"] = row["reference_id"]
        return body

    def place_bet(self, bet_id: str, token: str) -> BetResult:
        """Send a pending bet once and say what came of it. Unanswered, the bet is marked so
        and its rollback written (one transaction); refused, it is marked refused. An
        acknowledged bet stays pending here: the transaction that plays its round marks it
        (:meth:`acknowledge_bet`)."""
        with self._lock:
            row = self._written.pop(bet_id, None)
        if row is None:
            with self.db.read() as connection:
                found = _rows(
                    connection,
                    f"SELECT {CALL_COLUMNS} FROM wallet_calls WHERE id = :id",
                    {"id": bet_id},
                )
            if not found:
                raise LookupError(f"no bet {bet_id}")
            row = found[0]
        currency = self.currency(str(row["currency"]))
        # the player's wins being sent go first: the operator books the wins of the rounds
        # before this one before this bet, so its balance answered covers them (and a player
        # whose money is a win just paid can bet it)
        self.sender.wait(str(row["player_id"]), self.client.timeout_seconds * 2)
        try:
            answer = self.client.call("bet", self._body(row, token))
            if answer.status == "RS_OK":
                if answer.currency != currency.code:
                    raise NoAnswerError(
                        f"bet: the answer's currency {answer.currency!r} is not {currency.code}"
                    )
                return BetResult("acknowledged", "RS_OK", from_sub_units(answer.balance, currency))
        except NoAnswerError as exc:
            log.warning("bet %s of round %s: %s; rolling it back", bet_id, row["round_id"], exc)
            self.abandon_bet(bet_id, str(exc))
            return BetResult("unanswered", str(exc))
        if answer.status in BET_REFUSALS:
            with self.db.write() as connection:
                sql.run(
                    connection,
                    "UPDATE wallet_calls SET state = 'refused', status = :status, attempts = 1,"
                    " updated_ms = :now WHERE id = :id AND state = 'pending'",
                    {"id": bet_id, "status": answer.status, "now": self._now()},
                )
            return BetResult("refused", answer.status)
        # RS_ERROR_UNKNOWN and the like: the operator may have taken it; roll it back
        log.warning("bet %s answered %s; rolling it back", bet_id, answer.status)
        self.abandon_bet(bet_id, answer.status)
        return BetResult("unanswered", answer.status)

    def abandon_bet(self, bet_id: str, reason: str, connection: Connection | None = None) -> bool:
        """Mark a pending bet unanswered and write its rollback, in one transaction (the
        caller's, if given): False when the bet was no longer pending."""
        if connection is None:
            with self.db.write() as own:
                return self.abandon_bet(bet_id, reason, own)
        now = self._now()
        row = sql.one(
            connection,
            f"SELECT {CALL_COLUMNS} FROM wallet_calls WHERE id = :id AND state = 'pending'",
            {"id": bet_id},
        )
        if row is None:
            return False
        moved = sql.run(
            connection,
            "UPDATE wallet_calls SET state = 'unanswered', status = :reason, updated_ms = :now"
            " WHERE id = :id AND state = 'pending'",
            {"id": bet_id, "reason": reason[:64], "now": now},
        )
        if moved != 1:
            # acknowledged (its round played) by another transaction between the read and
            # this update: a played bet is never rolled back
            return False
        self.insert_call(
            connection,
            "rollback",
            str(row["player_id"]),
            str(row["user_ref"]),
            str(row["game"]),
            str(row["round_id"]),
            str(row["currency"]),
            int(row["amount_minor"]),
            now,
            reference_id=bet_id,
            round_closed=True,
        )
        return True

    def deliver(self, row: Any) -> bool:
        """Send one pending win or rollback once and write what came of it: True when it is
        acknowledged (see :meth:`deliver_many`)."""
        return self.deliver_many([row]) == 1

    def deliver_many(self, rows: list[Any], pool: ThreadPoolExecutor | None = None) -> int:
        """Send each pending win or rollback of ``rows`` once (side by side on ``pool`` when
        given) and write what came of them all in one transaction: how many were
        acknowledged. Unanswered or answered with a status that may pass, a call is due
        again after a backoff; a win whose bet the operator does not know is refused for
        good (and logged: reconciliation lists it). An outcome is written only over a call
        still pending, so two senders of the same call (the win sender and the outbox, or
        two server processes) write one outcome, and the operator's de-duplication by
        ``request_uuid`` makes the second sending harmless."""
        if not rows:
            return 0
        if pool is not None and len(rows) > 1:
            outcomes = list(pool.map(self._send, rows))
        else:
            outcomes = [self._send(row) for row in rows]
        self.store_outcomes(outcomes)
        return sum(1 for outcome in outcomes if outcome["state"] == "acknowledged")

    def store_outcomes(self, outcomes: list[dict[str, Any]]) -> None:
        """Write calls' outcomes (as :meth:`_send` gives them) in one transaction: in the
        server's next commit group once :meth:`write_through` named it (with its other
        writes, one commit for all), else in a transaction of its own."""
        group = self._group
        if group is None or not group[1].is_running():  # no server loop (or it stopped)
            self._write_outcomes(outcomes)
            return
        commit_group, loop = group
        # a loop stopping meanwhile never runs it: given up after a while, the calls left
        # pending (the outbox sends them again, harmlessly)
        asyncio.run_coroutine_threadsafe(
            commit_group.run(self._write_outcomes, outcomes, writes=True), loop
        ).result(timeout=15)

    def write_through(self, group: CommitGroup, loop: asyncio.AbstractEventLoop) -> None:
        """Write the outcomes of wins and rollbacks in ``group``'s commit groups on ``loop``
        (the server's) rather than in transactions of their own: from then on
        :meth:`deliver_many` must not be called on ``loop``'s thread."""
        self._group = (group, loop)

    def _write_outcomes(self, outcomes: list[dict[str, Any]]) -> None:
        with self.db.write() as connection:
            for outcome in outcomes:
                sql.run(
                    connection,
                    "UPDATE wallet_calls SET state = :state, status = :status,"
                    " attempts = attempts + 1, next_attempt_ms = :next, updated_ms = :now,"
                    " balance_minor = COALESCE(:balance, balance_minor)"
                    " WHERE id = :id AND state = 'pending'",
                    outcome,
                )

    def _send(self, row: Any) -> dict[str, Any]:
        """Send one win or rollback; the outcome to write (the parameters of its update)."""
        kind = str(row["kind"])
        done = WIN_DONE if kind == "win" else ROLLBACK_DONE
        balance: int | None = None
        try:
            answer = self.client.call(kind, self._body(row))
            status = answer.status
            if answer.status == "RS_OK" and answer.balance is not None:
                balance = from_sub_units(answer.balance, self.currency(str(row["currency"])))
        except NoAnswerError as exc:
            status = str(exc)
            answer = None
        if answer is not None and status in done:
            state = "acknowledged"
        elif kind == "win" and status == "RS_ERROR_TRANSACTION_DOES_NOT_EXIST":
            state = "refused"
            log.error("win %s of round %s refused: its bet is unknown", row["id"], row["round_id"])
        else:
            state = "pending"
            log.info("%s %s not acknowledged (%s); retried", kind, row["id"], status)
        now = self._now()
        backoff = min(MAX_BACKOFF_MS, self.retry_base_ms * 2 ** min(int(row["attempts"]), 16))
        return {
            "state": state,
            "status": status[:64],
            "next": now + backoff,
            "now": now,
            "balance": balance,
            "id": row["id"],
        }

    def pending_wins(self, round_ids: list[str]) -> list[Any]:
        """The pending wins of these rounds, oldest first: one read."""
        if not round_ids:
            return []
        names = {f"r{i}": round_id for i, round_id in enumerate(round_ids)}
        with self.db.read() as connection:
            return _rows(
                connection,
                f"SELECT {CALL_COLUMNS} FROM wallet_calls WHERE kind = 'win'"
                f" AND state = 'pending' AND round_id IN ({', '.join(':' + n for n in names)})"
                " ORDER BY created_ms",
                names,
            )

    def send_wins(self, player_id: str, round_id: str) -> None:
        """Have the round's pending wins sent as soon as possible, off the caller's path (the
        win sender, :class:`WinSender`): call it once the step that wrote them committed."""
        self.sender.send(player_id, round_id)

    def drain(self, limit: int = 200) -> int:
        """One pass of the outbox worker: abandon the bets pending longer than
        ``abandon_after_ms`` (their rollbacks written), then send the wins and rollbacks
        that are due, oldest first. How many were acknowledged."""
        now = self._now()
        with self.db.read() as connection:
            stale = _rows(
                connection,
                "SELECT id FROM wallet_calls WHERE state = 'pending' AND kind = 'bet'"
                " AND created_ms < :before",
                {"before": now - self.abandon_after_ms},
            )
        for row in stale:
            if self.abandon_bet(str(row["id"]), "no play after the bet (abandoned)"):
                log.warning("bet %s abandoned before its round was played: rolled back", row["id"])
        with self.db.read() as connection:
            due = _rows(
                connection,
                f"SELECT {CALL_COLUMNS} FROM wallet_calls WHERE state = 'pending'"
                " AND kind IN ('win', 'rollback') AND next_attempt_ms <= :now"
                " ORDER BY next_attempt_ms LIMIT :limit",
                {"now": now, "limit": limit},
            )
        return self.deliver_many(due, self.sender.pool)

    def outstanding(self) -> int:
        """How many calls are not settled yet (pending, of any kind)."""
        with self.db.read() as connection:
            found = sql.scalar(
                connection, "SELECT COUNT(*) FROM wallet_calls WHERE state = 'pending'", {}
            )
        return int(found or 0)

    @staticmethod
    def _now() -> int:
        import time

        return int(time.time() * 1000)


class WinSender:
    """Sends the wins of the steps just committed, off the path of the request that played
    them: the request hands the round over (:meth:`send`) and answers at once. A player's
    wins go out in the order they were handed over, one at a time (a round's closing win
    never overtakes an earlier win of it), on the sender's threads, each player's beside the
    others'; their outcomes are written by one writer thread, many in one transaction.

    It adds no risk to the money: a win's intent is in the database with the step that won
    it before it is handed over (the sender reads it back from there, so it sends only what
    was committed), and what the sender does not get acknowledged and written (no answer, a
    crash, a restart before it ran) stays pending for the outbox (:meth:`SeamlessWallet.drain`),
    which sends it with the same ``request_uuid`` until acknowledged.

    A player's next bet waits until the operator answered the player's wins handed over
    before it (:meth:`wait`), so the operator books a round's win before the next round's
    bet, as a casino's wallet expects, and the balance the bet's answer carries includes
    it. The wins acknowledged whose outcome is not written yet are kept (:meth:`answered_of`),
    so that a balance shown as the operator's last plus the wins still pending
    (:meth:`SeamlessWallet.known_balance`) reads them as written."""

    def __init__(self, wallet: SeamlessWallet, senders: int = 16) -> None:
        self.wallet = wallet
        self.pool = ThreadPoolExecutor(max_workers=senders, thread_name_prefix="win-sender")
        # guards the state below; only the outcomes' writer waits on it (for outcomes)
        self._cond = threading.Condition()
        self._handed: dict[str, list[str]] = {}  # player -> rounds handed over, not taken yet
        self._busy: set[str] = set()  # players whose wins are being sent (or are to be)
        # per busy player, set once it is no longer busy: a bet waiting for its player's wins
        # wakes up for them alone, not at every other player's outcome
        self._idle: dict[str, threading.Event] = {}
        # wins acknowledged, their outcome not written yet: id -> (player, when, balance after)
        self._answered: dict[str, tuple[str, int, int | None]] = {}
        self._outcomes: list[dict[str, Any]] = []  # outcomes to write
        self._writer: threading.Thread | None = None

    def send(self, player_id: str, round_id: str) -> None:
        """Hand over a round whose step committed wins (pending) to be sent."""
        with self._cond:
            self._handed.setdefault(player_id, []).append(round_id)
            if player_id in self._busy:
                return  # its sending thread takes it next
            self._busy.add(player_id)
            self._idle[player_id] = threading.Event()
        try:
            self.pool.submit(self._send_player, player_id)
        except RuntimeError:  # shutting down: the outbox sends it after the restart
            with self._cond:
                self._handed.pop(player_id, None)
                self._idle_again(player_id)

    def wait(self, player_id: str, timeout: float) -> bool:
        """Wait until the operator answered (or did not, in time) every win of the player's
        handed over so far: False if ``timeout`` (seconds) passed first."""
        with self._cond:
            idle = self._idle.get(player_id)
        return idle is None or idle.wait(timeout)

    def _idle_again(self, player_id: str) -> None:
        """The player is no longer busy: its waiting bets go on (with ``_cond`` held)."""
        self._busy.discard(player_id)
        idle = self._idle.pop(player_id, None)
        if idle is not None:
            idle.set()

    def answered_of(self, player_id: str) -> dict[str, tuple[int, int | None]]:
        """The player's wins acknowledged whose outcome is not written yet: id -> (when, in
        ms, the operator's balance after it in minor units, if it said)."""
        with self._cond:
            return {
                call_id: (at_ms, balance)
                for call_id, (player, at_ms, balance) in self._answered.items()
                if player == player_id
            }

    def _send_player(self, player_id: str) -> None:
        try:
            while True:
                with self._cond:
                    rounds = self._handed.pop(player_id, [])
                    if not rounds:
                        return
                try:
                    rows = self.wallet.pending_wins(rounds)
                except Exception:  # left pending: the outbox sends them
                    log.exception("reading the wins of %d rounds failed", len(rounds))
                    continue
                for row in rows:
                    outcome = self.wallet._send(row)
                    with self._cond:
                        if outcome["state"] == "acknowledged":
                            self._answered[str(outcome["id"])] = (
                                player_id,
                                int(outcome["now"]),
                                outcome["balance"],
                            )
                        self._outcomes.append(outcome)
                        if self._writer is None:
                            self._writer = threading.Thread(
                                target=self._write, name="win-outcomes", daemon=True
                            )
                            self._writer.start()
                        self._cond.notify()  # the writer: the only thread waiting on it
        finally:
            with self._cond:
                resubmitted = False
                if self._handed.get(player_id):  # handed over as this thread was leaving
                    try:
                        self.pool.submit(self._send_player, player_id)
                        resubmitted = True
                    except RuntimeError:  # shutting down: the outbox sends them
                        self._handed.pop(player_id, None)
                if not resubmitted:
                    self._idle_again(player_id)

    def _write(self) -> None:
        """The writer thread: every outcome waiting, in one transaction, again and again."""
        while True:
            with self._cond:
                self._cond.wait_for(lambda: bool(self._outcomes))
                taken, self._outcomes = self._outcomes, []
            try:
                self.wallet.store_outcomes(taken)
            except Exception:  # left pending: the outbox sends them again, harmlessly
                log.exception("writing %d wins' outcomes failed; the outbox retries", len(taken))
            finally:
                with self._cond:
                    for outcome in taken:
                        self._answered.pop(str(outcome["id"]), None)
