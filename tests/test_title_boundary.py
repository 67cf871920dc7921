"""The one title boundary (:mod:`reelsmith.engine.title`): every face reaches a title through
the kind its model declares, never through its id.

A shipped title's folder copied under an id no code knows is evaluated, rendered, played,
analysed, validated, listed and served exactly as the shipped title is, one copy per kind; a
model declaring mechanics no kind plays is refused by every face with the same error, naming
the model and what it declares.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from reelsmith.cli import app
from reelsmith.engine.model import GameModel, load_model
from reelsmith.engine.title import (
    CATALOGUE_KIND,
    KINDS,
    LAB_COMMANDS,
    LADDER_KIND,
    UnknownKindError,
    kind_of,
)
from reelsmith.games import TITLE_FOLDERS, game_folder, load_game
from reelsmith.modelio.validate import validate_folder
from reelsmith.rules_page import rules_document
from reelsmith.server.registry import TitleError, TitleRegistry
from reelsmith.server.titles import Title
from reelsmith.terminal.session import TerminalGame

runner = CliRunner()

#: One shipped title of each kind, and the scripted terminal session played on it.
SHIPPED = {
    CATALOGUE_KIND.name: ("aurora-fox", "s\nc\ns\nc\nq\n"),
    LADDER_KIND.name: ("sultan-spins", "s\ns\nq\n"),
}


def run(*args: str, input: str | None = None):  # type: ignore[no-untyped-def]
    return runner.invoke(app, list(args), input=input)


def copy_title(shipped: str, folder: Path, new_id: str, mechanics: str | None = None) -> Path:
    """The shipped title's folder copied to ``folder`` under ``new_id`` (and, if given, with
    its ``mechanics`` line replaced)."""
    shutil.copytree(game_folder(shipped), folder)
    path = folder / "model.toml"
    text = path.read_text(encoding="utf-8")
    text = text.replace(f'id = "{shipped}"', f'id = "{new_id}"', 1)
    if mechanics is not None:
        text = text.replace('mechanics = "catalogue"', mechanics, 1)
    path.write_text(text, encoding="utf-8")
    return folder.resolve()


def a_screen(model: GameModel) -> str:
    """The screen the default variant's base reels show at stop 0, as ``--grid`` takes it."""
    reels = model.variant(None).reel_sets["base"].padded
    rows = [
        ",".join(model.symbol_id(int(reels[reel, row])) for reel in range(model.reels))
        for row in range(model.rows)
    ]
    return "/".join(rows)


