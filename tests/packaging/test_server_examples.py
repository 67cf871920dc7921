"""The operator guide's examples that need a running server run against one the test starts.

The guide's own ``$ export ...`` and ``$ reelsmith serve --port 8000`` start the server (on a
free port, in a fresh folder, with ``reelsmith`` the command line of this checkout), and the
guide's ``$ curl ...`` lines are run by bash against it, with ``KEY`` the key the guide
exports. What they show needs rounds the resolver acts on, so the test first makes the scene
the guide describes, through the API: three players each with a Days of the Tsar round left
open (a win waiting for its gamble or collect), the newest one's stored record damaged; the
server is started with a resolution delay of one second (``REELSMITH_RESOLVE_AFTER_SECONDS``)
and no pass of its own during the test, so the guide's ``POST
/operator/jobs/resolve-stale-rounds`` is the pass that resolves two and sets one aside.

Each answer must be the guide's, key for key and value for value, except for the declared
variable parts: the ids the guide elides (``6f1c...``: any id; the real ones must also be the
rounds the test opened, in the order the guide gives), times in milliseconds (``..._ms``: any
integer) and, inside a string, ``...`` standing for any text.

The guide's ``reelsmith serve --titles /srv/...`` over a copy of Aurora Fox is started the same
way, with ``/srv`` a fresh temporary folder holding that copy (the folder is the one declared
variable part: it is written back as ``/srv`` before the output is compared): the server must
refuse to start with the guide's one line. The guide's ``reelsmith serve --titles ./my-titles
--markets ./my-markets`` is started over the folders the guide describes (on a free port) and
must play a round of the title it adds.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from reelsmith.games import game_folder
from tests.packaging.test_docs_examples import ROOT, Example, examples, matches

GUIDE = ROOT / "docs" / "operator-guide.md"
TSAR = "days-of-the-tsar"
TSAR_BET = {"bet": {"lines": 25, "coins_per_line": 1, "coin_size": "0.01"}, "gamble": True}
#: An id the guide elides: a few hex digits and ``...``.
ELIDED_ID = re.compile(r"^[0-9a-f]{4}\.\.\.$")


@dataclass
class Server:
    base: str
    key: str
    database: Path
    opened: list[str]  # the open rounds, oldest first (the last one damaged)
    players: list[str]


def guide_examples() -> list[Example]:
    return examples(GUIDE.read_text(encoding="utf-8"))


def start_commands() -> tuple[str, str]:
    """The guide's ``export`` of the keys and the ``reelsmith serve`` that follows it."""
    found = guide_examples()
    for first, second in itertools.pairwise(found):
        if first.command.startswith("export REELSMITH_OPERATOR_API_KEY=") and (
            second.command == "reelsmith serve --port 8000"
        ):
            return first.command, second.command
    raise AssertionError("the operator guide no longer starts a server with its key exported")


def open_round(client: httpx.Client, key: str, name: str) -> tuple[str, str]:
    """A new player (funded, with a session) whose Days of the Tsar round is left open by a
    win waiting for its gamble: the player's id and the round's."""
    operator = {"X-API-Key": key}
    player = client.post(
        "/operator/players",
        headers={**operator, "Idempotency-Key": f"create-{name}"},
        json={"external_ref": name, "currency": "EUR", "market": "default"},
    )
    assert player.status_code == 201, player.text
    player_id = player.json()["id"]
    deposit = client.post(
        f"/operator/players/{player_id}/deposit",
        headers={**operator, "Idempotency-Key": f"deposit-{name}"},
        json={"amount": "50.00"},
    )
    assert deposit.status_code == 200, deposit.text
    token = client.post(f"/operator/players/{player_id}/sessions", headers=operator).json()
    bearer = {"Authorization": f"Bearer {token['token']}"}
    for spin in range(100):
        answer = client.post(
            f"/api/games/{TSAR}/spin",
            headers={**bearer, "Idempotency-Key": f"{name}-spin-{spin}"},
            json=TSAR_BET,
        )
        assert answer.status_code == 200, answer.text
        if answer.json()["status"] == "open":
            return player_id, answer.json()["round_id"]
    raise AssertionError(f"{name}: 100 spins and not one win")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    if not shutil.which("curl"):
        pytest.skip("the guide's examples use curl")
    from tests.reliability.live import free_port

    folder = tmp_path_factory.mktemp("operator-guide")
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
        REELSMITH_RESOLVE_AFTER_SECONDS="1",
        REELSMITH_RESOLVER_INTERVAL_SECONDS="3600",
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
        deadline = time.monotonic() + 120
        with httpx.Client(base_url=base, timeout=30) as client:
            while True:
                try:
                    if client.get("/healthz").status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                assert process.poll() is None, f"{serve} exited"
                assert time.monotonic() < deadline, f"{serve} did not answer in 120 s"
                time.sleep(0.25)
            opened = [open_round(client, key, name) for name in ("alice", "bob", "carol")]
        database = work / "var" / "reelsmith.db"
        with sqlite3.connect(database) as connection:
            connection.execute(
                "UPDATE rounds SET record = '{\"damaged\": true}' WHERE id = ?", (opened[-1][1],)
            )
        time.sleep(1.5)  # the resolution delay is over for all three
        yield Server(base, key, database, [r for _, r in opened], [player for player, _ in opened])
    finally:
        process.terminate()
        process.wait(timeout=30)


