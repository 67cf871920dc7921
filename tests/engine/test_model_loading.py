"""Model files: bad input gets a clear error naming the file and the key."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from reelsmith.engine.catalogue import mechanics
from reelsmith.engine.model import ModelError, load_model
from reelsmith.games import UnknownGameError, game_folder, load_game


@pytest.fixture
def model_copy(tmp_path: Path) -> Path:
    target = tmp_path / "days_of_the_tsar"
    shutil.copytree(
        game_folder("days-of-the-tsar"),
        target,
        ignore=shutil.ignore_patterns("*.py", "__pycache__"),
    )
    return target


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def test_unknown_game():
    with pytest.raises(
        UnknownGameError,
        match=r"unknown game 'nope'; the games are: aurora-fox, crystal-caverns, days-of-the-tsar",
    ):
        load_game("nope")


def test_unknown_variant(tsar_model):
    with pytest.raises(
        ModelError, match=r"no RTP variant '99\.00'; the variants are: 94\.00, 96\.00"
    ):
        tsar_model.variant("99.00")


def test_copy_loads(model_copy):
    model = load_model(model_copy)
    assert model.id == "days-of-the-tsar"


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("reels = 5", "", "missing key 'reels'"),
        ('id = "king"', 'id = "ace"', "symbol id 'ace' appears twice"),
        ('role = "scatter"', 'role = "sparkly"', "role 'sparkly' is not one of"),
        ("  [2, 1, 0, 1, 2],  # 5", "  [0, 1, 2, 1, 0],  # 5", "payline 5 repeats payline 4"),
        ("  [2, 1, 0, 1, 2],  # 5", "  [2, 1, 0, 1],  # 5", "payline 5 must list 5 row indices"),
        ("  [2, 1, 0, 1, 2],  # 5", "  [2, 1, 3, 1, 2],  # 5", "row indices must be 0..2"),
        ("nine       = { 3 = 5,", "nine       = { 7 = 5,", "count 7 is outside 1..5"),
        ("ace        = { 3 = 15,", "ace        = { 3 = -15,", "must be a non-negative integer"),
        (
            'default_variant = "96.00"',
            'default_variant = "97.00"',
            "default_variant '97.00' has no file",
        ),
        ("reels = 5", "reels = [", "not valid TOML"),
    ],
)
def test_model_file_errors(model_copy, old, new, message):
    edit(model_copy / "model.toml", old, new)
    with pytest.raises(ModelError, match=message):
        load_model(model_copy)


def test_strip_with_unknown_symbol(model_copy):
    edit(model_copy / "variants" / "94.00.toml", '"nine"', '"ninja"')
    with pytest.raises(
        ModelError,
        match=r"94.00.toml: reel_sets.base: strips\[0\] \(reel 1\): "
        r"stop \d+ is 'ninja', not a symbol id",
    ):
        load_model(model_copy)


def test_variant_id_must_match_file(model_copy):
    edit(model_copy / "variants" / "94.00.toml", 'id = "94.00"', 'id = "93.00"')
    with pytest.raises(ModelError, match="does not match the file name"):
        load_model(model_copy)


def test_eggs_too_close_on_a_strip_are_refused(model_copy):
    path = model_copy / "variants" / "94.00.toml"
    text = path.read_text()
    # reel 1 of the base set starts with an egg; make its second stop an egg too
    start = text.index('"egg", ')
    path.write_text(
        text[:start] + '"egg", "egg", ' + text[start + len('"egg", ') :].replace('"nine", ', "", 1)
    )
    with pytest.raises(ModelError, match="closer than 3: a reel would show two eggs"):
        load_model(model_copy)


def test_reveal_weights_checked(model_copy):
    edit(model_copy / "variants" / "94.00.toml", "weights = [18,", "weights = [-18,")
    model = load_model(model_copy)
    with pytest.raises(ModelError, match="egg_reveal weights must be non-negative"):
        mechanics(model)
