"""Incomplete rounds, the 2-day resolution, history, recall and replay, the audit chain."""

from __future__ import annotations

import hashlib
import json

from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import text

from reelsmith.store.audit import GENESIS, canonical
from tests.server.forcing import TSAR_BET, tsar_no_win, tsar_trigger, tsar_win

GAME = "days-of-the-tsar"


def test_a_returning_player_sees_the_open_round(api):
    api.login(api.player())
    body = api.spin(GAME, TSAR_BET, tsar_trigger()).json()
    api.login(api.as_player("GET", "/api/me").json()["id"])  # a new session
    state = api.as_player("GET", f"/api/games/{GAME}/state").json()
    assert state["open_round"]["round_id"] == body["round_id"]
    assert state["open_round"]["round"]["free_spins_remaining"] == 9


def test_rounds_open_two_days_are_resolved_and_paid(api):
    player = api.player()
    api.login(player)
    free_round = api.spin(GAME, TSAR_BET, tsar_trigger()).json()["round_id"]
    api.spin("sultan-spins", {"bet": "1.00"})  # another title's round, maybe complete
    api.clock.advance(days=1)
    assert api.op("POST", "/operator/jobs/resolve-stale-rounds", key=None).json()["resolved"] == []
    api.clock.advance(days=1, seconds=1)
    resolved = api.op("POST", "/operator/jobs/resolve-stale-rounds", key=None).json()["resolved"]
    assert free_round in resolved
    round_ = api.op("GET", f"/operator/rounds/{free_round}", key=None).json()
    assert round_["status"] == "complete" and round_["resolved_by"] == "auto"
    assert len(round_["round"]["spins"]) >= 10
    assert (
        round_["balance_after_minor"] == api.balance(player)
        or round_["balance_after_minor"] is not None
    )
    assert api.op("GET", "/operator/ledger/verify", key=None).json()["ok"]


def test_the_stale_round_search_reads_only_open_rounds(api):
    """The job's search goes through the index of open rounds (a round that completes with
    its spin is never in it), on both databases."""
    from reelsmith.store.rounds import STALE_ROUNDS

    with api.db.read() as connection:
        if api.db.is_sqlite:
            plan = connection.execute(
                text(f"EXPLAIN QUERY PLAN {STALE_ROUNDS}"), {"cutoff": 0, "now": 0}
            ).fetchall()
        else:
            connection.execute(text("SET LOCAL enable_seqscan = off"))
            plan = connection.execute(
                text(f"EXPLAIN {STALE_ROUNDS}"), {"cutoff": 0, "now": 0}
            ).fetchall()
    assert "ix_rounds_open_updated" in " ".join(str(row) for row in plan), plan


def test_a_pending_gamble_is_collected_after_two_days(api):
    player = api.player()
    api.login(player)
    body = api.spin(GAME, TSAR_BET, tsar_win()).json()
    api.clock.advance(days=2, seconds=1)
    api.op("POST", "/operator/jobs/resolve-stale-rounds", key=None)
    assert api.balance(player) == 10000 - 250 + body["win"]["minor"]


def test_history_has_every_step(api):
    api.login(api.player())
    body = api.spin(GAME, TSAR_BET, tsar_win()).json()
    api.act(GAME, body["round_id"], "gamble", {"choice": "red", "forced_draws": [0]})
    api.act(GAME, body["round_id"], "collect")
    api.spin(GAME, TSAR_BET, tsar_no_win())
    history = api.as_player("GET", "/api/history/rounds", params={"limit": 10}).json()["rounds"]
    assert len(history) == 2
    latest, first = history
    assert latest["status"] == "complete" and len(latest["steps"]) == 1
    assert [s["action"] for s in first["steps"]] == ["spin", "gamble red", "collect"]
    assert (
        first["balance_before_minor"] == 10000
        and first["balance_after_minor"] == 10000 - 250 + 2 * body["win"]["minor"]
    )
    assert first["round"]["gambles"][0]["won"] is True
    assert first["bet"] == TSAR_BET and first["round"]["draws"][0][0] == "reel_stop"
    assert first["steps"][0]["view"]["spins"][0]["screen"]


