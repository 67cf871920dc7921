"""A round step's answer carries the round's events (``docs/events.md``): valid by the schema,
each amount beside it in minor units at the round's price, the same events again when the
step is repeated with its key, and the whole round's events after each later step."""

from __future__ import annotations

import jsonschema

from reelsmith.mechanics import event_schema
from tests.server.forcing import TSAR_BET, tsar_win

TSAR = "days-of-the-tsar"


def test_the_step_answer_carries_the_round_s_events(api):
    check = jsonschema.Draft202012Validator(event_schema())
    player = api.player()
    api.login(player)
    key = api.key()
    body = {"bet": TSAR_BET, "forced_draws": tsar_win(), "gamble": True}
    response = api.as_player("POST", f"/api/games/{TSAR}/spin", body, key=key)
    assert response.status_code == 200, response.text
    data = response.json()
    events = data["events"]
    assert not [e.message for e in check.iter_errors(events)]
    kinds = [e["type"] for e in events]
    assert kinds[:2] == ["round_started", "spin_stopped"] and "line_win" in kinds
    assert events[-1]["type"] == "actions_offered"
    assert events[-1]["actions"] == data["round"]["actions_allowed"]
    won = next(e for e in events if e["type"] == "spin_won")
    # 50 coins cost 2.50 EUR: a coin is 5 cents, in the events as in the round's win
    assert data["round"]["coin_size_minor"] == 5
    assert won["minor"] == won["coins"] * 5 == data["round"]["win_minor"]
    for event in events:
        if event["type"] == "line_win":
            assert event["minor"] == event["coins"] * 5
    again = api.as_player("POST", f"/api/games/{TSAR}/spin", body, key=key)
    assert again.json()["events"] == events
    collected = api.act(TSAR, data["round_id"], "collect")
    assert collected.status_code == 200, collected.text
    final = collected.json()["events"]
    assert final[: len(events) - 1] == events[:-1]
    assert final[-1] == {
        "type": "round_ended",
        "phase": "complete",
        "win_coins": won["coins"],
        "win_minor": won["minor"],
    }
