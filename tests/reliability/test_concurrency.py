"""Concurrency: one player from several connections at once never overdraws and no round is
settled twice; per-player serialisation holds on SQLite, on PostgreSQL, and with two server
processes sharing one database (one SQLite file, whose writers queue on its file lock, or one
PostgreSQL database: the scale-out path).

Each test fires its requests from separate connections released together by a barrier.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.reliability import figures
from tests.reliability.live import (
    OPERATOR_KEY,
    PG_URL,
    TSAR,
    TSAR_BET,
    Client,
    LiveServer,
    new_player,
    pg_schema,
)
from tests.reliability.money import ClientRecord, check_all
from tests.server.forcing import tsar_free_no_egg, tsar_no_win, tsar_trigger, tsar_win

WAYS = ["sqlite", "sqlite-2-servers", "postgresql", "postgresql-2-servers"]


class Cluster:
    """One or more live servers over one database, and what the tests did on it."""

    def __init__(self, database_url: str, servers: list[LiveServer]) -> None:
        self.database_url = database_url
        self.servers = servers
        self.urls = [s.url for s in servers]
        self.records: list[ClientRecord] = []
        self.client = Client(self.urls)

    def player(self, deposit_minor: int) -> ClientRecord:
        record = new_player(self.client, deposit_minor)
        self.records.append(record)
        return record


@pytest.fixture(scope="module", params=WAYS)
def cluster(request: pytest.FixtureRequest, tmp_path_factory: Any) -> Iterator[Cluster]:
    """The servers stay up for the module; every test adds players; the money checks run on
    all of them at the end."""
    tmp = tmp_path_factory.mktemp(request.param)
    if request.param.startswith("sqlite"):
        count = 2 if "2" in request.param else 1
        with run_cluster(f"sqlite:///{tmp}/concurrency.db", tmp, count) as found:
            yield found
        return
    if not PG_URL:
        pytest.skip("needs REELSMITH_TEST_DATABASE_URL")
    with pg_schema() as url, run_cluster(url, tmp, 2 if "2" in request.param else 1) as found:
        yield found


class run_cluster:  # noqa: N801 - a context manager used like a function
    def __init__(self, url: str, tmp: Path, count: int) -> None:
        self.url, self.tmp, self.count = url, tmp, count

    def __enter__(self) -> Cluster:
        self.servers = [LiveServer(self.url, self.tmp) for _ in range(self.count)]
        try:
            for server in self.servers:  # started together on a fresh database
                server.spawn()
            for server in self.servers:
                server.wait_ready()
        except BaseException:
            for server in self.servers:
                server.stop()
            raise
        self.cluster = Cluster(self.url, self.servers)
        return self.cluster

    def __exit__(self, *exc: object) -> None:
        try:
            if exc[0] is None:
                self.cluster.client.clients[0].headers.clear()
                report = check_all(
                    self.url, self.cluster.client, OPERATOR_KEY, self.cluster.records
                )
                figures.add("scenarios")
                figures.add("players_checked", len(self.cluster.records))
                figures.add("discrepancies", report.discrepancies)
                assert report.problems == [], report.problems[:10]
        finally:
            self.cluster.client.close()
            for server in self.servers:
                server.stop()


def together(count: int, urls: list[str], call: Callable[[httpx.Client, int], Any]) -> list[Any]:
    """Run ``call`` on ``count`` separate connections released at the same moment (connection
    ``i`` goes to server ``i mod len(urls)``)."""
    barrier = threading.Barrier(count)
    results: list[Any] = [None] * count

    def run(i: int) -> None:
        with httpx.Client(base_url=urls[i % len(urls)], timeout=60) as client:
            client.get("/healthz")
            barrier.wait()
            results[i] = call(client, i)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    figures.add("requests", count)
    return results


def auth(record: ClientRecord, key: str | None = None) -> dict[str, str]:
    headers = {"Authorization": f"Bearer {record.token}"}
    headers["Idempotency-Key"] = key or httpx.__name__ + str(threading.get_ident()) + str(id(key))
    return headers


def test_two_servers_start_together_on_a_fresh_database(cluster):
    """Both processes migrated and prepared the same fresh database at the same time."""
    for url in cluster.urls:
        assert httpx.get(f"{url}/healthz").status_code == 200


def test_spins_from_many_connections_never_overdraw(cluster):
    """Ten bets' worth of balance, 24 losing spins at once: exactly ten are played."""
    record = cluster.player(10 * 25)
    body = {"bet": TSAR_BET, "forced_draws": tsar_no_win()}

    def spin(client: httpx.Client, i: int) -> httpx.Response:
        return client.post(f"/api/games/{TSAR}/spin", json=body, headers=auth(record, f"spin-{i}"))

    responses = together(24, cluster.urls, spin)
    played = [r for r in responses if r.status_code == 200]
    assert len(played) == 10, [r.status_code for r in responses]
    assert {r.status_code for r in responses} == {200, 402}
    for r in played:
        record.saw_round(r.json(), TSAR)
    balances = sorted(r.json()["balance"]["minor"] for r in played)
    assert balances == [25 * i for i in range(10)]  # each spin saw the one before it


