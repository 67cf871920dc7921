"""The bench's clients read a round step's answer only while its round is open
(`bench_server.open_answer`): they must still see every open round, or its free spins go
unplayed and the next spin is refused. Checked on the server's own answers."""

from __future__ import annotations

import sys
from pathlib import Path

from tests.server.forcing import TSAR_BET, tsar_no_win, tsar_trigger, tsar_win

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from bench_server import open_answer  # the bench's own reader

TSAR = "days-of-the-tsar"


def test_an_open_round_s_answer_is_read_and_a_finished_one_s_is_not(api):
    player = api.player()
    api.login(player)
    spin = f"/api/games/{TSAR}/spin"
    triggered = api.as_player("POST", spin, {"bet": TSAR_BET, "forced_draws": tsar_trigger()})
    assert triggered.status_code == 200 and triggered.json()["status"] == "open"
    answer = open_answer(triggered.content)
    assert answer is not None and answer["round_id"] == triggered.json()["round_id"]
    assert answer["round"]["actions_allowed"] == ["free_spin"]

    other = api.player()
    api.login(other)
    gambling = api.as_player("POST", spin, {"bet": TSAR_BET, "forced_draws": tsar_win()})
    assert gambling.json()["status"] == "open"  # a win waits for the gamble or the collect
    answer = open_answer(gambling.content)
    assert answer is not None and "collect" in answer["round"]["actions_allowed"]
    api.as_player("POST", f"/api/games/{TSAR}/rounds/{answer['round_id']}/collect", {})
    for draws in (tsar_no_win(), tsar_win()):
        body = {"bet": TSAR_BET, "gamble": False, "forced_draws": draws}
        done = api.as_player("POST", spin, body)
        assert done.status_code == 200 and done.json()["status"] == "complete"
        assert open_answer(done.content) is None


def test_open_elsewhere_in_a_finished_answer_is_not_an_open_round():
    assert open_answer(b'{"status":"complete","note":"open"}') is None
    assert open_answer(b'{"status":"open","round_id":"r"}') == {"status": "open", "round_id": "r"}
