"""Group commit on the event loop, on SQLite and on PostgreSQL: the write calls of one pass of
the loop share one transaction and one commit; each answers only once that commit is done; a
call that fails leaves nothing, the others are kept; a commit that fails fails them all. On
SQLite a call waiting for the writer locks (held by another process) leaves the loop free; on
PostgreSQL a call that two processes' groups deadlock on runs again in a later group."""

from __future__ import annotations

import asyncio
import fcntl
import os
import threading
import uuid
from typing import Any

import httpx
import pytest
from sqlalchemy import event, text
from sqlalchemy.exc import IntegrityError

from reelsmith.server.app import create_app
from reelsmith.server.clock import ManualClock
from reelsmith.server.settings import Settings
from reelsmith.store import sql
from reelsmith.store.db import CommitGroup, Database, ReadAhead

from .conftest import OPERATOR_KEY, SECRET, drop_schema, make_database, scratch_database


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Any) -> Any:
    marks = "CREATE TABLE marks (who VARCHAR(8) PRIMARY KEY)"
    with scratch_database(request.param, tmp_path, marks) as db:
        yield db


@pytest.fixture
def sqlite_database(tmp_path: Any) -> Any:
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
    deferred = "" if database.is_sqlite else " DEFERRABLE INITIALLY DEFERRED"
    with database.write() as connection:
        connection.execute(
            text(f"CREATE TABLE child (who VARCHAR(8) REFERENCES marks (who){deferred})")
        )

    def orphan() -> str:
        with database.write() as connection:
            # checked at the commit: the whole group's transaction fails there
            if database.is_sqlite:
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
    assert "foreign key" in str(results[0]).lower()
    assert marks(database) == []
    # the writer locks were let go: the next group commits
    assert asyncio.run(group.run(writer(database, "b"), writes=True)) == "b"
    assert marks(database) == ["b"]


def test_a_call_waiting_for_another_process_leaves_the_loop_free(sqlite_database, tmp_path):
    group = CommitGroup(sqlite_database)
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
            asyncio.ensure_future(group.run(writer(sqlite_database, who), writes=True))
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
    assert marks(sqlite_database) == ["a", "b"]
    assert group.groups == 1  # the two waiters joined one transaction


def test_a_thread_holding_the_writer_lock_cannot_wait_for_it_again(sqlite_database):
    assert sqlite_database._acquire_writer(blocking=False)
    try:
        with pytest.raises(RuntimeError, match="already holds the SQLite writer lock"):
            sqlite_database._acquire_writer(blocking=True)  # waiting would never end
    finally:
        sqlite_database._release_writer()
    assert marks(sqlite_database) == []


def test_the_loop_answers_other_requests_while_a_group_runs_elsewhere(sqlite_database, tmp_path):
    """A group's locks are held for its calls and its commit only: between groups, another
    process (here: another open file) takes the writer lock at once."""
    group = CommitGroup(sqlite_database)
    other = os.open(f"{tmp_path}/group.db-writer", os.O_RDWR)

    async def main() -> None:
        await group.run(writer(sqlite_database, "a"), writes=True)
        fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)  # free: no BlockingIOError
        fcntl.flock(other, fcntl.LOCK_UN)

    try:
        asyncio.run(main())
    finally:
        os.close(other)


def test_a_call_whose_sent_writes_fail_fails_alone(database):
    """On PostgreSQL a call's writes wait in a batch; they are sent before the call ends, so
    an error they meet is the call's own, not the next call's."""
    group = CommitGroup(database)

    def send(who: str) -> str:
        with database.write() as connection:
            sql.send(connection, "INSERT INTO marks VALUES (:who)", {"who": who})
        return who

    async def main() -> list[Any]:
        return list(
            await asyncio.gather(
                group.run(send, "a", writes=True),
                group.run(send, "a", writes=True),  # the key is taken
                group.run(send, "b", writes=True),
                return_exceptions=True,
            )
        )

    first, second, third = asyncio.run(main())
    assert (first, third) == ("a", "b")
    assert isinstance(second, IntegrityError)
    assert marks(database) == ["a", "b"]
    assert group.groups == 1


