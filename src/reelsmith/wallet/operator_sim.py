"""An operator (casino) simulator: the casino side of a Hub88-shaped seamless wallet.

It runs as a process of its own (``reelsmith operator-sim``) with its own SQLite database of
players, balances and transactions, and answers the four wallet calls a game server makes:
``/user/balance``, ``/transaction/bet``, ``/transaction/win`` and ``/transaction/rollback``.
It behaves as a careful casino does, so that the game server is tested against the rules it
will meet:

- every request body must carry a valid RSA-SHA256 signature by the game's key
  (``X-Hub88-Signature``), else ``RS_ERROR_INVALID_SIGNATURE``; every answer is signed with
  the operator's key;
- a ``request_uuid`` seen before gets the answer it got the first time (the same body); with
  a different body, ``RS_ERROR_WRONG_SYNTAX``;
- a ``transaction_uuid`` is processed once: a second request for it (another request_uuid)
  answers ``RS_ERROR_DUPLICATE_TRANSACTION`` with the balance, and moves nothing;
- a bet needs a live token, the player's currency and the money (``RS_ERROR_INVALID_TOKEN``,
  ``RS_ERROR_TOKEN_EXPIRED``, ``RS_ERROR_WRONG_CURRENCY``, ``RS_ERROR_NOT_ENOUGH_MONEY``);
  wins and rollbacks need no token;
- a win references a bet that exists and was not rolled back; a rollback refunds its bet once,
  and a rollback of a bet never seen is remembered (so the bet, arriving late, is refused)
  and answered ``RS_ERROR_TRANSACTION_DOES_NOT_EXIST``.

Amounts are integers in 1/100,000 of the currency's unit (:data:`SUB_UNITS`).

Faults, for tests and benchmarks: each wallet call draws one fault at ``fail_rate`` from the
modes enabled (``faults``): ``timeout`` (nothing done; the answer comes after
``hang_seconds``, as a 504, by which time the game has given up), ``error`` (nothing done,
500), ``slow`` (done, answered after ``slow_seconds``), ``twice`` (the request is processed
twice, as a duplicated delivery would be, and the second answer sent), ``lose`` (done and
committed, then answered as ``timeout`` is: the game never learns it succeeded) and
``truncate`` (done and committed, the answer cut short) and ``late`` (the request held
``slow_seconds`` before it is processed, then done and answered, as a congested network
delivers it); ``calls`` limits the faults to some
of the four calls (e.g. wins alone). The admin endpoints (``/admin/...``)
are never faulted: they create players, set balances and tokens, change the faults at run
time and list transactions for reconciliation. They take no signature; bind the simulator to
loopback (the default).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import random
import secrets
import sqlite3
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from reelsmith.wallet.signing import SIGNATURE_HEADER, SignatureError, Signer, Verifier

log = logging.getLogger("reelsmith.operator_sim")

SUB_UNITS = 100_000  # amounts are integers in 1/100,000 of the currency's unit (Hub88's)
FAULT_MODES = ("timeout", "error", "slow", "twice", "lose", "truncate", "late")
DEFAULT_FAULT_MODES = FAULT_MODES[:-1]  # late only when named
DEFAULT_TOKEN_TTL_SECONDS = 24 * 3600
NO_SUCH = "RS_ERROR_TRANSACTION_DOES_NOT_EXIST"

SCHEMA = """
CREATE TABLE IF NOT EXISTS players (
    user TEXT PRIMARY KEY,
    currency TEXT NOT NULL,
    balance INTEGER NOT NULL CHECK (balance >= 0),
    token TEXT NOT NULL,
    token_expires_ms INTEGER NOT NULL,
    created_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS transactions (
    transaction_uuid TEXT PRIMARY KEY,
    kind TEXT NOT NULL,              -- bet win rollback
    user TEXT NOT NULL,
    round TEXT,
    amount INTEGER NOT NULL,         -- sub-units moved (a rollback: the refund)
    currency TEXT NOT NULL,
    reference_transaction_uuid TEXT, -- a win's or rollback's bet
    round_closed INTEGER NOT NULL DEFAULT 0,
    is_free INTEGER NOT NULL DEFAULT 0,
    request_uuid TEXT NOT NULL,
    status TEXT NOT NULL,            -- ok; a bet: rolled_back; a rollback: unknown_bet
    balance_after INTEGER NOT NULL,
    created_ms INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS ix_transactions_created ON transactions (created_ms);
CREATE INDEX IF NOT EXISTS ix_transactions_reference
    ON transactions (reference_transaction_uuid);
CREATE TABLE IF NOT EXISTS requests (
    request_uuid TEXT PRIMARY KEY,
    body_hash TEXT NOT NULL,
    response TEXT NOT NULL
);
"""


@dataclass
class Faults:
    """The faults injected into wallet calls (see the module's docstring)."""

    fail_rate: float = 0.0
    modes: tuple[str, ...] = DEFAULT_FAULT_MODES
    hang_seconds: float = 2.0
    slow_seconds: float = 0.2
    seed: int | None = None
    calls: tuple[str, ...] = ("balance", "bet", "win", "rollback")  # the calls faulted
    counts: dict[str, int] = field(default_factory=dict)

    def check(self) -> None:
        if not 0.0 <= self.fail_rate <= 1.0:
            raise ValueError(f"fail_rate {self.fail_rate} is not between 0 and 1")
        unknown = [mode for mode in self.modes if mode not in FAULT_MODES]
        if unknown or not self.modes:
            raise ValueError(
                f"faults {', '.join(unknown) or '(none)'}: choose from {', '.join(FAULT_MODES)}"
            )
        wrong = [call for call in self.calls if call not in CALLS.values()]
        if wrong:
            raise ValueError(f"calls {', '.join(wrong)}: choose from {', '.join(CALLS.values())}")
        if self.hang_seconds < 0 or self.slow_seconds < 0:
            raise ValueError("hang_seconds and slow_seconds must not be negative")

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["modes"] = list(self.modes)
        data["calls"] = list(self.calls)
        return data


class RefusedError(Exception):
    """A wallet call refused with an RS_* status; ``reason`` goes to the log only."""

    def __init__(self, status: str, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason


def _now_ms() -> int:
    return int(time.time() * 1000)


class OperatorBook:
    """The casino's books: players and transactions in one SQLite file, one writer (the
    simulator's event loop) at a time. Each call is one transaction: the request's answer is
    stored under its request_uuid in the transaction that moved the money."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.db.row_factory = sqlite3.Row
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(SCHEMA)

    def close(self) -> None:
        self.db.close()

    # -- admin -----------------------------------------------------------------------------

    def create_player(
        self, user: str, currency: str, balance: int, token: str | None, ttl_seconds: float
    ) -> dict[str, Any]:
        now = _now_ms()
        token = token or secrets.token_urlsafe(24)
        self.db.execute("BEGIN IMMEDIATE")
        try:
            self.db.execute(
                "INSERT INTO players (user, currency, balance, token, token_expires_ms,"
                " created_ms) VALUES (?, ?, ?, ?, ?, ?)",
                (user, currency, balance, token, now + int(ttl_seconds * 1000), now),
            )
            self.db.execute("COMMIT")
        except sqlite3.IntegrityError:
            self.db.execute("ROLLBACK")
            raise ValueError(f"player {user!r} exists") from None
        return self.player(user)

    def player(self, user: str) -> dict[str, Any]:
        row = self.db.execute("SELECT * FROM players WHERE user = ?", (user,)).fetchone()
        if row is None:
            raise LookupError(f"no player {user!r}")
        return dict(row)

    def players(self) -> list[dict[str, Any]]:
        return [dict(r) for r in self.db.execute("SELECT * FROM players ORDER BY user")]

    def set_token(self, user: str, token: str | None, ttl_seconds: float) -> dict[str, Any]:
        self.player(user)
        token = token or secrets.token_urlsafe(24)
        self.db.execute(
            "UPDATE players SET token = ?, token_expires_ms = ? WHERE user = ?",
            (token, _now_ms() + int(ttl_seconds * 1000), user),
        )
        return self.player(user)

    def transactions(self, since_ms: int, until_ms: int) -> list[dict[str, Any]]:
        rows = self.db.execute(
            "SELECT * FROM transactions WHERE created_ms >= ? AND created_ms < ?"
            " ORDER BY created_ms, transaction_uuid",
            (since_ms, until_ms),
        )
        return [dict(r) for r in rows]

    # -- wallet calls ----------------------------------------------------------------------

    def handle(self, call: str, body: dict[str, Any], body_hash: str) -> dict[str, Any]:
        """Process one wallet call in one transaction and return its answer (stored under its
        request_uuid, so a repeat gets it again)."""
        request_uuid = body.get("request_uuid")
        if not isinstance(request_uuid, str) or not request_uuid:
            return {"status": "RS_ERROR_WRONG_SYNTAX", "request_uuid": request_uuid}
        self.db.execute("BEGIN IMMEDIATE")
        try:
            seen = self.db.execute(
                "SELECT body_hash, response FROM requests WHERE request_uuid = ?",
                (request_uuid,),
            ).fetchone()
            if seen is not None:
                self.db.execute("ROLLBACK")
                if seen["body_hash"] != body_hash:
                    log.warning("request_uuid %s reused with another body", request_uuid)
                    return {"status": "RS_ERROR_WRONG_SYNTAX", "request_uuid": request_uuid}
                return dict(json.loads(seen["response"]))
            try:
                answer = getattr(self, f"_{call}")(body)
            except RefusedError as refusal:
                log.info("%s %s refused: %s (%s)", call, request_uuid, refusal.status, refusal)
                answer = {"user": body.get("user"), "status": refusal.status}
            answer["request_uuid"] = request_uuid
            self.db.execute(
                "INSERT INTO requests (request_uuid, body_hash, response) VALUES (?, ?, ?)",
                (request_uuid, body_hash, json.dumps(answer)),
            )
            self.db.execute("COMMIT")
            return dict(answer)
        except BaseException:
            self.db.execute("ROLLBACK")
            raise

    def _user(self, body: dict[str, Any], token: bool) -> sqlite3.Row:
        user = body.get("user")
        if not isinstance(user, str) or not user:
            raise RefusedError("RS_ERROR_WRONG_SYNTAX", "no user")
        row = self.db.execute("SELECT * FROM players WHERE user = ?", (user,)).fetchone()
        if row is None:
            raise RefusedError("RS_ERROR_INVALID_TOKEN", f"unknown user {user!r}")
        if token:
            if body.get("token") != row["token"]:
                raise RefusedError("RS_ERROR_INVALID_TOKEN", f"token not the one of user {user!r}")
            if row["token_expires_ms"] <= _now_ms():
                raise RefusedError("RS_ERROR_TOKEN_EXPIRED", f"token of user {user!r} expired")
        found: sqlite3.Row = row
        return found

    @staticmethod
    def _ok(player: sqlite3.Row, balance: int) -> dict[str, Any]:
        return {
            "user": player["user"],
            "status": "RS_OK",
            "currency": player["currency"],
            "balance": balance,
        }

    @staticmethod
    def _fields(body: dict[str, Any], names: tuple[str, ...]) -> None:
        missing = [name for name in names if name not in body]
        if missing:
            raise RefusedError("RS_ERROR_WRONG_SYNTAX", f"missing {', '.join(missing)}")
        for name in names:
            value = body[name]
            if name == "amount":
                if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                    raise RefusedError("RS_ERROR_WRONG_TYPES", "amount is not a whole number >= 0")
            elif name in ("round_closed", "is_free"):
                if not isinstance(value, bool):
                    raise RefusedError("RS_ERROR_WRONG_TYPES", f"{name} is not true or false")
            elif not isinstance(value, str) or not value:
                raise RefusedError("RS_ERROR_WRONG_TYPES", f"{name} is not a text")

    def _transaction(self, transaction_uuid: str) -> sqlite3.Row | None:
        found: sqlite3.Row | None = self.db.execute(
            "SELECT * FROM transactions WHERE transaction_uuid = ?", (transaction_uuid,)
        ).fetchone()
        return found

    def _record(
        self, body: dict[str, Any], kind: str, amount: int, status: str, balance: int, cur: str
    ) -> None:
        self.db.execute(
            "INSERT INTO transactions (transaction_uuid, kind, user, round, amount, currency,"
            " reference_transaction_uuid, round_closed, is_free, request_uuid, status,"
            " balance_after, created_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                body["transaction_uuid"],
                kind,
                body["user"],
                body.get("round"),
                amount,
                cur,
                body.get("reference_transaction_uuid"),
                int(bool(body.get("round_closed"))),
                int(bool(body.get("is_free"))),
                body["request_uuid"],
                status,
                balance,
                _now_ms(),
            ),
        )

    def _move(self, user: str, amount: int) -> int:
        self.db.execute("UPDATE players SET balance = balance + ? WHERE user = ?", (amount, user))
        row = self.db.execute("SELECT balance FROM players WHERE user = ?", (user,)).fetchone()
        return int(row["balance"])

    def _duplicate(self, player: sqlite3.Row, transaction_uuid: str) -> None:
        if self._transaction(transaction_uuid) is not None:
            raise RefusedError(
                "RS_ERROR_DUPLICATE_TRANSACTION", f"transaction {transaction_uuid} seen before"
            )

    def _balance(self, body: dict[str, Any]) -> dict[str, Any]:
        player = self._user(body, token=True)
        return self._ok(player, int(player["balance"]))

    def _bet(self, body: dict[str, Any]) -> dict[str, Any]:
        self._fields(body, ("transaction_uuid", "round", "currency", "amount", "round_closed"))
        player = self._user(body, token=False)
        if self._transaction(body["transaction_uuid"]) is not None:
            return {**self._ok(player, int(player["balance"])), **_dup()}
        self._user(body, token=True)
        if body["currency"] != player["currency"]:
            raise RefusedError("RS_ERROR_WRONG_CURRENCY", f"{body['currency']} is not the player's")
        amount = int(body["amount"])
        if amount > player["balance"]:
            raise RefusedError("RS_ERROR_NOT_ENOUGH_MONEY", f"bet {amount} > {player['balance']}")
        balance = self._move(player["user"], -amount)
        self._record(body, "bet", amount, "ok", balance, player["currency"])
        return self._ok(player, balance)

    def _win(self, body: dict[str, Any]) -> dict[str, Any]:
        self._fields(
            body,
            ("transaction_uuid", "reference_transaction_uuid", "round", "currency", "amount"),
        )
        player = self._user(body, token=False)
        if self._transaction(body["transaction_uuid"]) is not None:
            return {**self._ok(player, int(player["balance"])), **_dup()}
        if body["currency"] != player["currency"]:
            raise RefusedError("RS_ERROR_WRONG_CURRENCY", f"{body['currency']} is not the player's")
        bet = self._transaction(body["reference_transaction_uuid"])
        if bet is None or bet["kind"] != "bet" or bet["user"] != player["user"]:
            raise RefusedError(NO_SUCH, "the win's bet is unknown")
        if bet["status"] == "rolled_back":
            raise RefusedError(NO_SUCH, "the win's bet was rolled back")
        amount = int(body["amount"])
        balance = self._move(player["user"], amount)
        self._record(body, "win", amount, "ok", balance, player["currency"])
        return self._ok(player, balance)

    def _rollback(self, body: dict[str, Any]) -> dict[str, Any]:
        self._fields(body, ("transaction_uuid", "reference_transaction_uuid", "round"))
        player = self._user(body, token=False)
        if self._transaction(body["transaction_uuid"]) is not None:
            return {**self._ok(player, int(player["balance"])), **_dup()}
        bet = self._transaction(body["reference_transaction_uuid"])
        if bet is None:
            # remembered, so that the bet, should it arrive late, is refused
            body = {**body, "transaction_uuid": body["reference_transaction_uuid"]}
            self._record(body, "rollback", 0, "unknown_bet", int(player["balance"]), "")
            raise RefusedError(NO_SUCH, "the rolled back bet is unknown")
        if bet["kind"] != "bet" or bet["user"] != player["user"]:
            raise RefusedError(NO_SUCH, "the reference is not a bet")
        if bet["status"] == "rolled_back":
            return {**self._ok(player, int(player["balance"])), **_dup()}
        won = self.db.execute(
            "SELECT 1 FROM transactions WHERE reference_transaction_uuid = ? AND kind = 'win'",
            (bet["transaction_uuid"],),
        ).fetchone()
        if won is not None:
            raise RefusedError("RS_ERROR_UNKNOWN", "a bet already won cannot be rolled back")
        balance = self._move(player["user"], int(bet["amount"]))
        self.db.execute(
            "UPDATE transactions SET status = 'rolled_back' WHERE transaction_uuid = ?",
            (bet["transaction_uuid"],),
        )
        self._record(body, "rollback", int(bet["amount"]), "ok", balance, player["currency"])
        return self._ok(player, balance)


def _dup() -> dict[str, str]:
    return {"status": "RS_ERROR_DUPLICATE_TRANSACTION"}


CALLS = {
    "/user/balance": "balance",
    "/transaction/bet": "bet",
    "/transaction/win": "win",
    "/transaction/rollback": "rollback",
}


def make_app(book: OperatorBook, signer: Signer, game_key: Verifier, faults: Faults) -> Starlette:
    """The simulator's HTTP application over ``book``."""
    rng = random.Random(faults.seed)

    def signed(answer: dict[str, Any], status_code: int = 200) -> Response:
        body = json.dumps(answer).encode()
        return Response(
            body,
            status_code,
            media_type="application/json",
            headers={SIGNATURE_HEADER: signer.sign(body)},
        )

    def draw(call: str) -> str | None:
        if call in faults.calls and faults.fail_rate and rng.random() < faults.fail_rate:
            mode = rng.choice(faults.modes)
            faults.counts[mode] = faults.counts.get(mode, 0) + 1
            return mode
        return None

    async def wallet_call(request: Request) -> Response:
        call = CALLS[request.url.path]
        raw = await request.body()
        fault = draw(call)
        if fault == "timeout":
            await asyncio.sleep(faults.hang_seconds)
            return Response(b"gateway timeout", 504)
        if fault == "error":
            return Response(b"internal server error", 500)
        try:
            game_key.verify(raw, request.headers.get(SIGNATURE_HEADER))
        except SignatureError as exc:
            log.warning("%s refused: %s", call, exc)
            return signed({"status": "RS_ERROR_INVALID_SIGNATURE"})
        try:
            body = json.loads(raw)
        except ValueError:
            return signed({"status": "RS_ERROR_WRONG_SYNTAX"})
        if not isinstance(body, dict):
            return signed({"status": "RS_ERROR_WRONG_SYNTAX"})
        body_hash = hashlib.sha256(raw).hexdigest()
        if fault == "late":
            await asyncio.sleep(faults.slow_seconds)
        answer = book.handle(call, body, body_hash)
        if fault == "twice":
            answer = book.handle(call, body, body_hash)
        if fault == "slow":
            await asyncio.sleep(faults.slow_seconds)
        if fault == "lose":
            await asyncio.sleep(faults.hang_seconds)
            return Response(b"gateway timeout", 504)
        response = signed(answer)
        if fault == "truncate":
            cut = bytes(response.body)[: max(1, len(response.body) // 2)]
            return Response(cut, 200, media_type="application/json", headers=response.headers)
        return response

    async def admin_players(request: Request) -> Response:
        if request.method == "GET":
            return _json({"players": book.players()})
        body = await _admin_body(request)
        try:
            user, currency = str(body["user"]), str(body["currency"])
            balance = body.get("balance", 0)
            if not isinstance(balance, int) or isinstance(balance, bool) or balance < 0:
                raise ValueError("balance must be a whole number of sub-units >= 0")
            if len(currency) != 3 or not currency.isupper():
                raise ValueError(f"currency {currency!r} is not an ISO 4217 code")
            ttl = float(body.get("token_ttl_seconds", DEFAULT_TOKEN_TTL_SECONDS))
            return _json(book.create_player(user, currency, balance, body.get("token"), ttl), 201)
        except KeyError as exc:
            return _json({"error": f"missing field {exc.args[0]}"}, 400)
        except (TypeError, ValueError) as exc:
            return _json({"error": str(exc)}, 400)

    async def admin_player(request: Request) -> Response:
        try:
            return _json(book.player(request.path_params["user"]))
        except LookupError as exc:
            return _json({"error": str(exc)}, 404)

    async def admin_token(request: Request) -> Response:
        body = await _admin_body(request)
        try:
            ttl = float(body.get("token_ttl_seconds", DEFAULT_TOKEN_TTL_SECONDS))
            return _json(book.set_token(request.path_params["user"], body.get("token"), ttl))
        except LookupError as exc:
            return _json({"error": str(exc)}, 404)
        except (TypeError, ValueError) as exc:
            return _json({"error": str(exc)}, 400)

    async def admin_transactions(request: Request) -> Response:
        try:
            since = int(request.query_params.get("since_ms", 0))
            until = int(request.query_params.get("until_ms", 2**62))
        except ValueError:
            return _json({"error": "since_ms and until_ms must be whole numbers"}, 400)
        return _json({"transactions": book.transactions(since, until)})

    async def admin_faults(request: Request) -> Response:
        if request.method == "POST":
            body = await _admin_body(request)
            try:
                changed = Faults(
                    fail_rate=float(body.get("fail_rate", faults.fail_rate)),
                    modes=tuple(body.get("modes", faults.modes)),
                    hang_seconds=float(body.get("hang_seconds", faults.hang_seconds)),
                    slow_seconds=float(body.get("slow_seconds", faults.slow_seconds)),
                    calls=tuple(body.get("calls", faults.calls)),
                )
                changed.check()
            except (TypeError, ValueError) as exc:
                return _json({"error": str(exc)}, 400)
            faults.fail_rate, faults.modes = changed.fail_rate, changed.modes
            faults.hang_seconds, faults.slow_seconds = changed.hang_seconds, changed.slow_seconds
            faults.calls = changed.calls
        return _json(faults.to_json())

    async def health(request: Request) -> Response:
        return _json({"status": "ok"})

    routes = [Route(path, wallet_call, methods=["POST"]) for path in CALLS]
    routes += [
        Route("/admin/players", admin_players, methods=["GET", "POST"]),
        Route("/admin/players/{user}", admin_player, methods=["GET"]),
        Route("/admin/players/{user}/token", admin_token, methods=["POST"]),
        Route("/admin/transactions", admin_transactions, methods=["GET"]),
        Route("/admin/faults", admin_faults, methods=["GET", "POST"]),
        Route("/health", health, methods=["GET"]),
    ]
    return Starlette(routes=routes)


async def _admin_body(request: Request) -> dict[str, Any]:
    try:
        body = json.loads(await request.body() or b"{}")
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}


def _json(data: Any, status_code: int = 200) -> Response:
    return Response(json.dumps(data).encode(), status_code, media_type="application/json")


def serve(
    host: str, port: int, database: Path, keys: Path, faults: Faults, log_level: str = "warning"
) -> None:
    """Run the simulator until stopped (SIGINT, SIGTERM)."""
    import uvicorn

    from reelsmith.wallet.signing import ensure_keys, load_signer, load_verifier

    faults.check()
    ensure_keys(keys)
    book = OperatorBook(database)
    app = make_app(
        book,
        load_signer(keys / "operator_private.pem"),
        load_verifier(keys / "game_public.pem"),
        faults,
    )
    uvicorn.run(app, host=host, port=port, log_level=log_level, access_log=False)
