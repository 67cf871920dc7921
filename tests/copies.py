"""Sultan Spins' folder copied under a new id, and the shipped market files with the default
market offering a title, for the tests that serve a ladder title from a folder."""

from __future__ import annotations

import shutil
from pathlib import Path

from reelsmith.games import game_folder
from reelsmith.server.markets import MARKETS_DIR

SULTAN = "sultan-spins"


def copy_of_sultan(
    folder: Path, new_id: str, *, name: str | None = None, legacy: bool = True
) -> Path:
    """Sultan Spins' folder copied to ``folder`` under ``new_id`` (and ``name``, if given);
    ``legacy`` False drops the model's ``legacy_stake_unit``."""
    shutil.copytree(game_folder(SULTAN), folder)
    path = folder / "model.toml"
    text = path.read_text(encoding="utf-8").replace(f'id = "{SULTAN}"', f'id = "{new_id}"', 1)
    if name is not None:
        text = text.replace('name = "Sultan Spins"', f'name = "{name}"', 1)
    if not legacy:
        text = text.replace('legacy_stake_unit = "0.20"\n', "", 1)
    path.write_text(text, encoding="utf-8")
    return folder


def markets_offering(folder: Path, game: str, table: str) -> Path:
    """The shipped market files copied to ``folder``, the default market offering ``game``
    with ``table`` (the lines of its ``[games.<game>]`` table)."""
    folder.mkdir(parents=True)
    for path in MARKETS_DIR.glob("*.toml"):
        text = path.read_text(encoding="utf-8")
        if path.stem == "default":
            text += f"\n[games.{game}]\n{table}\n"
        (folder / path.name).write_text(text, encoding="utf-8")
    return folder