def test_history_hides_jackpot_trigger_points(api):
    api.login(api.player())
    api.spin("sultan-spins", {"bet": "1.00"})
    [round_] = api.as_player("GET", "/api/history/rounds", params={"game": "sultan-spins"}).json()[
        "rounds"
    ]
    triggers = [d for d in round_["round"]["draws"] if d[0].startswith("jackpot_trigger")]
    # five pots' trigger points drawn at the first round, and a new one for any pot the spin
    # hits (the spin is not forced): every one hidden from the player
    assert len(triggers) >= 5 and all(d[2] is None for d in triggers)
    operator = api.op("GET", f"/operator/rounds/{round_['round_id']}", key=None).json()
    assert all(d[2] is not None for d in operator["record"]["draws"])


def test_history_limit_is_checked(api):
    api.login(api.player())
    response = api.as_player("GET", "/api/history/rounds", params={"limit": 0})
    assert response.status_code == 400 and response.json()["code"] == "invalid_limit"


def test_operator_replay_is_identical(api):
    api.login(api.player())
    ids = []
    body = api.spin(GAME, TSAR_BET, tsar_trigger()).json()
    while body["round"]["actions_allowed"] == ["free_spin"]:
        body = api.act(GAME, body["round_id"], "free-spin").json()
    ids.append(body["round_id"])
    ids.append(api.spin("sultan-spins", {"bet": "2.00"}).json()["round_id"])
    for round_id in ids:
        replay = api.op("POST", f"/operator/rounds/{round_id}/replay", key=None).json()
        assert replay["identical"] is True, replay


def test_tampering_breaks_the_audit_chain(api):
    player = api.player()
    api.login(player)
    api.spin(GAME, TSAR_BET, tsar_no_win())
    assert api.op("GET", "/operator/audit/verify", key=None).json()["ok"]
    with api.db.write() as connection:
        connection.execute(
            text(
                "UPDATE audit_log SET payload = replace(payload, 'complete', 'voided') "
                "WHERE kind = 'round_step'"
            )
        )
    report = api.op("GET", "/operator/audit/verify", key=None).json()
    assert not report["ok"] and "does not match its hash" in report["problems"][0]


def _documented(data: object) -> str:
    """The canonical JSON as the audit log's documentation states it."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def test_a_lab_re_hashes_the_chain_from_its_documented_form(api):
    """Each entry's hash is sha256(previous hash + canonical JSON of the entry), the payload
    stored as its canonical text: a checker with the standard library alone finds the same."""
    player = api.player()
    api.login(player)
    api.spin(GAME, TSAR_BET, tsar_win())
    api.spin(GAME, TSAR_BET, tsar_trigger())
    with api.db.read() as connection:
        rows = connection.execute(
            text("SELECT * FROM audit_log WHERE player_id = :p ORDER BY seq"), {"p": player}
        ).all()
    assert len(rows) >= 4  # created, session, the win's step, the trigger's step
    prev = GENESIS
    for row in rows:
        assert _documented(json.loads(row.payload)) == row.payload
        body = {
            "player_id": row.player_id,
            "seq": row.seq,
            "kind": row.kind,
            "round_id": row.round_id,
            "created_ms": row.created_ms,
            "payload": row.payload,
        }
        assert row.prev_hash == prev
        assert hashlib.sha256((prev + _documented(body)).encode()).hexdigest() == row.hash
        prev = row.hash


_JSON_NO_FLOATS = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@given(_JSON_NO_FLOATS)
def test_canonical_json_is_the_documented_text(data):
    assert canonical(data) == _documented(data)


def test_deleting_the_newest_entry_is_detected(api):
    player = api.player()
    with api.db.write() as connection:
        connection.execute(
            text("DELETE FROM audit_log WHERE seq = (SELECT MAX(seq) FROM audit_log)")
        )
    report = api.op("GET", "/operator/audit/verify", key=None).json()
    assert not report["ok"] and "the head says" in report["problems"][0]
    assert player


def test_metrics(api):
    api.login(api.player())
    api.spin(GAME, TSAR_BET, tsar_no_win())
    text_ = api.op("GET", "/metrics", key=None).text
    assert 'reelsmith_rounds_total{game="days-of-the-tsar",status="complete"} 1.0' in text_
    assert 'reelsmith_bets_minor_total{game="days-of-the-tsar"} 250.0' in text_
    assert "reelsmith_request_seconds_bucket" in text_
