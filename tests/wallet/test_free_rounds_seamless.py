"""Free rounds with the seamless wallet, the game server and the operator simulator as real
processes, on SQLite and PostgreSQL: each free round sends a bet of 0 with ``is_free: true``
(nothing moves at the operator) and its win with ``is_free: true``; the operator's balance
moves by the free rounds' wins alone, reconciliation finds no difference and the payout
audit re-derives every round."""

from __future__ import annotations

import json
import subprocess
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import text

from reelsmith.store.db import Database
from tests.reliability.live import REELSMITH
from tests.wallet.sim import SUB, TSAR, TSAR_BET, GameClient
from tests.wallet.test_seamless import START, START_MINOR, query, reconcile, running, settle

ROUNDS = 12


def play_free(game: GameClient, token: str, campaign_id: str, key: str | None = None) -> dict:
    """Play the campaign's next round to its end: the last answer."""
    response = game.http.post(
        f"/api/free-rounds/{campaign_id}/play",
        json={"gamble": False},
        headers={"Authorization": f"Bearer {token}", "Idempotency-Key": key or str(uuid.uuid4())},
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["bet"]["minor"] == 25 and "free_round" in body
    while body["status"] == "open":
        step = game.step(token, body["round_id"], "free-spin")
        assert step.status_code == 200, step.text
        body = step.json()
    return dict(body)


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_free_rounds_charge_nothing_at_the_operator_and_pay_their_wins_as_free(
    tmp_path: Path, kind: str
) -> None:
    with running(tmp_path, kind) as (sim, server, url):
        sim.player("frank", START)
        game = GameClient(server.url)
        created = game.operator(
            "POST", "/operator/players", {"external_ref": "frank", "currency": "EUR"}
        )
        player_id = created.json()["id"]
        session = game.operator(
            "POST", f"/operator/players/{player_id}/sessions", {"operator_token": "tok"}
        )
        token = session.json()["token"]
        campaign = game.operator(
            "POST",
            f"/operator/players/{player_id}/free-rounds",
            {
                "campaign_id": "welcome-frank",
                "game": TSAR,
                "bet": TSAR_BET,
                "rounds": ROUNDS,
                "expires_at": (datetime.now(UTC) + timedelta(days=1)).isoformat(),
            },
        )
        assert campaign.status_code == 201, campaign.text
        first = play_free(game, token, "welcome-frank", key="free-key-1")
        for _ in range(ROUNDS - 1):
            play_free(game, token, "welcome-frank")
        # a retry of the first round's request plays nothing more
        again = game.http.post(
            "/api/free-rounds/welcome-frank/play",
            json={"gamble": False},
            headers={"Authorization": f"Bearer {token}", "Idempotency-Key": "free-key-1"},
        )
        assert again.status_code == 200 and again.json()["round_id"] == first["round_id"]
        over = game.http.post(
            "/api/free-rounds/welcome-frank/play",
            json={},
            headers={"Authorization": f"Bearer {token}", "Idempotency-Key": str(uuid.uuid4())},
        )
        assert over.status_code == 409 and over.json()["code"] == "campaign_finished"
        settle(url)
        wins = query(
            url,
            "SELECT COALESCE(SUM(r.win_minor), 0) FROM rounds r"
            " JOIN free_round_plays f ON f.round_id = r.id",
        )[0][0]
        assert sim.balance("frank") == (START_MINOR + int(wins)) * SUB
        at_operator = sim.transactions()
        bets = [tx for tx in at_operator if tx["kind"] == "bet"]
        assert len(bets) == ROUNDS and all(tx["amount"] == 0 and tx["is_free"] for tx in bets)
        won = [tx for tx in at_operator if tx["kind"] == "win"]
        assert len(won) >= ROUNDS and all(tx["is_free"] for tx in won)
        assert sum(int(tx["amount"]) for tx in won) == int(wins) * SUB
        state = game.operator("GET", "/operator/free-rounds/welcome-frank").json()
        assert state["status"] == "finished" and state["wins"]["minor"] == int(wins)
        # a paid spin afterwards is charged, and not free
        paid = game.spin(token)
        assert paid.status_code == 200, paid.text
        settle(url)
        last_bet = [tx for tx in sim.transactions() if tx["kind"] == "bet"][-1]
        assert last_bet["amount"] == 25 * SUB and not last_bet["is_free"]
        code, result = reconcile(sim, url)
        assert code == 0, result["differences"]
        # planted: a free round's win the game records as paid
        win_id = query(
            url, "SELECT id FROM wallet_calls WHERE kind = 'win' ORDER BY created_ms LIMIT 1"
        )[0][0]
        db = Database(url, pool_size=1)
        with db.write() as connection:
            connection.execute(
                text("UPDATE wallet_calls SET is_free = :no WHERE id = :id"),
                {"no": False, "id": win_id},
            )
        db.dispose()
        code, found = reconcile(sim, url)
        assert code == 1
        assert [(d["kind"], d["transaction_uuid"]) for d in found["differences"]] == [
            ("free_differs", win_id)
        ]
        with Database(url, pool_size=1).write() as connection:
            connection.execute(
                text("UPDATE wallet_calls SET is_free = :yes WHERE id = :id"),
                {"yes": True, "id": win_id},
            )
        audit = subprocess.run(
            [str(REELSMITH), "audit", "verify", "--database-url", url, "--json"],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert audit.returncode == 0, audit.stdout + audit.stderr
        assert json.loads(audit.stdout)["payouts"]["checked"] == ROUNDS + 1


def test_an_unanswered_free_bet_plays_nothing_and_counts_nothing(tmp_path: Path) -> None:
    """The free round's bet of 0 unanswered: rolled back, no round, the campaign's round kept;
    its wins failing at first: retried until acknowledged, still free."""
    with running(tmp_path, "sqlite", seamless_timeout_seconds="0.5") as (sim, server, url):
        sim.player("gina", START)
        game = GameClient(server.url)
        created = game.operator(
            "POST", "/operator/players", {"external_ref": "gina", "currency": "EUR"}
        )
        player_id = created.json()["id"]
        token = game.operator(
            "POST", f"/operator/players/{player_id}/sessions", {"operator_token": "tok"}
        ).json()["token"]
        expiry = (datetime.now(UTC) + timedelta(days=1)).isoformat()
        assert (
            game.operator(
                "POST",
                f"/operator/players/{player_id}/free-rounds",
                {
                    "campaign_id": "g",
                    "game": TSAR,
                    "bet": TSAR_BET,
                    "rounds": 3,
                    "expires_at": expiry,
                },
            ).status_code
            == 201
        )
        sim.faults(fail_rate=1.0, modes=["timeout"], calls=["bet"])
        refused = game.http.post(
            "/api/free-rounds/g/play",
            json={"gamble": False},
            headers={"Authorization": f"Bearer {token}", "Idempotency-Key": str(uuid.uuid4())},
        )
        assert refused.status_code == 503 and refused.json()["code"] == "wallet_unavailable"
        assert game.operator("GET", "/operator/free-rounds/g").json()["played"] == 0
        assert query(url, "SELECT COUNT(*) FROM rounds")[0][0] == 0
        sim.faults(fail_rate=1.0, modes=["error"], calls=["win"])
        for _ in range(3):
            play_free(game, token, "g")
        sim.faults(fail_rate=0.0)
        settle(url)
        state = game.operator("GET", "/operator/free-rounds/g").json()
        assert state["played"] == 3 and state["status"] == "finished"
        assert sim.balance("gina") == (START_MINOR + state["wins"]["minor"]) * SUB
        wins = [tx for tx in sim.transactions() if tx["kind"] == "win"]
        assert len(wins) >= 3 and all(tx["is_free"] for tx in wins)
        code, result = reconcile(sim, url)
        assert code == 0, result["differences"]