def test_the_engine_imports_no_face() -> None:
    """engine/title.py names the faces' parts; importing it loads none of them."""
    code = (
        "import sys, reelsmith.engine.title\n"
        "faces = ('reelsmith.server', 'reelsmith.terminal', 'reelsmith.analysis', "
        "'reelsmith.modelio', 'reelsmith.rules_page', 'reelsmith.cli')\n"
        "print(sorted(m for m in sys.modules if m.startswith(faces)))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_every_shipped_title_is_of_one_kind_whose_parts_resolve() -> None:
    kinds = {game_id: kind_of(load_game(game_id)) for game_id in TITLE_FOLDERS}
    assert {kind.name for kind in kinds.values()} == {kind.name for kind in KINDS}
    for game_id, kind in kinds.items():
        model = load_game(game_id)
        assert [k for k in KINDS if k.declares(model)] == [kind], game_id
        assert issubclass(kind.server_adapter(), Title)
        assert issubclass(kind.terminal_game(), TerminalGame)  # type: ignore[arg-type]
        assert callable(kind.help_module().feature_rules)
        assert all(callable(kind.lab_function(command)) for command in LAB_COMMANDS)
        assert callable(kind.grid_evaluator())
        assert kind.problems(model) == [], game_id


@pytest.mark.parametrize("kind", sorted(SHIPPED))
def test_a_copy_under_a_new_id_is_played_through_every_face(kind: str, tmp_path: Path) -> None:
    shipped, script = SHIPPED[kind]
    new_id = f"copied-{kind}-title"
    folder = copy_title(shipped, tmp_path / "copied", new_id)
    copy = load_model(folder)
    assert copy.id == new_id and kind_of(copy).name == kind

    # reelsmith validate, and the kind's own checks
    assert validate_folder(folder) == []

    # reelsmith evaluate: the same wins for the same screen
    grid = a_screen(copy)
    evaluated = [run("evaluate", ref, "--grid", grid, "--json") for ref in (shipped, str(folder))]
    assert all(r.exit_code == 0 for r in evaluated), [r.output for r in evaluated]
    assert json.loads(evaluated[1].stdout) == json.loads(evaluated[0].stdout)

    # reelsmith rules: the page of the copy, its features' rules as the shipped title's
    pages = [run("rules", ref, "--json") for ref in (shipped, str(folder))]
    assert all(r.exit_code == 0 for r in pages), [r.output for r in pages]
    page, shipped_page = json.loads(pages[1].stdout), json.loads(pages[0].stdout)
    assert page["game"] == new_id
    assert page["rules"] == shipped_page["rules"] and page["paytable"] == shipped_page["paytable"]

    # reelsmith play, scripted: the same session for the same seed
    args = ("--seed", "11", "--balance", "100.00")
    played = [run("play", ref, *args, input=script) for ref in (shipped, str(folder))]
    assert all(r.exit_code == 0 for r in played), [r.output for r in played]
    assert "Goodbye: 2 rounds played" in played[1].stdout
    assert played[1].stdout == played[0].stdout

    # reelsmith analyze: the same exact figures
    analysed = [run("analyze", ref, "--json") for ref in (shipped, str(folder))]
    assert all(r.exit_code == 0 for r in analysed), [r.output for r in analysed]
    figures, shipped_figures = json.loads(analysed[1].stdout), json.loads(analysed[0].stdout)
    for key in ("rtp", "hit_frequency", "std_dev"):
        assert figures[key] == shipped_figures[key], key

    # reelsmith titles and the server: the kind's adapter, listed after the shipped titles
    listed = run("titles", "--titles", str(folder), "--json")
    assert listed.exit_code == 0, listed.output
    rows = json.loads(listed.stdout)
    assert [row["id"] for row in rows] == [*TITLE_FOLDERS, new_id]
    assert rows[-1]["kind"] == kind and rows[-1]["variants"] == list(copy.variants)
    served = TitleRegistry.load([folder])[new_id]
    assert type(served) is kind_of(copy).server_adapter() and served.model.id == new_id


@pytest.mark.parametrize(
    ("mechanics", "declared"),
    [('mechanics = "cascade"', "mechanics = 'cascade'"), ("", "no mechanics")],
)
def test_mechanics_no_kind_plays_are_refused_by_every_face_alike(
    mechanics: str, declared: str, tmp_path: Path
) -> None:
    folder = copy_title("aurora-fox", tmp_path / "odd", "odd-fox", mechanics)
    model = load_model(folder)
    with pytest.raises(UnknownKindError) as raised:
        kind_of(model)
    message = str(raised.value)
    assert message.startswith(f"{folder / 'model.toml'}: no kind of title plays")
    assert f"({declared})" in message
    for kind in KINDS:
        assert f"{kind.name} ({kind.declaration})" in message

    grid = a_screen(model)
    commands = [
        ("evaluate", str(folder), "--grid", grid),
        ("rules", str(folder)),
        ("model", str(folder)),
        ("play", str(folder), "--seed", "1"),
        ("analyze", str(folder)),
        ("simulate", str(folder), "--spins", "100", "--seed", "1"),
        ("tune", str(folder), "--target-rtp", "95.00"),
    ]
    for command in commands:
        result = run(*command, input="q\n")
        assert result.exit_code == 2, (command, result.output)
        assert result.stderr.strip() == f"error: {message}", command
        assert result.stdout == "", command
    assert not (folder / "variants" / "95.00.toml").exists()  # tune wrote nothing

    assert validate_folder(folder) == [message]
    with pytest.raises(UnknownKindError) as page:
        rules_document(model)
    assert str(page.value) == message
    with pytest.raises(TitleError) as served:
        TitleRegistry.load([folder])
    assert str(served.value) == message
    listed = run("titles", "--titles", str(folder))
    assert listed.exit_code == 2 and listed.stderr.strip() == f"error: {message}"


def test_play_without_a_title_lists_the_titles_and_exits_2() -> None:
    result = run("play")
    assert result.exit_code == 2
    listed = run("titles", "--json")
    assert listed.exit_code == 0
    for row in json.loads(listed.stdout):
        assert row["id"] in result.stderr and row["kind"] in result.stderr
    assert result.stderr.rstrip().endswith(
        "error: name the title to play: one of the ids above, or a title folder's path"
    )
    assert result.stdout == ""
