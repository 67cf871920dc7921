"""Lines an operator or a player copies from the console come out whole: the server's start-up
lines are never wrapped at the terminal's width, and the terminal game's prompts are plain text
(the ``[c]`` of ``[c]ollect`` is the key to type, not console markup)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from reelsmith.cli import app


def test_serve_start_up_lines_are_not_wrapped_on_a_narrow_terminal(tmp_path: Path) -> None:
    # A deep database path makes the line far longer than the 40 columns the console is given.
    folder = tmp_path / "a-folder-with-a-long-name" / "and-another-one-inside-it"
    folder.mkdir(parents=True)
    database_url = f"sqlite:///{folder / 'reelsmith.db'}"
    env = {key: value for key, value in os.environ.items() if not key.startswith("REELSMITH_")} | {
        "COLUMNS": "40",
        "PYTHONUNBUFFERED": "1",
    }
    with socket.socket() as probe:  # a port nothing listens on (the server is stopped
        probe.bind(("127.0.0.1", 0))  # before it would listen anyway)
        port = probe.getsockname()[1]
    command = [sys.executable, "-m", "reelsmith.cli", "serve", "--port", str(port)]
    process = subprocess.Popen(
        [*command, "--database-url", database_url],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    try:
        assert process.stdout is not None
        first = process.stdout.readline().rstrip("\n")
        second = process.stdout.readline().rstrip("\n")
    finally:
        process.kill()
        process.wait(timeout=30)
    assert first == f"reelsmith serving on http://127.0.0.1:{port}/ (database {database_url})"
    # no key was configured, so the process made one up and prints it, whole, on one line
    assert second.startswith("operator API key for this run: ")
    key = second.removeprefix("operator API key for this run: ")
    assert len(key) >= 32 and " " not in key


def test_the_gamble_prompt_shows_the_collect_key() -> None:
    # seed 1's first spin wins, so the gamble is offered; "c" collects
    result = CliRunner().invoke(
        app,
        ["play", "days-of-the-tsar", "--seed", "1", "--balance", "10.00"],
        input="s\nc\nq\n",
    )
    assert result.exit_code == 0, result.output
    assert "spades — or [c]ollect > " in result.stdout