def test_the_same_key_from_many_connections_plays_once(cluster):
    record = cluster.player(10_000)
    body = {"bet": TSAR_BET, "forced_draws": tsar_no_win()}

    def spin(client: httpx.Client, _i: int) -> httpx.Response:
        return client.post(f"/api/games/{TSAR}/spin", json=body, headers=auth(record, "same"))

    responses = together(12, cluster.urls, spin)
    assert {r.status_code for r in responses} == {200}
    assert len({r.text for r in responses}) == 1
    record.saw_round(responses[0].json(), TSAR)
    assert responses[0].json()["balance"]["minor"] == 10_000 - 25


def test_concurrent_collects_pay_once(cluster):
    record = cluster.player(10_000)
    client = cluster.client
    response = client.request(
        "POST",
        f"/api/games/{TSAR}/spin",
        {"bet": TSAR_BET, "forced_draws": tsar_win()},
        headers={"Authorization": f"Bearer {record.token}"},
    )
    opened = response.json()
    record.saw_round(opened, TSAR)
    path = f"/api/games/{TSAR}/rounds/{opened['round_id']}"

    def collect(c: httpx.Client, i: int) -> httpx.Response:
        if i % 2:
            return c.post(f"{path}/gamble", json={"choice": "red"}, headers=auth(record, f"g{i}"))
        return c.post(f"{path}/collect", json={}, headers=auth(record, f"c{i}"))

    responses = together(10, cluster.urls, collect)
    codes = sorted(r.status_code for r in responses)
    assert codes.count(200) >= 1 and set(codes) <= {200, 409}, codes
    finals = [r.json() for r in responses if r.status_code == 200]
    for body in finals:
        record.saw_round(body, TSAR)
    last = max(finals, key=lambda b: len(b["round"]["actions"]))
    record.saw_round(last, TSAR)
    if last["status"] == "open":  # a gamble won and was not collected: collect it now
        done = client.request("POST", f"{path}/collect", {}, headers=auth(record))
        record.saw_round(done.json(), TSAR)


def test_concurrent_free_spins_play_each_spin_once(cluster):
    record = cluster.player(10_000)
    client = cluster.client
    opened = client.request(
        "POST",
        f"/api/games/{TSAR}/spin",
        {"bet": TSAR_BET, "forced_draws": tsar_trigger()},
        headers={"Authorization": f"Bearer {record.token}"},
    ).json()
    record.saw_round(opened, TSAR)
    awarded = opened["round"]["free_spins_remaining"]
    path = f"/api/games/{TSAR}/rounds/{opened['round_id']}"
    free = {"forced_draws": tsar_free_no_egg()}

    def free_spin(c: httpx.Client, i: int) -> httpx.Response:
        return c.post(f"{path}/free-spin", json=free, headers=auth(record, f"f{i}"))

    responses = together(awarded + 6, cluster.urls, free_spin)
    played = [r.json() for r in responses if r.status_code == 200]
    assert len(played) == awarded, sorted(r.status_code for r in responses)
    assert {r.status_code for r in responses} <= {200, 409}
    final = max(played, key=lambda b: len(b["round"]["spins"]))
    assert len(final["round"]["spins"]) == awarded + 1
    record.saw_round(final, TSAR)
    if final["status"] == "open":
        done = client.request("POST", f"{path}/collect", {}, headers=auth(record))
        record.saw_round(done.json(), TSAR)


def test_deposits_withdrawals_and_spins_interleaved(cluster):
    """Operator money and player spins on one wallet at once: the wallet never goes below
    zero and every confirmed movement is in the ledger (checked at the end of the module)."""
    record = cluster.player(500)

    def act(c: httpx.Client, i: int) -> tuple[str, httpx.Response]:
        op = {"X-API-Key": OPERATOR_KEY, "Idempotency-Key": f"op-{record.player_id}-{i}"}
        if i % 3 == 0:
            path = f"/operator/players/{record.player_id}/deposit"
            return "deposit", c.post(path, json={"amount": "1.00"}, headers=op)
        if i % 3 == 1:
            path = f"/operator/players/{record.player_id}/withdraw"
            return "withdraw", c.post(path, json={"amount": "2.00"}, headers=op)
        body = {"bet": TSAR_BET, "forced_draws": tsar_no_win()}
        return "spin", c.post(f"/api/games/{TSAR}/spin", json=body, headers=auth(record, f"s{i}"))

    for kind, response in together(18, cluster.urls, act):
        assert response.status_code in (200, 402), response.text
        if response.status_code != 200:
            continue
        if kind == "deposit":
            record.deposits_minor += 100
        elif kind == "withdraw":
            record.withdrawals_minor += 200
        else:
            record.saw_round(response.json(), TSAR)
