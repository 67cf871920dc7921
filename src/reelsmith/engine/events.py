"""A round as the events a client plays: what happened, in the order it happened.

A client draws a round from its events alone, one presenter per event kind, whatever mechanics
the title composes: the reels stopped, a line, way or scatter paid, a gem revealed, free spins
awarded, a gamble card turned. Each event is a JSON object whose ``type`` names its kind and
whose other fields are that kind's (:data:`CORE_SCHEMAS` here; a mechanic's own in its
package's ``events`` module, listed by the registry: :func:`reelsmith.mechanics.event_schema`
is the whole, versioned JSON Schema).

The order (:func:`round_events`): ``round_started``; the parts' events of the round's start
(a bought feature); for each screen, the events of every part
of the composition in its order (the window's ``spin_stopped`` first, the window modifiers',
the evaluators', the features'), then ``spin_won``; the round-level events of the parts
(gamble cards, in the order played); last ``round_ended`` when the round is over, else
``actions_offered`` with what the player may do next. A screen's events carry its index in
``spin`` (0: the base spin). Amounts are in coins; the server's answer adds each in the
currency's minor units at the round's price (:func:`minor_key`). Events are derived from the
round, never stored: a round replayed from its record gives the same events.
"""

from __future__ import annotations

from typing import Any

from reelsmith.engine.round import Composition, Round, actions, context

#: The version of the event schema: a change a client must know of raises it.
EVENTS_VERSION = 1

Event = dict[str, Any]

_COUNT = {"type": "integer", "minimum": 0}
_SPIN = {"type": "integer", "minimum": 0, "description": "the screen's index (0: base spin)"}

#: The core's events (each kind's fields beside ``type``; every field required).
CORE_SCHEMAS: dict[str, dict[str, Any]] = {
    "round_started": {
        "description": "The round is staked and its base spin follows.",
        "properties": {
            "game": {"type": "string"},
            "variant": {"type": "string"},
            "total_coins": {
                **_COUNT,
                "description": "the coins the round's bet stakes (a round in a bet mode costs "
                "its mode's price times that: its total_minor is what was charged)",
            },
        },
    },
    "spin_won": {
        "description": "A screen is paid: its whole win in coins (0: nothing).",
        "properties": {"spin": _SPIN, "coins": _COUNT},
    },
    "actions_offered": {
        "description": "The round waits for the player: the actions they may take.",
        "properties": {"actions": {"type": "array", "items": {"type": "string"}}},
    },
    "round_ended": {
        "description": "The round is over: complete (its win paid) or voided (its bet returned).",
        "properties": {
            "phase": {"enum": ["complete", "voided"]},
            "win_coins": _COUNT,
        },
    },
}


def minor_key(coins_key: str) -> str:
    """The name of an event's amount in the currency's minor units, which the server adds
    beside each amount in coins (``coins`` -> ``minor``, ``win_coins`` -> ``win_minor``)."""
    return coins_key[: -len("coins")] + "minor"


def _spin_events(part: Any, index: int, spin: Any) -> list[Event]:
    record = spin.parts.get(part.name)
    emit = getattr(record, "events", None)
    found: list[Event] = list(emit()) if emit is not None else []
    extra = getattr(part, "spin_events", None)
    if extra is not None:
        found = [*extra(spin), *found]
    return [
        {"type": e["type"], "spin": index, **{k: v for k, v in e.items() if k != "type"}}
        for e in found
    ]


def round_events(composition: Composition, round_: Round) -> list[Event]:
    """The round's events in the order a client plays them (see the module's account)."""
    ctx = context(composition)
    events: list[Event] = [
        {
            "type": "round_started",
            "game": round_.game,
            "variant": round_.variant,
            "total_coins": round_.stake.total_coins,
        }
    ]
    for part in composition.parts:
        opening = getattr(part, "start_events", None)
        if opening is not None:
            events.extend(opening(ctx, round_))
    for index, spin in enumerate(round_.spins):
        for part in composition.parts:
            events.extend(_spin_events(part, index, spin))
        events.append({"type": "spin_won", "spin": index, "coins": spin.win_coins})
    for part in composition.parts:
        emit = getattr(part, "round_events", None)
        if emit is not None:
            events.extend(emit(ctx, round_))
    if round_.is_finished:
        events.append(
            {"type": "round_ended", "phase": round_.phase, "win_coins": round_.paid_coins}
        )
    else:
        events.append({"type": "actions_offered", "actions": actions(composition, round_)})
    return events
