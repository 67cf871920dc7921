"""Faults beyond the process: clocks that disagree between hosts, another session holding a
player's row, market files edited or removed with rounds open, a damaged round record. Each
scenario runs real servers (in this process) over one database, SQLite and PostgreSQL, plays,
finishes every round, and ends with every money check, the payout re-derivation from the
recorded draws included (`tests.reliability.money`)."""

from __future__ import annotations

import shutil
import threading
import time
import warnings
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from reelsmith.server.clock import ManualClock
from reelsmith.server.markets import MARKETS_DIR
from reelsmith.store.db import Database
from tests.reliability import figures
from tests.reliability.money import ClientRecord, check_all
from tests.server.conftest import OPERATOR_KEY, PG_URL, Api, app_over, drop_schema, make_database
from tests.server.forcing import tsar_no_win, tsar_trigger, tsar_win

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

TSAR = "days-of-the-tsar"
DAY = 86_400_000
CURRENCY = {"default": "EUR", "gb": "GBP", "jp": "JPY"}
BETS = {
    "default": {"lines": 25, "coins_per_line": 1, "coin_size": "0.01"},
    "gb": {"lines": 25, "coins_per_line": 1, "coin_size": "0.01"},
    "jp": {"lines": 25, "coins_per_line": 1, "coin_size": "1"},
}
DEPOSIT = {"default": ("20.00", 2000), "gb": ("20.00", 2000), "jp": ("10000", 10000)}


class Deployment:
    """One database and one folder of market files; servers over them, each with its own
    clock (its host's), started and stopped as an operator would."""

    def __init__(self, db: Database, url: str, markets: Path, stack: ExitStack) -> None:
        self.db = db
        self.url = url  # for the money checks' own connection
        self.markets = markets
        self.stack = stack

    def host(self, offset_ms: int = 0, start_ms: int | None = None) -> Api:
        clock = ManualClock((start_ms or ManualClock().now_ms()) + offset_ms)
        app = app_over(self.db, clock, markets_dir=str(self.markets), history_limit=100_000)
        client = self.stack.enter_context(TestClient(app, raise_server_exceptions=False))
        return Api(client, clock, self.db)


@pytest.fixture(params=["sqlite", "postgresql"])
def deployment(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Deployment]:
    db, schema = make_database(request.param, tmp_path)
    if schema is None:
        url = db.url.render_as_string(hide_password=False)
    else:
        url = f"{PG_URL}{'&' if '?' in (PG_URL or '') else '?'}options=-csearch_path%3D{schema}"
    markets = tmp_path / "markets"
    shutil.copytree(MARKETS_DIR, markets)
    try:
        with ExitStack() as stack:
            yield Deployment(db, url, markets, stack)
    finally:
        db.dispose()
        if schema:
            drop_schema(schema)


def new_player(api: Api, market: str) -> ClientRecord:
    amount, minor = DEPOSIT[market]
    record = ClientRecord(api.player(market=market, deposit=amount))
    record.deposits_minor = minor
    return record


def step(api: Api, record: ClientRecord, response: Any) -> Any:
    if response.status_code == 200:
        record.saw_round(response.json(), TSAR)
    return response


def spin(api: Api, record: ClientRecord, market: str, draws: list[int], **extra: Any) -> Any:
    api.token = api.login(record.player_id)
    return step(api, record, api.spin(TSAR, BETS[market], draws, **extra))


def collect(api: Api, record: ClientRecord, round_id: str) -> Any:
    api.token = api.login(record.player_id)
    return step(api, record, api.act(TSAR, round_id, "collect"))


def finish_and_check(deployment: Deployment, api: Api, records: list[ClientRecord], label: str):
    """Every open round resolved after the delay, then every money check."""
    api.clock.advance(ms=2 * DAY + 1000)
    answer = api.op("POST", "/operator/jobs/resolve-stale-rounds", key=None)
    assert answer.status_code == 200, answer.text
    assert answer.json()["set_aside"] == [], answer.json()
    for record in records:
        record.token = api.login(record.player_id)
    report = check_all(deployment.url, api.client, OPERATOR_KEY, records)
    assert report.discrepancies == 0, report.problems[:10]
    payouts = api.op("GET", "/operator/audit/payouts", key=None).json()
    assert payouts["ok"], payouts
    kind = "sqlite" if deployment.db.is_sqlite else "postgresql"
    figures.note(
        "fault scenarios",
        f"{label} ({kind}): {report.players} players, {report.rounds} rounds, {payouts['checked']}"
        f" payouts re-derived from their draws, {report.discrepancies} discrepancies",
    )
    return answer.json()


@pytest.mark.parametrize("offsets", [(0, 3 * DAY, -DAY, -5 * 60_000)], ids=["4-hosts"])
def test_clocks_that_disagree(deployment, offsets):
    """Four hosts, one right, one 3 days ahead, one a day behind, one 5 minutes behind; GB and
    euro players play from one host to the next, 3 s apart: none is held up for the clocks'
    difference, and the money holds."""
    hosts = [deployment.host(offset) for offset in offsets]
    records = [(new_player(hosts[0], market), market) for market in ("gb", "gb", "default")]
    refused = waits = 0
    for turn in range(12):
        for number, (record, market) in enumerate(records):
            api = hosts[(turn + number) % len(hosts)]
            draws = [tsar_no_win(), tsar_win(), tsar_trigger()][turn % 3]
            answer = spin(api, record, market, draws, gamble=False)
            if answer.status_code == 429:
                refused += 1
                waits = max(waits, int(answer.headers["Retry-After"]))
                continue
            assert answer.status_code == 200, answer.text
            body = answer.json()
            while body["status"] == "open":  # free spins: played on the next host
                api = hosts[(turn + number + 1) % len(hosts)]
                api.token = api.login(record.player_id)
                body = step(api, record, api.act(TSAR, body["round_id"], "free-spin")).json()
        for api in hosts:
            api.clock.advance(ms=3000)
    assert refused == 0 and waits == 0
    kind = "sqlite" if deployment.db.is_sqlite else "postgresql"
    figures.note(
        "fault scenarios",
        f"clock skew ({kind}): 0 of 36 GB and euro spins held up, hosts at"
        f" {', '.join(f'{o / 1000:+.0f} s' for o in offsets)}",
    )
    finish_and_check(deployment, hosts[0], [r for r, _ in records], "clock skew")