def same(printed: Any, real: Any, where: str) -> None:
    """``real`` is ``printed`` but for the declared variable parts (the module's account)."""
    if isinstance(printed, dict):
        assert isinstance(real, dict) and printed.keys() == real.keys(), (where, printed, real)
        for key in printed:
            if key.endswith("_ms"):
                assert type(printed[key]) is type(real[key]) is int, (where, key, real[key])
            else:
                same(printed[key], real[key], f"{where}.{key}")
    elif isinstance(printed, list):
        assert isinstance(real, list) and len(printed) == len(real), (where, printed, real)
        for i, (p, r) in enumerate(zip(printed, real, strict=True)):
            same(p, r, f"{where}[{i}]")
    elif isinstance(printed, str) and ELIDED_ID.match(printed):
        assert isinstance(real, str) and re.fullmatch(r"[0-9a-f-]{32,36}", real), (where, real)
    elif isinstance(printed, str) and "..." in printed:
        pattern = ".*".join(re.escape(part) for part in printed.split("..."))
        assert isinstance(real, str) and re.fullmatch(pattern, real, flags=re.S), (
            where,
            printed,
            real,
        )
    else:
        assert printed == real, (where, printed, real)


def answers(example: Example) -> list[Any]:
    """The JSON documents the guide prints under ``example`` (one may span lines)."""
    text = "\n".join(example.printed)
    decoder = json.JSONDecoder()
    found, at = [], 0
    while at < len(text):
        if text[at].isspace():
            at += 1
            continue
        document, at = decoder.raw_decode(text, at)
        found.append(document)
    return found


def test_the_operator_guide_resolver_examples_run_as_printed(server: Server) -> None:
    resolver = ("resolve-stale-rounds", "set-aside")
    curls = [
        e
        for e in guide_examples()
        if e.command.startswith("curl ") and e.command.split()[-1].rsplit("/", 1)[-1] in resolver
    ]
    assert [c.command.split()[-1].rsplit("/", 1)[-1] for c in curls] == list(resolver)
    env = {"PATH": os.environ["PATH"], "KEY": server.key}
    real_answers = []
    for example in curls:
        command = example.command.replace("localhost:8000", server.base.removeprefix("http://"))
        result = subprocess.run(
            ["bash", "-c", command], capture_output=True, text=True, env=env, timeout=60
        )
        assert result.returncode == 0, (command, result.stderr)
        (printed,) = answers(example)
        real = json.loads(result.stdout)
        same(printed, real, example.command[:60])
        real_answers.append(real)
    resolved, set_aside = real_answers
    # the rounds the test opened, oldest first; the damaged one set aside
    assert resolved["resolved"] == server.opened[:2]
    assert resolved["set_aside"] == [server.opened[2]]
    (aside,) = set_aside["rounds"]
    assert aside["round_id"] == server.opened[2] and aside["player_id"] == server.players[2]


