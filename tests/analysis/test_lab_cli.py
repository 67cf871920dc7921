"""The math lab's commands: analyze, simulate, tune - output, files, and bad input."""

from __future__ import annotations

import importlib
import json

import pytest
from typer.testing import CliRunner

from reelsmith.cli import app
from reelsmith.engine.model import ModelError

runner = CliRunner()


def run(*args):
    return runner.invoke(app, list(args))


def one_error_line(result, message):
    assert result.exit_code != 0
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ") and message in lines[0], lines[0]
    assert result.stdout == ""


def test_analyze_json_has_the_figures():
    result = run("analyze", "days-of-the-tsar", "--variant", "94.00", "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    for key in ("rtp", "rtp_breakdown", "hit_frequency", "std_dev", "volatility_index"):
        assert key in doc
    assert doc["variant"] == "94.00"
    assert abs(doc["rtp"] * 100 - 94.0) < 0.01
    assert set(doc["volatility_index"]) == {"90", "95"}
    assert doc["max_win"]["round"].startswith("unbounded")


def test_analyze_text_and_par_sheet(tmp_path):
    report = tmp_path / "par.html"
    result = run("analyze", "days-of-the-tsar", "--report", str(report))
    assert result.exit_code == 0, result.output
    assert "RTP 95.99912%" in result.stdout and "hit frequency" in result.stdout
    html = report.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and html.rstrip().endswith("</html>")
    assert html.count('src="data:image/png;base64,') >= 3  # self-contained plots
    for text in ("Reel strips", "Paytable", "Free spins", "confidence band", "Volatility class"):
        assert text in html
    assert not list(tmp_path.glob(".*tmp"))  # no temporary file left behind


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["analyze", "days-of-the-tsar", "--variant", "95.00"], "no RTP variant '95.00'"),
        (["analyze", "no-such-game"], "unknown game 'no-such-game'"),
        (["analyze", "days-of-the-tsar", "--report", "/no/such/folder/par.html"], "does not exist"),
        (["simulate", "days-of-the-tsar", "--spins", "0"], "--spins must be at least 1"),
        (["simulate", "days-of-the-tsar", "--spins", "-5"], "--spins must be at least 1"),
        (["simulate", "days-of-the-tsar", "--spins", "lots"], "--spins must be a whole number"),
        (["simulate", "days-of-the-tsar", "--spins", "10", "--variant", "1"], "no RTP variant"),
        (["simulate", "days-of-the-tsar", "--spins", "10", "--seed", "-1"], "--seed must be"),
        (["simulate", "days-of-the-tsar", "--spins", "10", "--workers", "0"], "--workers must"),
        (
            ["simulate", "days-of-the-tsar", "--spins", "10", "--cluster", "127.0.0.1:1"],
            "cannot reach a Ray cluster there",
        ),
        (["simulate", "days-of-the-tsar", "--spins", "10", "--cluster", "nowhere"], "host:port"),
    ],
)
def test_bad_input_is_one_line(args, message):
    one_error_line(run(*args), message)


def test_report_path_that_is_a_folder(tmp_path):
    one_error_line(
        run("analyze", "days-of-the-tsar", "--report", str(tmp_path)), "is a folder, not a file"
    )


def test_every_shipped_title_s_round_has_its_lab_faces():
    from reelsmith.games import TITLE_FOLDERS, load_game
    from reelsmith.mechanics import round_face
    from reelsmith.mechanics.base import face

    for game in TITLE_FOLDERS:
        model = load_game(game)
        assert callable(face(round_face(model, "simulate")))
        exact = importlib.import_module(round_face(model, "exact"))
        assert callable(exact.analyze_full) and callable(exact.stored_figures)
    with pytest.raises(ModelError, match="no mechanic of this model has a price"):
        round_face(load_game(next(iter(TITLE_FOLDERS))), "price")


def test_simulate_json():
    result = run("simulate", "days-of-the-tsar", "--spins", "200_000", "--seed", "4", "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["spins"] == 200_000 and doc["seed"] == 4
    assert doc["rtp_ci95"][0] < doc["rtp"] < doc["rtp_ci95"][1]
    assert doc["spins_per_second"] > 0
    for key in ("hit_frequency", "free_spins_frequency", "std_dev", "exact"):
        assert key in doc
    again = json.loads(
        run("simulate", "days-of-the-tsar", "--spins", "200000", "--seed", "4", "--json").stdout
    )
    assert again["rtp"] == doc["rtp"] and again["std_dev"] == doc["std_dev"]


def test_simulate_text_prints_a_random_seed():
    result = run("simulate", "days-of-the-tsar", "--spins", "50000", "--workers", "1")
    assert result.exit_code == 0, result.output
    assert "seed" in result.stdout and "rounds per second" in result.stdout
