"""`WinSender.wait`: a bet waits for its own player's wins being sent, and only for them. It
returns at once for a player with none, when that player's last win was answered, or False at
its timeout; and other players' wins going out meanwhile do not wake it (each wake-up is a
thread switch and the GIL taken, for nothing: with 32 players' bets waiting, that was a
thundering herd at every outcome). The sender runs here against a stand-in wallet."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

from reelsmith.wallet.seamless import WinSender


class StandIn:
    """What the win sender asks of the wallet: the wins of rounds (one a round, named after
    it), one win sent (the rounds of player "slow" wait for ``release``), outcomes stored."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.stored: list[str] = []

    def pending_wins(self, rounds: list[str]) -> list[dict[str, Any]]:
        return [{"id": round_id, "player": round_id.split(":")[0]} for round_id in rounds]

    def _send(self, row: dict[str, Any]) -> dict[str, Any]:
        if row["player"] == "slow":
            assert self.release.wait(10)
        return {"state": "acknowledged", "id": row["id"], "now": 0, "balance": None}

    def store_outcomes(self, outcomes: list[dict[str, Any]]) -> None:
        self.stored += [str(outcome["id"]) for outcome in outcomes]


def switches() -> int:
    """This thread's voluntary context switches so far (Linux)."""
    status = Path(f"/proc/self/task/{threading.get_native_id()}/status").read_text()
    return int(status.split("voluntary_ctxt_switches:")[1].split()[0])


@pytest.fixture
def sender() -> Any:
    wallet = StandIn()
    sender = WinSender(wallet, senders=4)  # type: ignore[arg-type]
    try:
        yield sender, wallet
    finally:
        wallet.release.set()
        sender.pool.shutdown(wait=True)


def test_a_bet_waits_for_its_players_wins_alone(sender: Any) -> None:
    sender, wallet = sender
    assert sender.wait("nobody", 0.0)  # no win handed over: at once
    sender.send("slow", "slow:1")
    assert not sender.wait("slow", 0.05)  # its win unanswered: the timeout
    sender.send("fast", "fast:1")
    assert sender.wait("fast", 5.0)  # another player's wins do not hold it
    wallet.release.set()
    assert sender.wait("slow", 5.0)
    deadline = time.monotonic() + 5
    while len(wallet.stored) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert sorted(wallet.stored) == ["fast:1", "slow:1"]


def test_other_players_wins_do_not_wake_a_waiting_bet(sender: Any) -> None:
    sender, wallet = sender
    sender.send("slow", "slow:1")
    waited: dict[str, Any] = {}
    ready = threading.Event()

    def bet() -> None:
        before = switches()
        ready.set()
        waited["answered"] = sender.wait("slow", 30.0)
        waited["switches"] = switches() - before

    thread = threading.Thread(target=bet)
    thread.start()
    assert ready.wait(5)
    time.sleep(0.05)  # the bet is waiting
    for n in range(100):  # another player's wins, one by one, each answered and stored
        sender.send("other", f"other:{n}")
        assert sender.wait("other", 5.0)
        time.sleep(0.001)
    wallet.release.set()
    thread.join(10)
    assert waited["answered"] is True
    # woken once, when its own player's win was answered (a few more for the scheduler's
    # sake), not at each of the other player's 100 outcomes
    assert waited["switches"] < 20, waited
