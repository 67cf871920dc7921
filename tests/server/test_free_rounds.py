"""Free-round campaigns end to end through the HTTP API, on SQLite and PostgreSQL: the operator
creates (idempotently by campaign id), lists and cancels them; the player lists and plays them;
the bet is never charged, the wins are paid, the campaign counts down, expires and never gives
more rounds than it holds; the ledger and the payout audit agree with every round."""

from __future__ import annotations

import threading

from tests.server.forcing import TSAR_BET, tsar_no_win, tsar_win

GAME = "days-of-the-tsar"
START = "2026-01-01T00:00:00Z"  # the ManualClock's start
LATER = "2026-01-08T00:00:00Z"


def campaign(api, player, key="auto", **fields):
    body = {"game": GAME, "bet": TSAR_BET, "rounds": 3, "expires_at": LATER, **fields}
    return api.op("POST", f"/operator/players/{player}/free-rounds", body, key=key)


def play(api, campaign_id, key="auto", **body):
    return api.as_player("POST", f"/api/free-rounds/{campaign_id}/play", body, key=key)


def audits_pass(api):
    ledger = api.op("GET", "/operator/ledger/verify", key=None).json()
    payouts = api.op("GET", "/operator/audit/payouts", key=None).json()
    chain = api.op("GET", "/operator/audit/verify", key=None).json()
    assert ledger["ok"] and chain["ok"], (ledger, chain)
    assert payouts["ok"], payouts


def test_creation_is_idempotent_by_campaign_id(api):
    player = api.player()
    first = campaign(api, player, campaign_id="spring-2026.alice")
    assert first.status_code == 201, first.text
    body = first.json()
    assert body["campaign_id"] == "spring-2026.alice" and body["player_id"] == player
    assert body["status"] == "active" and body["rounds"] == 3 and body["remaining"] == 3
    assert body["bet"] == TSAR_BET and body["bet_total"]["minor"] == 250
    assert body["expires_at"] == "2026-01-08T00:00:00.000Z"
    # the same id and body, with another Idempotency-Key: the same campaign, nothing new
    again = campaign(api, player, campaign_id="spring-2026.alice")
    assert again.status_code == 200 and again.json() == body
    # the same id with another body is refused, naming why
    other = campaign(api, player, campaign_id="spring-2026.alice", rounds=4)
    assert other.status_code == 409 and other.json()["code"] == "campaign_id_reused"
    listed = api.op("GET", f"/operator/players/{player}/free-rounds", key=None).json()
    assert [c["campaign_id"] for c in listed["campaigns"]] == ["spring-2026.alice"]
    assert listed["campaigns"][0]["rounds"] == 3


def test_without_a_campaign_id_the_idempotency_key_makes_one(api):
    player = api.player()
    first = campaign(api, player, key="grant-1")
    again = campaign(api, player, key="grant-1")
    assert first.status_code == 201 and again.status_code == 200
    assert first.json()["campaign_id"] == again.json()["campaign_id"]
    assert (
        campaign(api, player, key="grant-2").json()["campaign_id"] != (first.json()["campaign_id"])
    )
    refused = campaign(api, player, key=None)
    assert refused.status_code == 400 and refused.json()["code"] == "campaign_id_required"


def test_bad_campaigns_are_refused_naming_the_fault_and_write_nothing(api):
    player = api.player()
    cases = [
        ({"game": "no-such-title"}, 404, "unknown_game", "no-such-title"),
        ({"bet": {"lines": 25, "coins_per_line": 1, "coin_size": "0.03"}}, 400, "invalid_bet", ""),
        ({"bet": {"lines": 26, "coins_per_line": 1, "coin_size": "0.01"}}, 400, "invalid_bet", ""),
        ({"rounds": 0}, 400, "invalid_rounds", "0"),
        ({"rounds": "5"}, 400, "invalid_rounds", ""),
        ({"expires_at": "2025-12-31T23:59:59Z"}, 400, "invalid_expiry", "not in the future"),
        ({"expires_at": "2026-02-01T00:00:00"}, 400, "invalid_expiry", "no time zone"),
        ({"expires_at": "next week"}, 400, "invalid_expiry", "ISO 8601"),
        ({"campaign_id": "bad id!"}, 400, "invalid_campaign_id", ""),
        ({"colour": "red"}, 400, "invalid_request", "colour"),
    ]
    for fields, status, code, named in cases:
        response = campaign(api, player, **fields)
        assert response.status_code == status, (fields, response.text)
        assert response.json()["code"] == code, (fields, response.text)
        assert named in response.json()["message"], (fields, response.text)
    missing = api.op(
        "POST", "/operator/players/no-such-player/free-rounds", {"game": GAME}, key="x"
    )
    assert missing.status_code in (400, 404)
    unknown_player = campaign(api, "no-such-player")
    assert unknown_player.status_code == 404, unknown_player.text
    cancel = api.op("POST", "/operator/free-rounds/no-such-campaign/cancel", key=None)
    assert cancel.status_code == 404 and "no-such-campaign" in cancel.json()["message"]
    listed = api.op("GET", f"/operator/players/{player}/free-rounds", key=None).json()
    assert listed == {"campaigns": []}
    # an operator without the key sees nothing
    assert api.client.get(f"/operator/players/{player}/free-rounds").status_code == 401


