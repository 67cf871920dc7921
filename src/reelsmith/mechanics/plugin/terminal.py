"""A plug-in in ``reelsmith evaluate``: its draw is not part of a screen, so the command gives
the law of the win it leads to."""

from __future__ import annotations

from typing import Any

from reelsmith.engine.model import GameModel
from reelsmith.engine.plugins import Plugin, model_plugin


class PluginTerminal:
    def __init__(self, plugin: Plugin) -> None:
        self.plugin = plugin

    def evaluate_json(self, model: GameModel, grid: Any, stake: Any, out: dict[str, Any]) -> None:
        plugin = self.plugin
        if not plugin.in_base:
            return
        law = plugin.law(False, out["total_coins"], stake.total_coins)
        total = sum(weight for _, weight in law)
        out["plugin"] = {
            "name": plugin.name,
            "wins": [{"total_coins": win, "probability": weight / total} for win, weight in law],
        }


def face(model: GameModel) -> PluginTerminal:
    plugin = model_plugin(model)
    assert plugin is not None
    return PluginTerminal(plugin)
