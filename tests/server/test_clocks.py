"""Hosts whose clocks disagree: the minimum time between a GB player's rounds never holds a
player up for the clocks' difference, a token issued by a host ahead does not outlive its
lifetime elsewhere, and on PostgreSQL the server's clock is the database's, so a host whose
wall clock is days ahead neither stamps nor resolves rounds by it."""

from __future__ import annotations

import time
import warnings
from contextlib import ExitStack

import pytest
from sqlalchemy import text

from reelsmith.server.app import create_app
from reelsmith.server.clock import DatabaseClock, ManualClock
from reelsmith.server.services.rounds import min_round_wait
from reelsmith.server.settings import Settings
from reelsmith.server.tokens import CLOCK_TOLERANCE_MS
from tests.server.conftest import OPERATOR_KEY, SECRET, Api, app_over, drop_schema, make_database
from tests.server.forcing import tsar_no_win

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

GAME = "days-of-the-tsar"
GB_BET = {"lines": 25, "coins_per_line": 1, "coin_size": "0.01"}
DAY, MINUTE = 86_400_000, 60_000
START = ManualClock().now_ms()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request, tmp_path):
    db, schema = make_database(request.param, tmp_path)
    try:
        yield db
    finally:
        db.dispose()
        if schema:
            drop_schema(schema)


class Hosts:
    """Two servers over one database, each with its own clock."""

    def __init__(self, db, stack, offsets):
        self.db = db
        self.apis = []
        for offset in offsets:
            clock = ManualClock(START + offset)
            client = stack.enter_context(
                TestClient(app_over(db, clock), raise_server_exceptions=False)
            )
            self.apis.append(Api(client, clock, db))

    def advance(self, ms):
        for api in self.apis:
            api.clock.advance(ms=ms)


@pytest.mark.parametrize(
    ("first", "second"),
    [(3 * DAY, 0), (0, -DAY), (0, -5 * MINUTE)],
    ids=["first-host-3-days-ahead", "second-host-a-day-behind", "second-host-set-back-5-min"],
)
def test_a_gb_round_waits_at_most_the_rule_whatever_the_clocks(database, first, second):
    with ExitStack() as stack:
        hosts = Hosts(database, stack, [first, second])
        one, two = hosts.apis
        player = one.player(market="gb", deposit="20.00")
        one.login(player)
        assert one.spin(GAME, GB_BET, tsar_no_win()).status_code == 200
        hosts.advance(3000)
        two.login(player)
        played = two.spin(GAME, GB_BET, tsar_no_win())
        assert played.status_code == 200, (played.status_code, played.headers, played.text)
        # the rule itself still holds on one host
        hosts.advance(1000)
        refused = two.spin(GAME, GB_BET, tsar_no_win())
        assert refused.status_code == 429 and refused.json()["code"] == "min_round_duration"
        assert int(refused.headers["Retry-After"]) <= 3


def test_the_wait_is_never_longer_than_the_rule():
    rule = 2500
    for last, now in [(0, 1000), (5000, 4000), (10 * DAY, 0), (0, 10 * DAY), (3000, 500)]:
        assert 0 <= min_round_wait(rule, last, now) <= rule
    assert min_round_wait(rule, 0, 1000) == 1500
    assert min_round_wait(rule, 1000, 0) == rule  # a stamp a second ahead: jitter
    assert min_round_wait(rule, 3 * DAY, 0) == 0  # only a clock that disagreed wrote it
    assert min_round_wait(0, 0, 0) == 0 and min_round_wait(rule, None, 0) == 0


def test_a_token_from_a_host_ahead_does_not_outlive_its_lifetime(database):
    with ExitStack() as stack:
        ahead, right = Hosts(database, stack, [3 * DAY, 0]).apis
        player = ahead.player()
        token = ahead.login(player)
        refused = right.as_player("GET", "/api/me", token=token)
        assert refused.status_code == 401 and refused.json()["code"] == "session_expired"
        assert "clock" in refused.json()["message"]
        assert right.as_player("GET", "/api/me", token=right.login(player)).status_code == 200


def test_a_token_from_a_host_slightly_ahead_is_taken(database):
    with ExitStack() as stack:
        ahead, right = Hosts(database, stack, [CLOCK_TOLERANCE_MS // 2, 0]).apis
        token = ahead.login(ahead.player())
        assert right.as_player("GET", "/api/me", token=token).status_code == 200


def test_the_database_clock_counts_on_a_monotonic_clock_and_reads_again():
    readings = iter([1_000_000, 1_070_000, 999_000])
    monotonic = [0]
    clock = DatabaseClock(
        lambda: next(readings), refresh_seconds=60, monotonic_ns=lambda: monotonic[0]
    )
    assert clock.now_ms() == 1_000_000
    monotonic[0] = 30 * 10**9
    assert clock.now_ms() == 1_030_000  # counted on, no read
    monotonic[0] = 61 * 10**9
    assert clock.now_ms() == 1_070_000  # read again
    monotonic[0] = 100 * 10**9
    assert clock.now_ms() == 1_109_000
    monotonic[0] = 200 * 10**9
    assert clock.now_ms() == 1_109_000  # 999_000 read: it never goes back


def test_the_database_clock_counts_on_when_the_database_cannot_be_read():
    calls = []

    def read():
        calls.append(1)
        if len(calls) > 1:
            raise ConnectionError("gone")
        return 5_000

    monotonic = [0]
    clock = DatabaseClock(
        read, refresh_seconds=1, retry_seconds=10, monotonic_ns=lambda: monotonic[0]
    )
    assert clock.now_ms() == 5_000
    monotonic[0] = 2 * 10**9
    assert clock.now_ms() == 7_000
    monotonic[0] = 3 * 10**9
    assert clock.now_ms() == 8_000 and len(calls) == 2  # not read again before 10 s
    with pytest.raises(ConnectionError):
        DatabaseClock(read).now_ms()


def test_a_host_days_ahead_stamps_and_resolves_by_the_database_clock(tmp_path, monkeypatch):
    """PostgreSQL: a server on a host whose wall clock is 3 days ahead stamps its rounds with
    the database's time and does not resolve a round opened a moment ago."""
    db, schema = make_database("postgresql", tmp_path)
    try:
        real_ns = time.time_ns
        monkeypatch.setattr(time, "time_ns", lambda: real_ns() + 3 * DAY * 1_000_000)
        monkeypatch.setattr(time, "time", lambda: real_ns() / 1e9 + 3 * DAY / 1000)
        settings = Settings.load(secret_key=SECRET, operator_api_key=OPERATOR_KEY, dev_mode=True)
        app = create_app(settings, database=db, run_resolver=False)
        assert isinstance(app.state.clock, DatabaseClock)
        with TestClient(app, raise_server_exceptions=False) as client:
            api = Api(client, ManualClock(), db)
            api.login(api.player())
            body = api.spin(GAME, {"lines": 25, "coins_per_line": 1, "coin_size": "0.01"}).json()
            resolved = api.op("POST", "/operator/jobs/resolve-stale-rounds", key=None).json()
            assert resolved["resolved"] == []
        with db.read() as connection:
            stamped, database_now = connection.execute(
                text(
                    "SELECT created_ms, (extract(epoch FROM clock_timestamp()) * 1000)::bigint"
                    " FROM rounds WHERE id = :id"
                ),
                {"id": body["round_id"]},
            ).one()
        assert abs(database_now - stamped) < MINUTE
    finally:
        db.dispose()
        if schema:
            drop_schema(schema)
