"""The mechanics registry: every mechanic package, and a model's composition of them.

A model declares its mechanics by the tables it has (``paylines`` and ``[line_pays]``: the
paylines; ``[free_spins]``: free spins; ``[ladder]``: the free-spins ladder; ...). The
registry reads them (:func:`declared`), checks that they compose (one bet, one window, at least
one evaluator, at most one spin feature; each mechanic's requirements and exclusions; no table
no mechanic reads) and builds the round's :class:`~reelsmith.engine.round.Composition` from
their live parts (:func:`composition`). Every face reaches a mechanic through here: the engine's
round gets its parts from the composition, ``reelsmith validate`` each mechanic's problems,
the rules page each mechanic's sections, the server each mechanic's money, the web client the
script a mechanic asks for. Adding a mechanic is one package and one line of :data:`MECHANICS`.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from reelsmith.engine.model import GameModel, ModelError
from reelsmith.engine.round import Composition
from reelsmith.mechanics import (
    anywhere,
    cascade,
    cells,
    coins,
    expanding,
    free_spins,
    gamble,
    heights,
    hold_and_spin,
    ladder,
    levels,
    max_win,
    modes,
    mystery,
    paylines,
    plugin,
    pots,
    scatter,
    sticky,
    strips,
    view,
    ways,
    wild,
)
from reelsmith.mechanics.base import ROLES, Mechanic

#: Every mechanic reelsmith plays, in the order of their roles.
MECHANICS: tuple[Mechanic, ...] = (
    coins.MECHANIC,
    levels.MECHANIC,
    modes.MECHANIC,
    strips.MECHANIC,
    cells.MECHANIC,
    heights.MECHANIC,
    pots.MECHANIC,
    mystery.MECHANIC,
    sticky.MECHANIC,
    paylines.MECHANIC,
    ways.MECHANIC,
    anywhere.MECHANIC,
    wild.MECHANIC,
    scatter.MECHANIC,
    expanding.MECHANIC,
    cascade.MECHANIC,
    plugin.MECHANIC,
    free_spins.MECHANIC,
    ladder.MECHANIC,
    hold_and_spin.MECHANIC,
    max_win.MECHANIC,
    gamble.MECHANIC,
    view.MECHANIC,
)

#: The keys of ``model.toml`` every model has, read by the model loader itself.
GENERIC_KEYS = frozenset(
    {"id", "name", "description", "mechanics", "reels", "rows", "symbols", "default_variant"}
)
#: ``mechanics = "catalogue"``: the model's tables declare its mechanics (the one value a
#: model may give; a model may also leave it out).
CATALOGUE = "catalogue"


class CompositionError(ModelError):
    """Mechanics a model declares that do not compose; the message names each reason."""


def by_name(name: str) -> Mechanic:
    for mechanic in MECHANICS:
        if mechanic.name == name:
            return mechanic
    known = ", ".join(m.name for m in MECHANICS)
    raise KeyError(f"no mechanic {name!r}; the mechanics are {known}")


def declared(raw: Mapping[str, Any]) -> tuple[Mechanic, ...]:
    """The mechanics a model's tables declare, in :data:`MECHANICS` order."""
    return tuple(m for m in MECHANICS if m.declared(raw))


def declared_names(model: GameModel) -> frozenset[str]:
    return frozenset(m.name for m in declared(model.raw))


def composition_problems(raw: Mapping[str, Any], where: str) -> list[str]:
    """Why the mechanics ``raw`` declares do not compose, one line each (none: they do)."""
    problems = []
    said = raw.get("mechanics", CATALOGUE)
    if said != CATALOGUE:
        problems.append(
            f'{where}: mechanics = {said!r}: the one value is "{CATALOGUE}" (the tables declare '
            "the mechanics)"
        )
    found = declared(raw)
    names = {m.name for m in found}
    known = set(GENERIC_KEYS)
    for mechanic in MECHANICS:
        known |= mechanic.tables
    for key in sorted(set(raw) - known):
        problems.append(
            f"{where}: unknown key {key!r}: no mechanic reads it; the keys are: "
            f"{', '.join(sorted(known))}"
        )
    by_role: dict[str, list[str]] = {role: [] for role in ROLES}
    for mechanic in found:
        by_role[mechanic.role].append(mechanic.name)
    if len(by_role["bet"]) != 1:
        problems.append(
            f"{where}: bet: a model is bet in coins ([bet] coin_sizes) or in levels ([bet] "
            "levels); this one declares neither"
        )
    if not any(m.part is not None for m in found if m.role == "evaluator"):
        problems.append(
            f"{where}: nothing pays the screen: declare paylines (and [line_pays]) or another "
            "evaluator"
        )
    if len(by_role["spin feature"]) > 1:
        features = " and ".join(by_role["spin feature"])
        problems.append(f"{where}: {features}: a round has one spin feature")
    for mechanic in found:
        for key in mechanic.needs_tables:
            if key not in raw:
                problems.append(f"{where}: missing key {key!r}: {mechanic.name} pays by it")
        for needed in mechanic.requires:
            if needed not in names:
                problems.append(
                    f"{where}: {mechanic.name} needs {needed} ({by_name(needed).summary}), "
                    "which the model does not declare"
                )
        for other, why in mechanic.excludes:
            pair = " and ".join(sorted((mechanic.name, other)))
            line = f"{where}: {pair}: {why}"
            if other in names and line not in problems:
                problems.append(line)
    return problems