def test_the_last_calls_deferred_writes_fail_as_its_own(database):
    """The last call's writes go at the group's end; an error there is that call's alone:
    the calls before it keep their rows and their answers."""
    group = CommitGroup(database)

    def send(who: str) -> str:
        with database.write() as connection:
            sql.send(connection, "INSERT INTO marks VALUES (:who)", {"who": who})
        return who

    async def main() -> list[Any]:
        return list(
            await asyncio.gather(
                *(group.run(send, who, writes=True) for who in ("a", "b", "c", "a")),
                return_exceptions=True,
            )
        )

    *kept, last = asyncio.run(main())
    assert kept == ["a", "b", "c"]
    assert isinstance(last, IntegrityError)
    assert marks(database) == ["a", "b", "c"]
    assert group.groups == 1


def test_a_call_after_a_failed_deferred_write_sees_the_earlier_call_undone(database):
    """Call 2's writes fail in call 3's first round trip: call 2 is undone (its first row
    too) and answered by its error; call 3 runs after that, on a transaction without call
    2's rows, and call 4's own checks see the same."""
    group = CommitGroup(database)
    seen: dict[str, list[str]] = {}

    def pair(first: str, second: str) -> str:
        with database.write() as connection:
            sql.send(connection, "INSERT INTO marks VALUES (:who)", {"who": first})
            sql.send(connection, "INSERT INTO marks VALUES (:who)", {"who": second})
        return first + second

    def look(who: str) -> str:
        with database.write() as connection:
            rows = connection.execute(text("SELECT who FROM marks ORDER BY who")).all()
            seen[who] = [row[0] for row in rows]
            sql.send(connection, "INSERT INTO marks VALUES (:who)", {"who": who})
        return who

    async def main() -> list[Any]:
        return list(
            await asyncio.gather(
                group.run(pair, "a", "b", writes=True),
                group.run(pair, "c", "a", writes=True),  # "c" is written, then "a" fails
                group.run(look, "d", writes=True),
                group.run(look, "e", writes=True),
                return_exceptions=True,
            )
        )

    first, second, third, fourth = asyncio.run(main())
    assert (first, third, fourth) == ("ab", "d", "e")
    assert isinstance(second, IntegrityError)
    assert seen == {"d": ["a", "b"], "e": ["a", "b", "d"]}
    assert marks(database) == ["a", "b", "d", "e"]


def test_a_call_s_writes_share_the_next_call_s_round_trip(tmp_path):
    """On PostgreSQL a call's last writes cost no round trip of their own: they go with the
    next call's first statements (the last call's at the group's end). Four calls that each
    read, then write: one round trip each, not two."""
    marks_table = "CREATE TABLE marks (who VARCHAR(8) PRIMARY KEY)"
    with scratch_database("postgresql", tmp_path, marks_table) as database:
        group = CommitGroup(database)
        trips: list[int] = []
        counted: list[int] = []

        def count_then_write(who: str) -> str:
            with database.write() as connection:
                counted.append(sql.one(connection, "SELECT count(*) AS n FROM marks")["n"])
                batch = sql.batch_of(connection)
                assert batch is not None
                trips.append(batch.round_trips)
                sql.send(connection, "INSERT INTO marks VALUES (:who)", {"who": who})
            return who

        async def main() -> list[str]:
            calls = (group.run(count_then_write, who, writes=True) for who in "abcd")
            return list(await asyncio.gather(*calls))

        assert asyncio.run(main()) == list("abcd")
        assert trips == [1, 2, 3, 4]
        assert counted == [0, 1, 2, 3]  # each call saw the writes of the calls before it
        assert marks(database) == list("abcd")


SCOPED = "CREATE TABLE scoped (who VARCHAR(8) PRIMARY KEY, scope VARCHAR(8) NOT NULL)"
COUNT_SCOPE = "SELECT count(*) AS n FROM scoped WHERE scope = :scope"


def scoped_writer(database: Database, trips: dict[str, int]) -> Any:
    """A call that reads its scope's rows first (sent ahead, as a service's first reads
    are), then writes a row of its scope: what it counted, and the round trips its batch had
    made when it ended (in ``trips``)."""

    def write(who: str, scope: str) -> int:
        with database.write() as connection:
            sql.prefetch(connection, COUNT_SCOPE, {"scope": scope})
            seen = int(sql.one(connection, COUNT_SCOPE, {"scope": scope})["n"])
            sql.send(
                connection,
                "INSERT INTO scoped VALUES (:who, :scope)",
                {"who": who, "scope": scope},
            )
            batch = sql.batch_of(connection)
            assert batch is not None
            trips[who] = batch.round_trips
        return seen

    return write


