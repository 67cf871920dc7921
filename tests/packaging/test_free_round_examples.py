"""The operator guide's free-round and report examples run against a server the test starts.

The guide's ``$ export ...`` and ``$ reelsmith serve --port 8000`` start the server (on a free
port, in a fresh folder, ``reelsmith`` the command line of this checkout), and the guide's
``$ curl ...`` lines of its "Free rounds" and "Reports" sections are run by bash against it, in
the guide's order, with ``KEY`` the key the guide exports and ``PLAYER`` and ``TOKEN`` a player
the test made: funded with 50.00, with a session. The test makes the scene the guide shows
through the API between the examples: the campaign's first eight rounds before the guide plays
its ninth, then its tenth and twenty paid rounds of Days of the Tsar at 0.25 (gamble off) before
the reports, so the report's day holds 30 rounds, 10 of them free.

Each answer must be the guide's, key for key and value for value, except for the declared
variable parts: the ids the guide elides (``8150...``: any id), times in milliseconds
(``..._ms``: any integer), the days (the guide's ``2026-12-01`` is the day the test runs, UTC;
its campaign's expiry ``2026-12-31`` the end of the test's year), and what chance decides: a
round's status, win, balance and celebration, a campaign's wins, and a report's wins, GGR,
free-round wins, realised RTP and its verdict. Those are checked by what must hold between
them instead: a free round leaves the balance at the balance before it plus its win (no bet
taken); the report's GGR is its bets less its wins, its free-round wins are the campaign's,
its RTP the wins over the stakes, its verdict the band's.
"""

from __future__ import annotations

import copy
import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.packaging.test_docs_examples import Example
from tests.packaging.test_server_examples import answers, guide_examples, same, start_commands

TSAR = "days-of-the-tsar"
PAID_BET = {"lines": 25, "coins_per_line": 1, "coin_size": "0.01"}  # 0.25
CAMPAIGN = "winter-2026-alice"
GUIDE_DAY = "2026-12-01"
GUIDE_EXPIRY = "2026-12-31"
#: What chance decides in each example's answer (paths of keys; the module's account).
PLAY_CHANCE = [("status",), ("balance",), ("win",), ("celebrate",), ("free_round", "wins")]
REPORT_CHANCE = ["wins", "ggr", "free_round_wins", "rtp", "in_band"]