def problems(model: GameModel) -> list[str]:
    """Every problem of ``model``'s mechanics: how they compose, then each one's tables."""
    where = str(model.source or model.id)
    found = composition_problems(model.raw, where)
    if found:
        return found
    for mechanic in declared(model.raw):
        # a problem two mechanics meet (the free spins' exact check reading another's table)
        # is said once
        for problem in mechanic.model_problems(model):
            if not all(line in found for line in problem.splitlines()):
                found.append(problem)
    return found


@cache
def composition(model: GameModel) -> Composition:
    """The round's parts for ``model`` (one composition per loaded model); CompositionError
    naming every reason when its mechanics do not compose, ModelError when a table is
    wrong."""
    where = str(model.source or model.id)
    reasons = composition_problems(model.raw, where)
    if reasons:
        raise CompositionError("\n".join(reasons))
    parts = [m.live_part(model) for m in declared(model.raw)]
    ordered = sorted((p for p in parts if p is not None), key=lambda p: p.stage)
    return Composition(model, tuple(ordered))


#: The faces of a round the lab gives (the rules page is not the lab's).
LAB_FACES = frozenset({"exact", "simulate", "tuner"})


def features(model: GameModel) -> list[str]:
    """What the model plays, as ``reelsmith titles`` lists it: its evaluators, modifiers,
    features and bet modes (its bet, window and presentation left out)."""
    shown = (
        "window modifier",
        "evaluator",
        "win modifier",
        "spin modifier",
        "spin feature",
        "bet mode",
        "round limit",
        "closing",
    )
    found = [m for m in declared(model.raw) if m.role in shown]
    # the bet modes last: what a round plays first, then what else it can be bought as
    return [m.name for m in found if m.role != "bet mode"] + [
        m.name for m in found if m.role == "bet mode"
    ]


def has_spin_feature(model: GameModel) -> bool:
    """Whether the model declares a spin feature (free spins, a ladder, a hold-and-spin): a
    round without one has no feature to report."""
    return any(m.role == "spin feature" for m in declared(model.raw))


def cost_buys(model: GameModel) -> str | None:
    """What a round's cost buys where the model's evaluator prices it by a cost ("every
    way"); None for a lines title (lines x coins)."""
    for mechanic in declared(model.raw):
        if mechanic.cost_buys is not None:
            return mechanic.cost_buys
    return None


def own_kernel(model: GameModel) -> tuple[Any, Any] | None:
    """The ``(build, play)`` functions of the simulation kernel a declared mechanic brings of
    its own (the last one that has one: see :attr:`Mechanic.kernel`), or None when the round
    loop plays the model."""
    from reelsmith.mechanics.base import face

    found = [m.kernel for m in declared(model.raw) if m.kernel is not None]
    if not found:
        return None
    module = face(found[-1])
    return module.build, module.play_chain_rounds


def evaluator(model: GameModel) -> Mechanic:
    """The mechanic that pays ``model``'s screens (paylines, ways, a count anywhere);
    CompositionError when none does."""
    for mechanic in declared(model.raw):
        if mechanic.role == "evaluator" and mechanic.part is not None:
            return mechanic
    raise CompositionError(f"{model.source or model.id}: nothing pays the screen")


def evaluation(model: GameModel) -> Any:
    """The module of the exact figures of ``model``'s evaluator (``cost``, ``screen_rtp``)."""
    from reelsmith.mechanics.base import face

    found = evaluator(model)
    if found.evaluation is None:
        raise ModelError(f"{model.source or model.id}: {found.name} has no exact figures")
    return face(found.evaluation)


def window_help(model: GameModel) -> Any:
    """The rules-page module of ``model``'s evaluator where it pays the whole window at a
    cost rather than by paylines (:attr:`Mechanic.window_help`); None for paylines."""
    from reelsmith.mechanics.base import face

    reference = evaluator(model).window_help
    return None if reference is None else face(reference)


def by_full_cycle(model: GameModel) -> bool:
    """Whether the lab's full analysis of ``model`` enumerates its reel sets' full cycles."""
    return any(m.full_cycle for m in declared(model.raw))


def _last_face(model: GameModel, field: str) -> Any:
    """The face ``field`` of the last declared mechanic that has one, imported; None."""
    from reelsmith.mechanics.base import face

    found = [getattr(m, field) for m in declared(model.raw) if getattr(m, field) is not None]
    return face(found[-1]) if found else None


def full_cycle_report(model: GameModel) -> Any:
    """The module writing ``analyze``'s report of a full-cycle analysis; None."""
    return _last_face(model, "report")


def own_rtp(model: GameModel) -> Any:
    """The function of a mechanic's own exact RTP (:attr:`Mechanic.rtp`); None."""
    return _last_face(model, "rtp")


