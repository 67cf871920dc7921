"""Money conservation, computed three ways and compared.

After a scenario, for every player:

* **from the ledger** (``ledger_transactions`` joined to ``postings``): deposits - withdrawals -
  bets + wins + jackpot wins + refunds must equal the wallet balance on ``accounts``;
* **from the API** (``/api/history/rounds`` and the client's own record of the deposits and
  withdrawals the server confirmed): the same sum must equal the balance
  ``/operator/players/{id}`` reports, and the rounds the API lists must be exactly the rounds the
  client played, each once;
* **per round**: one bet per round equal to the round's stake, at most one win, one jackpot win
  and one refund, ``rounds.win_minor`` equal to what was posted, nothing posted on a round still
  open, a voided round's stake refunded in full.

Every transaction's postings must sum to zero (two postings: the wallet and a house account, the
wallet moving the way its kind says), the audit chain and the server's own ledger check must
pass, and every round's payout, re-derived from its recorded draws at its own variant and price
(`reelsmith audit verify`'s payout check), must be what the ledger moved for it. Each failed
check is one *discrepancy*; a scenario passes with none.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from sqlalchemy import Connection, create_engine, text
from sqlalchemy.pool import NullPool

from reelsmith.server.registry import TitleRegistry
from reelsmith.server.services.payouts import verify_payouts
from reelsmith.store import audit
from reelsmith.wallet import ledger


@cache
def shipped_titles() -> TitleRegistry:
    return TitleRegistry.load()


# the direction a wallet moves for each kind of transaction
WALLET_SIGN = {
    "deposit": 1,
    "withdrawal": -1,
    "bet": -1,
    "win": 1,
    "jackpot_win": 1,
    "refund": 1,
}
ROUND_KINDS = ("bet", "win", "jackpot_win", "refund")


@dataclass
class ClientRecord:
    """What one client knows it did, from the server's confirmed responses only."""

    player_id: str
    token: str = ""
    deposits_minor: int = 0
    withdrawals_minor: int = 0
    # round id -> (game, bet minor, last status seen, last win minor seen)
    rounds: dict[str, tuple[str, int, str, int]] = field(default_factory=dict)

    def saw_round(self, body: dict[str, Any], game: str) -> None:
        self.rounds[str(body["round_id"])] = (
            game,
            int(body["bet"]["minor"]),
            str(body["status"]),
            int(body["win"]["minor"]),
        )


@dataclass
class MoneyReport:
    players: int = 0
    rounds: int = 0
    transactions: int = 0
    payouts_checked: int = 0  # rounds whose payout was re-derived from their draws
    problems: list[str] = field(default_factory=list)

    @property
    def discrepancies(self) -> int:
        return len(self.problems)

    def fail(self, message: str) -> None:
        self.problems.append(message)


def connect(database_url: str) -> Any:
    """A pool-less engine on the scenario's database (the URL may carry a search_path).

    On PostgreSQL the checks read one snapshot (REPEATABLE READ): with other servers still
    writing, statements under READ COMMITTED would each see a different moment and report
    rounds without their bets, chains without their heads. (SQLite scenarios are checked
    with no writer running.)"""
    if database_url.startswith("postgresql"):
        return create_engine(
            database_url, poolclass=NullPool, future=True, isolation_level="REPEATABLE READ"
        )
    return create_engine(database_url, poolclass=NullPool, future=True)


