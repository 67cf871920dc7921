"""The math lab's commands on a ladder-and-pots title (Sultan Spins): analyze, simulate - output,
files, bad input, and the generic lab serving a copy of its folder."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from reelsmith.cli import app

runner = CliRunner()
GAME = "sultan-spins"


def run(*args):
    return runner.invoke(app, list(args))


def one_error_line(result, message):
    assert result.exit_code == 2, result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ") and message in lines[0], lines[0]
    assert result.stdout == ""


def test_analyze_json_has_the_figures():
    result = run("analyze", GAME, "--variant", "96.10", "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    for key in (
        "rtp",
        "rtp_breakdown",
        "hit_frequency",
        "std_dev",
        "volatility_index",
        "free_spins_frequency",
        "max_win",
        "method",
    ):
        assert key in doc
    assert doc["variant"] == "96.10" and abs(doc["rtp"] * 100 - 96.10) < 0.01
    breakdown = doc["rtp_breakdown"]
    parts = breakdown["main_game_lines"] + breakdown["free_spins_lines"] + breakdown["jackpots"]
    assert parts == pytest.approx(doc["rtp"], abs=1e-9)
    assert sum(breakdown["jackpots_by_pot"].values()) == pytest.approx(breakdown["jackpots"])
    assert sum(breakdown["free_spins_lines_by_level"].values()) == pytest.approx(
        breakdown["free_spins_lines"], abs=1e-9
    )
    assert set(doc["volatility_index"]) == {"90", "95"} and doc["volatility_class"] == "high"
    assert [lv["level"] for lv in doc["free_spins"]["levels"]] == [1, 2, 3, 4, 5]
    assert [p["cap_x_bet"] for p in doc["pots"]] == [25, 50, 250, 1250, 5000]
    assert doc["method"]["simulated"] == ["round_win_distribution"]
    assert doc["win_distribution_round"]["method"].startswith("simulated")
    assert doc["gli_11"]["awards_rarer"] == [] and len(doc["awards"]) == 32


def test_analyze_text_and_par_sheet(tmp_path):
    report = tmp_path / "par.html"
    result = run("analyze", GAME, "--report", str(report))
    assert result.exit_code == 0, result.output
    assert "RTP 93.99999%" in result.stdout and "hit frequency" in result.stdout
    assert "class high" in result.stdout
    html = report.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and html.rstrip().endswith("</html>")
    assert html.count('src="data:image/png;base64,') >= 3  # self-contained plots
    for text in (
        "Reel strips",
        "Paytable",
        "Local jackpots",
        "Gem reveals",
        "Free-spins ladder",
        "confidence band",
        "Volatility class",
        "simulated",
    ):
        assert text in html
    assert not list(tmp_path.glob(".*tmp"))  # no temporary file left behind


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["analyze", GAME, "--variant", "95.00"], "no RTP variant '95.00'"),
        (["analyze", GAME, "--report", "/no/such/folder/par.html"], "does not exist"),
        (["simulate", GAME, "--spins", "0"], "--spins must be at least 1"),
        (["simulate", GAME, "--spins", "-5"], "--spins must be at least 1"),
        (["simulate", GAME, "--spins", "lots"], "--spins must be a whole number"),
        (["simulate", GAME, "--spins", "10", "--variant", "1"], "no RTP variant"),
        (["simulate", GAME, "--spins", "10", "--seed", "-1"], "--seed must be"),
        (["simulate", GAME, "--spins", "10", "--workers", "0"], "--workers must"),
        (
            ["simulate", GAME, "--spins", "10", "--cluster", "127.0.0.1:1"],
            "cannot reach a Ray cluster there",
        ),
        (["simulate", GAME, "--spins", "10", "--cluster", "nowhere"], "host:port"),
    ],
)
def test_bad_input_is_one_line(args, message):
    one_error_line(run(*args), message)


def test_report_path_that_is_a_folder(tmp_path):
    one_error_line(run("analyze", GAME, "--report", str(tmp_path)), "is a folder, not a file")


def test_simulate_json_is_reproducible():
    args = ("simulate", GAME, "--spins", "200_000", "--seed", "4", "--json")
    result = run(*args)
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["spins"] == 200_000 and doc["seed"] == 4 and doc["start"] == "stationary"
    assert doc["rtp_ci95"][0] < doc["rtp"] < doc["rtp_ci95"][1]
    assert doc["spins_per_second"] > 0 and doc["ci_method"].startswith("batch means")
    for key in ("hit_frequency", "round_hit_frequency", "free_spins_frequency", "std_dev"):
        assert key in doc and key in doc["exact"]
    again = json.loads(run(*args[:-1], "--workers", "2", "--json").stdout)
    assert again["rtp"] == doc["rtp"] and again["std_dev"] == doc["std_dev"]


def test_simulate_text_prints_a_random_seed():
    result = run("simulate", GAME, "--spins", "50000", "--workers", "1")
    assert result.exit_code == 0, result.output
    assert "seed" in result.stdout and "spins per second" in result.stdout
    assert "batch means" in result.stdout


def test_a_copy_of_the_folder_is_served_by_the_ladder_lab(tmp_path):
    """The lab finds the ladder from the model, not from the title's id or folder name: a copy
    of the folder under another name analyses and simulates as the shipped title does, through
    the ladder's round law and the ladder kind's entry points."""
    import shutil

    from reelsmith.analysis import ladder
    from reelsmith.analysis.analyzer import round_law
    from reelsmith.engine.model import load_model
    from reelsmith.games import game_folder
    from reelsmith.mechanics import round_face
    from reelsmith.mechanics.base import face

    copy = tmp_path / "my_ladder_game"
    shutil.copytree(game_folder(GAME), copy)
    model = load_model(copy)
    assert round_law(model).module == "reelsmith.analysis.ladder_exact"
    assert face(round_face(model, "simulate")) is ladder.simulate_title
    shipped = json.loads(run("analyze", GAME, "--json").stdout)
    copied = json.loads(run("analyze", str(copy), "--json").stdout)
    for key in ("rtp", "hit_frequency", "std_dev", "free_spins_frequency"):
        assert copied[key] == shipped[key], key
    args = ("--spins", "20_000", "--seed", "5", "--workers", "1", "--json")
    from_copy = json.loads(run("simulate", str(copy), *args).stdout)
    from_id = json.loads(run("simulate", GAME, *args).stdout)
    assert from_copy["rtp"] == from_id["rtp"] and from_copy["pots"] == from_id["pots"]