def test_a_row_held_by_another_session(deployment):
    """PostgreSQL: another session holds a player's row for 1.5 s, three times, while that
    player and another play: the held player's requests are answered 503 and sent again with
    their keys once it is released; the other player is never refused."""
    if deployment.db.is_sqlite:
        pytest.skip("row locks are PostgreSQL's")
    api = deployment.host()
    held, free = new_player(api, "default"), new_player(api, "default")
    busy = 0
    for _ in range(3):
        api.token = api.login(held.player_id)  # a session's issue locks the player too
        holder = deployment.db.engine.connect()
        holder.execute(
            text("SELECT * FROM players WHERE id = :id FOR UPDATE"), {"id": held.player_id}
        )
        release = threading.Timer(1.5, holder.close)
        release.start()
        key = api.key()
        token = api.token
        while True:
            answer = api.as_player(
                "POST",
                f"/api/games/{TSAR}/spin",
                {"bet": BETS["default"], "gamble": False},
                key=key,
                token=token,
            )
            if answer.status_code != 503:
                break
            busy += 1
            assert answer.json()["code"] == "database_busy"
            other = spin(api, free, "default", tsar_no_win())
            assert other.status_code == 200, other.text
            time.sleep(int(answer.headers["Retry-After"]) / 2)
        assert answer.status_code == 200, answer.text
        step(api, held, answer)
        release.join()
    assert busy >= 3
    figures.note("fault scenarios", f"row locks: {busy} requests answered 503, each sent again")
    finish_and_check(deployment, api, [held, free], "row locks")


def _tsar_out_of(markets: Path, market: str) -> None:
    path = markets / f"{market}.toml"
    body = path.read_text(encoding="utf-8")
    start = body.index("[games.days-of-the-tsar]")
    end = body.find("\n[", start + 1)
    path.write_text(body[:start] + (body[end + 1 :] if end >= 0 else ""), encoding="utf-8")


def test_market_files_removed_and_edited_with_rounds_open(deployment):
    """Rounds open in GB and Japan; the operator removes gb.toml, takes the title out of
    Japan and reprices nothing else; after a restart half the rounds are collected by their
    players, the rest resolved after the delay, the GB players paid out in full."""
    first = deployment.host()
    records, opened = [], []
    for market in ("gb", "gb", "jp", "jp"):
        record = new_player(first, market)
        body = spin(first, record, market, tsar_win(), gamble=True).json()
        assert body["status"] == "open", body
        records.append((record, market))
        opened.append(body["round_id"])
    (deployment.markets / "gb.toml").unlink()
    _tsar_out_of(deployment.markets, "jp")
    again = deployment.host(start_ms=first.clock.now_ms() + 60_000)
    for (record, _market), round_id in list(zip(records, opened, strict=True))[::2]:
        assert collect(again, record, round_id).status_code == 200
    resolved = finish_and_check(deployment, again, [r for r, _ in records], "market files")
    assert sorted(resolved["resolved"]) == sorted(opened[1::2])
    for record, market in records:
        if market == "gb":
            balance = again.balance(record.player_id)
            out = again.op(
                "POST",
                f"/operator/players/{record.player_id}/withdraw",
                {"amount": f"{balance // 100}.{balance % 100:02d}"},
            )
            assert out.status_code == 200, out.text
            record.withdrawals_minor += balance
            assert again.balance(record.player_id) == 0
    report = check_all(deployment.url, again.client, OPERATOR_KEY, [r for r, _ in records])
    assert report.discrepancies == 0, report.problems[:10]


def test_a_damaged_round_record(deployment):
    """One of five stale rounds has a damaged record: the other four are resolved, it is set
    aside; repaired, it is resolved at its next try, and the money holds."""
    api = deployment.host()
    records, opened = [], []
    for _ in range(5):
        record = new_player(api, "default")
        body = spin(api, record, "default", tsar_win(), gamble=True).json()
        records.append(record)
        opened.append(body["round_id"])
        api.clock.advance(ms=1000)
    with deployment.db.write() as connection:
        saved = connection.execute(
            text("SELECT record FROM rounds WHERE id = :id"), {"id": opened[1]}
        ).scalar_one()
        connection.execute(
            text("UPDATE rounds SET record = '{}' WHERE id = :id"), {"id": opened[1]}
        )
    api.clock.advance(ms=2 * DAY + 1000)
    first = api.op("POST", "/operator/jobs/resolve-stale-rounds", key=None).json()
    assert first["resolved"] == [opened[0], *opened[2:]] and first["set_aside"] == [opened[1]]
    with deployment.db.write() as connection:
        connection.execute(
            text("UPDATE rounds SET record = :r WHERE id = :id"), {"r": saved, "id": opened[1]}
        )
    api.clock.advance(ms=10 * 60_000)
    finish_and_check(deployment, api, records, "damaged record")
