"""The 2-day resolver meets a round it cannot finish: that round is set aside (its failure
stored with it, logged as one JSON line, counted in the metrics, listed for the operator) and
tried again later, while every other stale round is resolved, oldest first. Both databases."""

from __future__ import annotations

import json
import logging

from sqlalchemy import text

from reelsmith.server.logs import JsonFormatter
from reelsmith.server.services.resolver import FIRST_RETRY_MS, retry_pause_ms
from tests.server.forcing import TSAR_BET, tsar_win

GAME = "days-of-the-tsar"
RESOLVE = "/operator/jobs/resolve-stale-rounds"


def open_rounds(api, count):
    """``count`` players, each with a win waiting for its collect, a minute apart: their
    round ids, oldest first."""
    found = []
    for _ in range(count):
        api.login(api.player())
        body = api.spin(GAME, TSAR_BET, tsar_win()).json()
        assert body["status"] == "open", body
        found.append(body["round_id"])
        api.clock.advance(seconds=60)
    return found


def damage(api, round_id):
    """The round's record replaced by text no title can read: the text it had."""
    with api.db.write() as connection:
        before = connection.execute(
            text("SELECT record FROM rounds WHERE id = :id"), {"id": round_id}
        ).scalar_one()
        connection.execute(
            text("UPDATE rounds SET record = '{\"damaged\": true}' WHERE id = :id"),
            {"id": round_id},
        )
    return before


def set_aside_gauge(api):
    metrics = api.op("GET", "/metrics", key=None).text
    line = next(
        row for row in metrics.splitlines() if row.startswith("reelsmith_rounds_set_aside ")
    )
    return float(line.split()[1])


def test_one_damaged_round_is_set_aside_and_the_others_are_resolved_oldest_first(api, caplog):
    rounds = open_rounds(api, 7)
    bad = rounds[2]
    record = damage(api, bad)
    api.clock.advance(days=2)
    with caplog.at_level(logging.ERROR, logger="reelsmith.server"):
        answer = api.op("POST", RESOLVE, key=None)
    assert answer.status_code == 200, answer.text
    assert answer.json() == {
        "resolved": [r for r in rounds if r != bad],
        "set_aside": [bad],
        "deferred": [],
    }
    # reported: one log line naming the round, as one JSON line with its fields
    (logged,) = [r for r in caplog.records if getattr(r, "fields", {}).get("event")]
    line = JsonFormatter().format(logged)
    assert "\n" not in line
    entry = json.loads(line)
    assert entry["event"] == "round_set_aside" and entry["round_id"] == bad
    assert entry["failures"] == 1 and "Traceback" in entry["exception"]
    # listed for the operator, and counted
    (listed,) = api.op("GET", "/operator/rounds/set-aside", key=None).json()["rounds"]
    assert listed["round_id"] == bad and listed["failures"] == 1 and listed["error"]
    assert listed["retry_ms"] == api.clock.now_ms() + FIRST_RETRY_MS
    assert set_aside_gauge(api) == 1
    # not tried again at every pass
    assert api.op("POST", RESOLVE, key=None).json()["set_aside"] == []
    # tried again after its pause: it fails again, and waits twice as long
    api.clock.advance(ms=FIRST_RETRY_MS)
    assert api.op("POST", RESOLVE, key=None).json()["set_aside"] == [bad]
    (listed,) = api.op("GET", "/operator/rounds/set-aside", key=None).json()["rounds"]
    assert listed["failures"] == 2
    assert listed["retry_ms"] == api.clock.now_ms() + 2 * FIRST_RETRY_MS
    # repaired, it is resolved at its next try and leaves the listing
    with api.db.write() as connection:
        connection.execute(
            text("UPDATE rounds SET record = :record WHERE id = :id"), {"record": record, "id": bad}
        )
    api.clock.advance(ms=2 * FIRST_RETRY_MS)
    assert api.op("POST", RESOLVE, key=None).json()["resolved"] == [bad]
    assert api.op("GET", "/operator/rounds/set-aside", key=None).json()["rounds"] == []
    assert set_aside_gauge(api) == 0
    assert api.op("GET", "/operator/ledger/verify", key=None).json()["ok"]
    assert api.op("GET", "/operator/audit/payouts", key=None).json()["ok"]


def test_a_round_of_a_title_no_longer_served_is_set_aside_not_a_500(api):
    rounds = open_rounds(api, 3)
    with api.db.write() as connection:
        connection.execute(
            text("UPDATE rounds SET game = 'a-title-taken-away' WHERE id = :id"), {"id": rounds[0]}
        )
    api.clock.advance(days=2)
    answer = api.op("POST", RESOLVE, key=None)
    assert answer.status_code == 200, answer.text
    assert answer.json()["resolved"] == rounds[1:]
    assert answer.json()["set_aside"] == [rounds[0]]
    (listed,) = api.op("GET", "/operator/rounds/set-aside", key=None).json()["rounds"]
    assert "a-title-taken-away" in listed["error"]


def test_the_pause_doubles_up_to_a_day():
    assert [retry_pause_ms(n) // 60_000 for n in (1, 2, 3, 4)] == [10, 20, 40, 80]
    assert retry_pause_ms(40) == 86_400_000
