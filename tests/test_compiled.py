"""Compiled code is cached where the user can write, and its first build is announced once.

Each check runs fresh processes (numba reads its cache folder when a function is decorated, so
only a new process sees a new folder), on a small engine function so that compiling costs a
second, not minutes.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

#: A phase that compiles one small numba function of the engine.
PHASE = """
import sys
import numpy as np
from rich.console import Console
from reelsmith.compiled import compiling
from reelsmith.engine.stops import stop_for_draw

with compiling("the stop search", "test stops", Console(stderr=True)):
    print(stop_for_draw(np.array([1, 3, 6], dtype=np.int64), 3, 4))
"""


def run(code: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300
    )


def environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "XDG_CACHE_HOME")}
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    env.update(extra)
    return env


def test_the_cache_is_the_users_and_a_second_process_is_told_nothing(tmp_path: Path) -> None:
    env = environment(XDG_CACHE_HOME=str(tmp_path / "cache"), HOME=str(tmp_path))
    first = run(PHASE, env)
    assert first.returncode == 0, first.stderr
    assert first.stdout == "2\n"
    assert re.fullmatch(
        r"compiling the stop search \(first use; cached in ~/cache/reelsmith/numba\) \.\.\. "
        r"\d+\.\d s\n",
        first.stderr,
    ), first.stderr
    folder = tmp_path / "cache" / "reelsmith" / "numba"
    assert list(folder.rglob("*.nbi")), "numba cached nothing in the user's folder"
    second = run(PHASE, env)
    assert second.returncode == 0 and second.stdout == "2\n"
    assert second.stderr == "", second.stderr


def test_numba_cache_dir_from_the_environment_wins(tmp_path: Path) -> None:
    chosen = tmp_path / "elsewhere"
    env = environment(NUMBA_CACHE_DIR=str(chosen), HOME=str(tmp_path / "home"))
    result = run(PHASE, env)
    assert result.returncode == 0, result.stderr
    assert f"cached in {chosen}" in result.stderr
    assert list(chosen.rglob("*.nbi")) and not (tmp_path / "home" / ".cache").exists()


def test_an_edited_cache_is_compiled_again_and_said(tmp_path: Path) -> None:
    """A cache folder emptied of numba's files (the manifest kept) is not called cached."""
    env = environment(NUMBA_CACHE_DIR=str(tmp_path / "numba"))
    assert run(PHASE, env).returncode == 0
    for index in (tmp_path / "numba").rglob("*.nbi"):
        index.unlink()
    again = run(PHASE, env)
    assert again.stderr.startswith("compiling the stop search"), again.stderr


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes through a read-only folder")
def test_an_unwritable_home_leaves_numba_its_own_default(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    home.chmod(0o500)
    try:
        env = environment(HOME=str(home))
        code = "import reelsmith, os; print(os.environ.get('NUMBA_CACHE_DIR', 'unset'))"
        result = run(code, env)
    finally:
        home.chmod(0o700)
    assert result.returncode == 0 and result.stdout == "unset\n", result.stderr


def test_warm_refuses_an_unknown_title_before_compiling_anything() -> None:
    from typer.testing import CliRunner

    from reelsmith.cli import app

    result = CliRunner().invoke(app, ["warm", "aurora-fox", "no-such-title"])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "no-such-title" in lines[0]
    assert "compiling" not in result.output and "ready" not in result.output


def cli(args: list[str], env: dict[str, str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "reelsmith.cli", *args],
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_play_compiles_the_live_engine_before_the_first_spin_and_says_so(tmp_path: Path) -> None:
    env = environment(NUMBA_CACHE_DIR=str(tmp_path / "numba"), HOME=str(tmp_path))
    args = ["play", "days-of-the-tsar", "--seed", "1", "--balance", "50.00"]
    first = cli(args, env, "s\nc\nq\n")
    assert first.returncode == 0, first.stderr
    assert re.fullmatch(
        r"compiling the live engine of days-of-the-tsar \(first use; cached in ~/numba\) "
        r"\.\.\. \d+\.\d s\n",
        first.stderr,
    ), first.stderr
    second = cli(args, env, "s\nc\nq\n")
    assert second.returncode == 0 and second.stderr == "", second.stderr
    # the throwaway session before the game takes no draw of the player's seeded session
    assert second.stdout == first.stdout
    assert "1 rounds played" in second.stdout


def test_serve_compiles_the_live_engine_before_it_says_it_is_serving(tmp_path: Path) -> None:
    from tests.reliability.live import free_port

    env = environment(NUMBA_CACHE_DIR=str(tmp_path / "numba"), HOME=str(tmp_path))
    env = {k: v for k, v in env.items() if not k.startswith("REELSMITH_")}

    def start() -> tuple[list[str], list[str]]:
        """What ``reelsmith serve`` printed up to its serving line: stderr's lines, stdout's."""
        process = subprocess.Popen(
            [sys.executable, "-m", "reelsmith.cli", "serve", "--port", str(free_port())],
            cwd=tmp_path,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            assert process.stdout is not None and process.stderr is not None
            serving = process.stdout.readline()
        finally:
            process.terminate()
            _, errors = process.communicate(timeout=60)
        return [line for line in errors.splitlines() if line.startswith("compiling")], [serving]

    announced, serving = start()
    assert serving[0].startswith("reelsmith serving on http://127.0.0.1:"), serving
    assert announced, "the first start compiled the live engine without saying so"
    for line in announced:
        assert re.fullmatch(
            r"compiling the live engine of [a-z-]+ \(first use; cached in .*\) \.\.\. \d+\.\d s",
            line,
        ), line
    again, _ = start()
    assert again == [], again
