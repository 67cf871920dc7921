"""The game server with the seamless wallet against the operator simulator, both real
processes: money moves at the operator exactly as the rounds say, unanswered bets are rolled
back, wins are retried until acknowledged (across a kill -9), and reconciliation finds a
planted difference and none after a faulty run, on SQLite and on PostgreSQL."""

from __future__ import annotations

import contextlib
import json
import subprocess
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from reelsmith.store.db import Database
from tests.reliability.live import PG_URL, REELSMITH, pg_schema
from tests.wallet.sim import SUB, GameClient, OperatorSim, bet_body, seamless_server

START_MINOR = 10_000  # 100.00 EUR
START = START_MINOR * SUB


@contextmanager
def database_url(kind: str, folder: Path) -> Iterator[str]:
    if kind == "sqlite":
        yield f"sqlite:///{folder}/game.db"
        return
    if not PG_URL:
        pytest.skip("PostgreSQL tests need REELSMITH_TEST_DATABASE_URL")
    with pg_schema() as url:
        yield url


@contextmanager
def running(
    folder: Path, kind: str, *sim_args: str, **settings: str
) -> Iterator[tuple[OperatorSim, Any, str]]:
    sim = OperatorSim(folder, "--hang-seconds", "1.2", *sim_args).start()
    try:
        with database_url(kind, folder) as url:
            server = seamless_server(sim, url, folder, **settings)
            try:
                server.start()
                yield sim, server, url
            finally:
                server.stop()
    finally:
        sim.stop()


def query(url: str, statement: str, **params: Any) -> list[Any]:
    db = Database(url, pool_size=1)
    try:
        with db.read() as connection:
            return list(connection.execute(text(statement), params).all())
    finally:
        db.dispose()


