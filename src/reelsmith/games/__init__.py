"""The titles reelsmith ships: each a folder of model data, plus feature rules for a title
whose mechanics the catalogue does not cover yet.

A title is found by its folder: every ``games/<folder>/model.toml`` is a shipped title, named
by the model's ``id``. :func:`resolve_title` also takes a path (a title folder or its
``model.toml``), so every command that names a shipped title takes a model of one's own too.
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path

from reelsmith.engine.model import GameModel, ModelError, load_model

GAMES_DIR = Path(__file__).parent


def _discover() -> dict[str, str]:
    found: dict[str, str] = {}
    for path in sorted(GAMES_DIR.glob("*/model.toml")):
        with path.open("rb") as handle:
            game_id = tomllib.load(handle).get("id")
        if isinstance(game_id, str):
            found[game_id] = path.parent.name
    return found


#: Title id (as typed on the command line) -> folder name.
TITLE_FOLDERS = _discover()


class UnknownGameError(KeyError):
    def __str__(self) -> str:
        return str(self.args[0])


def game_folder(game_id: str) -> Path:
    try:
        return GAMES_DIR / TITLE_FOLDERS[game_id]
    except KeyError:
        known = ", ".join(sorted(TITLE_FOLDERS))
        raise UnknownGameError(
            f"unknown game {game_id!r}; the games are: {known} (or give a model file's path)"
        ) from None


@cache
def load_game(game_id: str) -> GameModel:
    """The model of a shipped title (loaded once per process)."""
    return load_model(game_folder(game_id))


def is_path_reference(reference: str) -> bool:
    """Whether a title reference names a file or folder rather than a shipped title's id."""
    return reference not in TITLE_FOLDERS and (
        "/" in reference or reference.endswith(".toml") or Path(reference).exists()
    )


def title_folder(reference: str) -> Path:
    """The folder of a shipped title's id, or of a path to a title folder or its model file."""
    if not is_path_reference(reference):
        return game_folder(reference)
    path = Path(reference)
    if path.is_file():
        if path.name != "model.toml":
            raise ModelError(f"{path}: a title is a folder with model.toml; give the folder")
        return path.parent
    if path.is_dir():
        if not (path / "model.toml").is_file():
            raise ModelError(f"{path}: no model.toml in that folder")
        return path
    raise ModelError(f"{path}: no such file or folder")


def resolve_title(reference: str) -> GameModel:
    """A shipped title by id, or the model at a path (raises UnknownGameError, ModelError)."""
    if not is_path_reference(reference):
        return load_game(reference)
    return load_model(title_folder(reference).resolve())
