"""SQLite group commit on the event loop: the write calls of one pass of the loop share one
transaction and one commit; each answers only once that commit is done; a call that fails
leaves nothing, the others are kept; a commit that fails fails them all; and a call waiting
for the writer locks (held by another process) leaves the loop free."""

from __future__ import annotations

import asyncio
import fcntl
import os
import uuid
from typing import Any

import httpx
import pytest
from sqlalchemy import text

from reelsmith.server.app import create_app
from reelsmith.server.clock import ManualClock
from reelsmith.server.settings import Settings
from reelsmith.store.db import CommitGroup, Database

from .conftest import OPERATOR_KEY, SECRET


@pytest.fixture
def database(tmp_path: Any) -> Any:
    db = Database(f"sqlite:///{tmp_path}/group.db")
    with db.write() as connection:
        connection.execute(text("CREATE TABLE marks (who TEXT PRIMARY KEY)"))
    yield db
    db.dispose()


def marks(db: Database) -> list[str]:
    """What another connection sees: committed rows only."""
    with db.read() as connection:
        return [row[0] for row in connection.execute(text("SELECT who FROM marks ORDER BY who"))]


def writer(db: Database, who: str, fail: bool = False) -> Any:
    def write() -> str:
        with db.write() as connection:
            connection.execute(text("INSERT INTO marks VALUES (:who)"), {"who": who})
            if fail:
                raise ValueError(f"{who} refused")
        return who

    return write


def test_the_calls_of_one_pass_share_a_commit_and_answer_after_it(database):
    group = CommitGroup(database)
    seen_while_writing: dict[str, list[str]] = {}

    def write(who: str) -> str:
        with database.write() as connection:
            connection.execute(text("INSERT INTO marks VALUES (:who)"), {"who": who})
        seen_while_writing[who] = marks(database)  # another connection: nothing committed
        return who

    async def main() -> list[str]:
        return list(
            await asyncio.gather(*(group.run(write, who, writes=True) for who in ("a", "b", "c")))
        )

    assert asyncio.run(main()) == ["a", "b", "c"]
    assert seen_while_writing == {"a": [], "b": [], "c": []}
    assert marks(database) == ["a", "b", "c"]
    assert (group.groups, group.calls) == (1, 3)


def test_reads_run_at_once_outside_any_group(database):
    group = CommitGroup(database)
    assert asyncio.run(group.run(marks, database)) == []
    assert (group.groups, group.calls) == (0, 0)


def test_a_failing_call_leaves_nothing_and_the_others_are_kept(database):
    group = CommitGroup(database)

    async def main() -> list[Any]:
        return list(
            await asyncio.gather(
                group.run(writer(database, "a"), writes=True),
                group.run(writer(database, "b", fail=True), writes=True),
                group.run(writer(database, "c"), writes=True),
                return_exceptions=True,
            )
        )

    first, second, third = asyncio.run(main())
    assert (first, third) == ("a", "c")
    assert isinstance(second, ValueError) and str(second) == "b refused"
    assert marks(database) == ["a", "c"]
    assert group.groups == 1


def test_a_failed_commit_fails_every_call_of_its_group(database):
    group = CommitGroup(database)
    with database.write() as connection:
        connection.execute(text("CREATE TABLE child (who TEXT REFERENCES marks (who))"))

    def orphan() -> str:
        with database.write() as connection:
            # checked at the commit: the whole group's transaction fails there
            connection.execute(text("PRAGMA defer_foreign_keys = ON"))
            connection.execute(text("INSERT INTO child VALUES ('nobody')"))
        return "orphan"

    async def main() -> list[Any]:
        return list(
            await asyncio.gather(
                group.run(writer(database, "a"), writes=True),
                group.run(orphan, writes=True),
                return_exceptions=True,
            )
        )

    results = asyncio.run(main())
    assert all(isinstance(result, Exception) for result in results), results
    assert "FOREIGN KEY" in str(results[0])
    assert marks(database) == []
    # the writer locks were let go: the next group commits
    assert asyncio.run(group.run(writer(database, "b"), writes=True)) == "b"
    assert marks(database) == ["b"]


