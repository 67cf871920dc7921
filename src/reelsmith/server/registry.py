"""The one registry of served titles.

Every shipped title is found by its folder (``games/<folder>/model.toml``, see
:mod:`reelsmith.games`); folders of model files given to ``reelsmith serve --titles DIR`` add
more. Every title is a :class:`~reelsmith.server.titles.Title` of the mechanics its model
declares (:mod:`reelsmith.mechanics`), never chosen by its id; a model whose mechanics do not
compose is refused, named. The server, the markets, ``reelsmith titles`` and the tests reach
titles only through this registry and the :class:`~reelsmith.server.titles.Title` interface.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path

from reelsmith.engine.model import GameModel, ModelError, load_model
from reelsmith.games import TITLE_FOLDERS, load_game
from reelsmith.server.titles import Title


class TitleError(ValueError):
    """A title the server cannot serve; the message names the folder and the reason."""


def title_for(model: GameModel) -> Title:
    """The title of ``model``'s mechanics; TitleError naming the model and every reason when
    they do not compose or a table of theirs is wrong."""
    try:
        return Title(model)
    except ModelError as exc:
        raise TitleError(str(exc)) from None


def title_folders(folder: Path) -> list[Path]:
    """The title folders in ``folder``: itself if it holds a model.toml, else its
    sub-folders that do."""
    if not folder.is_dir():
        raise TitleError(f"{folder}: no such folder of titles")
    if (folder / "model.toml").is_file():
        return [folder]
    found = sorted(p.parent for p in folder.glob("*/model.toml"))
    if not found:
        raise TitleError(f"{folder}: no title in it (a title is a folder with model.toml)")
    return found


class TitleRegistry(Mapping[str, Title]):
    """Served titles by id, in a stable order (shipped titles first, then added ones)."""

    def __init__(self, titles: Iterable[Title]) -> None:
        self._titles: dict[str, Title] = {}
        for title in titles:
            if title.game_id in self._titles:
                raise TitleError(
                    f"{title.model.source or title.game_id}: the title id {title.game_id!r} "
                    "is taken by another title"
                )
            self._titles[title.game_id] = title

    @classmethod
    def load(cls, title_dirs: Sequence[Path] = ()) -> TitleRegistry:
        """The shipped titles, and those in ``title_dirs`` (each a title folder or a folder of
        title folders)."""
        titles = [title_for(load_game(game_id)) for game_id in TITLE_FOLDERS]
        for folder in title_dirs:
            for path in title_folders(Path(folder)):
                try:
                    model = load_model(path.resolve())
                except ModelError as exc:
                    raise TitleError(str(exc)) from None
                titles.append(title_for(model))
        return cls(titles)

    def __getitem__(self, game_id: str) -> Title:
        return self._titles[game_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._titles)

    def __len__(self) -> int:
        return len(self._titles)

    def models(self) -> dict[str, GameModel]:
        """Each title's model, by id (what the markets are checked against)."""
        return {game_id: title.model for game_id, title in self._titles.items()}
