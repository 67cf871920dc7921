"""The database: engine set-up for SQLite (default) and PostgreSQL, transactions, migrations.

Write transactions serialise per player: on PostgreSQL by locking the player's row
(``SELECT ... FOR UPDATE``), on SQLite by ``BEGIN IMMEDIATE`` (SQLite has one writer at a
time). On SQLite, writers first queue on a lock shared by every process using the database
file (``flock`` on ``<database>-writer``): a writer waiting there wakes the moment the
previous one commits, where SQLite's own busy handler sleeps 1, 2, 5, 10... ms between tries,
so several server processes can share one SQLite file without those sleeps. The server
runs its writes in commit groups (`CommitGroup`), on either database: the write transactions
of one pass of its event loop share one transaction and one commit, each in a savepoint of
its own, and each request answers once that commit is done. On PostgreSQL a write
transaction's statements travel in batches, one round trip each (see `store.sql`), and a
commit group reads its calls' first reads ahead, all in one (see `CommitGroup`).

SQLite runs in WAL mode with ``synchronous=NORMAL``: a committed transaction survives the
process being killed. SQLite's own automatic checkpoints, every ``WAL_CHECKPOINT_PAGES``, keep
the WAL bounded (a background thread running only PASSIVE checkpoints lets it grow without end
under continuous writes: the log never starts over).

SQLite's files are the player's money and history: the database, its ``-wal`` and ``-shm``
and the writer lock are made readable by their owner alone (0600), and a directory made for
them too (0700), whatever the process's umask; an existing file that others could read is
made owner-only, with a warning (`private_sqlite_files`). A database URL is shown only with
its password hidden (`redact_url`).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import os
import stat
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.pool import NullPool

from reelsmith.store import sql

MIGRATIONS = Path(__file__).parent / "migrations"
# SQLite checkpoints the WAL into the database file when it passes this many pages (16 MiB),
# in the transaction that commits past it, which is also when the log starts over from its
# beginning. SQLite's default, 1,000 pages, checkpoints every 40 or so spins (a spin writes
# about 25 pages); a spin rewrites the same hot pages (the wallet, the tables' last pages,
# their indexes), which a checkpoint copies once however many times the log holds them, so
# fewer, larger checkpoints copy and sync far less. The server's `Checkpointer` does most of
# the copying before that point.
WAL_CHECKPOINT_PAGES = 4000
# SQLite reads the database file through a memory map of up to this size rather than a read
# call per page. A connection's page cache is dropped whenever another connection (another
# server process) has committed; with two server processes on one file that is every commit
# group, and refilling the cache from the map costs far less than from read calls
# (docs/performance.md has the runs with and without it).
MMAP_BYTES = 256 * 1024 * 1024
# How often the server's checkpointer copies the log into the database file.
CHECKPOINT_EVERY_SECONDS = 0.02
# A commit group keeps the PostgreSQL connections it used (`CommitGroup`) rather than returning
# them to the pool, whose check of a connection at every checkout is a round trip (the event
# loop blocked for it): a kept connection idle this long goes back to the pool instead, which
# checks it before its next use. So many are kept at most.
REUSE_WITHIN_SECONDS = 1.0
KEPT_CONNECTIONS = 4
# PostgreSQL: how long a statement of the server's may wait for a lock, and run, before it
# fails (`busy`; the request is answered 503 with Retry-After, docs/deployment.md).
LOCK_TIMEOUT_MS = 250
STATEMENT_TIMEOUT_MS = 30_000
# lock_not_available (lock_timeout), query_canceled (statement_timeout)
BUSY_SQLSTATES = ("55P03", "57014")
MIGRATION_LOCK = 0x7265656C  # "reel": the PostgreSQL advisory lock held while migrating
# The files of one SQLite database: the file itself, SQLite's own beside it, our writer lock.
SQLITE_SUFFIXES = ("", "-wal", "-shm", "-journal", "-writer")
FILE_MODE = 0o600
DIRECTORY_MODE = 0o700

log = logging.getLogger("reelsmith.store")


def redact_url(url: str | URL) -> str:
    """The URL as it may be shown (logs, errors, the start line): its password as ``***``."""
    try:
        parsed = url if isinstance(url, URL) else make_url(url)
    except Exception:  # unparsable: its parser's error would quote it whole
        return "<a database URL that cannot be parsed>"
    return parsed.render_as_string(hide_password=True)


def redact_text(text_: str, url: str | URL) -> str:
    """``text_`` with the URL's password, wherever it appears, as ``***`` (and an unparsable
    URL, which may hold one, as the placeholder `redact_url` gives)."""
    try:
        password = (url if isinstance(url, URL) else make_url(url)).password
    except Exception:
        return text_.replace(str(url), redact_url(url)) if url else text_
    return text_.replace(str(password), "***") if password else text_


def private_sqlite_files(database: str) -> None:
    """Make a SQLite database's directory (when missing) and files owner-only (see the
    module). The database file is created empty here if missing (SQLite takes an empty file
    for a new database), so that SQLite, which gives its ``-wal`` and ``-shm`` the
    database's permissions, makes them owner-only too."""
    path = Path(database)
    directory = path.parent
    if not directory.exists():
        directory.mkdir(parents=True, exist_ok=True)
        os.chmod(directory, DIRECTORY_MODE)  # mkdir's mode passes through the umask
    else:
        mode = stat.S_IMODE(directory.stat().st_mode)
        if mode & 0o077 and not mode & stat.S_ISVTX:
            log.warning(
                "the database's directory %s is open to other users (mode %04o): its files"
                " are owner-only, but other users can list them; chmod 700 it",
                directory,
                mode,
            )
    try:
        created = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    except FileExistsError:
        pass
    else:
        os.fchmod(created, FILE_MODE)  # exactly 0600, whatever the umask took away
        os.close(created)
    for suffix in SQLITE_SUFFIXES:
        private_file(Path(f"{database}{suffix}"))


