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
