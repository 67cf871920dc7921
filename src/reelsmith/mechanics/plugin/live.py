"""A plug-in's live step: its one draw and its new win, after the evaluators have paid the
spin, where the model lets it act (:mod:`reelsmith.engine.plugins`)."""

from __future__ import annotations

from dataclasses import dataclass

from reelsmith.engine.model import GameModel
from reelsmith.engine.plugins import Plugin, model_plugin, plugin_problems
from reelsmith.engine.round import Context, Part, Round, SpinSetup
from reelsmith.rng import RandomSource


@dataclass(frozen=True)
class PluginOutcome:
    outcome: int
    win_coins: int

    def to_json(self) -> dict[str, object]:
        return {"plugin": {"outcome": self.outcome, "win_coins": self.win_coins}}

    def events(self) -> list[dict[str, object]]:
        return [{"type": "win_modified", "outcome": self.outcome, "win_coins": self.win_coins}]


class PluginPart(Part):
    name = "plugin"
    stage = 40

    def __init__(self, plugin: Plugin) -> None:
        self.plugin = plugin

    def modify_win(
        self, ctx: Context, round_: Round, setup: SpinSetup, win: int, rng: RandomSource
    ) -> tuple[PluginOutcome, int] | None:
        free = setup.kind == "free"
        if not self.plugin.acts(free):
            return None
        new_win, outcome = self.plugin.step(free, win, round_.stake.total_coins, rng)
        return PluginOutcome(outcome, new_win), new_win


def problems(model: GameModel) -> list[str]:
    folder = model.source.parent if model.source is not None else None
    return plugin_problems(model.raw, folder, str(model.source or model.id))


def part(model: GameModel) -> PluginPart:
    plugin = model_plugin(model)
    assert plugin is not None
    return PluginPart(plugin)
