"""``reelsmith validate`` is the lab's gate: each finding below is a plausible model mistake,
made on a copy of a small title, and ``validate`` names it (a problem with exit status 1, or a
warning), every problem of a model in one run; then every command is fed the same model and
either takes it or refuses it with one line on stderr, never a traceback."""

from __future__ import annotations

import itertools
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from reelsmith.cli import app

BASE = Path(__file__).parents[1] / "catalogue" / "models" / "weighted-fox"
runner = CliRunner()


def edit(folder: Path, file: str, old: str, new: str) -> None:
    path = folder / file
    text = path.read_text(encoding="utf-8")
    assert old in text, (file, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


MODEL = "model.toml"
VARIANT = "variants/weighted.toml"


def no_stated_rtp(folder: Path) -> None:
    edit(folder, VARIANT, "[figures]\nrtp = 1.1906509087\n", "")


def never_ending_free_spins(folder: Path) -> None:
    edit(folder, MODEL, "spins = { 3 = 8 }", "spins = { 3 = 1000 }")


def too_many_paylines(folder: Path) -> None:
    # four rows of three reels: 64 different lines
    lines = ",\n".join(f"  {list(line)}" for line in itertools.product(range(4), repeat=3))
    path = folder / MODEL
    text = path.read_text(encoding="utf-8").replace("rows = 3", "rows = 4", 1)
    text = re.sub(r"paylines = \[.*?\n\]", f"paylines = [\n{lines}\n]", text, flags=re.S)
    path.write_text(text.replace("max = 5 }\ncoins", "max = 64 }\ncoins", 1), encoding="utf-8")


def stated_rtp_off(folder: Path) -> None:
    edit(folder, VARIANT, "rtp = 1.1906509087", "rtp = 0.9700000000")


def five_problems(folder: Path) -> None:
    edit(folder, MODEL, 'name = "Weighted Fox"', 'name = "Weighted Fox"\ncolour = "red"')
    edit(folder, MODEL, "owl  = { 2 = 1, 3 = 10 }", "owl  = { 2 = -1, 3 = 10 }")
    edit(folder, MODEL, "lynx = { 3 = 5 }", "lynx = { 3 = 5 }\nrook = { 3 = 5 }")
    edit(folder, MODEL, "  [2, 1, 0],  # 5", "  [1, 1, 1],  # 5")
    edit(folder, VARIANT, '["aurora", "king", "ace", "fox"', '["aurora", "kong", "ace", "fox"')


def unpaid_scatter_count(folder: Path) -> None:
    edit(folder, MODEL, "pays = { 2 = 1, 3 = 4 }", "pays = { 2 = 1 }")


def unpaid_line_count(folder: Path) -> None:
    edit(folder, MODEL, "owl  = { 2 = 1, 3 = 10 }", "owl  = { 2 = 1 }")


def no_market(folder: Path) -> None:
    """The fresh copy as it is: an id of its own that no shipped market lists."""


def shipped_id(folder: Path) -> None:
    edit(folder, MODEL, 'id = "gate-fox"', 'id = "aurora-fox"')


def unweighted(folder: Path) -> None:
    """The variant's stops unweighted: strips the tuner's moves take (its stated RTP is then
    off its strips too)."""
    path = folder / VARIANT
    text = re.sub(r"stop_weights = \[.*?\n\]\n", "", path.read_text(encoding="utf-8"), flags=re.S)
    assert "stop_weights" not in text
    path.write_text(text, encoding="utf-8")


#: finding -> (the edit, what validate names: problems (exit 1), warnings)
FINDINGS: dict[str, tuple[Callable[[Path], None], list[str], list[str]]] = {
    "no stated RTP": (no_stated_rtp, ["variant 'weighted' states no RTP"], []),
    "never-ending free spins": (
        never_ending_free_spins,
        ["gate-fox weighted: the free spins never end on average"],
        [],
    ),
    "too many paylines": (
        too_many_paylines,
        ["64 paylines: the exact analysis (analyze, tune) takes at most 62"],
        [],
    ),
    "stated RTP off its strips": (
        stated_rtp_off,
        ["variant 'weighted' states an RTP of 97.00% but its strips give 119.065091% exactly"],
        [],
    ),
    "five problems": (
        five_problems,
        [
            "unknown key 'colour'",
            "line_pays.owl: pay for 2 must be a non-negative integer, got -1",
            "line_pays.rook: 'rook' is not a declared symbol",
            "payline 5 repeats payline 1",
            "reel_sets.base reel 1 stop 1 holds 'kong', not a declared symbol",
        ],
        [],
    ),
    # a pay taken away lowers the RTP the strips give: the stated one is off too
    "unpaid scatter count": (
        unpaid_scatter_count,
        ["states an RTP of 119.07% but its strips give"],
        ["scatter.pays lists no pay for 3 Aurora symbols: variant weighted's reels can show"],
    ),
    "unpaid line count": (
        unpaid_line_count,
        ["states an RTP of 119.07% but its strips give"],
        ["line_pays.owl lists no pay for 3 in a row: such a run pays nothing"],
    ),
    "no market": (no_market, [], ["no shipped market offers 'gate-fox'"]),
    "shipped id": (shipped_id, [], ["the id 'aurora-fox' is a shipped title's"]),
}


@pytest.fixture(params=sorted(FINDINGS))
def finding(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[str, Path]:
    folder = tmp_path / "gate_fox"
    shutil.copytree(BASE, folder)
    edit(folder, MODEL, 'id = "weighted-fox"', 'id = "gate-fox"')
    FINDINGS[request.param][0](folder)
    return request.param, folder


def lines_of(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]


def test_validate_names_each_finding_and_every_problem_in_one_run(
    finding: tuple[str, Path],
) -> None:
    name, folder = finding
    _, problems, warnings = FINDINGS[name]
    result = runner.invoke(app, ["validate", str(folder)])
    printed = lines_of(result.stderr)
    assert result.exit_code == (1 if problems else 0), result.output
    for expected in problems:
        assert sum(expected in line and not line.startswith("warning:") for line in printed) == 1, (
            expected,
            printed,
        )
    for expected in warnings:
        assert any(expected in line and line.startswith("warning: ") for line in printed), (
            expected,
            printed,
        )
    if not problems:
        assert result.stdout.startswith(f"{folder}: valid"), result.stdout


#: A finding beside a stated RTP off its strips: what ``validate`` says of the stated RTP in the
#: same run, a problem where the engine still builds the model for the exact analysis, else a
#: warning naming why it is not checked.
BESIDE_STATED_RTP_OFF: dict[str, tuple[str, str]] = {
    "too many paylines": (
        "problem",
        "variant 'weighted' states an RTP of 97.00% but its strips give 281.218096% exactly",
    ),
    "five problems": ("warning", "stated RTP not checked: the model does not load ("),
    "never-ending free spins": (
        "warning",
        "stated RTP not checked: gate-fox weighted: the free spins never end on average",
    ),
}


@pytest.mark.parametrize("name", sorted(BESIDE_STATED_RTP_OFF))
def test_validate_checks_the_stated_rtp_in_the_same_run_as_other_problems(
    name: str, tmp_path: Path
) -> None:
    folder = tmp_path / "gate_fox"
    shutil.copytree(BASE, folder)
    edit(folder, MODEL, 'id = "weighted-fox"', 'id = "gate-fox"')
    FINDINGS[name][0](folder)
    stated_rtp_off(folder)
    result = runner.invoke(app, ["validate", str(folder)])
    assert result.exit_code == 1, result.output
    printed = lines_of(result.stderr)
    problems = [line for line in printed if not line.startswith("warning: ")]
    warnings = [line for line in printed if line.startswith("warning: ")]
    for expected in FINDINGS[name][1]:
        assert sum(expected in line for line in problems) == 1, (expected, printed)
    kind, said = BESIDE_STATED_RTP_OFF[name]
    assert sum(said in line for line in (problems if kind == "problem" else warnings)) == 1, (
        said,
        printed,
    )
    assert sum("stated RTP" in line or "states an RTP" in line for line in printed) == 1, printed


def commands(folder: Path) -> list[list[str]]:
    where = str(folder)
    return [
        ["rules", where],
        ["model", where, "--json"],
        ["evaluate", where, "--grid", "king,ace,lynx/ace,king,owl/lynx,owl,king"],
        ["analyze", where],
        ["simulate", where, "--spins", "500", "--seed", "1", "--workers", "1"],
        ["tune", where, "--target-rtp", "95.00", "--game-dir", where],
        ["play", where, "--seed", "1"],
        ["titles", "--titles", where],
    ]


def takes_or_refuses_in_one_line(where: tuple[str, ...], result: Any) -> None:
    """The command ran (exit 0), or refused with one line on stderr: exit status 2 for input
    it refuses, or 1 where the tuner's search answers that the target is out of reach."""
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        where,
        repr(result.exception),
    )
    assert "Traceback" not in result.output, (where, result.output)
    if result.exit_code != 0:
        refused = lines_of(result.stderr)
        assert len(refused) == 1 and refused[0].startswith("error: "), (where, refused)
        searched = where[1] == "tune" and "out of reach" in refused[0]
        assert result.exit_code == (1 if searched else 2), (where, result.exit_code, refused)


def test_every_command_takes_a_finding_or_refuses_it_in_one_line(
    finding: tuple[str, Path],
) -> None:
    name, folder = finding
    for command in commands(folder):
        result = runner.invoke(app, command, input="\n")
        takes_or_refuses_in_one_line((name, command[0]), result)


def test_tune_takes_a_finding_on_unweighted_strips_or_refuses_it_in_one_line(
    finding: tuple[str, Path],
) -> None:
    """The tuner refuses weighted stops before anything else; on the same finding with its
    stops unweighted, the finding itself meets the tuner."""
    name, folder = finding
    unweighted(folder)
    command = ["tune", str(folder), "--target-rtp", "95.00", "--game-dir", str(folder)]
    takes_or_refuses_in_one_line((name, "tune"), runner.invoke(app, command))


def test_a_sound_copy_is_taken_by_every_command(tmp_path: Path) -> None:
    folder = tmp_path / "gate_fox"
    shutil.copytree(BASE, folder)
    edit(folder, MODEL, 'id = "weighted-fox"', 'id = "gate-fox"')
    for command in commands(folder):
        if command[0] == "tune":
            continue  # the tuner does not take weighted stops: a refusal, tested above
        result = runner.invoke(app, command, input="\n")
        assert result.exit_code == 0, (command[0], result.output)
