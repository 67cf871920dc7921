"""Reconciliation's verdicts call by call, on hand-made books (the whole path, with real
processes, is in test_seamless.py): each kind of difference is found where planted, and a
consistent pair of books has none."""

from __future__ import annotations

from typing import Any

from reelsmith.wallet.reconcile import reconcile

NOW = 1_000_000


def call(kind: str, call_id: str, state: str, amount: int = 25, **more: Any) -> dict[str, Any]:
    return {
        "id": call_id,
        "kind": kind,
        "player_id": "p",
        "user_ref": "u",
        "round_id": more.pop("round_id", "r1"),
        "reference_id": more.pop("reference_id", None),
        "currency": "EUR",
        "amount_minor": amount,
        "state": state,
        "status": more.pop("status", None),
    }


def tx(kind: str, uuid: str, amount: int, status: str = "ok", **more: Any) -> dict[str, Any]:
    return {
        "transaction_uuid": uuid,
        "kind": kind,
        "user": more.pop("user", "u"),
        "amount": amount,
        "status": status,
        "created_ms": NOW,
        "round": "r1",
    }


def consistent() -> tuple[list[dict[str, Any]], dict[str, dict[str, int]], list[dict[str, Any]]]:
    calls = [
        call("bet", "b1", "acknowledged"),
        call("win", "w1", "acknowledged", 40, reference_id="b1"),
        call("bet", "b2", "unanswered", round_id="r2"),
        call("rollback", "x2", "acknowledged", round_id="r2", reference_id="b2"),
    ]
    ledger = {"r1": {"bet": 25, "paid": 40}}
    operator = [
        tx("bet", "b1", 25_000),
        tx("win", "w1", 40_000),
        tx("bet", "b2", 25_000, status="rolled_back"),
        tx("rollback", "x2", 25_000),
    ]
    return calls, ledger, operator


def kinds(calls: Any, ledger: Any, operator: Any) -> list[tuple[str, str]]:
    found = reconcile(calls, ledger, operator, 0, 2 * NOW).differences
    return sorted((d.kind, d.transaction_uuid) for d in found)


def test_consistent_books_have_no_difference() -> None:
    assert kinds(*consistent()) == []


def test_each_difference_is_found_where_planted() -> None:
    calls, ledger, operator = consistent()
    operator[2] = tx("bet", "b2", 25_000)  # the unanswered bet kept, not rolled back
    assert kinds(calls, ledger, operator) == [("bet_kept_at_operator", "b2")]

    calls, ledger, operator = consistent()
    del operator[0]  # the played bet missing at the operator
    assert kinds(calls, ledger, operator) == [("bet_missing_at_operator", "b1")]

    calls, ledger, operator = consistent()
    operator[0] = tx("bet", "b1", 25_000, user="someone-else")
    assert kinds(calls, ledger, operator) == [("bet_differs", "b1")]

    calls, ledger, operator = consistent()
    operator[1] = tx("win", "w1", 4_000)  # paid in another sub-unit
    assert kinds(calls, ledger, operator) == [("win_differs", "w1")]

    calls, ledger, operator = consistent()
    del calls[3]  # an unanswered bet without its rollback
    assert kinds(calls, ledger, operator) == [("rollback_missing", "b2"), ("unknown_at_game", "x2")]

    calls, ledger, operator = consistent()
    calls[1]["state"] = "pending"
    del operator[1]
    assert kinds(calls, ledger, operator) == [("win_pending", "w1")]

    calls, ledger, operator = consistent()
    ledger["r1"] = {"bet": 25, "paid": 41}
    assert kinds(calls, ledger, operator) == [("ledger_win_differs", "b1")]

    calls, ledger, operator = consistent()
    ledger["r1"] = {"bet": 50, "paid": 40}
    assert kinds(calls, ledger, operator) == [("ledger_bet_differs", "b1")]


def test_a_transaction_just_outside_the_period_is_matched_by_the_nearby_calls() -> None:
    calls, ledger, operator = consistent()
    late = tx("win", "w9", 5_000)
    found = reconcile(calls, ledger, [*operator, late], 0, 2 * NOW).differences
    assert [(d.kind, d.transaction_uuid) for d in found] == [("unknown_at_game", "w9")]
    found = reconcile(calls, ledger, [*operator, late], 0, 2 * NOW, nearby=["w9"]).differences
    assert found == []
