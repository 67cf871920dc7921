"""The README's command-line examples run as printed.

Every ``$ reelsmith ...`` line of the README's code blocks (a pipe into ``jq`` or ``grep``
included) runs by bash, in order, in one fresh temporary folder (so ``reelsmith new my_title``
makes the folder the next examples use), with ``reelsmith`` the command line of this checkout.
What the README prints under a command must be what it prints: line for line, except for the
declared variable parts (:data:`MASKS`: durations and speeds; and the line announcing a
first compile, :data:`COMPILING`), a ``...`` line standing for any lines, the
padding before a box's right edge (a rules page is as wide as the terminal) and empty lines
before or after the output. A command the README shows no output for must succeed.

Some examples are not run here, each for a reason (:data:`ELSEWHERE`); the slow ones (a tuning,
a simulation of millions of rounds) run in the slow suite.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"

#: Examples run by another test or not runnable in a test, by the start of their command.
ELSEWHERE = {
    "reelsmith serve": "starts a server: tests/packaging/test_readme.py runs the API sessions",
    "reelsmith audit verify": "reads the database of the README's server session: test_readme.py",
    "reelsmith play": "an interactive session whose input is typed between the printed lines",
    "reelsmith analyze days-of-the-tsar --report": "its refusal depends on the extras installed",
    "reelsmith simulate my_title": "named in a sentence, not an example with output",
}
#: Examples that take tens of seconds to minutes: the slow suite runs them.
SLOW = ("reelsmith tune", "reelsmith simulate", "reelsmith warm")
#: What differs from run to run: (pattern, what the document's text and the output both
#: become): a duration in brackets, a duration ending a line, a simulation's speed line.
MASKS = [
    (re.compile(r"\(\d+(\.\d+)? s\)"), "(<seconds> s)"),
    (re.compile(r"; \d+(\.\d+)? s$"), "; <seconds> s"),
    (
        re.compile(r"^\d+(\.\d+)? s, [\d,]+ (\w+) per second; the kernel alone [\d,]+ per core$"),
        r"<seconds> s, <rate> \2 per second; the kernel alone <rate> per core",
    ),
    (
        re.compile(r"^compiled code and tables ready in \d+(\.\d+)? s before"),
        "compiled code and tables ready in <seconds> s before",
    ),
]
#: A line announcing that compiled code is being built (reelsmith.compiled): printed only by
#: the first use on a machine, so it is not part of any example's output.
COMPILING = re.compile(r"^compiling .* \(first use; .*\) \.\.\. \d+(\.\d+)? s$")


@dataclass
class Example:
    command: str
    printed: list[str] = field(default_factory=list)


def examples(text: str) -> list[Example]:
    """The ``$`` commands of the code blocks (continuation lines joined, a trailing comment
    dropped) and the lines each prints."""
    found: list[Example] = []
    for block in re.findall(r"^```\n(.*?)^```", text, flags=re.S | re.M):
        lines = block.splitlines()
        i = 0
        current: Example | None = None
        while i < len(lines):
            line = lines[i]
            i += 1
            if not line.startswith("$ "):
                if current is not None:
                    current.printed.append(line)
                continue
            command = line[2:]
            while command.rstrip().endswith("\\"):
                command = command.rstrip()[:-1] + " " + lines[i].strip()
                i += 1
            current = Example(re.sub(r"\s+#\s.*$", "", command).strip())
            found.append(current)
    return found


def normal(line: str) -> str:
    line = line.rstrip()
    for pattern, replacement in MASKS:
        line = pattern.sub(replacement, line)
    return re.sub(r"\s+│$", " │", line)


def matches(printed: list[str], real: list[str]) -> bool:
    """``real`` is ``printed`` line for line, a ``...`` line standing for any lines."""
    if not printed:
        return not real
    if printed[0].strip() == "...":
        return any(matches(printed[1:], real[k:]) for k in range(len(real) + 1))
    return bool(real) and normal(printed[0]) == normal(real[0]) and matches(printed[1:], real[1:])


def readme_examples(slow: bool) -> list[Example]:
    chosen = []
    for example in examples(README.read_text(encoding="utf-8")):
        if not example.command.startswith("reelsmith "):
            continue  # make, pip, export, cp, curl (tests/packaging/test_readme.py)
        if any(example.command.startswith(start) for start in ELSEWHERE):
            continue
        if not slow and example.command.startswith(SLOW):
            continue
        chosen.append(example)
    return chosen


def run_in_order(folder: Path, chosen: list[Example], files: tuple[str, ...] = ()) -> None:
    """Run ``chosen`` in order in a fresh folder under ``folder``, holding a copy of each of
    ``files`` (paths of this checkout the examples name) at the same relative path."""
    bin_dir = folder / "bin"
    bin_dir.mkdir()
    wrapper = bin_dir / "reelsmith"
    wrapper.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m reelsmith.cli "$@"\n')
    wrapper.chmod(0o755)
    work = folder / "work"
    work.mkdir()
    for name in files:
        shutil.copytree(ROOT / name, work / name)
    env = {k: v for k, v in os.environ.items() if not k.startswith("REELSMITH_")}
    env.update(
        PYTHONUNBUFFERED="1",
        PATH=f"{bin_dir}{os.pathsep}{env['PATH']}",
        COLUMNS="200",
        PYTHONPATH=os.pathsep.join(p for p in sys.path if p),
    )
    for example in chosen:
        result = subprocess.run(
            ["bash", "-o", "pipefail", "-c", example.command],
            cwd=work,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,  # both, in the order a terminal shows them
            text=True,
            timeout=900,
        )
        # empty lines before or after the output are not part of it
        real = [
            line for line in result.stdout.strip("\n").splitlines() if not COMPILING.match(line)
        ]
        refusal = any(line.startswith("error: ") for line in example.printed)
        assert (result.returncode != 0) == refusal, (example.command, result.returncode, real)
        if example.printed:
            assert matches(example.printed, real), (example.command, example.printed, real)


def test_the_readme_command_line_examples_run_as_printed(tmp_path: Path) -> None:
    chosen = readme_examples(slow=False)
    commands = [e.command for e in chosen]
    assert "reelsmith new my_title" in commands and "reelsmith validate my_title" in commands
    run_in_order(tmp_path, chosen)


@pytest.mark.slow
def test_the_readme_command_line_examples_run_as_printed_with_the_slow_ones(
    tmp_path: Path,
) -> None:
    run_in_order(tmp_path, readme_examples(slow=True))
