"""Double-entry ledger: every money movement is a transaction whose postings sum to zero.

Accounts: each player's wallet (``wallet:<player id>``), and per currency the house accounts
``cash`` (the other side of deposits and withdrawals) and ``game:<id>`` (the other side of
bets, wins, jackpot wins and refunds). A wallet's balance is cached on its account row and
moved in the same transaction as its postings, under the player's lock; it never goes below
zero (checked here and by a database constraint).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, func, insert, select

from reelsmith.store import sql
from reelsmith.store.tables import accounts, ledger_transactions, postings

KINDS = ("deposit", "withdrawal", "bet", "win", "jackpot_win", "refund")

# The balance cap: no deposit takes a wallet above it, and no round starts from a balance above
# it. A win is always paid in full, even past the cap (it is the player's money, and the round
# was played); the headroom up to 2**53 (about 9.007e15, the largest integer every database
# column, JSON parser and JavaScript client holds exactly) is 8e15 minor units, which no
# round's win reaches: a round's stake is at most a market's maximum stake, and its win a
# bounded multiple of it. 10**15 minor units are 10 trillion in a two-decimal currency.
MAX_BALANCE_MINOR = 10**15


class InsufficientFundsError(Exception):
    def __init__(self, balance: int, needed: int) -> None:
        super().__init__(f"balance {balance} is below {needed}")
        self.balance = balance
        self.needed = needed


def house_account(connection: Connection, name: str, currency: str) -> int:
    """The id of a house account, created on first use.

    Processes starting together on one database may both create it: the insert gives way to
    the other's (``ON CONFLICT DO NOTHING``) instead of failing the start-up.
    """
    query = select(accounts.c.id).where(accounts.c.name == name, accounts.c.currency == currency)
    found = connection.execute(query).scalar()
    if found is not None:
        return int(found)
    sql.run(
        connection,
        "INSERT INTO accounts (name, currency, balance) VALUES (:name, :currency, 0)"
        " ON CONFLICT (name, currency) DO NOTHING",
        {"name": name, "currency": currency},
    )
    return int(connection.execute(query).scalar_one())


def open_wallet(connection: Connection, player_id: str, currency: str) -> int:
    result = connection.execute(
        insert(accounts).values(
            player_id=player_id, name=f"wallet:{player_id}", currency=currency, balance=0
        )
    )
    return int(result.inserted_primary_key[0])  # type: ignore[index]


@dataclass(frozen=True)
class Wallet:
    account_id: int
    currency: str
    balance: int


def wallet(connection: Connection, player_id: str) -> Wallet:
    row = sql.one(
        connection,
        "SELECT id, currency, balance FROM accounts WHERE player_id = :player_id",
        {"player_id": player_id},
    )
    if row is None:
        raise LookupError(f"player {player_id} has no wallet")
    return Wallet(int(row["id"]), str(row["currency"]), int(row["balance"]))


def post(
    connection: Connection,
    kind: str,
    player_id: str,
    entries: Sequence[tuple[int, int]],
    now_ms: int,
    round_id: str | None = None,
    wallets: Collection[int] | Mapping[int, int] | None = None,
) -> None:
    """Record one balanced transaction: ``entries`` are ``(account id, amount)`` pairs summing to
    zero. Wallet balances move with it; a wallet that would go negative raises
    :class:`InsufficientFundsError` and nothing is written.

    ``wallets`` names the entries' player wallets when the caller knows them (the others are
    house accounts, which keep no cached balance); without it every account is tried. As a
    mapping it also gives their balances, read under the player's lock: the cover is then
    checked here, and nothing needs an answer from the database, so on PostgreSQL the whole
    transaction waits in the write's batch (see `store.sql`). The database's own check
    (``ck_wallet_not_negative``) still refuses a wallet going negative."""
    if kind not in KINDS:
        raise ValueError(f"unknown transaction kind {kind!r}")
    if sum(amount for _, amount in entries) != 0 or len(entries) < 2:
        raise ValueError(f"{kind}: postings must be two or more and sum to zero: {entries}")
    known = wallets if isinstance(wallets, Mapping) else None
    if known is not None:
        for account_id, amount in entries:
            if account_id in known and known[account_id] + amount < 0:
                raise InsufficientFundsError(known[account_id], -amount)
    postgresql = connection.dialect.name == "postgresql"
    moves = []  # the entries whose wallet update goes with the transaction's statement
    for i, (account_id, amount) in enumerate(entries):
        if wallets is not None and account_id not in wallets:
            continue
        if known is not None or amount >= 0:
            # covered (or a credit): nothing to learn from the answer
            moves.append(i)
            continue
        # wallets only: house accounts have no player and no cached balance to guard
        moved = sql.run(
            connection,
            "UPDATE accounts SET balance = balance + :amount "
            "WHERE id = :id AND player_id IS NOT NULL AND balance + :amount >= 0",
            {"amount": amount, "id": account_id},
        )
        if moved == 0:
            row = sql.one(
                connection,
                "SELECT balance, player_id FROM accounts WHERE id = :id",
                {"id": account_id},
            )
            if row is not None and row["player_id"] is not None:
                raise InsufficientFundsError(int(row["balance"]), -amount)
    params: dict[str, Any] = {
        "kind": kind,
        "player_id": player_id,
        "round_id": round_id,
        "now": now_ms,
    }
    for i, (account_id, amount) in enumerate(entries):
        params[f"a{i}"], params[f"m{i}"] = account_id, amount
    if not postgresql or len({entries[i][0] for i in moves}) < len(moves):
        # each its own statement (on PostgreSQL, a wallet named twice: one row moved twice)
        for i in moves:
            sql.send(
                connection,
                "UPDATE accounts SET balance = balance + :amount"
                " WHERE id = :id AND player_id IS NOT NULL",
                {"amount": entries[i][1], "id": entries[i][0]},
            )
        moves = []
    if postgresql:
        # one statement: the wallets move and the postings take the new transaction's id
        # inside the server (each wallet is another row: the parts of the statement touch
        # no row twice)
        values = ", ".join(
            f"(CAST(:a{i} AS INTEGER), CAST(:m{i} AS BIGINT))" for i in range(len(entries))
        )
        wallet_moves = "".join(
            f"w{i} AS (UPDATE accounts SET balance = balance + CAST(:m{i} AS BIGINT)"
            f" WHERE id = CAST(:a{i} AS INTEGER) AND player_id IS NOT NULL), "
            for i in moves
        )
        sql.send(
            connection,
            f"WITH {wallet_moves}"
            "t AS (INSERT INTO ledger_transactions (kind, player_id, round_id, created_ms)"
            " VALUES (:kind, :player_id, :round_id, :now) RETURNING id)"
            " INSERT INTO postings (transaction_id, account_id, amount)"
            f" SELECT t.id, v.account, v.amount FROM t, (VALUES {values}) AS v (account, amount)",
            params,
        )
        return
    params["t"] = sql.scalar(
        connection,
        "INSERT INTO ledger_transactions (kind, player_id, round_id, created_ms) "
        "VALUES (:kind, :player_id, :round_id, :now) RETURNING id",
        params,
    )
    values = ", ".join(f"(:t, :a{i}, :m{i})" for i in range(len(entries)))
    sql.run(
        connection,
        f"INSERT INTO postings (transaction_id, account_id, amount) VALUES {values}",
        params,
    )


@dataclass(frozen=True)
class LedgerReport:
    transactions: int
    unbalanced_transactions: list[int]
    wallet_mismatches: list[str]
    negative_wallets: list[str]

    @property
    def ok(self) -> bool:
        return not (self.unbalanced_transactions or self.wallet_mismatches or self.negative_wallets)


def verify(connection: Connection) -> LedgerReport:
    """Check the whole ledger: each transaction sums to zero, each cached wallet balance equals
    the sum of its postings and none is negative."""
    count = connection.execute(select(func.count()).select_from(ledger_transactions)).scalar_one()
    unbalanced = [
        int(row.transaction_id)
        for row in connection.execute(
            select(postings.c.transaction_id)
            .group_by(postings.c.transaction_id)
            .having(func.sum(postings.c.amount) != 0)
        )
    ]
    sums = dict(
        connection.execute(
            select(postings.c.account_id, func.sum(postings.c.amount)).group_by(
                postings.c.account_id
            )
        ).all()
    )
    mismatches, negative = [], []
    for row in connection.execute(
        select(accounts.c.id, accounts.c.player_id, accounts.c.balance).where(
            accounts.c.player_id.is_not(None)
        )
    ):
        if int(sums.get(row.id, 0) or 0) != int(row.balance):
            mismatches.append(str(row.player_id))
        if row.balance < 0:
            negative.append(str(row.player_id))
    return LedgerReport(int(count), unbalanced, mismatches, negative)
