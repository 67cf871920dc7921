"""The wins of a seamless round are sent off the request's path (the win sender), and money is
still paid exactly once: a spin answers before the operator answered its win, with the win in
the balance it shows; the server killed with ``kill -9`` after the round committed and before
the win's outcome was written (the operator having booked it, or not yet) pays the win once,
through the outbox, after the restart; the next round's bet reaches the operator after the
player's earlier wins."""

from __future__ import annotations

import time
import uuid
from pathlib import Path

import pytest

from tests.wallet.sim import SUB, GameClient
from tests.wallet.test_seamless import (
    START,
    START_MINOR,
    outcomes,
    query,
    reconcile,
    running,
    settle,
)


def _wins_at_operator(transactions: list[dict[str, object]]) -> list[str]:
    return [str(tx["transaction_uuid"]) for tx in transactions if tx["kind"] == "win"]


@pytest.mark.parametrize(
    ("kind", "mode"),
    [
        # the operator booked the win and answers late: killed before the answer
        ("sqlite", "slow"),
        ("postgresql", "slow"),
        # the operator never saw the win: killed while it hangs
        ("sqlite", "timeout"),
    ],
)
def test_a_win_in_flight_when_the_server_is_killed_is_paid_once_after_the_restart(
    tmp_path: Path, kind: str, mode: str
) -> None:
    with running(
        tmp_path,
        kind,
        "--slow-seconds",
        "3.0",
        "--hang-seconds",
        "3.0",
        seamless_timeout_seconds="4.0",
    ) as (sim, server, url):
        sim.player("gina", START)
        game = GameClient(server.url)
        token = game.new_player("gina")
        sim.faults(fail_rate=1.0, modes=[mode], calls=["win"])
        key = str(uuid.uuid4())
        started = time.monotonic()
        response = game.spin(token, key)
        took = time.monotonic() - started
        assert response.status_code == 200, response.text
        # answered without waiting for the operator's answer to the win (3 s late); the
        # win's pending state below shows the same
        assert took < 3.0, took
        body = response.json()
        round_id = body["round_id"]
        win_minor = int(body["win"]["minor"])
        # the balance shown: the operator's after the bet, with this step's win (pending)
        assert body["balance"]["minor"] == START_MINOR - 25 + win_minor
        # the round and its win's intent are committed; the win is not acknowledged
        rows = query(
            url,
            "SELECT kind, state FROM wallet_calls WHERE round_id = :round ORDER BY created_ms",
            round=round_id,
        )
        assert [row.kind for row in rows] == ["bet", "win"]
        assert rows[0].state == "acknowledged" and rows[1].state == "pending"
        time.sleep(0.5)  # the win sender has sent it: the operator holds it (or hangs)
        server.kill()
        assert (
            query(
                url,
                "SELECT state FROM wallet_calls WHERE round_id = :round AND kind = 'win'",
                round=round_id,
            )[0][0]
            == "pending"
        )
        time.sleep(3.0)  # the operator's answer (or its 504) goes to a dead server
        booked = _wins_at_operator(sim.transactions())
        assert len(booked) == (1 if mode == "slow" else 0)
        sim.faults(fail_rate=0.0)
        server.start()
        # a round left open (free spins) is the resolver's; the win already written is the
        # outbox's: paid once, whatever the operator saw before
        settle(url, timeout=60)
        wins = query(url, "SELECT id, state FROM wallet_calls WHERE kind = 'win'")
        assert all(row.state == "acknowledged" for row in wins)
        booked = _wins_at_operator(sim.transactions())
        assert sorted(booked) == sorted(str(row.id) for row in wins)  # each exactly once
        if body["status"] == "complete":
            assert sim.balance("gina") == (START_MINOR + outcomes(url, "gina")) * SUB
        assert reconcile(sim, url)[0] == 0
        # the spin again under its key, after the restart: its stored answer, nothing sent
        again = game.spin(token, key)
        assert again.status_code == 200 and again.json() == body
        assert len(_wins_at_operator(sim.transactions())) == len(wins)


def test_rounds_played_back_to_back_pay_every_win_once_and_in_order(tmp_path: Path) -> None:
    """Every win reaching the operator 0.4 s late (held before it is processed), rounds
    played back to back: each next bet reaches the operator only after the wins of the
    player's earlier rounds, the balance each round ends with is the operator's after it,
    and every win is paid once."""
    with running(tmp_path, "sqlite", "--slow-seconds", "0.4") as (sim, server, url):
        sim.player("hugo", START)
        game = GameClient(server.url)
        token = game.new_player("hugo")
        sim.faults(fail_rate=1.0, modes=["late"], calls=["win"])
        shown: list[int] = []
        for _ in range(5):
            response = game.play_round(token)
            assert response.status_code == 200, response.text
            shown.append(int(response.json()["balance"]["minor"]))
        sim.faults(fail_rate=0.0)
        settle(url)
        assert sim.balance("hugo") == (START_MINOR + outcomes(url, "hugo")) * SUB
        rounds = query(url, "SELECT id, win_minor, bet_minor FROM rounds ORDER BY id")
        balance = START_MINOR
        for row, seen in zip(rounds, shown, strict=True):
            balance += int(row.win_minor) - int(row.bet_minor)
            assert seen == balance
        transactions = sim.transactions()
        order = [str(row.id) for row in rounds]
        for tx in transactions:
            if tx["kind"] != "bet":
                continue
            earlier = order[: order.index(str(tx["round"]))]
            for win in transactions:
                if win["kind"] == "win" and win["round"] in earlier:
                    assert int(str(win["created_ms"])) <= int(str(tx["created_ms"])), (
                        "a bet reached the operator before an earlier round's win"
                    )
        wins = query(url, "SELECT id FROM wallet_calls WHERE kind = 'win'")
        assert sorted(_wins_at_operator(transactions)) == sorted(str(row.id) for row in wins)
        assert reconcile(sim, url)[0] == 0
