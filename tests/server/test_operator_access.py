"""Operator access: ``/metrics`` needs the operator key (or the metrics token), and wrong keys
are throttled per client address (429 with Retry-After) on the server's clock."""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.conftest import OPERATOR_KEY, build


@pytest.fixture
def guarded(tmp_path: Any) -> Any:
    yield from build("sqlite", tmp_path, metrics_token="scrape-me", operator_failures_burst=5)


def test_metrics_need_the_operator_key_or_the_metrics_token(guarded):
    """Regression: /metrics (bets, wins, RTP per game) was open to anyone."""
    client = guarded.client
    for headers in ({}, {"X-API-Key": "wrong"}, {"Authorization": "Bearer wrong"}):
        response = client.get("/metrics", headers=headers)
        assert response.status_code == 401 and response.json()["code"] == "invalid_api_key"
    assert client.get("/metrics", headers={"X-API-Key": OPERATOR_KEY}).status_code == 200
    scraped = client.get("/metrics", headers={"Authorization": "Bearer scrape-me"})
    assert scraped.status_code == 200 and "reelsmith" in scraped.text


def test_metrics_token_is_off_unless_set(api):
    assert api.client.get("/metrics", headers={"Authorization": "Bearer "}).status_code == 401
    assert api.client.get("/metrics", headers={"X-API-Key": OPERATOR_KEY}).status_code == 200


def test_wrong_operator_keys_are_throttled_per_address(guarded):
    """Regression: 300 wrong operator keys in 0.2 s all got 401, none 429."""
    client = guarded.client
    codes = [
        client.get("/operator/ledger/verify", headers={"X-API-Key": f"guess-{i}"}).status_code
        for i in range(8)
    ]
    assert codes == [401] * 5 + [429] * 3
    # while throttled, the right key gets 429 too: a right guess looks like a wrong one
    response = client.get("/operator/ledger/verify", headers={"X-API-Key": OPERATOR_KEY})
    assert response.status_code == 429 and response.json()["code"] == "too_many_failures"
    assert response.headers["Retry-After"] == "1"
    assert client.get("/metrics", headers={"X-API-Key": OPERATOR_KEY}).status_code == 429
    # another address is not throttled
    from fastapi.testclient import TestClient

    with TestClient(client.app, client=("192.0.2.7", 5000)) as other:
        ok = other.get("/operator/ledger/verify", headers={"X-API-Key": OPERATOR_KEY})
        assert ok.status_code == 200
    guarded.clock.advance(seconds=1)  # one failure refilled
    response = client.get("/operator/ledger/verify", headers={"X-API-Key": OPERATOR_KEY})
    assert response.status_code == 200
    # right keys cost nothing
    for _ in range(20):
        assert (
            client.get("/operator/ledger/verify", headers={"X-API-Key": OPERATOR_KEY}).status_code
            == 200
        )
