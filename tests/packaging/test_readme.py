"""The README's examples are real: its operator and player sessions run, as printed, against a
server started the way the README starts it, and answer what the README shows.

The README's ``$ ...`` lines in the two API sections are run by bash (curl and jq, as a reader
would), against a live ``reelsmith serve`` on a free port whose operator key is the one the
README exports. Each printed answer is compared with the real one: exactly, except for what a
new server makes up (ids, tokens, expiry times) and what the reels decide (a spin's win and
balance), which must still have the README's shape. The README's own ids are swapped for the
live ones as they appear, so ``PLAYER=...`` and the round's replay use this run's values.
The first line the server prints is the README's (on the test's port), and the README's
``reelsmith audit verify`` of that session's database prints what the README shows, the
ledger's count of transactions counting this run's wins in place of the README's.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
# Made up by the server, different in every run: compared by type alone.
VOLATILE = {"id", "token", "session_id", "round_id", "expires_ms"}
# Decided by the reels (a win, free spins that leave the round open): compared by shape alone
# in a spin's answer.
DRAWN = {"balance", "win", "celebrate", "status"}


@dataclass
class Example:
    command: str
    printed: list[str]


def section(title: str) -> str:
    start = README.index(f"### {title}\n")
    end = README.find("\n### ", start + 1)
    return README[start:end]


def examples(text: str) -> list[Example]:
    """The ``$`` commands of a section's code blocks (continuation lines joined) and the lines
    each prints."""
    found: list[Example] = []
    for block in re.findall(r"^```\n(.*?)^```", text, flags=re.S | re.M):
        lines = block.splitlines()
        i = 0
        while i < len(lines):
            line = lines[i]
            i += 1
            if not line.startswith("$ "):
                found[-1].printed.append(line)
                continue
            command = line[2:]
            while command.rstrip().endswith("\\"):
                command = command.rstrip()[:-1] + " " + lines[i].strip()
                i += 1
            found.append(Example(command, []))
    return found


def exported_operator_key() -> str:
    match = re.search(r"^\$ export REELSMITH_OPERATOR_API_KEY=(\S+)", README, flags=re.M)
    assert match, "the README shows how the operator key is set (REELSMITH_OPERATOR_API_KEY)"
    return match.group(1)


def compare(printed: Any, real: Any, where: str, drawn: bool, ids: dict[str, str]) -> None:
    """``real`` answers what ``printed`` shows; records the README's ids against the real."""
    if isinstance(printed, dict):
        assert isinstance(real, dict) and printed.keys() == real.keys(), (where, printed, real)
        for key in printed:
            here = f"{where}.{key}"
            if key in VOLATILE:
                assert type(printed[key]) is type(real[key]), (here, printed[key], real[key])
                if isinstance(printed[key], str):
                    ids[printed[key]] = real[key]
            elif drawn and key in DRAWN:
                assert type(printed[key]) is type(real[key]), (here, printed[key], real[key])
                if isinstance(printed[key], dict):
                    assert printed[key].keys() == real[key].keys(), (here, printed[key], real[key])
            else:
                compare(printed[key], real[key], here, drawn, ids)
    else:
        assert printed == real, (where, printed, real)


def substitute(text: str, ids: dict[str, str]) -> str:
    for printed, real in ids.items():
        text = text.replace(printed, real)
    return text


def assignment(command: str, ids: dict[str, str]) -> tuple[str, str] | None:
    """``NAME=value``: the README's value, or the live one where the README printed it (a
    value cut short with ``...`` stands for the one it begins)."""
    match = re.fullmatch(r"([A-Z_]+)=(\S+)", command.strip())
    if not match:
        return None
    name, value = match.groups()
    if value.endswith("..."):
        starts = [real for printed, real in ids.items() if printed.startswith(value[:-3])]
        assert len(starts) == 1, f"{command}: no single earlier value begins {value[:-3]!r}"
        return name, starts[0]
    return name, ids.get(value, value)


@dataclass
class LiveServer:
    """A ``reelsmith serve`` started as the README starts it: where it answers, the folder it
    runs in (its SQLite database is ``var/reelsmith.db`` there) and the first line it printed."""

    base: str
    port: int
    folder: Path
    first_line: str


