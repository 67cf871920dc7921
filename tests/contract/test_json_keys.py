"""The JSON that ``reelsmith analyze --json`` and ``reelsmith simulate --json`` print for every
title keeps its keys: scripts and dashboards read them. The keys are pinned per title in
``fixtures/json_keys.json`` (every key path, in order, a list's items as ``[]``); a key added,
renamed, moved or dropped fails here, and pinning again is a decision the commit states.

Record the pins (only when the change of keys is intended)::

    .venv/bin/python -m tests.contract.test_json_keys
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from reelsmith.mechanics import round_face
from reelsmith.mechanics.base import face
from tests.contract.test_figures import analysis
from tests.contract.titles import contract_titles, model

PINS = Path(__file__).parent / "fixtures" / "json_keys.json"
SIMULATED_ROUNDS = 20_000
SEED = 7


def key_paths(value: Any, prefix: str = "") -> list[str]:
    """Every key path of a JSON value in document order (``a.b``; a list's items ``a[]``, the
    paths of all its items merged in first-seen order)."""
    out: list[str] = []
    if isinstance(value, dict):
        for key, item in value.items():
            path = f"{prefix}.{key}" if prefix else str(key)
            out.append(path)
            out += [p for p in key_paths(item, path) if p not in out]
    elif isinstance(value, list):
        for item in value:
            out += [p for p in key_paths(item, f"{prefix}[]") if p not in out]
    return out


def documents(game_id: str) -> dict[str, list[str]]:
    """The key paths of the title's ``analyze --json`` and ``simulate --json`` (default
    variant, a short seeded run)."""
    variant = model(game_id).default_variant
    simulate = face(round_face(model(game_id), "simulate"))
    simulated = simulate(game_id, SIMULATED_ROUNDS, SEED, variant_id=variant, workers=1)
    return {
        "analyze": key_paths(analysis(game_id, variant)),
        "simulate": key_paths(simulated.to_json()),
    }


@pytest.mark.parametrize("game_id", contract_titles())
def test_the_printed_json_keeps_its_keys(game_id: str) -> None:
    pinned = json.loads(PINS.read_text())
    assert game_id in pinned, f"{game_id}: no pinned keys; record them (module docstring)"
    now = documents(game_id)
    for command in ("analyze", "simulate"):
        missing = [k for k in pinned[game_id][command] if k not in now[command]]
        added = [k for k in now[command] if k not in pinned[game_id][command]]
        assert not missing and not added, (command, missing, added)
        assert now[command] == pinned[game_id][command], f"{command}: the keys' order changed"


def test_key_paths_see_nested_keys_and_list_items() -> None:
    doc = {"a": 1, "b": {"c": [{"d": 1}, {"e": 2, "d": 3}]}, "f": []}
    assert key_paths(doc) == ["a", "b", "b.c", "b.c[].d", "b.c[].e", "f"]


def record() -> None:  # pragma: no cover - run by hand
    pins = {game_id: documents(game_id) for game_id in contract_titles()}
    PINS.write_text(json.dumps(pins, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":  # pragma: no cover
    record()