def private_file(path: Path) -> None:
    """An existing ``path`` that others may read or write is made owner-only (warned)."""
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        return
    if not mode & 0o077:
        return
    try:
        os.chmod(path, mode & 0o700 | FILE_MODE)
    except OSError as exc:
        log.warning(
            "%s is open to other users (mode %04o) and cannot be made owner-only: %s",
            path,
            mode,
            exc.strerror or exc,
        )
        return
    log.warning("%s was open to other users (mode %04o): made owner-only (0600)", path, mode)


class Database:
    """One database: its engine and the way transactions begin on it."""

    def __init__(
        self,
        url: str,
        schema: str | None = None,
        pool_size: int = 20,
        lock_timeout_ms: int = LOCK_TIMEOUT_MS,
        statement_timeout_ms: int = STATEMENT_TIMEOUT_MS,
    ) -> None:
        self.url = make_url(url)
        self.is_sqlite = self.url.get_backend_name() == "sqlite"
        self.schema = schema
        self._write_lock = threading.Lock()
        self._writer_thread: int | None = None  # the thread holding the writer locks
        self._writer_file: int | None = None
        kwargs: dict[str, Any] = {"future": True}
        if self.is_sqlite:
            database = self.url.database or ""
            if database in ("", ":memory:"):
                raise ValueError(
                    "use a file for SQLite: an in-memory database is lost per connection"
                )
            private_sqlite_files(database)
            self._writer_path = f"{database}-writer"
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
        else:
            kwargs["pool_size"] = pool_size
            kwargs["max_overflow"] = 10
            kwargs["pool_pre_ping"] = True  # a connection is checked as it leaves the pool
            # psycopg prepares no statements of its own: after any rollback it deallocates
            # every prepared statement of the connection (DEALLOCATE ALL) when it has some,
            # and with them the hot path's (see store.pgwire), which prepares its own
            kwargs["connect_args"] = {"prepare_threshold": None}
            # a statement that waits for a lock, or runs, longer than these fails (`busy`):
            # the server's requests run on its event loop, and one request waiting on a row
            # another session holds would hold up every other request of the process
            options = [
                f"-clock_timeout={int(lock_timeout_ms)}",
                f"-cstatement_timeout={int(statement_timeout_ms)}",
            ]
            if schema:
                options.append(f"-csearch_path={schema}")
            # the URL's own options (``?options=-csearch_path%3D...``) are kept, first: the
            # connection's arguments would replace them
            given = self.url.query.get("options")
            if given:
                options[:0] = [given] if isinstance(given, str) else list(given)
            kwargs["connect_args"]["options"] = " ".join(options)
        self.engine: Engine = create_engine(self.url, **kwargs)
        if self.is_sqlite:
            self._configure_sqlite()
        else:
            self._configure_postgresql()

    def _configure_sqlite(self) -> None:
        @event.listens_for(self.engine, "connect")
        def on_connect(dbapi_connection: Any, _record: Any) -> None:
            dbapi_connection.isolation_level = None  # we issue BEGIN ourselves
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA busy_timeout=30000")
            cursor.execute(f"PRAGMA wal_autocheckpoint={WAL_CHECKPOINT_PAGES}")
            cursor.execute(f"PRAGMA mmap_size={MMAP_BYTES}")
            cursor.close()

        @event.listens_for(self.engine, "begin")
        def on_begin(connection: Connection) -> None:
            mode = connection.get_execution_options().get("sqlite_begin", "IMMEDIATE")
            cursor = connection.connection.cursor()  # the driver's cursor: no result wrapping
            cursor.execute(f"BEGIN {mode}")
            cursor.close()

    def _configure_postgresql(self) -> None:
        @event.listens_for(self.engine, "before_cursor_execute")
        def send_batch_first(connection: Connection, *_args: Any) -> None:
            # a statement built with SQLAlchemy runs after those the transaction queued
            batch = sql.batch_of(connection)
            if batch is not None and batch.queued:
                batch.flush(connection)

    @contextmanager
    def write(self) -> Iterator[Connection]:
        """A write transaction: committed when the block ends, rolled back on any error.

        On SQLite, writers of this process queue on a lock first: SQLite admits one writer at
        a time, and waiting on a lock is fairer and faster than SQLite's busy-wait sleeps.
        """
        group = _JOINED.get()
        if group is not None and group.database is self:
            with group.savepoint() as connection:
                yield connection
            return
        if self.is_sqlite:
            with self._writer(), self.engine.connect() as connection, connection.begin():
                yield connection
        else:
            # the statements a write sends without needing an answer wait in a batch and go
            # with the next read or with the COMMIT, in one round trip (see store.sql)
            with self.engine.connect() as connection:
                sql.open_batch(connection)
                try:
                    with connection.begin():
                        yield connection
                        sql.flush(connection, commit=True)
                finally:
                    sql.close_batch(connection)

    @contextmanager
    def _writer(self) -> Iterator[None]:
        """Hold the SQLite writer locks: this process's thread lock, then the file's lock
        shared across processes (``flock`` does not exclude threads sharing the file)."""
        self._acquire_writer(blocking=True)
        try:
            yield
        finally:
            self._release_writer()

    def _acquire_writer(self, blocking: bool) -> bool:
        """Take the writer locks (see `_writer`); without ``blocking``, only if both are free
        now (False, holding neither, if not). Any thread may release them."""
        if self._writer_thread == threading.get_ident():
            if not blocking:
                return False  # held, by this very thread: not free now
            # waiting would never end: this thread's own open transaction (a commit group on
            # the event loop) holds the locks until the loop runs again
            raise RuntimeError("this thread already holds the SQLite writer lock")
        if not self._write_lock.acquire(blocking=blocking):
            return False
        try:
            if self._writer_file is None:
                self._writer_file = os.open(self._writer_path, os.O_RDWR | os.O_CREAT, FILE_MODE)
                with contextlib.suppress(OSError):  # not ours: private_sqlite_files warned
                    os.fchmod(self._writer_file, FILE_MODE)
            fcntl.flock(self._writer_file, fcntl.LOCK_EX | (0 if blocking else fcntl.LOCK_NB))
        except BlockingIOError:
            self._write_lock.release()
            return False
        except BaseException:
            self._write_lock.release()
            raise
        self._writer_thread = threading.get_ident()
        return True

    def _release_writer(self) -> None:
        assert self._writer_file is not None
        self._writer_thread = None
        fcntl.flock(self._writer_file, fcntl.LOCK_UN)
        self._write_lock.release()

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """A read-only transaction (on SQLite it does not take the write lock)."""
        with self.engine.connect() as connection:
            if self.is_sqlite:
                connection = connection.execution_options(sqlite_begin="DEFERRED")
            with connection.begin():
                yield connection

    def lock_player(self, connection: Connection, player_id: str) -> Any:
        """The player's row, locked for the rest of the transaction (PostgreSQL); on SQLite
        the transaction already holds the database's write lock."""
        suffix = "" if self.is_sqlite else " FOR UPDATE"
        return (
            connection.execute(
                text(f"SELECT * FROM players WHERE id = :id{suffix}"), {"id": player_id}
            )
            .mappings()
            .first()
        )

    def migrate(self, revision: str = "head") -> None:
        """Bring the schema to the newest migration (Alembic ``upgrade head``), or to
        ``revision`` (tests: a database as an older release left it)."""
        from alembic import command
        from alembic.config import Config

        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        with contextlib.ExitStack() as held, self.engine.connect() as connection:
            if self.is_sqlite:
                # processes starting together on one file migrate one after another
                held.enter_context(self._writer())
                connection = connection.execution_options(sqlite_begin="DEFERRED")
            else:
                # Several processes (``serve --workers N``, or N servers) start together on one
                # database: without this lock their migrations race and all but one crash.
                # a migration waits as long as it must (for the other processes' migrations
                # and the locks its statements need), not the requests' timeouts
                connection.execute(text("SET lock_timeout = 0"))
                connection.execute(text("SET statement_timeout = 0"))
                connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK})
                connection.commit()
                if self.schema:
                    connection.execute(text(f'CREATE SCHEMA IF NOT EXISTS "{self.schema}"'))
                    connection.commit()
            try:
                config.attributes["connection"] = connection
                command.upgrade(config, revision)
                connection.commit()
            finally:
                if not self.is_sqlite:
                    connection.rollback()
                    connection.execute(
                        text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK}
                    )
                    connection.execute(text("RESET lock_timeout"))
                    connection.execute(text("RESET statement_timeout"))
                    connection.commit()

    def checkpointer(self) -> Checkpointer | None:
        """A background checkpointer for this SQLite database (None on PostgreSQL)."""
        if not self.is_sqlite:
            return None
        return Checkpointer(self)

    def checkpoint(self, wait: bool = True) -> tuple[int, int] | None:
        """One PASSIVE checkpoint on a connection of its own, holding the writer locks
        (`_writer`): (pages in the WAL, pages of it now copied into the database file).

        No checkpoint runs beside a writer: SQLite up to 3.51.2 can damage the database file
        when a checkpoint runs while another connection's commit starts the log over after an
        earlier checkpoint (its WAL-reset bug), and the SQLite a Python links is often older.
        Every write and SQLite's own checkpoint (run by the commit that passes the mark) hold
        these locks too. ``wait=False``: None, having done nothing, when a writer holds them
        now."""
        if not self._acquire_writer(blocking=wait):
            return None
        try:
            with self.engine.connect() as connection:
                raw = connection.connection.driver_connection
                assert raw is not None
                row = raw.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        finally:
            self._release_writer()
        return int(row[1]), int(row[2])

    def connection_lost(self, connection: Connection) -> bool:
        """Whether ``connection`` (PostgreSQL) was lost: its server closed it or the network
        broke. If so it is invalidated (the pool opens a new one in its place)."""
        if self.is_sqlite:
            return False
        if connection.invalidated:
            return True
        raw = connection.connection.driver_connection
        if raw is None or not raw.closed:
            return False
        with contextlib.suppress(Exception):
            connection.invalidate()
        return True

    def now_ms(self) -> int:
        """The database server's time, in epoch milliseconds (SQLite: this host's, whose
        file it is). The server's clock on PostgreSQL (`server.clock.DatabaseClock`)."""
        if self.is_sqlite:
            return time.time_ns() // 1_000_000
        with self.engine.connect() as connection:
            value = connection.execute(
                text("SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint")
            ).scalar_one()
            connection.rollback()
        return int(value)

    def dispose(self) -> None:
        self.engine.dispose()
        if self._writer_file is not None:
            os.close(self._writer_file)
            self._writer_file = None