def test_the_operator_guide_serve_over_folders_of_titles_and_markets_plays_the_added_title(
    tmp_path: Path,
) -> None:
    """``reelsmith serve --titles ./my-titles --markets ./my-markets`` as the guide describes
    the folders: a title of one's own (``reelsmith new``) in ``my-titles``, the shipped market
    files copied into ``my-markets`` with the title listed in the default market. The guide
    prints nothing under the command: the server must start (on a free port, the one part
    added to the command) and play a round of the added title."""
    (example,) = [
        e for e in guide_examples() if e.command.startswith("reelsmith serve --titles ./my-titles")
    ]
    assert not example.printed
    from reelsmith.server.markets import MARKETS_DIR
    from tests.reliability.live import free_port

    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    wrapper = bin_dir / "reelsmith"
    wrapper.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m reelsmith.cli "$@"\n')
    wrapper.chmod(0o755)
    work = tmp_path / "work"
    (work / "my-titles").mkdir(parents=True, mode=0o700)
    env = {k: v for k, v in os.environ.items() if not k.startswith("REELSMITH_")}
    env.update(
        PATH=f"{bin_dir}{os.pathsep}{env['PATH']}",
        PYTHONPATH=os.pathsep.join(p for p in sys.path if p),
        REELSMITH_OPERATOR_API_KEY="guide-key",
    )
    made = subprocess.run(
        ["bash", "-c", "reelsmith new my_title"],
        cwd=work / "my-titles",
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert made.returncode == 0, made.stderr
    shutil.copytree(MARKETS_DIR, work / "my-markets", ignore=shutil.ignore_patterns("__*"))
    default = work / "my-markets" / "default.toml"
    default.write_text(
        default.read_text(encoding="utf-8")
        + '\n[games.my-title]\nvariant = "96.00"\ncoin_sizes = ["0.01", "0.10"]\n',
        encoding="utf-8",
    )
    port = free_port()
    process = subprocess.Popen(
        ["bash", "-c", f"exec {example.command} --port {port}"],
        cwd=work,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 120
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            while True:
                try:
                    if client.get("/healthz").status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                assert process.poll() is None, f"{example.command} exited"
                assert time.monotonic() < deadline, f"{example.command} did not answer in 120 s"
                time.sleep(0.25)
            operator = {"X-API-Key": "guide-key"}
            player = client.post(
                "/operator/players",
                headers={**operator, "Idempotency-Key": "create-guide"},
                json={"external_ref": "guide", "currency": "EUR", "market": "default"},
            )
            assert player.status_code == 201, player.text
            player_id = player.json()["id"]
            deposit = client.post(
                f"/operator/players/{player_id}/deposit",
                headers={**operator, "Idempotency-Key": "deposit-guide"},
                json={"amount": "10.00"},
            )
            assert deposit.status_code == 200, deposit.text
            session = client.post(f"/operator/players/{player_id}/sessions", headers=operator)
            bearer = {"Authorization": f"Bearer {session.json()['token']}"}
            spin = client.post(
                "/api/games/my-title/spin",
                headers={**bearer, "Idempotency-Key": "guide-spin"},
                json={"bet": {"lines": 20, "coins_per_line": 1, "coin_size": "0.01"}},
            )
            assert spin.status_code == 200, spin.text
            assert spin.json()["round"]["game"] == "my-title"
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_the_operator_guide_serve_over_a_taken_id_refuses_as_printed(tmp_path: Path) -> None:
    (example,) = [
        e for e in guide_examples() if e.command.startswith("reelsmith serve --titles /srv/")
    ]
    srv = tmp_path / "srv"
    folder = example.command.split()[3]
    shutil.copytree(
        game_folder("aurora-fox"),
        srv / Path(folder).relative_to("/srv"),
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    wrapper = bin_dir / "reelsmith"
    wrapper.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m reelsmith.cli "$@"\n')
    wrapper.chmod(0o755)
    work = tmp_path / "work"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("REELSMITH_")}
    env.update(
        PATH=f"{bin_dir}{os.pathsep}{env['PATH']}",
        PYTHONPATH=os.pathsep.join(p for p in sys.path if p),
        COLUMNS="200",
    )
    result = subprocess.run(
        ["bash", "-c", example.command.replace("/srv/", f"{srv}/")],
        cwd=work,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=120,
    )
    real = result.stdout.replace(f"{srv}/", "/srv/").strip("\n").splitlines()
    assert result.returncode != 0, real
    assert example.printed and example.printed[0].startswith("error: ")
    assert matches(example.printed, real), (example.printed, real)
