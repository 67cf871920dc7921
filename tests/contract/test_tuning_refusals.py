"""``reelsmith tune`` refuses bad input the same way for every title: one line on stderr naming
what is wrong, exit status 2, before any search is made and with nothing written into the
title's folder (a copy, so the package's own variants are never at stake)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from reelsmith.cli import app
from reelsmith.games import game_folder
from tests.contract.titles import contract_titles, model

runner = CliRunner()

#: (arguments after the title, what the one line must say)
REFUSALS = [
    (["--target-rtp", "abc"], "--target-rtp must be a percentage"),
    (["--target-rtp", "95.555"], "at most two decimals"),
    (["--target-rtp", "120"], "between 85.00 and 99.00"),
    (["--target-rtp", "-3"], "between 85.00 and 99.00"),
    (["--target-rtp", "95.50", "--volatility", "extreme"], "--volatility must be one of"),
    (["--target-rtp", "95.50", "--from", "93.00"], "no RTP variant '93.00'"),
    (["--target-rtp", "95.50", "--game-dir", "/no/such/dir"], "no model.toml"),
]


@pytest.fixture
def folder(tmp_path: Path, request: pytest.FixtureRequest) -> Path:
    game_id = request.node.callspec.params["game_id"]
    source = game_folder(game_id)
    copy = tmp_path / source.name
    shutil.copytree(source, copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def variant_files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((folder / "variants").glob("*.toml"))}


def one_error_line(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), lines
    return lines[0]


@pytest.mark.parametrize("game_id", contract_titles())
@pytest.mark.parametrize(("extra", "message"), REFUSALS)
def test_bad_tune_input_is_refused_in_one_line(
    game_id: str, extra: list[str], message: str, folder: Path
) -> None:
    before = variant_files(folder)
    args = ["tune", game_id, *extra]
    if "--game-dir" not in extra:
        args += ["--game-dir", str(folder)]
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert message in one_error_line(result.stderr)
    assert variant_files(folder) == before


@pytest.mark.parametrize("game_id", contract_titles())
def test_an_existing_variant_is_not_replaced_without_force(game_id: str, folder: Path) -> None:
    """Tuning to the RTP of a variant the title ships names its file and leaves it as it was."""
    existing = model(game_id).default_variant
    before = variant_files(folder)
    result = runner.invoke(
        app, ["tune", game_id, "--target-rtp", existing, "--game-dir", str(folder)]
    )
    assert result.exit_code == 2, result.output
    line = one_error_line(result.stderr)
    assert f"{existing}.toml exists already; pass --force" in line
    assert variant_files(folder) == before