def ahead(scope: str) -> ReadAhead:
    return ReadAhead(scope, [(COUNT_SCOPE, {"scope": scope})])


def together(
    group: CommitGroup,
    write: Any,
    calls: list[tuple[str, str, ReadAhead | None]],
    failures: bool = False,
) -> list[Any]:
    """``write(who, scope)`` for each of ``calls``, all in one group, each declaring what it
    is given; the answers (with ``failures``, the exceptions among them)."""

    async def main() -> list[Any]:
        runs = (group.run(write, w, s, writes=True, ahead=a) for w, s, a in calls)
        return list(await asyncio.gather(*runs, return_exceptions=failures))

    return asyncio.run(main())


def scoped(database: Database) -> list[tuple[str, str]]:
    with database.read() as connection:
        rows = connection.execute(text("SELECT who, scope FROM scoped ORDER BY who"))
        return [(row[0], row[1]) for row in rows]


def test_a_group_reads_its_calls_first_reads_ahead_in_one_round_trip(tmp_path, monkeypatch):
    """Calls of four scopes that each declare their first read: the reads go to the server
    together in the group's first round trip, and no call makes one of its own; their
    writes wait for the group's end and go with the COMMIT: two round trips in all."""
    with scratch_database("postgresql", tmp_path, SCOPED) as database:
        group = CommitGroup(database)
        trips: dict[str, int] = {}
        write = scoped_writer(database, trips)
        sent: list[bool] = []
        send = sql.Batch.send

        def counted(self: sql.Batch, *args: Any, **kwargs: Any) -> Any:
            sent.append(bool(kwargs.get("commit")))
            return send(self, *args, **kwargs)

        monkeypatch.setattr(sql.Batch, "send", counted)
        calls = [(who, who.upper(), ahead(who.upper())) for who in "dcba"]
        assert together(group, write, calls) == [0, 0, 0, 0]
        assert trips == {"a": 1, "b": 1, "c": 1, "d": 1}
        assert sent == [False, True]
        assert scoped(database) == [("a", "A"), ("b", "B"), ("c", "C"), ("d", "D")]
        assert (group.groups, group.calls) == (1, 4)


def test_calls_sharing_a_scope_read_as_they_go(tmp_path):
    """Two calls of one scope in a group: neither is read ahead, so the second sees the
    first's row (read ahead, it would have counted the scope before it); a call of another
    scope still is. And a group with a call that declares nothing reads nothing ahead."""
    with scratch_database("postgresql", tmp_path, SCOPED) as database:
        group = CommitGroup(database)
        trips: dict[str, int] = {}
        write = scoped_writer(database, trips)

        calls = [(who, scope, ahead(scope)) for who, scope in zip("abcd", "PQPR", strict=True)]
        assert together(group, write, calls) == [0, 0, 1, 0]
        # a and c read as they went (a round trip each), b and d were read ahead with the
        # group's first: a's trip is the second, c's the third, and d made none
        assert trips == {"a": 2, "b": 2, "c": 3, "d": 3}

        trips.clear()

        calls = [("e", "S", ahead("S")), ("f", "T", None), ("g", "U", ahead("U"))]
        assert together(group, write, calls) == [0, 0, 0]
        assert trips == {"e": 1, "f": 2, "g": 3}
        assert [who for who, _scope in scoped(database)] == list("abcdefg")


def test_writes_waiting_behind_a_failed_one_run_again(tmp_path):
    """Three calls read ahead, so all their writes wait for the group's end; the second's
    fail there. The first's stand; the second runs again and fails as its own; the third,
    whose writes never ran, runs again and is kept."""
    with scratch_database("postgresql", tmp_path, SCOPED) as database:
        with database.write() as connection:
            connection.execute(text("INSERT INTO scoped VALUES ('taken', 'Z')"))
        group = CommitGroup(database)
        trips: dict[str, int] = {}
        write = scoped_writer(database, trips)
        runs: list[str] = []

        def counted(who: str, scope: str) -> int:
            runs.append(who)
            return write(who, scope)  # type: ignore[no-any-return]

        calls = [
            (who, scope, ahead(scope)) for who, scope in (("a", "A"), ("taken", "B"), ("c", "C"))
        ]
        first, second, third = together(group, counted, calls, failures=True)
        assert (first, third) == (0, 0)
        assert isinstance(second, IntegrityError)
        assert runs == ["a", "taken", "c", "taken", "c"]
        assert scoped(database) == [("a", "A"), ("c", "C"), ("taken", "Z")]
        assert group.groups == 1