def kernel_game(model: GameModel) -> Any:
    """The builder of a mechanic's round-loop game (:attr:`Mechanic.kernel_game`); None."""
    return _last_face(model, "kernel_game")


def each_face(model: GameModel, field: str) -> list[tuple[Mechanic, Any]]:
    """``(mechanic, face)`` for each declared mechanic that has the face ``field``, in
    :data:`MECHANICS` order, the faces imported."""
    from reelsmith.mechanics.base import face

    return [
        (m, face(getattr(m, field))) for m in declared(model.raw) if getattr(m, field) is not None
    ]


def pays_jackpots(model: GameModel) -> bool:
    """Whether a declared mechanic of ``model`` pays jackpots (:attr:`Mechanic.jackpots`)."""
    return any(m.jackpots for m in declared(model.raw))


def round_face(model: GameModel, face: str) -> str:
    """The reference of the round-wide ``face`` (``help``, ``exact``, ``simulate``, ``tuner``)
    of ``model``'s round: the last declared mechanic's that has one (a spin feature whose round
    the lab analyses whole before the evaluator it pays with). CompositionError when the
    mechanics do not compose; ModelError when none has it."""
    composition(model)
    if face in LAB_FACES:
        where = model.source or model.id
        missing = [m.name for m in declared(model.raw) if not m.in_lab]
        if missing:
            raise ModelError(
                f"{where}: the lab has no exact analysis or kernel of "
                f"{', '.join(missing)}: it cannot {face} this model"
            )
        if face == "simulate":
            unplayed = [m.name for m in declared(model.raw) if not m.in_kernel]
            if unplayed:
                raise ModelError(
                    f"{where}: the simulation kernel does not play {', '.join(unplayed)} yet: "
                    "it cannot simulate this model (reelsmith analyze gives its exact figures)"
                )
    found = [getattr(m, face) for m in declared(model.raw) if getattr(m, face, None) is not None]
    if not found:
        raise ModelError(f"{model.source or model.id}: no mechanic of this model has a {face}")
    return str(found[-1])


def client(model: GameModel) -> str:
    """The web client's script for ``model``: the one a declared mechanic asks for, else the
    script every other title plays with."""
    for mechanic in declared(model.raw):
        if mechanic.client is not None:
            return mechanic.client
    return CATALOGUE


def _event_entry(kind: str, entry: Mapping[str, Any], scoped: bool) -> dict[str, Any]:
    from reelsmith.engine.events import minor_key

    fields = dict(entry["properties"])
    optional = set(entry.get("optional", ()))  # fields only some titles' events carry
    if scoped:
        fields = {"spin": SPIN_FIELD, **fields}
    money = {
        minor_key(key): {
            "type": "integer",
            "minimum": 0,
            "description": f"{key} in the currency's minor units (the server's answer)",
        }
        for key in fields
        if key.endswith("coins")
    }
    return {
        "title": kind,
        "description": entry["description"],
        "type": "object",
        "properties": {"type": {"const": kind}, **fields, **money},
        "required": ["type", *(key for key in fields if key not in optional)],
        "additionalProperties": False,
    }


#: Every screen event's index of its screen in the round.
SPIN_FIELD: dict[str, Any] = {
    "type": "integer",
    "minimum": 0,
    "description": "the screen's index in the round (0: the base spin)",
}


def event_kinds(mechanics: tuple[Mechanic, ...] | None = None) -> dict[str, str]:
    """Every event kind and who emits it (``core`` or a mechanic's name), of ``mechanics``
    (None: the registry's); ValueError when two emit the same kind."""
    from reelsmith.engine.events import CORE_SCHEMAS

    mechanics = MECHANICS if mechanics is None else mechanics
    owners = dict.fromkeys(CORE_SCHEMAS, "core")
    for mechanic in mechanics:
        for kind in mechanic.events:
            if kind in owners:
                raise ValueError(f"event {kind!r}: emitted by {owners[kind]} and {mechanic.name}")
            owners[kind] = mechanic.name
    return owners


def event_schema(mechanics: tuple[Mechanic, ...] | None = None) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a round's events: an array of objects, each one of
    the kinds the core and ``mechanics`` (None: the registry's) emit (see
    :mod:`reelsmith.engine.events`)."""
    from reelsmith.engine.events import CORE_SCHEMAS, EVENTS_VERSION

    mechanics = MECHANICS if mechanics is None else mechanics
    event_kinds(mechanics)
    entries = [_event_entry(kind, entry, False) for kind, entry in CORE_SCHEMAS.items()]
    for mechanic in mechanics:
        for kind, entry in mechanic.event_fields().items():
            entries.append(_event_entry(kind, entry, entry.get("scope", "spin") == "spin"))
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"urn:reelsmith:events:{EVENTS_VERSION}",
        "title": "reelsmith round events",
        "description": "A round as the events a client plays, in order.",
        "version": EVENTS_VERSION,
        "type": "array",
        "items": {"oneOf": entries},
    }
