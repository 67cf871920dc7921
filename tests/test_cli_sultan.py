"""The command line for Sultan Spins: rules, model, evaluate with --bet, play."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from reelsmith.cli import app

runner = CliRunner()
GRID = (
    "sultan,sultan,wild,sultan,ten/ace,bonus,king,queen,jack/"
    "ten,jack,bonus,ace,king/queen,ten,jack,gem,ace"
)


def run(*args, input=None):
    return runner.invoke(app, list(args), input=input)


def test_rules_json_has_forty_paylines_of_four_rows():
    result = run("rules", "sultan-spins", "--json")
    assert result.exit_code == 0
    doc = json.loads(result.stdout)
    assert len(doc["paylines"]) == 40 and all(len(line) == 5 for line in doc["paylines"])
    assert max(max(line) for line in doc["paylines"]) == 3
    symbols = {p["symbol"] for p in doc["paytable"]}
    assert {"wild", "sultan", "ace", "ten"} <= symbols and "bonus" not in symbols
    pots = doc["rules"]["jackpots"]["pots"]
    assert [p["largest_award"] for p in pots] == ["24x bet", "49x bet", "249x bet", "1249x bet",
                                                  "4999x bet"]  # fmt: skip
    assert [p["must_be_won_before"] for p in pots] == [
        "25x bet",
        "50x bet",
        "250x bet",
        "1250x bet",
        "5000x bet",
    ]
    assert [lvl["multiplier"] for lvl in doc["rules"]["free_spins"]["levels"]] == [
        "1x",
        "2x",
        "4x",
        "6x",
        "8x",
    ]
    assert doc["variant"] == "94.00"


def test_rules_text_draws_forty_paylines():
    result = run("rules", "sultan-spins")
    assert result.exit_code == 0
    assert "Local jackpots" in result.stdout and "40" in result.stdout
    assert result.stdout.count("■") == 40 * 5


def test_model_json():
    result = run("model", "sultan-spins", "--variant", "96.10", "--json")
    assert result.exit_code == 0
    doc = json.loads(result.stdout)
    assert doc["variant"]["id"] == "96.10"
    assert len(doc["variant"]["reel_sets"]["free_spins"]) == 5
    assert doc["variant"]["gem_reveal"]["outcomes"][-1] == "wild_reel"


def test_evaluate_a_revealed_grid():
    result = run("evaluate", "sultan-spins", "--grid", GRID, "--bet", "2.00", "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["line_wins"][0] == {"line": 1, "symbol": "sultan", "count": 4, "coins": 200}
    assert out["total_coins"] == sum(w["coins"] for w in out["line_wins"])
    assert out["total_amount"] == f"{out['total_coins'] * 2 / 40:.2f}"
    assert out["bonus"] == 2 and out["collection_spot"] is True
    assert out["free_spins_triggered"] is False


def test_evaluate_at_a_free_spins_level_multiplies_line_wins():
    main = json.loads(run("evaluate", "sultan-spins", "--grid", GRID, "--json").stdout)
    level4 = json.loads(
        run("evaluate", "sultan-spins", "--grid", GRID, "--level", "4", "--json").stdout
    )
    assert level4["multiplier"] == 6 and level4["total_coins"] == 6 * main["total_coins"]
    assert level4["collection_spot"] is False


def test_wild_does_not_substitute_for_bonus_or_gem():
    grid = (
        "wild,bonus,sultan,sultan,sultan/gem,sultan,sultan,ten,ace/"
        "ten,ace,king,queen,jack/jack,queen,ten,ace,king"
    )
    result = run("evaluate", "sultan-spins", "--grid", grid, "--json")
    out = json.loads(result.stdout)
    line1 = [w for w in out["line_wins"] if w["line"] == 1]
    assert line1 == []  # wild then bonus: the line stops at the bonus
    line2 = [w for w in out["line_wins"] if w["line"] == 2]
    assert line2 == []  # a gem on reel 1 starts no line


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--grid", GRID, "--bet", "0.30"], "bet 0.30 is not offered"),
        (["--grid", GRID, "--bet", "abc"], "bet 'abc' is not a number"),
        (["--grid", GRID, "--level", "6"], "--level must be 0 (main game) or 1 to 5, got 6"),
        (["--grid", GRID, "--lines", "10"], "Sultan Spins takes --bet"),
        (
            ["--grid", "ace,ace,ace,ace,ace/ace,ace,ace,ace,ace/ace,ace,ace,ace,ace"],
            "the grid has 3 rows; Sultan Spins shows 4",
        ),
        (
            [
                "--grid",
                "bonus,ace,ace,ace,ace/bonus,ace,ace,ace,ace/ace,ace,ace,ace,ace/ace,ace,ace,ace,ace",
            ],
            "reel 1 shows 2 bonus symbols",
        ),
        (["--grid", GRID.replace("queen,ten", "queen,egg")], "unknown symbol 'egg'"),
    ],
)
def test_bad_input_is_one_line(args, message):
    result = run("evaluate", "sultan-spins", *args)
    assert result.exit_code != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0]
    assert result.stdout == ""


def test_tsar_refuses_sultan_options():
    tsar_grid = "ace,ace,ace,nine,ten/ten,queen,jack,king,nine/queen,king,nine,ace,jack"
    result = run("evaluate", "days-of-the-tsar", "--grid", tsar_grid, "--bet", "1.00")
    assert result.exit_code != 0 and "not --bet or --level" in result.stderr


def test_play_sultan_spins():
    result = run(
        "play", "sultan-spins", "--seed", "5", "--balance", "20.00", input="b 2.00\ns\ns\nq\n"
    )
    assert result.exit_code == 0, result.output
    assert "Jackpots at bet 2.00" in result.stdout
    assert "Goodbye: 2 rounds played" in result.stdout
