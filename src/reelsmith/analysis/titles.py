"""Which titles the math lab can analyse, simulate and tune: a small per-title dispatch.

A title plugs in by providing a module ``reelsmith.analysis.<folder>`` (``<folder>`` is the
title's folder under ``reelsmith/games``) with any of these functions:

``analyze_title(model, variant_id) -> LabReport``
    the exact analysis; the report's ``to_html()`` is the PAR sheet.
``simulate_title(game_id, spins, seed, *, variant_id, folder, workers, cluster, progress)``
    a seeded simulation returning a ``LabReport``.
``tune_title(game_id, folder, target_rtp, *, volatility, base_variant, force, progress)``
    writes a new variant file and returns a ``LabReport`` describing it.

A catalogue title (``mechanics = "catalogue"`` in its model, shipped or a model file of
one's own) is served by the generic :mod:`reelsmith.analysis.catalogue`, whatever its id; so
is a model that declares the free-spins ladder with local pots
(:func:`reelsmith.engine.ladder.declares_ladder`), whether or not its file names the catalogue
yet: the generic entry points hand it to the ladder lab (:mod:`reelsmith.analysis.ladder`).

A command whose function the title's module lacks (or a title without a module) is reported
as not available yet, rather than failing half-way.
"""

from __future__ import annotations

import importlib
import tomllib
from collections.abc import Callable
from types import ModuleType
from typing import Any, Protocol

from rich.console import Console

from reelsmith.engine.catalogue import CATALOGUE, is_catalogue
from reelsmith.engine.ladder import declares_ladder
from reelsmith.engine.model import GameModel, ModelError
from reelsmith.games import TITLE_FOLDERS, game_folder, load_game

COMMAND_FUNCTIONS = {
    "analyze": "analyze_title",
    "simulate": "simulate_title",
    "tune": "tune_title",
}


class NotAvailableError(LookupError):
    """The title has no math-lab support for a command yet."""


class LabReport(Protocol):
    """What the commands print: JSON for machines, rich text for people."""

    def to_json(self) -> dict[str, Any]: ...

    def render(self, console: Console) -> None: ...


def _declares_catalogue(game_id: str) -> bool:
    """Whether a shipped title's model file declares the catalogue (read without loading)."""
    if game_id not in TITLE_FOLDERS:
        return False
    path = game_folder(game_id) / "model.toml"
    if not path.is_file():
        return False
    with path.open("rb") as handle:
        return tomllib.load(handle).get("mechanics") == CATALOGUE


def _shipped_declares_ladder(game_id: str) -> bool:
    """Whether a shipped title's model declares the ladder (a model that does not load is
    left to the command, which names what is wrong with it)."""
    if game_id not in TITLE_FOLDERS:
        return False
    try:
        return declares_ladder(load_game(game_id))
    except ModelError:
        return False


def _generic(model: GameModel) -> bool:
    """Whether the generic lab serves ``model``: a catalogue model or one with the ladder."""
    return is_catalogue(model) or declares_ladder(model)


def _title_module(game_id: str, model: GameModel | None) -> ModuleType | None:
    """A shipped title's own lab module if it has one; else the generic one for a catalogue
    or ladder title (shipped or given by path)."""
    if model is None:
        game_folder(game_id)  # an id reelsmith does not ship: UnknownGameError
    if game_id in TITLE_FOLDERS:
        name = f"reelsmith.analysis.{game_folder(game_id).name}"
        try:
            return importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
    if model is not None:
        generic = _generic(model)
    else:
        generic = _declares_catalogue(game_id) or _shipped_declares_ladder(game_id)
    if generic:
        return importlib.import_module("reelsmith.analysis.catalogue")
    return None


def title_function(
    game_id: str, command: str, model: GameModel | None = None
) -> Callable[..., Any]:
    """The function implementing ``command`` for ``game_id`` (``model``: the title's model,
    which decides for a catalogue title and for one loaded from a path).

    Raises ``UnknownGameError`` for a title reelsmith does not ship and
    :class:`NotAvailableError` for one without the command.
    """
    attribute = COMMAND_FUNCTIONS[command]
    module = _title_module(game_id, model)
    function = getattr(module, attribute, None) if module is not None else None
    if not callable(function):
        raise NotAvailableError(f"{command} is not available for {game_id} yet")
    return function  # type: ignore[no-any-return]