@pytest.fixture(scope="module")
def live_server(tmp_path_factory):
    if not (shutil.which("curl") and shutil.which("jq")):
        pytest.skip("the README's examples use curl and jq")
    from tests.reliability.live import free_port

    folder = tmp_path_factory.mktemp("readme")
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("REELSMITH_")}
    env["REELSMITH_OPERATOR_API_KEY"] = exported_operator_key()
    process = subprocess.Popen(
        [sys.executable, "-m", "reelsmith.cli", "serve", "--port", str(port)],
        cwd=folder,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert process.stdout is not None
    first_line = process.stdout.readline().rstrip("\n")
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while True:
        probe = subprocess.run(["curl", "-sf", f"{base}/healthz"], capture_output=True)
        if probe.returncode == 0:
            break
        assert process.poll() is None, "reelsmith serve exited"
        assert time.monotonic() < deadline, "reelsmith serve did not answer in 120 s"
        time.sleep(0.25)
    yield LiveServer(base, port, folder, first_line)
    process.terminate()
    process.wait(timeout=30)


def run_section(
    title: str,
    base: str,
    env: dict[str, str],
    ids: dict[str, str],
    answers: list[Any] | None = None,
) -> int:
    """Run a section's examples against ``base``; returns how many ran, and appends each
    real answer to ``answers``."""
    ran = 0
    for example in examples(section(title)):
        command = substitute(example.command, ids)
        assigned = assignment(command, ids)
        if assigned:
            env[assigned[0]] = assigned[1]
            continue
        assert command.startswith("curl "), f"not an example the test can run: {command}"
        command = command.replace("localhost:8000", base.removeprefix("http://"))
        result = subprocess.run(
            ["bash", "-c", command], capture_output=True, text=True, env=env, timeout=60
        )
        assert result.returncode == 0, (command, result.stderr)
        real = [json.loads(line) for line in result.stdout.splitlines() if line.strip()]
        printed = [json.loads(line) for line in example.printed]
        assert len(real) == len(printed), (command, result.stdout)
        if answers is not None:
            answers.extend(real)
        for printed_doc, real_doc in zip(printed, real, strict=True):
            compare(printed_doc, real_doc, command[:60], "/spin" in command, ids)
        ran += 1
    return ran


def finished(base: str, env: dict[str, str], game: str, answer: dict[str, Any]) -> Any:
    """The round of a README spin played to its end, as a player would (its free spins, or
    its collect), when the reels left it open: the README's audit counts finished rounds.
    Returns the round's whole win."""
    step = 0
    while answer["status"] != "complete":
        step += 1
        assert step < 1_000, answer
        action = "free-spin" if "free" in answer["status"] else "collect"
        command = (
            f"curl -s -X POST {base}/api/games/{game}/rounds/{answer['round_id']}/{action} "
            f'-H "Authorization: Bearer $TOKEN" -H "Idempotency-Key: finish-{step}-{game}" '
            "-H 'Content-Type: application/json' -d '{}'"
        )
        result = subprocess.run(
            ["bash", "-c", command], capture_output=True, text=True, env=env, timeout=60
        )
        assert result.returncode == 0, (command, result.stderr)
        answer = json.loads(result.stdout)
        assert "status" in answer, answer
    return answer["win"]


def test_the_readme_operator_and_player_sessions_run_as_printed(live_server) -> None:
    env = {"PATH": os.environ["PATH"]}
    ids: dict[str, str] = {}
    ran = run_section("Create, fund and launch a player (operator)", live_server.base, env, ids)
    answers: list[Any] = []
    ran += run_section("Spin through the API (player)", live_server.base, env, ids, answers)
    # create, deposit, session, a wrong key; two spins, a reused key, a replay
    assert ran == 8
    # then the audit of that session, as the README runs it in the server's folder; the
    # ledger holds the deposit, each spin's bet and each win the reels drew (the README's
    # spins: one win), so its count is the README's with this run's wins for its own
    spins = [a for a in answers if "bet" in a and "win" in a]
    assert len(spins) == 2, answers
    for game, spin in zip(("days-of-the-tsar", "sultan-spins"), spins, strict=True):
        spin["win"] = finished(live_server.base, env, game, spin)
    wins = sum(spin["win"]["minor"] > 0 for spin in spins)
    audit = examples(section("Check the audit log and the ledger").split("\n## ")[0])[0]
    assert audit.command.startswith("reelsmith audit verify "), audit.command
    result = subprocess.run(
        [sys.executable, "-m", "reelsmith.cli", *shlex.split(audit.command)[1:]],
        cwd=live_server.folder,
        env={k: v for k, v in os.environ.items() if not k.startswith("REELSMITH_")},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    printed = [
        line.replace("ledger: 4 transactions", f"ledger: {1 + len(spins) + wins} transactions")
        for line in audit.printed
    ]
    assert "ledger: 4 transactions, balanced" in audit.printed, audit.printed
    assert result.stdout.splitlines() == printed, (result.stdout, printed)
    # the operator guide shows the same audit of the same session
    guide = (ROOT / "docs" / "operator-guide.md").read_text(encoding="utf-8")
    assert "\n".join([f"$ {audit.command}", *audit.printed]) in guide


def test_the_readme_server_says_where_it_serves_as_printed(live_server) -> None:
    """The line ``reelsmith serve`` prints first, as the README shows it, on the port the test
    chose in place of the README's 8000 (a compile announcement goes to stderr)."""
    (serve,) = [
        e for e in examples(section("Run the game server")) if "reelsmith serve" in e.command
    ]
    assert "[--port 8000]" in serve.command
    (printed,) = serve.printed
    assert live_server.first_line == printed.replace(":8000/", f":{live_server.port}/")


def test_the_readme_names_the_make_targets_that_do_what_it_says() -> None:
    makefile = (ROOT / "Makefile").read_text()
    recipe = re.search(r"^play:.*\n\t(.+)$", makefile, flags=re.M)
    assert recipe and recipe.group(1).endswith("reelsmith play $(TITLE)")
    assert re.search(r"^TITLE \?= days-of-the-tsar$", makefile, flags=re.M)
    play = " ".join(section("Play in the terminal").split())
    assert "`reelsmith play days-of-the-tsar` (or `make play`) plays Days of the Tsar" in play
    assert "Without a title, `reelsmith play` lists the titles" in play
    assert "make run" in README and "make test" in README


def test_the_readme_tells_how_a_player_opens_the_web_client_with_a_token() -> None:
    # the client reads the launch token from ?token= (web/js/session.js; tests/web use it)
    session_js = (ROOT / "src/reelsmith/web/js/session.js").read_text()
    assert "searchParams.get('token')" in session_js
    assert "/?token=" in section("Create, fund and launch a player (operator)")
