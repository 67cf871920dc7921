"""``reelsmith validate`` on a ladder model: a sound one is valid; each problem of its
``[ladder]``, ``[[jackpots]]`` and ``[bet]`` tables is named on a line of its own, all of them
at once; the engine refuses the same model on the first."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from reelsmith.engine.ladder import ladder_rules
from reelsmith.engine.model import ModelError, load_model
from reelsmith.games import game_folder, load_game
from reelsmith.mechanics import by_name, declared_names
from reelsmith.modelio.validate import validate_folder


@pytest.fixture
def title(tmp_path: Path) -> Path:
    folder = tmp_path / "ladder_title"
    shutil.copytree(game_folder("sultan-spins"), folder)
    return folder


def edit(folder: Path, old: str, new: str) -> None:
    path = folder / "model.toml"
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_the_shipped_ladder_model_is_valid_and_declares_the_ladder(title: Path) -> None:
    assert validate_folder(title) == []
    assert "ladder" in declared_names(load_game("sultan-spins"))
    assert "ladder" not in declared_names(load_game("days-of-the-tsar"))
    assert "ladder" not in declared_names(load_game("aurora-fox"))


@pytest.mark.parametrize(
    ("old", "new", "problem"),
    [
        (
            "reel = 5\nseed = 500",
            "reel = 6\nseed = 500",
            "jackpots[5].reel: 6 is not a reel of the grid (1 to 5)",
        ),
        (
            "multipliers = [1, 2, 4, 6, 8]",
            "multipliers = [1, 2, 4, 6]",
            "ladder.multipliers lists 4 multipliers for 5 levels",
        ),
        (
            'symbol = "bonus"\ntrigger',
            'symbol = "coin"\ntrigger',
            "ladder.symbol: 'coin' is not a declared symbol",
        ),
        (
            'symbol = "bonus"\ntrigger',
            'symbol = "ace"\ntrigger',
            "ladder.symbol: 'ace' must be a symbol with role 'bonus'",
        ),
        (
            "meter_feed = 2",
            "meter_feed = 3",
            "ladder.meter_feed: 3 bonus symbols start the free spins",
        ),
        ("meter_feed = 2", "meter_feed = 2\nfeed = 1", "ladder: unknown key 'feed'"),
        ("spots = 5", "spots = 0", "ladder.spots must be a whole number >= 1, got 0"),
        ("spins_per_level = 7\n", "", "ladder: missing key 'spins_per_level'"),
        (
            "seed = 500\ncap = 5000",
            "seed = 500\ncap = 501",
            "jackpots[5]: seed 500 leaves no trigger point below the cap 501",
        ),
        ('name = "blue"', 'name = "teal"', "jackpots[2].name: 'teal' names another pot too"),
        ("cap = 25\n", "cap = 25\nfloor = 1\n", "jackpots[1]: unknown key 'floor'"),
        (
            'legacy_stake_unit = "0.20"',
            'legacy_stake_unit = "-1"',
            "bet.legacy_stake_unit must be a decimal amount above 0",
        ),
        (
            'legacy_stake_unit = "0.20"',
            'legacy_stake_unit = "0.20"\nstake = 1',
            "bet: unknown key 'stake'",
        ),
    ],
)
def test_each_problem_is_named_by_its_key(title: Path, old: str, new: str, problem: str) -> None:
    edit(title, old, new)
    problems = validate_folder(title)
    assert len(problems) == 1, problems
    assert problem in problems[0] and problems[0].startswith(str(title / "model.toml"))


def test_every_problem_is_listed_at_once(title: Path) -> None:
    edit(title, "reel = 5\nseed = 500", "reel = 6\nseed = 500")
    edit(title, "multipliers = [1, 2, 4, 6, 8]", "multipliers = [1, 2, 4, 6]")
    edit(title, 'symbol = "bonus"\ntrigger', 'symbol = "coin"\ntrigger')
    problems = validate_folder(title)
    assert len(problems) == 3, problems
    assert "\n" not in "".join(problems)


def test_pots_need_one_per_reel_in_order(title: Path) -> None:
    edit(title, 'name = "red"\nreel = 5', 'name = "red"\nreel = 4')
    assert validate_folder(title) == [
        f"{title / 'model.toml'}: jackpots: needs one pot per reel, reels 1 to 5 in order"
    ]


def test_pots_without_a_ladder_are_refused_with_the_reason(title: Path) -> None:
    path = title / "model.toml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text[: text.index("\n[ladder]\n")], encoding="utf-8")
    problems = validate_folder(title)
    assert problems == [
        f"{path}: pots needs ladder ({by_name('ladder').summary}), which the model does not declare"
    ], problems


def test_the_engine_refuses_the_first_problem_by_key(title: Path) -> None:
    edit(title, "multipliers = [1, 2, 4, 6, 8]", "multipliers = [1, 2, 4, 6]")
    model = load_model(title)
    with pytest.raises(ModelError, match=r"ladder\.multipliers lists 4 multipliers for 5 levels"):
        ladder_rules(model)


def test_a_free_spins_reel_set_the_variants_lack_is_named(title: Path) -> None:
    edit(title, 'reel_set = "free_spins"', 'reel_set = "bonus_spins"')
    problems = validate_folder(title)
    assert problems and all("missing reel_sets.bonus_spins" in p for p in problems), problems