def check_database(connection: Connection, report: MoneyReport) -> dict[str, dict[str, int]]:
    """The ledger-side checks; returns each player's wallet movement per transaction kind."""
    wallets = {
        str(r.player_id): (int(r.id), int(r.balance))
        for r in connection.execute(
            text("SELECT id, player_id, balance FROM accounts WHERE player_id IS NOT NULL")
        )
    }
    report.players = len(wallets)
    wallet_ids = {account: player for player, (account, _) in wallets.items()}
    rows = connection.execute(
        text(
            "SELECT t.id, t.kind, t.player_id, t.round_id, p.account_id, p.amount"
            " FROM ledger_transactions t LEFT JOIN postings p ON p.transaction_id = t.id"
            " ORDER BY t.id"
        )
    ).all()
    transactions: dict[int, dict[str, Any]] = {}
    for row in rows:
        entry = transactions.setdefault(
            int(row.id),
            {"kind": row.kind, "player": row.player_id, "round": row.round_id, "postings": []},
        )
        if row.account_id is not None:
            entry["postings"].append((int(row.account_id), int(row.amount)))
    report.transactions = len(transactions)
    by_kind: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    per_round: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    total = 0
    for tid, entry in transactions.items():
        kind, player, postings = entry["kind"], str(entry["player"]), entry["postings"]
        where = f"transaction {tid} ({kind}, player {player})"
        amounts = [amount for _, amount in postings]
        total += sum(amounts)
        if sum(amounts) != 0:
            report.fail(f"{where}: postings sum to {sum(amounts)}, not 0")
        if len(postings) != 2:
            report.fail(f"{where}: {len(postings)} postings, not 2")
        mine = [amount for account, amount in postings if wallet_ids.get(account) == player]
        others = [account for account, _ in postings if account in wallet_ids]
        if len(mine) != 1 or len(others) != 1:
            report.fail(f"{where}: does not move exactly one wallet, the player's own")
            continue
        if kind not in WALLET_SIGN:
            report.fail(f"{where}: unknown kind")
            continue
        if mine[0] * WALLET_SIGN[kind] <= 0:
            report.fail(f"{where}: the wallet moves {mine[0]}, the wrong way for a {kind}")
        by_kind[player][kind] += mine[0]
        if kind in ROUND_KINDS:
            if entry["round"] is None:
                report.fail(f"{where}: a {kind} without a round")
            else:
                per_round[str(entry["round"])][kind].append(mine[0])
        elif entry["round"] is not None:
            report.fail(f"{where}: a {kind} tied to round {entry['round']}")
    if total != 0:
        report.fail(f"all postings sum to {total}, not 0")

    for player, (_account, balance) in wallets.items():
        moved = sum(by_kind[player].values())
        if moved != balance:
            report.fail(
                f"player {player}: deposits - withdrawals - bets + wins + refunds = {moved}, "
                f"but the wallet holds {balance}"
            )
        if balance < 0:
            report.fail(f"player {player}: negative balance {balance}")

    round_rows = connection.execute(
        text("SELECT id, player_id, game, status, bet_minor, win_minor, balance_after FROM rounds")
    ).all()
    report.rounds = len(round_rows)
    open_per_game: dict[tuple[str, str], int] = defaultdict(int)
    known = set()
    for r in round_rows:
        rid = str(r.id)
        known.add(rid)
        posted = per_round.get(rid, {})
        where = f"round {rid} ({r.status})"
        bets = posted.get("bet", [])
        if len(bets) != 1:
            report.fail(f"{where}: {len(bets)} bets posted, not 1")
        elif -bets[0] != int(r.bet_minor):
            report.fail(f"{where}: bet posted {-bets[0]}, the round says {r.bet_minor}")
        for kind in ("win", "jackpot_win", "refund"):
            if len(posted.get(kind, [])) > 1:
                report.fail(f"{where}: {kind} posted {len(posted[kind])} times (settled twice)")
        paid = sum(posted.get("win", [])) + sum(posted.get("jackpot_win", []))
        refund = sum(posted.get("refund", []))
        if r.status == "complete":
            if paid != int(r.win_minor) or refund:
                report.fail(f"{where}: paid {paid} refund {refund}, the round says {r.win_minor}")
        elif r.status == "voided":
            if refund != int(r.bet_minor) or paid:
                report.fail(f"{where}: refunded {refund} and paid {paid} on a {r.bet_minor} bet")
        elif r.status == "open":
            open_per_game[(str(r.player_id), str(r.game))] += 1
            if paid or refund or r.balance_after is not None:
                report.fail(f"{where}: money settled on a round still open")
        else:
            report.fail(f"{where}: unknown status")
    for (player, game), count in open_per_game.items():
        if count > 1:
            report.fail(f"player {player}: {count} open rounds of {game}")
    for rid in set(per_round) - known:
        report.fail(f"money posted on round {rid}, which does not exist")

    books = ledger.verify(connection)
    if not books.ok:
        report.fail(f"the server's ledger check fails: {books}")
    chain = audit.verify(connection)
    if not chain.ok:
        report.fail(f"the audit chain is broken: {chain.problems[:5]}")
    payouts = verify_payouts(connection, shipped_titles())
    report.payouts_checked += payouts.checked
    for found in [*payouts.differences, *payouts.unchecked]:
        report.fail(f"payout of round {found['round_id']}: {found}")
    return {player: dict(kinds) for player, kinds in by_kind.items()}