def test_free_rounds_are_not_charged_and_their_wins_are_paid(api):
    player = api.player(deposit="10.00")
    created = campaign(api, player, campaign_id="c1").json()
    api.login(player)
    shown = api.as_player("GET", "/api/free-rounds").json()["campaigns"]
    assert [(c["campaign_id"], c["remaining"]) for c in shown] == [("c1", 3)]

    lost = play(api, "c1", forced_draws=tsar_no_win())
    assert lost.status_code == 200, lost.text
    body = lost.json()
    assert body["status"] == "complete" and body["win"]["minor"] == 0
    assert body["bet"]["minor"] == created["bet_total"]["minor"] == 250  # the round's stake
    assert body["balance"]["minor"] == 1000 == api.balance(player)  # not charged
    assert body["free_round"]["number"] == 1 and body["free_round"]["remaining"] == 2

    won = play(api, "c1", forced_draws=tsar_win(), gamble=False).json()
    win = won["win"]["minor"]
    assert win > 0 and won["status"] == "complete"
    assert won["balance"]["minor"] == 1000 + win == api.balance(player)
    assert won["free_round"]["remaining"] == 1 and won["free_round"]["wins"]["minor"] == win

    # a win left to collect is paid on collect, as in any round
    held = play(api, "c1", forced_draws=tsar_win()).json()
    assert held["status"] == "open" and held["free_round"]["status"] == "finished"
    collected = api.act(GAME, held["round_id"], "collect").json()
    assert collected["status"] == "complete"
    assert api.balance(player) == 1000 + win + held["win"]["minor"]

    done = play(api, "c1")
    assert done.status_code == 409 and done.json()["code"] == "campaign_finished"
    after = api.op("GET", "/operator/free-rounds/c1", key=None).json()
    assert after["status"] == "finished" and after["played"] == 3 and after["remaining"] == 0
    assert after["wins"]["minor"] == win + held["win"]["minor"]
    # each round records its campaign: the operator's recall and the audit see it
    recalled = api.op("GET", f"/operator/rounds/{lost.json()['round_id']}", key=None)
    assert recalled.status_code == 200
    assert recalled.json()["free_round"] == {"campaign_id": "c1", "number": 1}
    mine = api.as_player("GET", f"/api/history/rounds/{won['round_id']}").json()
    assert mine["free_round"] == {"campaign_id": "c1", "number": 2}
    # the history page names each round's campaign as the one-round recall does
    history = api.as_player("GET", "/api/history/rounds", params={"limit": 10}).json()
    by_id = {entry["round_id"]: entry for entry in history["rounds"]}
    for round_id, number in ((lost.json()["round_id"], 1), (won["round_id"], 2)):
        recalled_round = api.as_player("GET", f"/api/history/rounds/{round_id}").json()
        assert by_id[round_id]["free_round"] == {"campaign_id": "c1", "number": number}
        assert by_id[round_id] == recalled_round
    audits_pass(api)
    # the player's paid spins still charge the bet
    paid = api.spin(GAME, TSAR_BET, tsar_no_win()).json()
    assert paid["balance"]["minor"] == api.balance(player) == 1000 + after["wins"]["minor"] - 250
    paid_round = api.op("GET", f"/operator/rounds/{paid['round_id']}", key=None).json()
    assert paid_round["free_round"] is None


def test_a_retry_with_the_same_key_plays_nothing_twice(api):
    player = api.player(deposit="1.00")
    campaign(api, player, campaign_id="retry", rounds=2)
    api.login(player)
    first = play(api, "retry", key="free-1", forced_draws=tsar_win(), gamble=False)
    again = play(api, "retry", key="free-1", forced_draws=tsar_win(), gamble=False)
    assert first.status_code == again.status_code == 200
    assert first.content == again.content
    state = api.op("GET", "/operator/free-rounds/retry", key=None).json()
    assert state["played"] == 1
    assert api.balance(player) == 100 + first.json()["win"]["minor"]
    reused = play(api, "retry", key="free-1", forced_draws=tsar_no_win())
    assert reused.status_code == 409 and reused.json()["code"] == "idempotency_key_reused"