class Checkpointer:
    """Copies SQLite's WAL into the database file on a thread of its own, so that the server's
    requests (which run on its event loop) do not stop for the copying.

    Left to SQLite, the transaction whose commit passes ``WAL_CHECKPOINT_PAGES`` copies the
    whole log and syncs the file before its request can answer, and every request queued
    behind it waits, so the whole server stalls at every checkpoint.
    Here, every ``CHECKPOINT_EVERY_SECONDS`` a PASSIVE checkpoint copies what the log holds
    in a turn of its own between two writers' (it queues for the writer locks as a writer
    does: see `Database.checkpoint` for why no checkpoint runs beside a writer; SQLite runs it
    outside Python's global lock, so on the other core). SQLite's own checkpoint stays on:
    when the log passes its mark, the committing transaction copies only the little this
    thread has not, and the log starts
    over (a checkpointer alone never gets a log that writers keep appending to wholly copied,
    so the log would never start over and would grow without bound)."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self.passes = 0
        self.failures = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(
            target=self._run, name="reelsmith-checkpointer", daemon=True
        )

    def start(self) -> Checkpointer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(5)

    def _run(self) -> None:
        while not self._stop.wait(CHECKPOINT_EVERY_SECONDS):
            try:
                self.database.checkpoint()
                self.passes += 1
            except Exception:  # the database is busy or going away: SQLite's own checkpoint
                self.failures += 1  # still bounds the log; try again next period


# The commit group whose transaction the running call writes in (set while a group runs its
# calls; a call's `Database.write` then opens a savepoint in it).
_JOINED: ContextVar[CommitGroup | None] = ContextVar("reelsmith_commit_group", default=None)


# How often a call that met a deadlock or a serialization failure (PostgreSQL) is run again, in
# a later group, before its error is its answer. So is a call whose prepared statement was
# deallocated by something else on its connection (store.pgwire prepares it afresh).
TRANSIENT_RETRIES = 3
BUSY_RETRIES = 1
# deadlock detected, serialization failure, prepared statement does not exist, lock not
# available (the lock timeout passed: a deadlock between two processes' groups meets it before
# the database's deadlock detector; it is tried `BUSY_RETRIES` times more, then answers 503)
_TRANSIENT_SQLSTATES = ("40P01", "40001", "26000", "55P03")


def busy(exc: BaseException) -> bool:
    """Whether ``exc`` is a statement that waited for a lock or ran past its timeout
    (PostgreSQL): the moment's failure, which the same request may not meet again."""
    return getattr(getattr(exc, "orig", None), "sqlstate", None) in BUSY_SQLSTATES


