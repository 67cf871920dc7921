"""``[view]``: the model's renames of a round's view for the title's client (``spin`` for each
screen's keys, ``round`` for the round's; ``false`` leaves a key out). Names only, never what a
round is, so rounds stored under those names read and replay as before."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reelsmith.engine.model import GameModel, ModelError
from reelsmith.engine.round import Round

#: The keys ``[view]`` may rename, per part: a screen's and the round's own.
SPIN_KEYS = frozenset(
    {"scatters", "scatter_positions", "triggers", "reveals", "spins_added", "free_spins_remaining"}
)
ROUND_KEYS = frozenset({"free_spins_multiplier", "gamble_choices", "gamble_limit_minor"})

#: A view's renames: key -> new name, or None to leave the key out.
Names = dict[str, str | None]


def view_names(model: GameModel) -> tuple[Names, Names]:
    """The model's ``[view]`` table, checked: (a screen's renames, the round's renames)."""
    where = f"{model.source or model.id}: view"
    raw = model.raw.get("view", {})
    if not isinstance(raw, Mapping) or set(raw) - {"spin", "round"}:
        raise ModelError(f"{where} must be a table of spin = {{...}} and round = {{...}}")
    parts: list[Names] = []
    for part, known in (("spin", SPIN_KEYS), ("round", ROUND_KEYS)):
        table = raw.get(part, {})
        if not isinstance(table, Mapping):
            raise ModelError(f"{where}.{part} must be a table of key = new name (or false)")
        names: Names = {}
        for key, name in table.items():
            if key not in known:
                raise ModelError(
                    f"{where}.{part}.{key}: not a key the view renames; "
                    f"those are {', '.join(sorted(known))}"
                )
            if name is False:
                names[key] = None
            elif isinstance(name, str) and name.isidentifier():
                names[key] = name
            else:
                raise ModelError(f"{where}.{part}.{key} must be a name or false, got {name!r}")
        parts.append(names)
    return parts[0], parts[1]


def problems(model: GameModel) -> list[str]:
    try:
        view_names(model)
    except ModelError as exc:
        return [str(exc)]
    return []


def renamed(data: dict[str, Any], names: Names) -> dict[str, Any]:
    """``data``, a dict of its caller's own, with its keys renamed by ``names`` in place (a
    key named None is left out; a renamed key moves to the end)."""
    for key, name in names.items():
        if key in data:
            value = data.pop(key)
            if name is not None:
                data[name] = value
    return data


class Renames:
    """Applied last to a round's view (see the module's account)."""

    last = True

    def __init__(self, model: GameModel) -> None:
        self.spin_names, self.round_names = view_names(model)

    def view(self, price: Any, round_: Round, data: dict[str, Any]) -> None:
        if self.spin_names:
            data["spins"] = [renamed(spin, self.spin_names) for spin in data["spins"]]
        renamed(data, self.round_names)
