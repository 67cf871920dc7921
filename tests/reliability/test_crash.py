"""kill -9 under load: the server dies mid-request again and again, and no money is created or
lost, no round is settled twice, every open round resumes through the API.

The server runs as its own process over SQLite (and PostgreSQL when
``REELSMITH_TEST_DATABASE_URL`` is set); players spin both titles, play free spins, gamble,
collect, deposit and withdraw from several connections at once, while the server is killed at
random moments and restarted on the same database. Clients retry a request that failed in flight
with the same Idempotency-Key. While the server is down the database is checked as it was left;
at the end the open rounds are finished through the API and every money check runs.
"""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path

import pytest

from tests.reliability import figures
from tests.reliability.live import (
    OPERATOR_KEY,
    PG_URL,
    TSAR,
    Client,
    LiveServer,
    Player,
    new_player,
    pg_schema,
)
from tests.reliability.money import MoneyReport, check_all, check_database, connect
from tests.server.forcing import tsar_trigger, tsar_win

FORCED = {TSAR: [tsar_trigger(), tsar_win(), tsar_win()]}


def crash_scenario(
    label: str,
    database_url: str,
    log_dir: Path,
    kills: int,
    players: int,
    seed: int,
    servers: int = 1,
) -> None:
    """``servers`` > 1 runs several processes over one (PostgreSQL) database; each kill takes
    down one of them at random while the others keep serving, and clients spread their
    requests over all of them."""
    fleet = [LiveServer(database_url, log_dir) for _ in range(servers)]
    agents: list[Player] = []
    setup = Client([])
    try:
        for server in fleet:
            server.spawn()
        for server in fleet:
            server.wait_ready()
        urls = [server.url for server in fleet]
        setup = Client(urls)
        records = [new_player(setup, 20_000) for _ in range(players)]
        agents = [
            Player(Client(urls), record, seed * 100 + i, FORCED) for i, record in enumerate(records)
        ]
        stop = threading.Event()
        threads = [threading.Thread(target=a.run, args=(stop,), daemon=True) for a in agents]
        for thread in threads:
            thread.start()
        chance = random.Random(seed)
        engine = connect(database_url)
        at_crash = MoneyReport()
        survived = 0

        def answered() -> int:
            return sum(a.client.answered for a in agents)

        try:
            mark = answered()
            for _ in range(kills):
                # A server answers /healthz before its first spin has loaded the engine's
                # compiled kernels (about a second, longer on a busy machine): wait for the
                # load to get an answer after each start, then kill at a random moment, or a
                # short random wait would only ever kill a server still warming up.
                deadline = time.monotonic() + 60
                while answered() == mark and time.monotonic() < deadline:
                    time.sleep(0.02)
                time.sleep(chance.uniform(0.2, 0.9))
                server = chance.choice(fleet)
                server.kill()
                with engine.connect() as connection:  # the database as the crash left it
                    check_database(connection, at_crash)
                time.sleep(chance.uniform(0.0, 0.2))
                server.start()
                mark = answered()
                survived += 1
                figures.add("kills")
            time.sleep(0.5)
        finally:
            stop.set()
            for thread in threads:
                thread.join(timeout=180)
            engine.dispose()
        resumed = sum(agent.finish_open_rounds() for agent in agents)
        figures.add("rounds_resumed", resumed)
        report = check_all(database_url, setup.clients[0], OPERATOR_KEY, records)
        found = report.discrepancies + at_crash.discrepancies
        figures.add("scenarios")
        figures.add("players_checked", len(records))
        figures.add("discrepancies", found)
        steps = sum(a.steps for a in agents)
        retried = sum(a.client.retried for a in agents)
        figures.note(
            "kill -9 scenarios",
            f"{label}: {survived} kills survived, {players} players, {steps} player actions, "
            f"{retried} requests failed by a kill and retried with their key, "
            f"{report.rounds} rounds, {report.transactions} ledger transactions, "
            f"{report.payouts_checked} payouts re-derived from their draws, "
            f"{resumed} open rounds resumed, "
            f"{found} money discrepancies",
        )
        problems = [p for a in agents for p in a.unexpected]
        assert not problems, problems[:10]
        assert at_crash.problems == [], at_crash.problems[:10]
        assert report.problems == [], report.problems[:10]
        assert survived == kills
        assert report.rounds > kills  # the load really ran between the kills
    finally:
        for agent in agents:
            agent.client.close()
        setup.close()
        for server in fleet:
            server.stop()


def test_kill_9_under_load_on_sqlite(tmp_path):
    crash_scenario("SQLite", f"sqlite:///{tmp_path}/crash.db", tmp_path, 20, 4, seed=1)


@pytest.mark.skipif(not PG_URL, reason="needs REELSMITH_TEST_DATABASE_URL")
def test_kill_9_under_load_on_postgresql(tmp_path):
    with pg_schema() as url:
        crash_scenario("PostgreSQL", url, tmp_path, 10, 4, seed=2)


@pytest.mark.slow
def test_kill_9_long_on_sqlite(tmp_path):
    crash_scenario("SQLite (long)", f"sqlite:///{tmp_path}/crash.db", tmp_path, 100, 8, seed=3)


@pytest.mark.slow
@pytest.mark.skipif(not PG_URL, reason="needs REELSMITH_TEST_DATABASE_URL")
def test_kill_9_long_on_postgresql(tmp_path):
    with pg_schema() as url:
        crash_scenario("PostgreSQL (long)", url, tmp_path, 100, 8, seed=4)


@pytest.mark.slow
@pytest.mark.skipif(not PG_URL, reason="needs REELSMITH_TEST_DATABASE_URL")
def test_kill_9_two_servers_on_one_postgresql(tmp_path):
    with pg_schema() as url:
        crash_scenario("PostgreSQL, 2 servers (long)", url, tmp_path, 50, 8, seed=5, servers=2)
