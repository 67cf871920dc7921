"""Reconciliation of the seamless wallet: the game's record of its calls (``wallet_calls``) and
its ledger against the operator's transactions, for a period, every difference listed.

What agreeing means, call by call (a call belongs to the period by when the game wrote it):

- a bet the game **played** (acknowledged) is at the operator, as a bet of the same user and
  amount that was not rolled back, and the game's ledger took the same amount for its round;
- a bet the game **did not play** (unanswered, refused) is at the operator either not at all
  or rolled back, and its rollback (if it needed one) is acknowledged;
- a **win** acknowledged is at the operator with the same amount; the wins of a round sum to
  what the game's ledger paid for it;
- a bet or win of a free round is at the operator as free (``is_free``), and a paid round's
  as not free, where the operator's transactions say;
- nothing is still **pending** (a call in flight or waiting for the outbox is listed: on a
  quiet system a difference, in a busy one the reason to run again later);
- every operator transaction of the period is one of the game's calls.

Operator transactions are read with a margin of :data:`EDGE_MS` around the period, so a call
written just before the period's end and booked by the operator just after it still matches.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

from sqlalchemy import Connection, text

from reelsmith.money import Currency
from reelsmith.wallet.seamless import ACCOUNT, to_sub_units

EDGE_MS = 60_000


@dataclass(frozen=True)
class Difference:
    """One disagreement: ``kind`` names it, ``detail`` says it in a sentence."""

    kind: str
    transaction_uuid: str
    round_id: str | None
    user: str | None
    detail: str


@dataclass(frozen=True)
class Reconciliation:
    since_ms: int
    until_ms: int
    game_calls: int
    operator_transactions: int
    differences: list[Difference]

    @property
    def ok(self) -> bool:
        return not self.differences

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "since_ms": self.since_ms,
            "until_ms": self.until_ms,
            "game_calls": self.game_calls,
            "operator_transactions": self.operator_transactions,
            "differences": [asdict(found) for found in self.differences],
        }


def _differs(tx: Mapping[str, Any], amount: int, call: Mapping[str, Any]) -> bool:
    """Whether the operator's transaction moved another amount or for another user."""
    return int(tx["amount"]) != amount or tx["user"] != call["user_ref"]


def game_calls(connection: Connection, since_ms: int, until_ms: int) -> list[dict[str, Any]]:
    """The game's wallet calls written in [since_ms, until_ms)."""
    rows = connection.execute(
        text(
            "SELECT id, kind, player_id, user_ref, round_id, reference_id, currency,"
            " amount_minor, state, status, is_free FROM wallet_calls"
            " WHERE created_ms >= :since AND created_ms < :until ORDER BY created_ms"
        ),
        {"since": since_ms, "until": until_ms},
    )
    return [dict(row) for row in rows.mappings()]


def ledger_rounds(connection: Connection, round_ids: Iterable[str]) -> dict[str, dict[str, int]]:
    """Per round, what the ledger moved on the operator's house account: ``bet`` (taken) and
    ``paid`` (wins, jackpot wins and refunds), in minor units."""
    wanted = sorted(set(round_ids))
    found: dict[str, dict[str, int]] = defaultdict(lambda: {"bet": 0, "paid": 0})
    for start in range(0, len(wanted), 500):
        chunk = wanted[start : start + 500]
        names = ", ".join(f":r{i}" for i in range(len(chunk)))
        rows = connection.execute(
            text(
                "SELECT t.round_id, t.kind, SUM(p.amount) AS amount FROM ledger_transactions t"
                " JOIN postings p ON p.transaction_id = t.id"
                " JOIN accounts a ON a.id = p.account_id"
                f" WHERE a.name = :account AND t.round_id IN ({names})"
                " GROUP BY t.round_id, t.kind"
            ),
            {"account": ACCOUNT, **{f"r{i}": round_id for i, round_id in enumerate(chunk)}},
        )
        for row in rows.mappings():
            amount = int(row["amount"])
            if row["kind"] == "bet":
                found[str(row["round_id"])]["bet"] += -amount
            else:
                found[str(row["round_id"])]["paid"] += amount
    return dict(found)


