"""The reel strips' live step: one recorded ``reel_stop`` draw per reel (weighted where the
reel set gives stop weights: :mod:`reelsmith.engine.stops`) and the window below each stop (on
a model of variable rows, the draw picks a reel's stop and height together, and the spin
records the stop)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from reelsmith.engine.model import GameModel
from reelsmith.engine.round import Context, Part, Round, Spin, SpinSetup
from reelsmith.engine.screen import window
from reelsmith.engine.stops import draw_stops
from reelsmith.rng import RandomSource


class StripsPart(Part):
    name = "strips"
    stage = 10

    def window(
        self, ctx: Context, round_: Round, setup: SpinSetup, rng: RandomSource
    ) -> tuple[tuple[int, ...], npt.NDArray[np.int8]]:
        reel_set = ctx.variant(round_.variant, round_.rules_version).reel_sets[setup.reel_set]
        stops = draw_stops(reel_set, rng)
        grid = window(reel_set, stops, ctx.model.rows)
        if reel_set.heights is not None:  # positions drawn: the spin records the strips' stops
            stops = tuple(reel_set.position(reel, p)[0] for reel, p in enumerate(stops))
        return stops, grid

    def spin_events(self, spin: Spin) -> list[dict[str, object]]:
        return [
            {
                "type": "spin_stopped",
                "kind": spin.kind,
                "stops": list(spin.stops),
                "screen": [list(row) for row in spin.landed],
            }
        ]


def part(model: GameModel) -> StripsPart:
    return StripsPart()