def check_api(
    client: Any,
    operator_key: str,
    record: ClientRecord,
    ledger_kinds: dict[str, int],
    report: MoneyReport,
) -> None:
    """The API-side checks for one player (``client`` is an httpx-style client)."""
    pid = record.player_id
    history = client.get(
        "/api/history/rounds",
        params={"limit": 100_000},
        headers={"Authorization": f"Bearer {record.token}"},
    )
    if history.status_code != 200:
        report.fail(f"player {pid}: history answered {history.status_code}: {history.text}")
        return
    rounds = history.json()["rounds"]
    ids = [str(r["round_id"]) for r in rounds]
    if len(ids) != len(set(ids)):
        report.fail(f"player {pid}: the history lists a round twice")
    if set(ids) != set(record.rounds):
        missing = set(record.rounds) - set(ids)
        extra = set(ids) - set(record.rounds)
        report.fail(
            f"player {pid}: rounds the client played but the API lacks {sorted(missing)[:5]}, "
            f"rounds the API has that the client never started {sorted(extra)[:5]}"
        )
    numbers = sorted(int(r["number"]) for r in rounds)
    if numbers != list(range(1, len(rounds) + 1)):
        report.fail(f"player {pid}: round numbers are not 1..{len(rounds)} without gaps")
    bets = sum(int(r["bet_minor"]) for r in rounds)
    wins = sum(int(r["win_minor"]) for r in rounds if r["status"] == "complete")
    refunds = sum(int(r["bet_minor"]) for r in rounds if r["status"] == "voided")
    for r in rounds:
        seen = record.rounds.get(str(r["round_id"]))
        if seen is not None and seen[1] != int(r["bet_minor"]):
            report.fail(
                f"round {r['round_id']}: the client staked {seen[1]}, the history {r['bet_minor']}"
            )
        if r["status"] == "open":
            report.fail(f"round {r['round_id']}: still open after the scenario finished it")
    player = client.get(f"/operator/players/{pid}", headers={"X-API-Key": operator_key})
    if player.status_code != 200:
        report.fail(f"player {pid}: operator view answered {player.status_code}")
        return
    balance = int(player.json()["balance"]["minor"])
    expected = record.deposits_minor - record.withdrawals_minor - bets + wins + refunds
    if expected != balance:
        report.fail(
            f"player {pid}: from the API, deposits {record.deposits_minor} - withdrawals "
            f"{record.withdrawals_minor} - bets {bets} + wins {wins} + refunds {refunds} = "
            f"{expected}, but the wallet holds {balance}"
        )
    # the ledger, kind by kind, against what the client and the API say
    pairs = (
        ("deposit", record.deposits_minor),
        ("withdrawal", -record.withdrawals_minor),
        ("bet", -bets),
        ("refund", refunds),
    )
    for kind, value in pairs:
        if ledger_kinds.get(kind, 0) != value:
            report.fail(
                f"player {pid}: the ledger has {kind} {ledger_kinds.get(kind, 0)}, "
                f"the client and the API {value}"
            )
    posted_wins = ledger_kinds.get("win", 0) + ledger_kinds.get("jackpot_win", 0)
    if posted_wins != wins:
        report.fail(f"player {pid}: the ledger paid {posted_wins} in wins, the history {wins}")


def check_all(
    database_url: str, client: Any, operator_key: str, records: list[ClientRecord]
) -> MoneyReport:
    """Every check on the scenario's database and API; the report lists each discrepancy."""
    report = MoneyReport()
    engine = connect(database_url)
    try:
        with engine.connect() as connection:
            kinds = check_database(connection, report)
    finally:
        engine.dispose()
    for record in records:
        check_api(client, operator_key, record, kinds.get(record.player_id, {}), report)
    return report
