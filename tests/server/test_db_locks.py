"""PostgreSQL: another session holds a player's row or a whole table. A request that needs
the lock fails alone, quickly, with 503 ``database_busy`` and Retry-After (nothing of it
applied: sent again with its key once the lock is gone it runs once); meanwhile /healthz and
other players' requests are answered without waiting for the lock."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy import text

from reelsmith.store.db import Database
from tests.server.conftest import PG_URL, build
from tests.server.forcing import TSAR_BET, tsar_no_win

GAME = "days-of-the-tsar"
HELD_SECONDS = 6


@pytest.fixture
def api(tmp_path):
    yield from build("postgresql", tmp_path)


class Holder:
    """Another session holding a lock (``statement``) until released."""

    def __init__(self, api, statement, params=None):
        schema = api.db.schema
        self.db = Database(PG_URL or "", schema=schema, pool_size=1)
        self.connection = self.db.engine.connect()
        self.connection.execute(text(statement), params or {})

        self._released = threading.Lock()

    def release(self):
        """Let go of the lock (once, whoever asks first)."""
        if not self._released.acquire(blocking=False):
            return
        self.connection.rollback()
        self.connection.close()
        self.db.dispose()


def timed(call):
    start = time.perf_counter()
    answer = call()
    return answer, time.perf_counter() - start


def test_a_locked_player_fails_alone_and_quickly(api):
    draws = tsar_no_win()
    locked, other = api.player(), api.player()
    locked_token, other_token = api.login(locked), api.login(other)
    holder = Holder(api, "SELECT * FROM players WHERE id = :id FOR UPDATE", {"id": locked})
    release = threading.Timer(HELD_SECONDS, holder.release)  # a server that waits gets it
    release.start()
    try:
        key = api.key()
        refused, took = timed(
            lambda: api.as_player(
                "POST",
                f"/api/games/{GAME}/spin",
                {"bet": TSAR_BET, "forced_draws": draws},
                key=key,
                token=locked_token,
            )
        )
        assert refused.status_code == 503, refused.text
        assert refused.json()["code"] == "database_busy"
        assert refused.headers["Retry-After"] == "1"
        # it gave up before the holder let go: it never waited for the lock (how much
        # sooner depends on the machine's load; the lock timeout is the server's bound)
        assert took < HELD_SECONDS, took
        # others are served
        assert api.client.get("/healthz").status_code == 200
        spin = api.as_player(
            "POST", f"/api/games/{GAME}/spin", {"bet": TSAR_BET}, token=other_token
        )
        assert spin.status_code == 200, spin.text
        assert api.as_player("GET", "/api/me", token=other_token).status_code == 200
        assert api.op("GET", f"/operator/players/{locked}", key=None).status_code == 200
    finally:
        release.cancel()
        holder.release()
    again = api.as_player(
        "POST",
        f"/api/games/{GAME}/spin",
        {"bet": TSAR_BET, "forced_draws": draws},
        key=key,
        token=locked_token,
    )
    assert again.status_code == 200, again.text
    assert api.balance(locked) == 10000 - 250
    busy = api.op("GET", "/metrics", key=None).text
    assert "reelsmith_database_busy_total 1.0" in busy


def test_healthz_does_not_wait_while_a_request_meets_a_table_lock(api):
    """A request blocked on a table lock is on the server's event loop: /healthz, sent
    while it waits, is answered before the lock's 6 s are over."""
    token = api.login(api.player())
    holder = Holder(api, "LOCK TABLE rounds IN ACCESS EXCLUSIVE MODE")
    release = threading.Timer(HELD_SECONDS, holder.release)
    release.start()
    try:
        with ThreadPoolExecutor(2) as pool:
            spin = pool.submit(
                lambda: timed(
                    lambda: api.as_player(
                        "POST", f"/api/games/{GAME}/spin", {"bet": TSAR_BET}, token=token
                    )
                )
            )
            time.sleep(0.1)
            health, health_took = timed(lambda: api.client.get("/healthz"))
            spun, spin_took = spin.result()
        assert health.status_code == 200
        assert health_took < HELD_SECONDS, health_took
        assert spun.status_code == 503 and spun.json()["code"] == "database_busy", spun.text
        assert spin_took < HELD_SECONDS, spin_took
    finally:
        release.cancel()
        holder.release()


def test_the_timeouts_keep_the_urls_own_options(api):
    """A URL that selects its schema by ``options`` (as a deployment may) keeps it, and gets
    the timeouts too."""
    url = f"{PG_URL}{'&' if '?' in (PG_URL or '') else '?'}options=-csearch_path%3D{api.db.schema}"
    db = Database(url, pool_size=1, lock_timeout_ms=321, statement_timeout_ms=4321)
    try:
        with db.read() as connection:
            shown = [
                connection.execute(text(f"SHOW {name}")).scalar_one()
                for name in ("search_path", "lock_timeout", "statement_timeout")
            ]
            players = connection.execute(text("SELECT count(*) FROM players")).scalar_one()
    finally:
        db.dispose()
    assert shown == [api.db.schema, "321ms", "4321ms"] and players == 0
