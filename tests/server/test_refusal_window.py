"""Refused requests with new keys do not grow the database without bound: a refusal is kept
under its key for the window (a retry inside it gets the same answer, byte for byte), then
purged; successes are kept for good. Both databases."""

from __future__ import annotations

from sqlalchemy import text

from reelsmith.store.idempotency import count_refusals
from tests.server.forcing import TSAR_BET

GAME = "days-of-the-tsar"
WINDOW_SECONDS = 3600  # refusals_kept_seconds' default


def stored(api):
    with api.db.read() as connection:
        refusals = count_refusals(connection)
        total = connection.execute(text("SELECT count(*) FROM idempotency_keys")).scalar_one()
    return refusals, int(total) - refusals


def spin(api, key):
    return api.as_player("POST", f"/api/games/{GAME}/spin", {"bet": TSAR_BET}, key=key)


def test_refusals_are_kept_for_the_window_then_purged(api):
    player = api.player(deposit=None)  # no money: every spin is refused
    api.login(player)
    keys = [f"broke-{n}" for n in range(40)]
    first = {key: spin(api, key) for key in keys}
    assert {answer.status_code for answer in first.values()} == {402}
    assert stored(api) == (40, 1)  # 40 refusals; the player's creation
    # inside the window: the same refusal for a retry, nothing purged
    api.clock.advance(seconds=WINDOW_SECONDS - 1)
    api.login(player)  # an hour later: a new session
    assert api.op("POST", "/operator/jobs/purge-refusals", key=None).json() == {"purged": 0}
    again = spin(api, keys[0])
    assert again.status_code == 402 and again.content == first[keys[0]].content
    # past the window: purged in batches, successes kept
    api.clock.advance(seconds=2)
    fresh = spin(api, "broke-fresh")  # stored now: inside its own window
    assert fresh.status_code == 402
    service = api.client.app.state.service
    assert service.idempotency.purge_refusals(batch=7) == 40
    assert stored(api) == (1, 1)
    # the key is free again: with the money now there, the same request runs
    api.op("POST", f"/operator/players/{player}/deposit", {"amount": "10.00"})
    ran = spin(api, keys[0])
    assert ran.status_code == 200, ran.text
    assert spin(api, keys[0]).content == ran.content  # a success stays
    assert api.op("GET", "/operator/ledger/verify", key=None).json()["ok"]


def test_the_purge_uses_the_index_of_refusals(api):
    from reelsmith.store.idempotency import _REFUSALS_BEFORE

    params = {"before": 0, "limit": 10}
    with api.db.read() as connection:
        if api.db.is_sqlite:
            plan = connection.execute(text(f"EXPLAIN QUERY PLAN {_REFUSALS_BEFORE}"), params).all()
        else:
            connection.execute(text("SET LOCAL enable_seqscan = off"))
            plan = connection.execute(text(f"EXPLAIN {_REFUSALS_BEFORE}"), params).all()
    assert "ix_idempotency_refusals" in " ".join(str(row) for row in plan), plan