def test_a_read_ahead_that_fails_leaves_the_calls_to_read_as_they_go(tmp_path):
    """A declared read the server refuses fails the group's first round trip: the
    transaction is begun again, and every call reads for itself and is kept."""
    with scratch_database("postgresql", tmp_path, SCOPED) as database:
        group = CommitGroup(database)
        trips: dict[str, int] = {}
        write = scoped_writer(database, trips)
        broken = ReadAhead("B", [("SELECT * FROM no_such_table WHERE id = :id", {"id": 1})])

        assert together(group, write, [("a", "A", ahead("A")), ("b", "B", broken)]) == [0, 0]
        assert trips == {"a": 2, "b": 3}  # the failed read-ahead's trip, then one each
        assert scoped(database) == [("a", "A"), ("b", "B")]


def test_a_deadlock_between_two_processes_groups_runs_the_broken_call_again(tmp_path):
    """Two server processes' groups lock two rows in opposite orders: the database fails one
    call (its deadlock detector) or both (the lock timeout, which passes first); a failed call
    runs again in its process's next group, and every call succeeds."""
    first, schema = make_database("postgresql", tmp_path)
    second = Database(str(first.url.render_as_string(hide_password=False)), schema=schema)
    try:
        first.migrate()
        with first.write() as connection:
            connection.execute(text("CREATE TABLE counters (name VARCHAR(8) PRIMARY KEY, n INT)"))
            connection.execute(text("INSERT INTO counters VALUES ('x', 0), ('y', 0)"))
        both_hold_one = threading.Barrier(2, timeout=10)

        def bump(db: Database, name: str, wait: bool) -> str:
            with db.write() as connection:
                connection.execute(
                    text("UPDATE counters SET n = n + 1 WHERE name = :name"), {"name": name}
                )
            if wait:  # the row stays locked until the group commits
                both_hold_one.wait()
            return name

        groups = {}

        def process(db: Database, order: tuple[str, str]) -> None:
            group = groups[order] = CommitGroup(db)

            async def main() -> list[str]:
                return list(
                    await asyncio.gather(
                        group.run(bump, db, order[0], True, writes=True),
                        group.run(bump, db, order[1], False, writes=True),
                    )
                )

            assert asyncio.run(main()) == list(order)

        threads = [
            threading.Thread(target=process, args=(first, ("x", "y"))),
            threading.Thread(target=process, args=(second, ("y", "x"))),
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        assert not any(thread.is_alive() for thread in threads)
        assert 1 <= sum(group.retried for group in groups.values()) <= 2
        with first.read() as connection:
            counts = dict(connection.execute(text("SELECT name, n FROM counters")).all())
        assert counts == {"x": 2, "y": 2}
    finally:
        first.dispose()
        second.dispose()
        drop_schema(schema or "")


async def player_token(client: httpx.AsyncClient, deposit: str) -> str:
    """A new player with ``deposit`` in its wallet, created through the operator API of the
    app ``client`` serves; its session's token."""
    operator = {"X-API-Key": OPERATOR_KEY}
    ref = uuid.uuid4().hex
    created = await client.post(
        "/operator/players",
        json={"external_ref": ref, "currency": "EUR"},
        headers={**operator, "Idempotency-Key": ref},
    )
    player = created.json()["id"]
    await client.post(
        f"/operator/players/{player}/deposit",
        json={"amount": deposit},
        headers={**operator, "Idempotency-Key": ref + "d"},
    )
    session = await client.post(f"/operator/players/{player}/sessions", headers=operator)
    return str(session.json()["token"])


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_concurrent_spins_through_the_server_commit_together(tmp_path, kind):
    """32 players spinning at once through the app: fewer commits than requests, every
    response committed (its round is in the database when it answers) and the books
    balance."""
    db, schema = make_database(kind, tmp_path)
    settings = Settings.load(secret_key=SECRET, operator_api_key=OPERATOR_KEY, dev_mode=True)
    app = create_app(settings, clock=ManualClock(), database=db, run_resolver=False)
    bet = {"lines": 25, "coins_per_line": 1, "coin_size": "0.01"}

    async def main() -> None:
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
                tokens = [await player_token(client, "100.00") for _ in range(32)]

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
        # The calls shared commits. How many share one depends on how the event loop
        # interleaves the 32 players (each reads the database between its requests), so the
        # bound asks for sharing, not a ratio: without grouping every call is its own commit.
        assert group.groups <= group.calls / 2
        assert app.state.service.verify_ledger().ok
        assert app.state.service.verify_audit().ok
    finally:
        db.dispose()
        if schema:
            drop_schema(schema)


def test_the_retired_thread_setting_is_refused_by_name():
    from reelsmith.server.settings import SettingsError

    with pytest.raises(SettingsError, match="database_threads is no longer used"):
        Settings.load(database_threads=16)


def test_a_postgresql_group_commits_while_the_loop_runs_the_next(tmp_path):
    """The loop does not wait for a PostgreSQL group's COMMIT: here the COMMIT takes 0.3 s
    (a deferred trigger sleeps), the loop keeps running, a later group commits first, and
    the slow call answers only once its own commit is done."""
    with scratch_database(
        "postgresql",
        tmp_path,
        "CREATE TABLE marks (who VARCHAR(8) PRIMARY KEY)",
        "CREATE TABLE slow (who VARCHAR(8) PRIMARY KEY)",
        "CREATE FUNCTION sleepy() RETURNS trigger LANGUAGE plpgsql AS"
        " $$ BEGIN PERFORM pg_sleep(0.3); RETURN NULL; END $$",
        "CREATE CONSTRAINT TRIGGER at_commit AFTER INSERT ON slow"
        " DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION sleepy()",
    ) as db:
        group = CommitGroup(db)
        answered: list[str] = []
        ticks = 0

        def insert(table: str, who: str) -> str:
            with db.write() as connection:
                sql.send(connection, f"INSERT INTO {table} VALUES (:who)", {"who": who})
            return who

        def committed(table: str) -> list[str]:
            with db.read() as connection:
                rows = connection.exec_driver_sql(f"SELECT who FROM {table}").all()
            return [row[0] for row in rows]

        async def call(table: str, who: str) -> None:
            await group.run(insert, table, who, writes=True)
            answered.append(who)
            assert committed(table) == [who]  # committed before it answered

        async def ticker() -> None:
            nonlocal ticks
            while True:
                ticks += 1
                await asyncio.sleep(0.01)

        async def main() -> None:
            tick = asyncio.ensure_future(ticker())
            slow = asyncio.ensure_future(call("slow", "s"))
            await asyncio.sleep(0.05)
            await call("marks", "m")  # a later group, committed while the first still is
            await slow
            tick.cancel()

        asyncio.run(main())
        assert answered == ["m", "s"]
        assert ticks >= 15
        assert group.groups == 2


def test_a_failed_postgresql_commit_fails_its_calls_and_frees_the_connection(tmp_path):
    with scratch_database(
        "postgresql",
        tmp_path,
        "CREATE TABLE marks (who VARCHAR(8) PRIMARY KEY)",
        "CREATE TABLE child (who VARCHAR(8) REFERENCES marks (who) DEFERRABLE INITIALLY DEFERRED)",
    ) as db:
        group = CommitGroup(db)

        def insert(table: str, who: str) -> str:
            with db.write() as connection:
                sql.send(connection, f"INSERT INTO {table} VALUES (:who)", {"who": who})
            return who

        async def main() -> list[Any]:
            return list(
                await asyncio.gather(
                    group.run(insert, "marks", "a", writes=True),
                    group.run(insert, "child", "nobody", writes=True),  # fails at COMMIT
                    return_exceptions=True,
                )
            )

        results = asyncio.run(main())
        assert all(isinstance(result, IntegrityError) for result in results), results
        assert asyncio.run(group.run(insert, "marks", "b", writes=True)) == "b"
        with db.read() as connection:
            assert connection.exec_driver_sql("SELECT who FROM marks").all() == [("b",)]
        group.close()  # the connection kept for the next group
        assert db.engine.pool.checkedout() == 0  # every connection back in the pool


MARKS = "CREATE TABLE marks (who VARCHAR(8) PRIMARY KEY)"


def _terminate(pid: int) -> None:
    """End PostgreSQL backend ``pid`` from another connection, and wait until it is gone."""
    admin = Database(os.environ["REELSMITH_TEST_DATABASE_URL"], pool_size=1)
    try:
        with admin.engine.connect() as connection:
            connection.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
            for _ in range(100):
                alive = connection.execute(
                    text("SELECT count(*) FROM pg_stat_activity WHERE pid = :pid"), {"pid": pid}
                ).scalar()
                if not alive:
                    return
                connection.commit()
                threading.Event().wait(0.02)
        raise AssertionError(f"backend {pid} did not end")
    finally:
        admin.dispose()


def _mark_and_pid(db: Database, who: str) -> int:
    """Insert ``who`` into marks; the pid of the backend that did."""
    with db.write() as connection:
        sql.send(connection, "INSERT INTO marks VALUES (:who)", {"who": who})
        return int(sql.one(connection, "SELECT pg_backend_pid() AS pid")["pid"])


def test_a_group_reuses_the_last_group_s_connection_and_a_lost_one_runs_its_group_again(
    tmp_path,
):
    """A PostgreSQL group takes the connection the last group used, without the pool's check
    at checkout (a round trip per group, the loop blocked for it); one the server closed
    meanwhile fails the group's first round trip, and the group's calls run again on a new
    connection, each call's writes once."""
    with scratch_database("postgresql", tmp_path, MARKS) as db:
        group = CommitGroup(db)
        checkouts: list[int] = []
        event.listen(db.engine, "checkout", lambda *_args: checkouts.append(1))
        pids = [asyncio.run(group.run(_mark_and_pid, db, f"m{i}", writes=True)) for i in range(8)]
        assert len(checkouts) == 1  # taken from the pool (and checked) once, then kept
        assert len(set(pids)) == 1

        _terminate(pids[-1])

        async def two() -> list[int]:
            calls = (group.run(_mark_and_pid, db, who, writes=True) for who in ("x", "y"))
            return list(await asyncio.gather(*calls))

        again = asyncio.run(two())
        assert group.retried == 2  # both calls of the group ran again
        assert pids[-1] not in again
        assert marks(db) == sorted([f"m{i}" for i in range(8)] + ["x", "y"])
        group.close()
        assert db.engine.pool.checkedout() == 0


def test_a_connection_kept_too_long_goes_back_to_the_pool_and_is_checked(tmp_path, monkeypatch):
    """A connection no group used for ``REUSE_WITHIN_SECONDS`` is returned to the pool, whose
    check at checkout replaces a lost one: the group runs once."""
    from reelsmith.store import db as db_module

    with scratch_database("postgresql", tmp_path, MARKS) as db:
        group = CommitGroup(db)
        pid = asyncio.run(group.run(_mark_and_pid, db, "a", writes=True))
        monkeypatch.setattr(db_module, "REUSE_WITHIN_SECONDS", 0.0)
        _terminate(pid)
        assert asyncio.run(group.run(_mark_and_pid, db, "b", writes=True)) != pid
        assert group.retried == 0
        assert marks(db) == ["a", "b"]


def test_the_server_s_shutdown_returns_the_kept_connections(tmp_path):
    """The connections commit groups keep between groups go back to the pool when the
    server stops, so disposing of the engine closes every one."""
    db, schema = make_database("postgresql", tmp_path)
    settings = Settings.load(secret_key=SECRET, operator_api_key=OPERATOR_KEY, dev_mode=True)
    app = create_app(settings, clock=ManualClock(), database=db, run_resolver=False)

    async def main() -> int:
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
                token = await player_token(client, "10.00")
                spin = await client.post(
                    "/api/games/days-of-the-tsar/spin",
                    json={
                        "bet": {"lines": 25, "coins_per_line": 1, "coin_size": "0.01"},
                        "gamble": False,
                    },
                    headers={
                        "Authorization": f"Bearer {token}",
                        "Idempotency-Key": uuid.uuid4().hex,
                    },
                )
                assert spin.status_code == 200, spin.text
            kept = len(app.state.commit_group._kept)
        return kept

    try:
        assert asyncio.run(main()) == 1  # the group's connection, kept while serving
        assert app.state.commit_group._kept == []
        assert db.engine.pool.checkedout() == 0
    finally:
        db.dispose()
        if schema:
            drop_schema(schema)
