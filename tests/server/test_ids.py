"""Round ids: UUIDs of version 7, in the order of their time, never repeated."""

from __future__ import annotations

import uuid

from reelsmith.server.services.rounds import time_ordered_id


def test_round_ids_are_version_7_uuids_in_time_order():
    ids = [time_ordered_id(1_764_460_800_000 + ms) for ms in range(0, 5_000, 7)]
    assert ids == sorted(ids)
    for text in ids:
        parsed = uuid.UUID(text)
        assert (parsed.version, parsed.variant) == (7, uuid.RFC_4122)
        assert str(parsed) == text
    first = uuid.UUID(ids[0]).int >> 80
    assert first == 1_764_460_800_000  # the milliseconds, in the first 48 bits


def test_ids_of_one_millisecond_differ():
    ids = {time_ordered_id(1_764_460_800_000) for _ in range(10_000)}
    assert len(ids) == 10_000


def test_a_spin_gets_one(sqlite_api):
    from tests.server.forcing import TSAR_BET

    sqlite_api.login(sqlite_api.player())
    round_id = sqlite_api.spin("days-of-the-tsar", TSAR_BET).json()["round_id"]
    assert uuid.UUID(round_id).version == 7
