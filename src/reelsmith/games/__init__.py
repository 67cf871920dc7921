"""The titles reelsmith ships, each a folder of model data plus its feature rules."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from reelsmith.engine.model import GameModel, load_model

GAMES_DIR = Path(__file__).parent

#: Title id (as typed on the command line) -> folder name.
TITLE_FOLDERS = {
    "days-of-the-tsar": "days_of_the_tsar",
    "sultan-spins": "sultan_spins",
}


class UnknownGameError(KeyError):
    def __str__(self) -> str:
        return str(self.args[0])


def game_folder(game_id: str) -> Path:
    try:
        return GAMES_DIR / TITLE_FOLDERS[game_id]
    except KeyError:
        known = ", ".join(sorted(TITLE_FOLDERS))
        raise UnknownGameError(f"unknown game {game_id!r}; the games are: {known}") from None


@cache
def load_game(game_id: str) -> GameModel:
    """The model of a shipped title (loaded once per process)."""
    return load_model(game_folder(game_id))