@dataclass
class Server:
    base: str
    key: str
    client: httpx.Client


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    if not shutil.which("curl") or not shutil.which("jq"):
        pytest.skip("the guide's examples use curl and jq")
    from tests.reliability.live import free_port

    folder = tmp_path_factory.mktemp("operator-guide-free-rounds")
    bin_dir = folder / "bin"
    bin_dir.mkdir()
    wrapper = bin_dir / "reelsmith"
    wrapper.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m reelsmith.cli "$@"\n')
    wrapper.chmod(0o755)
    work = folder / "work"
    work.mkdir(mode=0o700)
    export, serve = start_commands()
    key = re.search(r"REELSMITH_OPERATOR_API_KEY=(\S+)", export).group(1)  # type: ignore[union-attr]
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("REELSMITH_")}
    env.update(
        PATH=f"{bin_dir}{os.pathsep}{env['PATH']}",
        PYTHONPATH=os.pathsep.join(p for p in sys.path if p),
    )
    command = f"{export}; exec {serve.replace('--port 8000', f'--port {port}')}"
    process = subprocess.Popen(
        ["bash", "-c", command],
        cwd=work,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        with httpx.Client(base_url=base, timeout=30) as client:
            deadline = time.monotonic() + 120
            while True:
                try:
                    if client.get("/healthz").status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                assert process.poll() is None, f"{serve} exited"
                assert time.monotonic() < deadline, f"{serve} did not answer in 120 s"
                time.sleep(0.25)
            yield Server(base, key, client)
    finally:
        process.terminate()
        process.wait(timeout=30)


def section_curls(title: str) -> list[Example]:
    """The guide's ``curl`` examples under its ``## <title>`` heading."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "operator-guide.md").read_text()
    section = text.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]
    wanted = {e.command for e in guide_examples()}
    from tests.packaging.test_docs_examples import examples

    found = [e for e in examples(section) if e.command.startswith("curl ")]
    assert found and all(e.command in wanted for e in found)
    return found


def expiry(today: str) -> str:
    """The day the guide's campaign expires (its last second), as the test runs it: the end of
    this year (of the next, on its last day), so that it is always in the future and less than
    a year ahead."""
    year = int(today[:4])
    return f"{year}-12-31" if today < f"{year}-12-31" else f"{year + 1}-12-31"


def dated(text: str, today: str) -> str:
    """``text`` with the guide's days as the test runs them."""
    return text.replace(GUIDE_DAY, today).replace(GUIDE_EXPIRY, expiry(today))


def run(server: Server, example: Example, env: dict[str, str], today: str) -> str:
    command = example.command.replace("localhost:8000", server.base.removeprefix("http://"))
    command = dated(command, today)
    result = subprocess.run(
        ["bash", "-c", command],
        capture_output=True,
        text=True,
        env={"PATH": os.environ["PATH"], "KEY": server.key, **env},
        timeout=60,
    )
    assert result.returncode == 0, (command, result.stderr)
    return result.stdout


def chance(printed: Any, real: Any, paths: list[tuple[str, ...]], where: str) -> Any:
    """``printed`` with the parts at ``paths`` taken from ``real``, once they are of the same
    kind there (a money object stays a money object, a boolean a boolean)."""
    printed = copy.deepcopy(printed)
    for path in paths:
        held, found = printed, real
        for key in path[:-1]:
            held, found = held[key], found[key]
        mine, theirs = held[path[-1]], found[path[-1]]
        if isinstance(mine, dict):
            assert isinstance(theirs, dict) and mine.keys() == theirs.keys(), (where, path)
        elif mine is not None and theirs is not None:
            assert type(mine) is type(theirs), (where, path, mine, theirs)
        held[path[-1]] = theirs
    return printed


def finish(server: Server, token: str, answer: dict[str, Any]) -> dict[str, Any]:
    """Play a round's free spins until it is no longer open (gamble off: nothing waits)."""
    bearer = {"Authorization": f"Bearer {token}"}
    steps = 0
    while answer["status"] == "open":
        steps += 1
        step = server.client.post(
            f"/api/games/{TSAR}/rounds/{answer['round_id']}/free-spin",
            headers={**bearer, "Idempotency-Key": f"step-{answer['round_id']}-{steps}"},
            json={},
        )
        assert step.status_code == 200, step.text
        answer = step.json()
    return answer


def test_the_free_round_and_report_examples_run_as_printed(server: Server) -> None:
    client, operator = server.client, {"X-API-Key": server.key}
    today = datetime.now(UTC).date().isoformat()
    made = client.post(
        "/operator/players",
        headers={**operator, "Idempotency-Key": "alice"},
        json={"external_ref": "alice", "currency": "EUR", "market": "default"},
    )
    assert made.status_code == 201, made.text
    player = made.json()["id"]
    deposit = client.post(
        f"/operator/players/{player}/deposit",
        headers={**operator, "Idempotency-Key": "alice-deposit"},
        json={"amount": "50.00"},
    )
    assert deposit.status_code == 200, deposit.text
    token = client.post(f"/operator/players/{player}/sessions", headers=operator).json()["token"]
    bearer = {"Authorization": f"Bearer {token}"}
    env = {"PLAYER": player, "TOKEN": token}

    def balance() -> int:
        found = client.get(f"/operator/players/{player}", headers=operator).json()
        return int(found["balance"]["minor"])

    def play_free(number: int) -> dict[str, Any]:
        answer = client.post(
            f"/api/free-rounds/{CAMPAIGN}/play",
            headers={**bearer, "Idempotency-Key": f"scene-free-{number}"},
            json={"gamble": False},
        )
        assert answer.status_code == 200, answer.text
        return finish(server, token, answer.json())

    create, play = section_curls("Free rounds")
    # the campaign, as the guide creates it
    (printed,) = answers(create)
    printed = json.loads(dated(json.dumps(printed), today))
    real = json.loads(run(server, create, env, today))
    same(printed, real, "create")
    assert real["player_id"] == player and real["remaining"] == 10
    for number in range(1, 9):
        play_free(number)
    # its ninth round, as the guide plays it
    before = balance()
    (printed,) = answers(play)
    printed = json.loads(dated(json.dumps(printed), today))
    real = json.loads(run(server, play, env, today))
    same(chance(printed, real, PLAY_CHANCE, "play"), real, "play")
    assert real["free_round"]["number"] == 9 and real["free_round"]["player_id"] == player
    if real["status"] == "complete":  # a round left open pays the rest of its win later
        assert real["balance"]["minor"] == before + real["win"]["minor"]  # no bet taken
    finish(server, token, real)
    play_free(10)
    for spin in range(20):
        answer = client.post(
            f"/api/games/{TSAR}/spin",
            headers={**bearer, "Idempotency-Key": f"scene-paid-{spin}"},
            json={"bet": PAID_BET, "gamble": False},
        )
        assert answer.status_code == 200, answer.text
        finish(server, token, answer.json())
    campaign = client.get(f"/operator/free-rounds/{CAMPAIGN}", headers=operator).json()
    assert campaign["status"] == "finished"

    daily_json, daily_csv, bad_date = section_curls("Reports")
    (printed,) = answers(daily_json)
    printed = json.loads(dated(json.dumps(printed), today))
    real = json.loads(run(server, daily_json, env, today))
    same(chance(printed, real, [(key,) for key in REPORT_CHANCE], "daily"), real, "daily")
    assert real["rounds"] == 30 and real["free_rounds"] == 10
    wins = real["wins"]["minor"] + real["jackpot_wins"]["minor"]
    assert real["ggr"]["minor"] == real["bets"]["minor"] - wins - real["refunds"]["minor"]
    assert real["free_round_wins"] == {
        "minor": campaign["wins"]["minor"],
        "amount": campaign["wins"]["amount"],
    }
    stakes = 20 * 25 + 10 * campaign["bet_total"]["minor"]
    assert real["rtp"] == round(wins / stakes, 6)
    assert real["in_band"] is (real["rtp_band_low"] <= real["rtp"] <= real["rtp_band_high"])

    printed_rows = list(csv.reader(io.StringIO(dated("\n".join(daily_csv.printed), today))))
    real_rows = list(csv.reader(io.StringIO(run(server, daily_csv, env, today))))
    assert real_rows[0] == printed_rows[0] and len(real_rows) == len(printed_rows) == 2
    header = real_rows[0]
    for column in header:
        mine, theirs = printed_rows[1][header.index(column)], real_rows[1][header.index(column)]
        if column in REPORT_CHANCE:  # the JSON's figures, as text
            value = real[column]
            shown = value["amount"] if isinstance(value, dict) else str(value).lower()
            assert theirs == shown, (column, theirs, value)
        else:
            assert theirs == mine, (column, mine, theirs)

    (printed,) = answers(bad_date)
    assert json.loads(run(server, bad_date, env, today)) == printed