def settle(url: str, timeout: float = 90.0) -> None:
    """Wait until the game has no call pending (the outbox acknowledged everything)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        pending = query(url, "SELECT COUNT(*) FROM wallet_calls WHERE state = 'pending'")[0][0]
        if pending == 0:
            return
        time.sleep(0.2)
    rows = query(url, "SELECT kind, status, attempts FROM wallet_calls WHERE state = 'pending'")
    raise AssertionError(f"calls still pending after {timeout} s: {rows[:10]}")


def outcomes(url: str, player_ref: str) -> int:
    """The sum of the player's finished rounds' outcomes (wins minus bets), minor units."""
    rows = query(
        url,
        "SELECT r.status, r.win_minor, r.bet_minor FROM rounds r JOIN players p"
        " ON p.id = r.player_id WHERE p.external_ref = :ref",
        ref=player_ref,
    )
    assert all(row.status == "complete" for row in rows), [row.status for row in rows]
    return sum(int(row.win_minor) - int(row.bet_minor) for row in rows)


def reconcile(sim: OperatorSim, url: str, *extra: str) -> tuple[int, dict[str, Any]]:
    done = subprocess.run(
        [
            str(REELSMITH),
            "reconcile",
            "--operator-url",
            sim.url,
            "--database-url",
            url,
            "--json",
            *extra,
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode in (0, 1), done.stderr
    return done.returncode, json.loads(done.stdout)


def play(game: GameClient, token: str, rounds: int) -> int:
    """Play ``rounds`` rounds to their end, retrying a spin the wallet refused for the
    moment: how many spins were refused on the way."""
    refused = 0
    played = 0
    while played < rounds:
        response = game.play_round(token)
        if response.status_code == 200:
            played += 1
            continue
        body = response.json()
        if response.status_code == 409 and body.get("code") == "round_open":
            round_id = body["round_id"]  # an earlier spin's round: finish it
            while True:
                step = game.step(token, round_id, "free-spin")
                if step.status_code == 409:
                    step = game.step(token, round_id, "collect")
                if step.status_code != 200 or step.json()["status"] != "open":
                    break
            played += 1
            continue
        assert response.status_code in (429, 503), response.text
        refused += 1
        time.sleep(0.1)
    return refused


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_rounds_move_the_money_at_the_operator_and_reconcile_finds_planted_differences(
    tmp_path: Path, kind: str
) -> None:
    with running(tmp_path, kind) as (sim, server, url):
        sim.player("alice", START)
        game = GameClient(server.url)
        token = game.new_player("alice")
        assert play(game, token, 40) == 0
        settle(url)
        assert sim.balance("alice") == (START_MINOR + outcomes(url, "alice")) * SUB
        code, clean = reconcile(sim, url)
        assert code == 0 and clean["ok"] and clean["differences"] == []
        assert clean["game_calls"] >= 80  # a bet and a win (maybe 0) per round
        assert clean["operator_transactions"] == clean["game_calls"]
        # the audit's checks hold under the seamless wallet: the chain, a balanced ledger and
        # every round's payout re-derived as the ledger paid it (against the operator's account)
        audit = subprocess.run(
            [str(REELSMITH), "audit", "verify", "--database-url", url, "--json"],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert audit.returncode == 0, audit.stdout + audit.stderr
        assert json.loads(audit.stdout)["payouts"]["checked"] == 40
        # planted: a win the game records as larger than the operator paid it, and a bet at
        # the operator the game never sent
        win_id = query(
            url, "SELECT id FROM wallet_calls WHERE kind = 'win' ORDER BY created_ms LIMIT 1"
        )[0][0]
        db = Database(url, pool_size=1)
        with db.write() as connection:
            connection.execute(
                text("UPDATE wallet_calls SET amount_minor = amount_minor + 1 WHERE id = :id"),
                {"id": win_id},
            )
        db.dispose()
        stray = bet_body("alice", 500, token="tok")
        _, answer, _ = sim.call("/transaction/bet", stray)
        assert answer is not None and answer["status"] == "RS_OK"
        code, found = reconcile(sim, url)
        assert code == 1
        kinds = {(d["kind"], d["transaction_uuid"]) for d in found["differences"]}
        assert ("win_differs", win_id) in kinds
        assert ("unknown_at_game", stray["transaction_uuid"]) in kinds
        assert any(d["kind"] == "ledger_win_differs" for d in found["differences"])
        assert len(found["differences"]) == 3
        # the text form lists them too
        done = subprocess.run(
            [str(REELSMITH), "reconcile", "--operator-url", sim.url, "--database-url", url],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 1
        assert "3 differences" in done.stdout and stray["transaction_uuid"] in done.stdout


@pytest.mark.parametrize("mode", ["timeout", "error", "lose", "truncate"])
def test_an_unanswered_bet_is_not_played_and_is_rolled_back(tmp_path: Path, mode: str) -> None:
    with running(tmp_path, "sqlite", seamless_timeout_seconds="0.5") as (sim, server, url):
        sim.player("bob", START)
        game = GameClient(server.url)
        token = game.new_player("bob")
        sim.faults(fail_rate=1.0, modes=[mode], calls=["bet"])
        key = str(uuid.uuid4())
        response = game.spin(token, key)
        assert response.status_code == 503, response.text
        assert response.json()["code"] == "wallet_unavailable"
        again = game.spin(token, key)  # the same request again: the same refusal, no new bet
        assert again.status_code == 503
        sim.faults(fail_rate=0.0)
        settle(url)
        assert query(url, "SELECT COUNT(*) FROM rounds")[0][0] == 0
        states = sorted(
            (row.kind, row.state) for row in query(url, "SELECT kind, state FROM wallet_calls")
        )
        assert states == [("bet", "unanswered"), ("rollback", "acknowledged")]
        assert sim.balance("bob") == START
        at_operator = sim.transactions()
        if mode in ("lose", "truncate"):  # taken, then rolled back
            assert sorted((tx["kind"], tx["status"]) for tx in at_operator) == [
                ("bet", "rolled_back"),
                ("rollback", "ok"),
            ]
        else:  # never taken: the rollback is remembered, so the bet can never arrive late
            assert [(tx["kind"], tx["status"]) for tx in at_operator] == [
                ("rollback", "unknown_bet")
            ]
        code, result = reconcile(sim, url)
        assert code == 0, result
        # the next spin plays
        assert game.play_round(token).status_code == 200


def test_a_bet_refused_by_the_operator_is_refused_by_name(tmp_path: Path) -> None:
    with running(tmp_path, "sqlite") as (sim, server, url):
        sim.player("carol", 10 * SUB)  # 0.10 EUR: below the 0.25 bet
        game = GameClient(server.url)
        token = game.new_player("carol")
        response = game.spin(token)
        assert response.status_code == 402
        assert response.json()["code"] == "insufficient_balance"
        sim.player("dave", START, token="right")
        response = game.spin(game.new_player("dave", operator_token="wrong"))
        assert response.status_code == 401
        assert response.json()["code"] == "operator_token_refused"
        assert "RS_ERROR_INVALID_TOKEN" in response.json()["message"]
        settle(url)
        assert query(url, "SELECT COUNT(*) FROM rounds")[0][0] == 0
        assert sim.balance("carol") == 10 * SUB and sim.balance("dave") == START
        assert reconcile(sim, url)[0] == 0


def test_wins_are_retried_across_a_kill_9_without_a_live_token(tmp_path: Path) -> None:
    with running(tmp_path, "sqlite") as (sim, server, url):
        sim.player("erin", START)
        game = GameClient(server.url)
        token = game.new_player("erin")
        sim.faults(fail_rate=1.0, modes=["error"], calls=["win"])
        assert play(game, token, 10) == 0
        pending = query(
            url, "SELECT COUNT(*) FROM wallet_calls WHERE kind = 'win' AND state = 'pending'"
        )[0][0]
        assert pending >= 10
        server.kill()
        # the player's token at the operator expires meanwhile: wins need none
        sim.admin("POST", "/admin/players/erin/token", {"token": "gone", "token_ttl_seconds": -1})
        sim.faults(fail_rate=0.0)
        assert sim.balance("erin") == START - 10 * 25 * SUB  # only the bets so far
        server.start()
        settle(url)
        assert sim.balance("erin") == (START_MINOR + outcomes(url, "erin")) * SUB
        assert reconcile(sim, url)[0] == 0


def test_a_bet_whose_server_died_before_its_round_is_rolled_back(tmp_path: Path) -> None:
    with running(tmp_path, "sqlite", seamless_timeout_seconds="3.0") as (sim, server, url):
        sim.player("finn", START)
        game = GameClient(server.url)
        token = game.new_player("finn")
        # the bet is taken at once and answered 2 s later: the server dies meanwhile
        sim.faults(fail_rate=1.0, modes=["slow"], slow_seconds=2.0, calls=["bet"])
        import threading

        spin = threading.Thread(target=lambda: _quietly(game, token))
        spin.start()
        time.sleep(1.0)
        server.kill()
        spin.join()
        sim.faults(fail_rate=0.0)
        assert sim.balance("finn") == START - 25 * SUB
        assert query(url, "SELECT state FROM wallet_calls")[0][0] == "pending"
        server.start()
        settle(url, timeout=60)  # abandoned after 3 x 3 s + 5 s, then rolled back
        assert sim.balance("finn") == START
        assert query(url, "SELECT COUNT(*) FROM rounds")[0][0] == 0
        assert reconcile(sim, url)[0] == 0


def _quietly(game: GameClient, token: str) -> None:
    with contextlib.suppress(Exception):  # the server is killed under it
        game.spin(token)


@pytest.mark.slow  # 80 s per database on the shared machine: `make test-slow`
@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_faulty_run_with_kills_reconciles_to_no_difference(tmp_path: Path, kind: str) -> None:
    """Some hundreds of rounds with a quarter of the operator's calls faulted at random (every
    mode) and the game server killed with kill -9 twice: afterwards nothing is pending,
    reconciliation finds no difference and each player's balance at the operator is its
    opening balance plus its rounds' outcomes."""
    rounds_each, players = 120, ("p1", "p2")
    with running(
        tmp_path,
        kind,
        "--fail-rate",
        "0.25",
        "--seed",
        "33",
        "--slow-seconds",
        "0.05",
        seamless_timeout_seconds="0.5",
    ) as (sim, server, url):
        game = GameClient(server.url)
        tokens = {}
        sim.faults(fail_rate=0.0)
        for name in players:
            sim.player(name, START)
            tokens[name] = game.new_player(name)
        sim.faults(fail_rate=0.25)
        refused = 0
        for part in range(3):
            for name in players:
                refused += _play_through_kills(game, tokens[name], rounds_each // 3)
            if part < 2:
                server.kill()
                server.start()
        faults = sim.faults(fail_rate=0.0)
        settle(url, timeout=120)
        assert refused > 0 and sum(faults["counts"].values()) >= 40, faults
        for name in players:
            assert sim.balance(name) == (START_MINOR + outcomes(url, name)) * SUB
        code, result = reconcile(sim, url)
        assert code == 0, result["differences"][:5]


def _play_through_kills(game: GameClient, token: str, rounds: int) -> int:
    try:
        return play(game, token, rounds)
    except AssertionError:
        raise
    except Exception:
        return 1


def test_answers_the_operator_did_not_sign_are_no_answers_and_move_nothing_twice(
    tmp_path: Path,
) -> None:
    """A game server holding another operator key than the operator's: every answer fails its
    signature check. The bet is rolled back and the rollback retried (the operator refunds once,
    whatever the retries) until a server with the right key acknowledges it; the logs name the
    failure and hold neither the operator's token nor a key."""
    from reelsmith.wallet.signing import ensure_keys

    secret = "operator-token-" + uuid.uuid4().hex
    wrong = tmp_path / "wrong"
    ensure_keys(wrong)
    (wrong / "game_private.pem").unlink()
    sim = OperatorSim(tmp_path).start()
    try:
        # the game's own key is right, the operator's public key is another's
        (wrong / "game_private.pem").write_bytes((sim.keys / "game_private.pem").read_bytes())
        sim.player("gus", START, token=secret)
        with database_url("sqlite", tmp_path) as url:
            server = seamless_server(sim, url, tmp_path)
            server.env["REELSMITH_SEAMLESS_KEYS_DIR"] = str(wrong)
            try:
                server.start()
                game = GameClient(server.url)
                token = game.new_player("gus", operator_token=secret)
                response = game.spin(token)
                assert response.status_code == 503
                time.sleep(2.0)  # the outbox retries the rollback, never acknowledged
                rollback = query(
                    url, "SELECT state, attempts, status FROM wallet_calls WHERE kind = 'rollback'"
                )[0]
                assert rollback.state == "pending" and rollback.attempts >= 2
                assert rollback.status.startswith("rollback: answer refused")
                assert sim.balance("gus") == START  # refunded once, whatever the retries
                server.stop()
                server.env["REELSMITH_SEAMLESS_KEYS_DIR"] = str(sim.keys)
                server.start()
                settle(url)
                assert sim.balance("gus") == START
                assert reconcile(sim, url)[0] == 0
            finally:
                server.stop()
    finally:
        sim.stop()
    logs = "".join(path.read_text(errors="replace") for path in tmp_path.glob("*.log"))
    assert "X-Hub88-Signature header does not match the body" in logs
    assert secret not in logs
    assert "PRIVATE KEY" not in logs
