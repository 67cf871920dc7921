"""The title boundary's one table: the kind of title a model is, and each face's part for it.

A title is a model file that declares its mechanics. The *kind* is the family of rules that
plays those mechanics: today the catalogue's free spins (``mechanics = "catalogue"``) and the
free-spins ladder with local pots (``mechanics = "catalogue"`` with a ``[ladder]`` table). For
each kind this table names the part every face needs:

========================  =====================================================================
part                      used by
========================  =====================================================================
``server_title``          the server's registry: the :class:`~reelsmith.server.titles.Title`
                          adapter that starts, acts on, records, restores and settles rounds
``terminal``              ``reelsmith play``: the terminal game
``help``                  the rules page: the module whose ``feature_rules`` writes the rules
``lab``                   ``reelsmith simulate``: the module holding ``simulate_title``
                          (``analyze`` and ``tune`` need no part: the lab's one analyzer and
                          one tuner choose by the mechanics themselves)
``evaluator``             ``reelsmith evaluate``: the factory of the grid evaluator
``validator``             ``reelsmith validate``: the checks a kind adds to the model file's
========================  =====================================================================

Every face asks :func:`kind_of` for a model's kind and takes its part from it; no face asks
which mechanics a model declares, and no face names a title's id. A model whose mechanics no
kind plays is refused by :func:`kind_of` with :class:`UnknownKindError`, the same error, word
for word, in every face.

Layering: the engine imports no face. A kind names each part as ``"module:attribute"`` and
imports it on first use, so importing this module loads neither the server, the terminal nor
the lab (a test checks it). A new kind is one more :class:`Kind` in :data:`KINDS`, with its
parts in the faces' own packages.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, cast

from reelsmith.engine.catalogue import CATALOGUE, is_catalogue
from reelsmith.engine.ladder import declares_ladder
from reelsmith.engine.model import GameModel, ModelError

if TYPE_CHECKING:
    from reelsmith.help import Phrases, Terms
    from reelsmith.server.titles import Title
    from reelsmith.terminal.evaluation import GridEvaluatorFactory
    from reelsmith.terminal.session import TerminalGameClass

#: The lab's commands that take a part of the kind, and the function each names in the kind's
#: lab module (``analyze`` and ``tune`` go through :mod:`reelsmith.analysis.analyzer` and
#: :mod:`reelsmith.analysis.tuning`, which choose by the model's mechanics).
LAB_COMMANDS = {"simulate": "simulate_title"}


class UnknownKindError(ModelError):
    """A model whose mechanics no kind of title plays; the message names the model and what
    it declares."""


class HelpModule(Protocol):
    """What the rules page takes from a kind: the rules of its features, as page sections."""

    def feature_rules(
        self, model: GameModel, variant_id: str | None, p: Phrases, terms: Terms | None = None
    ) -> dict[str, Any]: ...


def _part(reference: str) -> Any:
    """The attribute a ``"module:attribute"`` reference names (a module alone without
    ``:``), imported now."""
    module_name, _, attribute = reference.partition(":")
    module = importlib.import_module(module_name)
    return getattr(module, attribute) if attribute else module


@dataclass(frozen=True)
class Kind:
    """A family of mechanics and the part of every face that plays it (see the module)."""

    name: str
    #: What a model declares to be of this kind, as the error and the listing say it.
    declaration: str
    declares: Callable[[GameModel], bool]
    server_title: str
    terminal: str
    help: str
    lab: str
    evaluator: str
    validator: str

    def server_adapter(self) -> type[Title]:
        """The server's adapter class; constructed with the model."""
        return cast("type[Title]", _part(self.server_title))

    def terminal_game(self) -> TerminalGameClass:
        """The terminal game class ``reelsmith play`` runs."""
        return cast("TerminalGameClass", _part(self.terminal))

    def help_module(self) -> HelpModule:
        """The module that writes the rules of the kind's features for the rules page."""
        return cast(HelpModule, _part(self.help))

    def lab_function(self, command: str) -> Callable[..., Any]:
        """The lab's entry point for ``command`` (one of :data:`LAB_COMMANDS`)."""
        if command not in LAB_COMMANDS:
            known = ", ".join(LAB_COMMANDS)
            raise ValueError(f"no lab command {command!r}; the commands are {known}")
        return cast("Callable[..., Any]", getattr(_part(self.lab), LAB_COMMANDS[command]))

    def grid_evaluator(self) -> GridEvaluatorFactory:
        """The factory of ``reelsmith evaluate``'s grid evaluator for a model of this kind."""
        return cast("GridEvaluatorFactory", _part(self.evaluator))

    def problems(self, model: GameModel) -> list[str]:
        """The problems the kind's own checks find in ``model`` (none: it is sound)."""
        check = cast("Callable[[GameModel], list[str]]", _part(self.validator))
        return check(model)


def _declares_catalogue_free_spins(model: GameModel) -> bool:
    return is_catalogue(model) and not declares_ladder(model)


CATALOGUE_KIND = Kind(
    name="catalogue",
    declaration=f'mechanics = "{CATALOGUE}"',
    declares=_declares_catalogue_free_spins,
    server_title="reelsmith.server.catalogue_title:CatalogueTitle",
    terminal="reelsmith.terminal.catalogue:CatalogueTerminal",
    help="reelsmith.engine.catalogue_help",
    lab="reelsmith.analysis.catalogue",
    evaluator="reelsmith.terminal.catalogue:grid_evaluator",
    validator="reelsmith.modelio.validate:catalogue_problems",
)

LADDER_KIND = Kind(
    name="ladder",
    declaration=f'mechanics = "{CATALOGUE}" with a [ladder] table',
    declares=declares_ladder,
    server_title="reelsmith.server.ladder_title:LadderTitle",
    terminal="reelsmith.terminal.ladder:LadderTerminal",
    help="reelsmith.engine.ladder_help",
    lab="reelsmith.analysis.ladder",
    evaluator="reelsmith.terminal.ladder:grid_evaluator",
    validator="reelsmith.modelio.validate:ladder_problems",
)

#: Every kind of title reelsmith plays; a model is of exactly one of them or of none.
KINDS: tuple[Kind, ...] = (CATALOGUE_KIND, LADDER_KIND)


def kind_of(model: GameModel) -> Kind:
    """The kind that plays ``model``, by the mechanics it declares (never by its id).

    Raises :class:`UnknownKindError` naming the model and what it declares when no kind
    plays it."""
    for kind in KINDS:
        if kind.declares(model):
            return kind
    where = model.source or model.id
    declared = model.raw.get("mechanics")
    said = "no mechanics" if declared is None else f"mechanics = {declared!r}"
    known = "; ".join(f"{kind.name} ({kind.declaration})" for kind in KINDS)
    raise UnknownKindError(
        f"{where}: no kind of title plays the mechanics this model declares ({said}); "
        f"the kinds are {known}"
    )