def test_a_call_waiting_for_another_process_leaves_the_loop_free(database, tmp_path):
    group = CommitGroup(database)
    other = os.open(f"{tmp_path}/group.db-writer", os.O_RDWR)  # another process's writer
    fcntl.flock(other, fcntl.LOCK_EX)
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0.01)

    async def main() -> list[str]:
        tick = asyncio.ensure_future(ticker())
        calls = [
            asyncio.ensure_future(group.run(writer(database, who), writes=True))
            for who in ("a", "b")
        ]
        await asyncio.sleep(0.3)
        assert not any(call.done() for call in calls)
        assert ticks >= 10  # the loop kept running while the calls waited
        fcntl.flock(other, fcntl.LOCK_UN)
        done = list(await asyncio.gather(*calls))
        tick.cancel()
        return done

    try:
        assert asyncio.run(main()) == ["a", "b"]
    finally:
        os.close(other)
    assert marks(database) == ["a", "b"]
    assert group.groups == 1  # the two waiters joined one transaction


def test_a_thread_holding_the_writer_lock_cannot_wait_for_it_again(database):
    assert database._acquire_writer(blocking=False)
    try:
        with pytest.raises(RuntimeError, match="already holds the SQLite writer lock"):
            database._acquire_writer(blocking=True)  # waiting would never end
    finally:
        database._release_writer()
    assert marks(database) == []


def test_the_loop_answers_other_requests_while_a_group_runs_elsewhere(database, tmp_path):
    """A group's locks are held for its calls and its commit only: between groups, another
    process (here: another open file) takes the writer lock at once."""
    group = CommitGroup(database)
    other = os.open(f"{tmp_path}/group.db-writer", os.O_RDWR)

    async def main() -> None:
        await group.run(writer(database, "a"), writes=True)
        fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)  # free: no BlockingIOError
        fcntl.flock(other, fcntl.LOCK_UN)

    try:
        asyncio.run(main())
    finally:
        os.close(other)


def test_postgresql_is_not_grouped(tmp_path):
    from sqlalchemy.engine import make_url

    class Postgres:
        is_sqlite = False
        url = make_url("postgresql://nowhere/none")

    with pytest.raises(ValueError, match="SQLite"):
        CommitGroup(Postgres())  # type: ignore[arg-type]


def test_concurrent_spins_through_the_server_commit_together(tmp_path):
    """32 players spinning at once through the app: fewer commits than requests, every
    response committed (its round is in the database when it answers) and the books
    balance."""
    db = Database(f"sqlite:///{tmp_path}/server.db")
    settings = Settings.load(secret_key=SECRET, operator_api_key=OPERATOR_KEY, dev_mode=True)
    app = create_app(settings, clock=ManualClock(), database=db, run_resolver=False)
    bet = {"lines": 25, "coins_per_line": 1, "coin_size": "0.01"}

    async def main() -> None:
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
                operator = {"X-API-Key": OPERATOR_KEY}
                tokens = []
                for _ in range(32):
                    ref = uuid.uuid4().hex
                    player = (
                        await client.post(
                            "/operator/players",
                            json={"external_ref": ref, "currency": "EUR"},
                            headers={**operator, "Idempotency-Key": ref},
                        )
                    ).json()["id"]
                    await client.post(
                        f"/operator/players/{player}/deposit",
                        json={"amount": "100.00"},
                        headers={**operator, "Idempotency-Key": ref + "d"},
                    )
                    session = await client.post(
                        f"/operator/players/{player}/sessions", headers=operator
                    )
                    tokens.append(session.json()["token"])

                async def play(token: str) -> None:
                    for _ in range(5):
                        response = await client.post(
                            "/api/games/days-of-the-tsar/spin",
                            json={"bet": bet, "gamble": False},
                            headers={
                                "Authorization": f"Bearer {token}",
                                "Idempotency-Key": uuid.uuid4().hex,
                            },
                        )
                        assert response.status_code == 200, response.text
                        body = response.json()
                        with db.read() as connection:  # committed before it answered
                            found = connection.execute(
                                text("SELECT count(*) FROM rounds WHERE id = :id"),
                                {"id": body["round_id"]},
                            ).scalar_one()
                        assert found == 1
                        while body["status"] == "open":
                            response = await client.post(
                                f"/api/games/days-of-the-tsar/rounds/{body['round_id']}/free-spin",
                                json={},
                                headers={
                                    "Authorization": f"Bearer {token}",
                                    "Idempotency-Key": uuid.uuid4().hex,
                                },
                            )
                            assert response.status_code == 200, response.text
                            body = response.json()

                await asyncio.gather(*(play(token) for token in tokens))

    try:
        asyncio.run(main())
        group = app.state.commit_group
        assert group.calls >= 160
        assert group.groups < group.calls / 4  # the calls shared commits
        assert app.state.service.verify_ledger().ok
        assert app.state.service.verify_audit().ok
    finally:
        db.dispose()
