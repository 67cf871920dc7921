"""The one title boundary (:mod:`reelsmith.mechanics`): every face reaches a title through the
mechanics its model declares, never through its id.

A shipped title's folder copied under an id no code knows is evaluated, rendered, played,
analysed, validated, listed and served exactly as the shipped title is (a coin-bet title with
free spins, and the ladder with its pots); a model whose mechanics do not compose is refused by
every face with the same error, naming the model and each reason.
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
from reelsmith.games import TITLE_FOLDERS, game_folder, load_game
from reelsmith.mechanics import (
    MECHANICS,
    CompositionError,
    composition,
    declared_names,
    round_face,
)
from reelsmith.mechanics.base import face
from reelsmith.modelio.validate import validate_folder
from reelsmith.rules_page import rules_document
from reelsmith.server.registry import TitleError, TitleRegistry
from reelsmith.server.titles import Title
from reelsmith.terminal.game import terminal_faces

runner = CliRunner()

#: A shipped title of each composition, and the scripted terminal session played on it.
SHIPPED = {
    "free_spins": ("aurora-fox", "s\nc\ns\nc\nq\n"),
    "ladder": ("sultan-spins", "s\ns\nq\n"),
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


def test_the_engine_imports_no_face_and_no_mechanic() -> None:
    """The engine's round names no face and no mechanic: importing it (and the model loader)
    loads neither the server, the terminal, the lab nor a mechanic package."""
    code = (
        "import sys, reelsmith.engine.round, reelsmith.engine.model\n"
        "faces = ('reelsmith.server', 'reelsmith.terminal', 'reelsmith.analysis', "
        "'reelsmith.modelio', 'reelsmith.rules_page', 'reelsmith.cli', 'reelsmith.mechanics',"
        " 'reelsmith.store', 'reelsmith.wallet')\n"
        "print(sorted(m for m in sys.modules if m.startswith(faces)))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_every_shipped_title_composes_and_its_faces_resolve() -> None:
    for game_id in TITLE_FOLDERS:
        model = load_game(game_id)
        parts = composition(model).parts
        assert parts and all(p.name in declared_names(model) for p in parts), game_id
        assert issubclass(type(TitleRegistry.load()[game_id]), Title)
        bet, _faces = terminal_faces(model)
        assert hasattr(bet, "take") and hasattr(bet, "grid_evaluator")
        for name in ("help", "exact", "simulate", "tuner"):
            assert face(round_face(model, name)) is not None, (game_id, name)
        assert callable(face(round_face(model, "help")).feature_rules)
    for mechanic in MECHANICS:
        assert mechanic.part is None or callable(face(mechanic.part)), mechanic.name
        assert mechanic.server is None or callable(face(mechanic.server)), mechanic.name


@pytest.mark.parametrize("kind", sorted(SHIPPED))
def test_a_copy_under_a_new_id_is_played_through_every_face(kind: str, tmp_path: Path) -> None:
    shipped, script = SHIPPED[kind]
    new_id = f"copied-{kind}-title"
    folder = copy_title(shipped, tmp_path / "copied", new_id)
    copy = load_model(folder)
    assert copy.id == new_id and kind in declared_names(copy)

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

    # reelsmith titles and the server: its mechanics, listed after the shipped titles
    listed = run("titles", "--titles", str(folder), "--json")
    assert listed.exit_code == 0, listed.output
    rows = json.loads(listed.stdout)
    assert [row["id"] for row in rows] == [*TITLE_FOLDERS, new_id]
    assert kind in rows[-1]["mechanics"] and rows[-1]["variants"] == list(copy.variants)
    assert rows[-1]["mechanics"] == next(r for r in rows if r["id"] == shipped)["mechanics"]
    served = TitleRegistry.load([folder])[new_id]
    assert served.model.id == new_id and served.client == TitleRegistry.load()[shipped].client


#: Models whose mechanics do not compose: a value of ``mechanics`` no model may give, and the
#: ladder put beside free spins on a coin-bet title (each refusal names its reasons).
REFUSED = {
    "an unknown mechanics value": ('mechanics = "cascade"', "", ["mechanics = 'cascade'"]),
    "a ladder beside free spins": (
        'mechanics = "catalogue"',
        "\n[ladder]\ntrigger = 3\n",
        [
            "free_spins and ladder: a round has one spin feature",
            "ladder needs pots",
            "ladder needs levels",
        ],
    ),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_mechanics_that_do_not_compose_are_refused_by_every_face_alike(
    case: str, tmp_path: Path
) -> None:
    mechanics, appended, reasons = REFUSED[case]
    folder = copy_title("aurora-fox", tmp_path / "odd", "odd-fox", mechanics)
    with (folder / "model.toml").open("a", encoding="utf-8") as file:
        file.write(appended)
    model = load_model(folder)
    with pytest.raises(CompositionError) as raised:
        composition(model)
    message = str(raised.value)
    assert message.startswith(f"{folder / 'model.toml'}: ")
    for reason in reasons:
        assert reason in message, (reason, message)

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

    reasons = message.split("\n")
    assert validate_folder(folder)[: len(reasons)] == reasons  # then each table's own problems
    with pytest.raises(CompositionError) as page:
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
        assert row["id"] in result.stderr and ",".join(row["mechanics"]) in result.stderr
    assert result.stderr.rstrip().endswith(
        "error: name the title to play: one of the ids above, or a title folder's path"
    )
    assert result.stdout == ""