def _transient(exc: BaseException) -> bool:
    return getattr(getattr(exc, "orig", None), "sqlstate", None) in _TRANSIENT_SQLSTATES


class ConnectionLostError(Exception):
    """A commit group's connection was lost before its COMMIT was sent (`CommitGroup`)."""

    def __init__(self, error: Exception) -> None:
        super().__init__(f"the database connection was lost: {error}")
        self.error = error


@dataclass(frozen=True, slots=True)
class ReadAhead:
    """What a commit group's call declares of itself (`CommitGroup.run`): the ``scope`` its
    writes and reads stay within (the player), and the ``reads`` it makes first, as
    ``(statement, parameters)`` of `sql.prefetch`, each of rows of that scope alone."""

    scope: str
    reads: Sequence[tuple[str, dict[str, Any]]] = ()


# A commit group's call: its function, arguments, answer, the transient failures it met and
# what it declared of itself.
_Call = tuple[Callable[..., Any], tuple[Any, ...], "asyncio.Future[Any]", int, ReadAhead | None]


class CommitGroup:
    """Group commit on the server's event loop: the write calls the loop's requests make in
    one pass run together, one after another, in one database transaction with one commit,
    and each request answers only once that commit is done.

    A request's write call is queued, and the first one queued in a pass schedules the
    group's run after the requests already ready to run, which queue theirs. The run runs
    every queued call, each in a savepoint of its own, commits and only then answers the
    calls.

    A call that fails (a refusal, an error) rolls back its own savepoint alone: the others
    are kept. If the commit fails, every call of the group fails with it and none of their
    writes remain (they were all in the one transaction).

    On SQLite the run first takes the writer locks (as `Database.write` does), and holds them
    for the calls and the commit alone, not for the rest of the loop's work (reading
    requests, writing responses), which matters when several server processes share the
    file: one process's requests are read and answered while another's group writes. When
    the locks are taken (another process is writing, or a thread of this one), the group
    waits for them on a thread of its own while the loop serves other requests, whose write
    calls join the waiting group. A commit writes every page its transaction changed into
    the write-ahead log; the calls of a group touch mostly the same pages (the wallets' and
    the tables' last pages, their indexes' hot pages), so one commit for all of them writes
    and later checkpoints those pages once instead of once per request.

    On PostgreSQL the calls lock their players' rows (``FOR UPDATE``), and the locks are
    held until the group commits. A call's statements travel in batches (see `store.sql`):
    its reads in one round trip, its writes and the savepoint's release wait for the next
    round trip of a later call or for the group's COMMIT. When every call of the group
    declares its scope (`ReadAhead`), the first reads of the calls whose scope no other call
    of the group shares are read ahead for them all in the group's first round trip, the
    players' locks taken in the order of their scopes; a call then finds its rows at hand
    and its writes wait with the others', so a group of calls that read ahead costs two
    round trips (the reads; the writes with the COMMIT) instead of one a call and two more.
    A round trip costs both sides a write, a wake-up and a read: on a machine of two cores it
    was dearer than most of a call's statements. The group's COMMIT (one flush of the
    write-ahead log for the whole group) is sent with its last writes, and the loop does
    not wait for it: it serves requests and runs the next group, on another connection, and
    answers the group's calls when the database answers the COMMIT (a slow flush stalls no
    one else). A call's writes that fail there fail before the COMMIT runs: that call is
    undone (its savepoint) and runs again, as do the calls whose writes were behind its, and
    the group commits after them. No thread hands a request over: while the loop waits for
    a group's reads, the other server processes and the database use the cores.
    Two processes' groups that lock the same players in opposite orders deadlock; the
    database breaks the deadlock by failing one call, which is run again in the next group
    (up to ``TRANSIENT_RETRIES`` times), as is a call that met a serialization failure.
    """

    def __init__(self, database: Database) -> None:
        self.database = database
        self.groups = 0  # transactions committed (or failed)
        self.calls = 0  # write calls run in them
        self.retried = 0  # calls run again after a deadlock or serialization failure
        # (function, args, its answer, how many times it met a transient failure)
        self._queued: list[_Call] = []
        self._scheduled = False  # a run is scheduled or waiting for the locks
        self._connection: Connection | None = None
        self._broken: BaseException | None = None
        # the running call sends its writes before it ends (it runs again because its
        # deferred writes failed: an error they meet now is its own)
        self._eager = False
        self._call: _Call | None = None  # the call running (whose writes its savepoint owns)
        self._rows: dict[Any, Any] | None = None  # the rows the group read ahead for it
        # PostgreSQL: connections that groups used, kept for the next ones (`_connect`), the
        # most recently used last, each with the time it was last released
        self._kept: list[tuple[Connection, float]] = []

    async def run(
        self,
        function: Callable[..., Any],
        *args: Any,
        writes: bool = False,
        ahead: ReadAhead | None = None,
    ) -> Any:
        """``function(*args)``; with ``writes``, run in the next group and returned (or its
        exception raised) once the group has committed. Without, run now (a read).

        ``ahead`` declares the call's scope and first reads, so that they can be read ahead
        with the other calls' (see the class); a call that declares none keeps its group
        from reading ahead. The declaration is the caller's promise: the call reads and
        writes rows of its scope alone (other calls' writes do not change what it read
        ahead), and it writes nothing before those reads."""
        if not writes:
            return function(*args)
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[Any] = loop.create_future()
        self._queue(function, args, answer, 0, ahead)
        return await answer

    def _queue(
        self,
        function: Callable[..., Any],
        args: tuple[Any, ...],
        answer: Any,
        failures: int,
        ahead: ReadAhead | None,
    ) -> None:
        self._queued.append((function, args, answer, failures, ahead))
        if not self._scheduled:
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self._start)

    def _start(self) -> None:
        """Run the queued calls now if the writer locks are free (or there are none: on
        PostgreSQL), else once a thread has taken them (the calls queued meanwhile join)."""
        if not self.database.is_sqlite or self.database._acquire_writer(blocking=False):
            self._run_queued()
            return
        loop = asyncio.get_running_loop()
        taken = loop.run_in_executor(None, self.database._acquire_writer, True)

        def locked(done: asyncio.Future[bool]) -> None:
            if done.cancelled() or done.exception() is not None:
                self._fail_queued(done.exception() or RuntimeError("the writer lock was lost"))
                return
            self._run_queued()

        taken.add_done_callback(locked)

    def _fail_queued(self, exc: BaseException) -> None:
        queued, self._queued, self._scheduled = self._queued, [], False
        for call in queued:
            if not call[2].done():
                call[2].set_exception(exc)

    def _run_queued(self) -> None:
        """The group: (on SQLite, the writer locks are held) every queued call, then the
        commit. On PostgreSQL the commit is sent and the loop goes on: the calls are answered
        when the database has committed (`_committed`)."""
        queued, self._queued, self._scheduled = self._queued, [], False
        if self.database.is_sqlite:
            self.database._writer_thread = threading.get_ident()
        self._go(queued, deque(queued), set(), [], [], None)

    def _go(
        self,
        queued: list[_Call],
        work: deque[_Call],
        eager: set[int],
        outcomes: list[tuple[asyncio.Future[Any], bool, Any]],
        again: list[_Call],
        connection: Connection | None,
    ) -> None:
        """Run ``work`` (the group's calls, ``queued``), then commit: in a new transaction,
        or, given its ``connection``, on in the group's transaction (after a call's writes
        failed with the COMMIT, see `_committed`)."""
        database = self.database
        committing = None
        kept = False  # the connection is in a good state for the next group
        try:
            if connection is None:
                connection = self._connect()
                if not database.is_sqlite:
                    sql.open_batch(connection)
                begin = True
            else:
                begin = False
            try:
                if begin:
                    connection.begin()
                self._connection, self._broken = connection, None
                token = _JOINED.set(self)
                try:
                    ahead = begin and not database.is_sqlite
                    rows = self._read_ahead(connection, queued) if ahead else {}
                    self._run_calls(connection, work, eager, rows, outcomes, again)
                finally:
                    _JOINED.reset(token)
                    self._connection = None
                if self._broken is not None:
                    raise self._broken
                batch = sql.batch_of(connection)
                waiting = [] if batch is None else batch.owners  # whose writes go with it
                try:
                    # PostgreSQL: the calls' last writes and the COMMIT, sent, not awaited
                    committing = sql.send_commit(connection)
                except Exception as exc:  # failed to send: the server never saw the COMMIT
                    if database.connection_lost(connection):
                        raise ConnectionLostError(exc) from exc
                    raise
                if committing is None:
                    connection.commit()
                    kept = True
            except BaseException:
                committing = None
                with contextlib.suppress(Exception):
                    connection.rollback()
                raise
            finally:
                if committing is None:
                    sql.close_batch(connection)
                    self._release(connection, kept)
        except ConnectionLostError as exc:  # nothing of the group can have committed
            self._run_again(queued, exc.error)
            return
        except BaseException as exc:  # the group's transaction failed: every call fails too
            self._fail(queued, exc)
            if not isinstance(exc, Exception):
                raise
            return
        finally:
            if committing is None:
                self.groups += 1
            if database.is_sqlite:
                database._release_writer()
        if committing is None:
            self._answer(outcomes, again)
            return
        loop = asyncio.get_running_loop()
        socket = committing.pgconn.socket
        sent = connection

        def readable() -> None:
            try:
                if not committing.poll():
                    return  # more to come
            except Exception as exc:  # the connection broke: the commit is not known to be done
                committing.fail(exc)
            loop.remove_reader(socket)
            self._committed(sent, committing, waiting, queued, outcomes, again)

        loop.add_reader(socket, readable)

    def _run_calls(
        self,
        connection: Connection,
        work: deque[_Call],
        eager: set[int],
        rows: dict[int, Any],
        outcomes: list[tuple[asyncio.Future[Any], bool, Any]],
        again: list[_Call],
    ) -> None:
        """Run the calls of ``work`` in order, each in its savepoint, and gather their
        outcomes (a call that met a transient failure goes to ``again``, for the next group);
        those in ``eager`` (their answers' ids) send their writes before they end, ``rows``
        holds what was read ahead for them.

        On PostgreSQL a call's writes wait for a later call's round trip (or the COMMIT).
        When they fail there, the statements after the failing one did not run: the failing
        call's savepoint is rolled back and that call runs again at once (its outcome, a
        success that did not hold, is dropped), then the calls whose writes were behind its,
        then the call whose round trip it was; a transient failure sends the failing call to
        the next group instead (after ``TRANSIENT_RETRIES`` failures the error is its
        outcome)."""
        while work:
            call = work.popleft()
            function, args, answer, _failures, _ahead = call
            if answer.done():  # its request was cancelled before the group ran
                continue
            self.calls += 1
            self._eager = id(answer) in eager
            self._call, self._rows = call, rows.pop(id(answer), None)
            try:
                outcomes.append((answer, True, function(*args)))
            except sql.EarlierCallError as exc:
                if self.database.connection_lost(connection):
                    raise ConnectionLostError(exc.error) from exc
                work.appendleft(call)  # runs again once the earlier calls are settled
                self.calls -= 1
                self._earlier_failed(exc, outcomes, again, work, eager)
            except Exception as exc:
                if self.database.connection_lost(connection):
                    # the transaction is gone with its connection: every call of the group,
                    # those that seemed done included, runs again in the next group
                    raise ConnectionLostError(exc) from exc
                if _transient(exc):
                    self._retry_or_fail(call, exc, outcomes, again)
                else:
                    outcomes.append((answer, False, exc))
            finally:
                self._eager = False
                self._call = self._rows = None

    def _read_ahead(self, connection: Connection, queued: list[_Call]) -> dict[int, Any]:
        """Read ahead, in one round trip, the first reads the group's calls declared (see
        the class): those of the calls whose scope no other call of the group shares, when
        every call declared one and at least two have reads to share the trip. The rows,
        by the id of each call's answer (`savepoint` puts them at the call's hand).

        A read that fails here (a deadlock on a player's lock, which the scopes' order makes
        rarer) leaves nothing to undo but the locks: the transaction is begun again and the
        calls read as they go."""
        declared: list[tuple[ReadAhead, int]] = []  # each call's declaration, its answer's id
        for _function, _args, answer, _failures, ahead in queued:
            if answer.done():
                continue
            if ahead is None:
                return {}
            declared.append((ahead, id(answer)))
        scopes = Counter(ahead.scope for ahead, _answer in declared)
        chosen = sorted(
            (item for item in declared if item[0].reads and scopes[item[0].scope] == 1),
            key=lambda item: item[0].scope,
        )
        batch = sql.batch_of(connection)
        if len(chosen) < 2 or batch is None:
            return {}
        for ahead, _answer in chosen:
            for statement, params in ahead.reads:
                batch.read_ahead(statement, params)
        try:
            batch.flush(connection)
        except Exception as exc:
            if self.database.connection_lost(connection):
                raise ConnectionLostError(exc) from exc
            batch.discard()
            connection.rollback()
            connection.begin()
            return {}
        found, batch.prefetched = batch.prefetched, {}
        rows: dict[int, Any] = {}
        for ahead, answer_id in chosen:
            keys = (sql.read_key(statement, params) for statement, params in ahead.reads)
            rows[answer_id] = {key: found[key] for key in keys if key in found}
        return rows

    @staticmethod
    def _earlier_failed(
        exc: sql.EarlierCallError,
        outcomes: list[tuple[asyncio.Future[Any], bool, Any]],
        again: list[_Call],
        work: deque[_Call],
        eager: set[int],
    ) -> None:
        """Writes that earlier calls left waiting failed (``exc.error``), at the first of
        ``exc.owners`` (its savepoint is rolled back): the calls before it stand; its outcome
        and the later owners', successes that did not hold, are dropped; it runs again
        first (sending its writes before it ends, so an error they meet is its own), then
        the later owners, whose writes never ran."""
        failed, *later = exc.owners
        dropped = {id(call[2]) for call in exc.owners}
        outcomes[:] = [outcome for outcome in outcomes if id(outcome[0]) not in dropped]
        work.extendleft(reversed(later))
        if _transient(exc.error):
            CommitGroup._retry_or_fail(failed, exc.error, outcomes, again)
        else:  # run again at once: e.g. its idempotency key, taken meanwhile, now answers it
            eager.add(id(failed[2]))
            work.appendleft(failed)

    def _committed(
        self,
        connection: Connection,
        committing: Any,
        waiting: list[tuple[Any, int]],
        queued: list[_Call],
        outcomes: list[tuple[asyncio.Future[Any], bool, Any]],
        again: list[_Call],
    ) -> None:
        """A PostgreSQL group's last writes and COMMIT have been answered: answer its calls.
        If a call's writes failed there (``waiting``: the batch's `sql.Batch.owners` as it
        was sent), the COMMIT did not run: that call's savepoint is rolled back,
        it and the calls behind it run again (`_earlier_failed`) and the group commits then.
        If the COMMIT itself failed, every call fails."""
        try:
            with sql.driver_errors(connection):
                committing.results()
            connection.commit()  # SQLAlchemy's account: the database has committed already
        except Exception as exc:
            failed = committing.failed_at
            if (
                failed is not None
                and waiting
                and failed < waiting[-1][1]
                and not self.database.connection_lost(connection)
                and self._roll_back_step(connection)
            ):
                work: deque[_Call] = deque()
                eager: set[int] = set()
                earlier = sql.EarlierCallError(exc, sql.behind(waiting, failed))
                self._earlier_failed(earlier, outcomes, again, work, eager)
                self._go(queued, work, eager, outcomes, again, connection)
                return
            # the COMMIT was sent: if the connection was lost, whether it committed is not
            # known, so the calls fail (a request sent again with its idempotency key is
            # answered as it was if it did)
            self.groups += 1
            with contextlib.suppress(Exception):
                connection.rollback()
            self._fail(queued, exc)
            sql.close_batch(connection)
            self._release(connection, False)
            return
        self.groups += 1
        sql.close_batch(connection)
        self._release(connection, True)
        self._answer(outcomes, again)

    def _connect(self) -> Connection:
        """A connection for the next group: on PostgreSQL the one a group used last, if it
        did within ``REUSE_WITHIN_SECONDS`` (the pool's check at checkout, a round trip, is
        then not needed: a connection lost since is found by the group, which runs its calls
        again, see `_run_again`), else one from the pool, checked as it leaves it."""
        now = time.monotonic()
        while self._kept:
            connection, idle_since = self._kept.pop()
            if now - idle_since < REUSE_WITHIN_SECONDS and not connection.invalidated:
                return connection
            with contextlib.suppress(Exception):
                connection.close()  # back to the pool, which checks it before its next use
        return self.database.engine.connect()

    def _release(self, connection: Connection, reusable: bool) -> None:
        """Keep a group's connection for the next group (PostgreSQL, a transaction that
        ended well, fewer than ``KEPT_CONNECTIONS`` kept), else return it to the pool."""
        if (
            reusable
            and not self.database.is_sqlite
            and len(self._kept) < KEPT_CONNECTIONS
            and not connection.invalidated
            and not connection.in_transaction()
        ):
            self._kept.append((connection, time.monotonic()))
            return
        with contextlib.suppress(Exception):
            connection.close()

    def close(self) -> None:
        """Return the connections kept for the next group to the pool (at shutdown)."""
        kept, self._kept = self._kept, []
        for connection, _idle_since in kept:
            with contextlib.suppress(Exception):
                connection.close()

    def _run_again(self, queued: list[_Call], error: Exception) -> None:
        """The group's connection was lost before its COMMIT was sent: nothing of it was
        committed, and its calls (none answered yet) run again in the next group, on another
        connection; a call that has met ``TRANSIENT_RETRIES`` failures fails with ``error``."""
        log.warning("the database connection was lost; %d calls run again", len(queued))
        outcomes: list[tuple[asyncio.Future[Any], bool, Any]] = []
        again: list[_Call] = []
        for call in queued:
            self._retry_or_fail(call, error, outcomes, again)
        self._answer(outcomes, again)

    @staticmethod
    def _retry_or_fail(
        call: _Call,
        error: Exception,
        outcomes: list[tuple[asyncio.Future[Any], bool, Any]],
        again: list[_Call],
    ) -> None:
        """A call that met a transient failure (``error``) goes to ``again``, for the next
        group, unless it has met ``TRANSIENT_RETRIES`` already: then ``error`` is its outcome."""
        function, args, answer, failures, ahead = call
        # a lock held past the timeout is tried once more (a deadlock between two groups is
        # settled by then); a lock another session holds for long is its request's 503
        if failures < (BUSY_RETRIES if busy(error) else TRANSIENT_RETRIES):
            again.append((function, args, answer, failures + 1, ahead))
        else:
            outcomes.append((answer, False, error))

    def _fail(self, queued: list[Any], exc: BaseException) -> None:
        for call in queued:
            if not call[2].done():
                call[2].set_exception(exc)

    def _answer(
        self, outcomes: list[tuple[asyncio.Future[Any], bool, Any]], again: list[Any]
    ) -> None:
        for answer, ok, value in outcomes:
            if answer.done():
                continue
            if ok:
                answer.set_result(value)
            else:
                answer.set_exception(value)
        for call in again:  # rolled back to their savepoints: run in the next group
            self.retried += 1
            self._queue(*call)

    @contextmanager
    def savepoint(self) -> Iterator[Connection]:
        """A call's write transaction: a savepoint in the group's transaction."""
        connection = self._connection
        assert connection is not None
        if self.database.is_sqlite:
            raw = connection.connection.driver_connection
            assert raw is not None
            raw.execute("SAVEPOINT step")
            try:
                yield connection
            except BaseException:
                try:
                    raw.execute("ROLLBACK TO step")
                    raw.execute("RELEASE step")
                except BaseException as exc:  # the transaction is unusable: the group fails
                    self._broken = exc
                raise
            raw.execute("RELEASE step")
            return
        batch = sql.batch_of(connection)
        assert batch is not None
        earlier = batch.pending
        sql.send(connection, "SAVEPOINT step")
        rows, self._rows = self._rows, None  # read ahead for the call's first transaction
        if rows:
            batch.prefetched.update(rows)
        try:
            yield connection
            sql.send(connection, "RELEASE step")
            if self._eager:
                sql.flush(connection)
        except sql.EarlierCallError:
            # the earlier call's writes failed, so neither its RELEASE nor this SAVEPOINT
            # ran: its savepoint is the innermost, and rolling back to it undoes its writes
            batch.discard()
            self._roll_back_step(connection)
            raise
        except BaseException:
            begun = not any(
                statement == "SAVEPOINT step" for statement, *_ in batch.queued[earlier:]
            )
            batch.discard()  # what the call queued and never sent
            if begun:
                self._roll_back_step(connection)
            raise
        # What the call wrote after its last round trip (and the savepoint's release) waits:
        # it goes to the server with a later call's round trip or at the group's end, and an
        # error it meets there is this call's (`EarlierCallError` names it), not the later
        # call's.
        if batch.queued:
            batch.owners.append((self._call, len(batch.queued)))

    def _roll_back_step(self, connection: Connection) -> bool:
        """Undo the innermost call's writes (its savepoint): whether it was undone. A failure
        leaves the transaction unusable, and the group fails."""
        try:
            sql.run(connection, "ROLLBACK TO step")
            sql.run(connection, "RELEASE step")
        except BaseException as exc:
            self._broken = exc
            return False
        return True


def null_pool_engine(url: str) -> Engine:
    """An engine without pooling, for one-off tools (audit verification)."""
    return create_engine(url, poolclass=NullPool, future=True)
