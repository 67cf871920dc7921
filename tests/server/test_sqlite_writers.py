"""SQLite's writer lock: writers from separate processes (here: separate Database objects,
each with its own open file, which is what ``flock`` tells apart) queue one after another."""

from __future__ import annotations

import fcntl
import os
import threading

import pytest
from sqlalchemy import text

from reelsmith.store.db import Database


def test_a_second_writer_waits_for_the_first_to_commit(tmp_path):
    url = f"sqlite:///{tmp_path}/writers.db"
    first, second = Database(url), Database(url)
    first.migrate()
    second.migrate()  # the schema is already there: nothing to do, no lock left behind
    with first.write() as connection:
        connection.execute(text("CREATE TABLE marks (who TEXT)"))
    order: list[str] = []
    inside = threading.Event()
    release = threading.Event()

    def hold() -> None:
        with first.write() as connection:
            connection.execute(text("INSERT INTO marks VALUES ('first')"))
            inside.set()
            release.wait(5)
            order.append("first commits")

    def follow() -> None:
        inside.wait(5)
        with second.write() as connection:
            order.append("second writes")
            seen = connection.execute(text("SELECT count(*) FROM marks")).scalar_one()
            order.append(f"second sees {seen}")

    holder = threading.Thread(target=hold)
    follower = threading.Thread(target=follow)
    holder.start()
    follower.start()
    inside.wait(5)
    follower.join(0.3)
    assert follower.is_alive() and order == []  # the second writer is still waiting
    # it waits on the file lock every process shares, not in SQLite's sleeping busy handler
    probe = os.open(f"{tmp_path}/writers.db-writer", os.O_RDWR)
    with pytest.raises(BlockingIOError):
        fcntl.flock(probe, fcntl.LOCK_EX | fcntl.LOCK_NB)
    os.close(probe)
    release.set()
    holder.join(5)
    follower.join(5)
    assert order == ["first commits", "second writes", "second sees 1"]
    first.dispose()
    second.dispose()


def test_the_checkpointer_copies_the_log_and_the_log_starts_over(tmp_path):
    """Writes that never pause, with the checkpointer running: the log is copied into the
    database file as it goes and starts over, never growing far past SQLite's mark."""
    from reelsmith.store.db import WAL_CHECKPOINT_PAGES

    database = Database(f"sqlite:///{tmp_path}/busy.db")
    with database.write() as connection:
        connection.execute(text("CREATE TABLE rows (id INTEGER PRIMARY KEY, data BLOB)"))
    checkpointer = database.checkpointer()
    assert checkpointer is not None
    checkpointer.start()
    wal = tmp_path / "busy.db-wal"
    largest = 0
    try:
        # about 3 x the mark in pages: 12,000 rows of 4 KB, 40 rows per transaction
        for _batch in range(300):
            with database.write() as connection:
                connection.execute(
                    text("INSERT INTO rows (data) VALUES (randomblob(4000))"),
                    [{}] * 40,
                )
            largest = max(largest, wal.stat().st_size)
    finally:
        checkpointer.stop()
    assert checkpointer.passes > 0 and checkpointer.failures == 0
    page = 4096 + 24  # a WAL frame: the page and its header
    # past the mark by a few transactions at most (a commit whose own checkpoint finds the
    # checkpointer's running leaves the restart to the next one); without restarts the log
    # would hold all 12,000 pages
    assert largest <= 2 * WAL_CHECKPOINT_PAGES * page, largest // page
    with database.read() as connection:
        assert connection.execute(text("SELECT count(*) FROM rows")).scalar_one() == 12_000
    pages, copied = database.checkpoint()
    assert copied == pages  # nothing left behind
    database.dispose()


def test_sqlite_connections_read_through_a_memory_map(tmp_path):
    """Every connection maps the file (MMAP_BYTES): after another process's commit drops a
    connection's page cache, it refills from the map rather than by a read call per page."""
    from reelsmith.store.db import MMAP_BYTES

    database = Database(f"sqlite:///{tmp_path}/mapped.db")
    try:
        with database.read() as connection:
            mapped = connection.execute(text("PRAGMA mmap_size")).scalar_one()
        assert mapped == MMAP_BYTES > 0
    finally:
        database.dispose()


def test_no_checkpoint_runs_beside_a_writer(tmp_path):
    """A checkpoint holds the writer locks: with a writer's transaction open it waits (or,
    asked not to wait, does nothing) and runs once the writer has committed, so no checkpoint
    ever runs while a commit may start the log over."""
    import threading

    database = Database(f"sqlite:///{tmp_path}/serial.db")
    try:
        with database.write() as connection:
            connection.execute(text("CREATE TABLE t (x INTEGER)"))
        done = threading.Event()
        found: list[object] = []
        with database.write() as connection:
            connection.execute(text("INSERT INTO t VALUES (1)"))
            assert database.checkpoint(wait=False) is None
            waiting = threading.Thread(
                target=lambda: (found.append(database.checkpoint()), done.set())
            )
            waiting.start()
            assert not done.wait(0.5), "a checkpoint ran while a writer held its transaction"
        assert done.wait(10), "the checkpoint did not run once the writer committed"
        waiting.join()
        pages, copied = found[0]  # type: ignore[misc]
        assert pages == copied > 0
    finally:
        database.dispose()