def test_cancel_lapses_the_unplayed_rounds(api):
    player = api.player()
    campaign(api, player, campaign_id="to-cancel", rounds=5)
    api.login(player)
    assert play(api, "to-cancel", forced_draws=tsar_no_win()).status_code == 200
    cancelled = api.op("POST", "/operator/free-rounds/to-cancel/cancel", key=None)
    assert cancelled.status_code == 200, cancelled.text
    body = cancelled.json()
    assert body["status"] == "cancelled" and body["played"] == 1 and body["lapsed"] == 4
    assert body["remaining"] == 0
    # cancelling again answers the campaign as it is
    assert api.op("POST", "/operator/free-rounds/to-cancel/cancel", key=None).json() == body
    refused = play(api, "to-cancel")
    assert refused.status_code == 409 and refused.json()["code"] == "campaign_cancelled"
    assert api.balance(player) == 10000
    # a finished campaign cannot be cancelled
    campaign(api, player, campaign_id="one", rounds=1)
    assert play(api, "one", forced_draws=tsar_no_win()).status_code == 200
    late = api.op("POST", "/operator/free-rounds/one/cancel", key=None)
    assert late.status_code == 409 and late.json()["code"] == "campaign_finished"


def test_a_campaign_expires(api):
    player = api.player()
    campaign(api, player, campaign_id="short", rounds=2, expires_at="2026-01-01T01:00:00Z")
    api.login(player)
    assert play(api, "short", forced_draws=tsar_no_win()).status_code == 200
    api.clock.advance(seconds=3600)
    api.login(player)  # the first session may have ended with the hour
    refused = play(api, "short")
    assert refused.status_code == 409 and refused.json()["code"] == "campaign_expired"
    assert "2026-01-01T01:00:00.000Z" in refused.json()["message"]
    state = api.op("GET", "/operator/free-rounds/short", key=None).json()
    assert state["status"] == "expired" and state["lapsed"] == 1 and state["played"] == 1
    mine = api.as_player("GET", "/api/free-rounds").json()["campaigns"]
    assert mine[0]["status"] == "expired" and mine[0]["remaining"] == 0


def test_a_campaign_is_played_by_its_player_only(api):
    owner = api.player()
    campaign(api, owner, campaign_id="owned")
    other = api.player()
    api.login(other)
    refused = play(api, "owned")
    assert refused.status_code == 404 and "owned" in refused.json()["message"]
    assert api.as_player("GET", "/api/free-rounds").json() == {"campaigns": []}


def test_concurrent_plays_of_the_last_round_give_one_round(api):
    player = api.player(deposit="1.00")
    campaign(api, player, campaign_id="last", rounds=1)
    api.login(player)
    answers = []
    barrier = threading.Barrier(6)

    def go(n):
        barrier.wait()
        answers.append(play(api, "last", key=f"race-{n}", forced_draws=tsar_win(), gamble=False))

    threads = [threading.Thread(target=go, args=(n,)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    codes = sorted(a.status_code for a in answers)
    assert codes == [200, 409, 409, 409, 409, 409], [a.text for a in answers]
    assert {a.json()["code"] for a in answers if a.status_code == 409} == {"campaign_finished"}
    won = next(a.json() for a in answers if a.status_code == 200)
    assert api.balance(player) == 100 + won["win"]["minor"]
    state = api.op("GET", "/operator/free-rounds/last", key=None).json()
    assert state["played"] == 1 and state["status"] == "finished"
    audits_pass(api)


def test_a_voided_free_round_returns_no_stake(tmp_path):
    """A free round voided by a fault returns nothing: its stake was never taken."""
    from tests.server.conftest import build

    class Broken:
        def randbelow(self, bound, purpose):
            raise OSError("entropy source failed")

    for api in build("sqlite", tmp_path, rng=Broken()):
        player = api.player(deposit="1.00")
        campaign(api, player, campaign_id="void")
        api.login(player)
        body = play(api, "void").json()
        assert body["status"] == "voided", body
        assert api.balance(player) == 100
        audits_pass(api)


def test_no_free_round_starts_above_the_balance_cap(api):
    """As for a spin: a free round's win may take the wallet past its cap, after which no round
    starts (the campaign keeps its rounds) until a withdrawal."""
    player = api.player(deposit="10000000000000.00")  # the cap: 10^15 cents
    campaign(api, player, campaign_id="capped", rounds=2)
    api.login(player)
    won = play(api, "capped", forced_draws=tsar_win(), gamble=False)
    assert won.status_code == 200 and won.json()["win"]["minor"] > 0
    refused = play(api, "capped", forced_draws=tsar_no_win())
    assert refused.status_code == 409 and refused.json()["code"] == "balance_limit"
    state = api.op("GET", "/operator/free-rounds/capped", key=None).json()
    assert state["played"] == 1 and state["remaining"] == 1
    withdraw = api.op("POST", f"/operator/players/{player}/withdraw", {"amount": "100.00"})
    assert withdraw.status_code == 200
    assert play(api, "capped", forced_draws=tsar_no_win()).status_code == 200