def reconcile(
    calls: list[dict[str, Any]],
    ledger: Mapping[str, Mapping[str, int]],
    operator: list[dict[str, Any]],
    since_ms: int,
    until_ms: int,
    currencies: Mapping[str, Currency] | None = None,
    nearby: Iterable[str] = (),
) -> Reconciliation:
    """Compare ``calls`` (:func:`game_calls`) and ``ledger`` (:func:`ledger_rounds`) with the
    operator's transactions (its ``/admin/transactions`` rows, read with :data:`EDGE_MS` of
    margin). ``nearby``: the ids of the game's calls written within that margin outside the
    period, which an operator transaction inside it may be. Pure: the caller reads both
    sides."""
    known = dict(currencies or {})

    def sub_units(minor: int, code: str) -> int:
        if code not in known:
            known[code] = Currency.of(code)
        return to_sub_units(minor, known[code])

    by_uuid = {str(tx["transaction_uuid"]): tx for tx in operator}
    differences: list[Difference] = []

    def differ(kind: str, call: Mapping[str, Any], detail: str) -> None:
        differences.append(
            Difference(kind, str(call["id"]), call.get("round_id"), call.get("user_ref"), detail)
        )

    rollback_of = {str(call["reference_id"]): call for call in calls if call["kind"] == "rollback"}
    wins_by_round: dict[str, int] = defaultdict(int)
    played_rounds: dict[str, Mapping[str, Any]] = {}
    for call in calls:
        kind, state = call["kind"], call["state"]
        at_operator = by_uuid.get(str(call["id"]))
        amount = sub_units(int(call["amount_minor"]), str(call["currency"]))
        if kind == "win":  # the ledger paid what the game's calls say, whatever their state
            wins_by_round[str(call["round_id"])] += int(call["amount_minor"])
        if state == "pending":
            differ(f"{kind}_pending", call, f"the {kind} is not settled with the operator yet")
            if kind != "bet":
                continue
        if kind == "bet":
            if state == "acknowledged":
                played_rounds[str(call["round_id"])] = call
                if at_operator is None or at_operator["kind"] != "bet":
                    differ("bet_missing_at_operator", call, "a played bet the operator lacks")
                elif at_operator["status"] == "rolled_back":
                    differ("bet_rolled_back_at_operator", call, "a played bet was rolled back")
                elif _differs(at_operator, amount, call):
                    differ(
                        "bet_differs",
                        call,
                        f"the game bet {amount} sub-units for {call['user_ref']}, the operator"
                        f" {at_operator['amount']} for {at_operator['user']}",
                    )
            elif state in ("unanswered", "refused"):
                if (
                    at_operator is not None
                    and at_operator["kind"] == "bet"
                    and at_operator["status"] != "rolled_back"
                ):
                    differ(
                        "bet_kept_at_operator",
                        call,
                        f"the game did not play this bet ({state}) but the operator kept it",
                    )
                rollback = rollback_of.get(str(call["id"]))
                if state == "unanswered" and rollback is None:
                    differ("rollback_missing", call, "an unanswered bet has no rollback")
        elif kind == "win":
            if state == "refused":
                differ("win_refused", call, f"the operator refused the win ({call['status']})")
            elif at_operator is None or at_operator["kind"] != "win":
                differ("win_missing_at_operator", call, "an acknowledged win the operator lacks")
            elif int(at_operator["amount"]) != amount:
                differ(
                    "win_differs",
                    call,
                    f"the game paid {amount} sub-units, the operator {at_operator['amount']}",
                )
        elif kind == "rollback" and state == "refused":
            differ("rollback_refused", call, f"the operator refused it ({call['status']})")
        if (
            kind != "rollback"
            and at_operator is not None
            and at_operator["kind"] == kind  # (a remembered rollback holds an unknown bet's id)
            and at_operator.get("is_free") is not None
            and bool(at_operator["is_free"]) != bool(call["is_free"])
        ):
            # a free round's call taken as a paid one (or the reverse): a bonus misbooked
            differ(
                "free_differs",
                call,
                f"the game sent is_free {bool(call['is_free'])}, the operator recorded"
                f" {bool(at_operator['is_free'])}",
            )
    for round_id, bet in played_rounds.items():
        moved = ledger.get(round_id, {"bet": 0, "paid": 0})
        if moved["bet"] != int(bet["amount_minor"]):
            differ(
                "ledger_bet_differs",
                bet,
                f"the ledger took {moved['bet']} minor units for the round, the bet was"
                f" {bet['amount_minor']}",
            )
        if moved["paid"] != wins_by_round.get(round_id, 0):
            differ(
                "ledger_win_differs",
                bet,
                f"the ledger paid {moved['paid']} minor units for the round, its wins sent"
                f" {wins_by_round.get(round_id, 0)}",
            )
    ours = {str(call["id"]) for call in calls} | set(rollback_of) | set(nearby)
    counted = 0
    for tx in operator:
        if not since_ms <= int(tx["created_ms"]) < until_ms:
            continue
        counted += 1
        uuid = str(tx["transaction_uuid"])
        if uuid not in ours:
            differences.append(
                Difference(
                    "unknown_at_game",
                    uuid,
                    tx.get("round"),
                    tx.get("user"),
                    f"the operator has a {tx['kind']} of {tx['amount']} sub-units the game did"
                    " not send in this period",
                )
            )
    return Reconciliation(since_ms, until_ms, len(calls), counted, differences)
