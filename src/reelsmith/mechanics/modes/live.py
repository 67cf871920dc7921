"""The modes' live step: a round played in a mode (its name in the round's starting parts under
``"mode"``, recorded with the round) is played as the mode says.

An ante's base spins spin the ante's reel set (:meth:`ModesPart.base_setup`); everything else
is the base game's. A buy plays no base spin: before it, the spin feature is started as a base
spin showing the mode's trigger count would start it (its draws, a reveal's, are the round's
first), and the round continues in the feature's phase. A round without a mode is the base
game's, untouched. A mode the model does not declare is refused before anything is played.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from reelsmith.engine.errors import RuleError
from reelsmith.engine.model import GameModel
from reelsmith.engine.round import Context, Part, Round, SpinFeature, SpinSetup
from reelsmith.mechanics.modes.rules import MODE, Mode, Modes, modes_of
from reelsmith.rng import RandomSource


@dataclass(frozen=True)
class Bought:
    """What a bought round started with: the mode, its trigger count and the feature's start
    (the spins awarded, each symbol's reveal)."""

    mode: str
    triggers: int
    spins: int
    reveals: tuple[int, ...]


class ModesPart(Part):
    name = "modes"
    stage = 5  # before the window: a mode decides how the round begins

    def __init__(self, modes: Modes) -> None:
        self.modes = modes

    def mode(self, round_: Round) -> Mode | None:
        name = round_.part(MODE)
        if name is None:
            return None
        if name not in self.modes.modes:
            known = ", ".join(self.modes.modes)
            raise RuleError(f"no mode {name!r} in this game; the modes are: {known}")
        return self.modes.modes[name]

    def prepare(self, ctx: Context, round_: Round) -> Round:
        self.mode(round_)  # an unknown mode is refused before any draw
        return round_

    def begin(self, ctx: Context, round_: Round, rng: RandomSource) -> Round:
        mode = self.mode(round_)
        if mode is None or mode.kind != "buy":
            return round_
        features = [p for p in ctx.composition.parts if isinstance(p, SpinFeature)]
        if not features:
            raise RuleError(f"mode {mode.name!r}: this game has no feature to buy")
        started, start = features[0].start_directly(ctx, round_, mode.triggers, rng)
        bought = Bought(
            mode.name, mode.triggers, int(start["spins"]), tuple(start.get("reveals", ()))
        )
        return started.with_part(self.name, bought)

    def base_setup(self, ctx: Context, round_: Round) -> SpinSetup | None:
        mode = self.mode(round_)
        if mode is None or mode.kind != "ante":
            return None
        assert mode.reel_set is not None
        return replace(ctx.base_setup, reel_set=mode.reel_set)

    def start_events(self, ctx: Context, round_: Round) -> list[dict[str, object]]:
        bought: Bought | None = round_.part(self.name)
        if bought is None:
            return []
        return [
            {
                "type": "feature_bought",
                "mode": bought.mode,
                "triggers": bought.triggers,
                "spins": bought.spins,
                "reveals": list(bought.reveals),
            }
        ]

    def round_json(self, ctx: Context, round_: Round) -> dict[str, object]:
        mode = self.mode(round_)
        return {"mode": mode.name if mode is not None else None}


def part(model: GameModel) -> ModesPart:
    return ModesPart(modes_of(model))
