"""The cascade's live step: a spin's chain of screens (see :mod:`.rules`), each paid by the
evaluators at its own multiplier, the cells of every win removed and the strip above falling
in: no draw is made, the spin's stops decide the whole chain. On a title of drawn cells each
new cell is drawn from its reel's cell table instead, one recorded ``cell`` draw per cell
(:func:`reelsmith.engine.stops.draw_cell`), reels left to right, rows top to bottom."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from reelsmith.engine.catalogue import mechanics
from reelsmith.engine.evaluation import Position
from reelsmith.engine.model import GameModel, ReelSet
from reelsmith.engine.round import Context, Part, Round, SpinSetup
from reelsmith.engine.screen import Screen, to_screen
from reelsmith.engine.stops import draw_cell
from reelsmith.mechanics.cascade.rules import CascadeRules, cascade_rules, drop, fall, least_paid
from reelsmith.rng import RandomSource

Read = Callable[[SpinSetup, npt.NDArray[np.int8]], tuple[dict[str, Any], int]]


@dataclass(frozen=True)
class Fallen:
    """A later screen of the chain: the cells removed from the screen before it, the screen
    once the cells above fell and the strips refilled, its multiplier, the evaluators'
    records of it and its win."""

    step: int  # from 2
    removed: tuple[Position, ...]
    screen: Screen
    multiplier: int
    records: dict[str, Any]
    win_coins: int

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "step": self.step,
            "removed": [list(p) for p in self.removed],
            "screen": [list(row) for row in self.screen],
            "multiplier": self.multiplier,
        }
        for record in self.records.values():
            out.update(record.to_json())
        out["win_coins"] = self.win_coins
        return out

    def events(self) -> list[dict[str, object]]:
        found: list[dict[str, object]] = [
            {
                "type": "cascade",
                "step": self.step,
                "removed": [list(p) for p in self.removed],
                "screen": [list(row) for row in self.screen],
                "multiplier": self.multiplier,
            }
        ]
        for record in self.records.values():
            emit = getattr(record, "events", None)
            if emit is not None:
                found.extend(emit())
        return found


@dataclass(frozen=True)
class Chain:
    """A spin's cascade: the first screen's multiplier and every later screen."""

    multiplier: int
    fallen: tuple[Fallen, ...]

    def to_json(self) -> dict[str, object]:
        return {
            "cascade_multiplier": self.multiplier,
            "cascade": [f.to_json() for f in self.fallen],
        }

    def events(self) -> list[dict[str, object]]:
        return [e for f in self.fallen for e in f.events()]


class CascadePart(Part):
    name = "cascade"
    stage = 35

    def __init__(self, model: GameModel) -> None:
        self.model = model
        self.rules: CascadeRules = cascade_rules(model)
        found = mechanics(model) if "free_spins" in model.raw else None
        self.free = found.free_spins if found is not None else None
        self.trigger_mask = found.trigger_mask if found is not None else None

    def removed(
        self, records: dict[str, Any], grid: npt.NDArray[np.int8], least: int
    ) -> set[Position]:
        """The cells the screen's wins remove: a line's counted run, a way's or a count's
        cells, and every scatter where its count reaches the least count its table pays (a
        higher count the table pays nothing for included) or it starts (or adds) free
        spins."""
        cells: set[Position] = set()
        for name, record in records.items():
            if name == "scatter" and self.rules.scatter_final:
                continue
            if name == "scatter":
                triggers = (
                    self.free is not None
                    and self.trigger_mask is not None
                    and self.free.symbol == self.model.scatter
                    and self.free.counted(grid, self.trigger_mask) >= self.free.trigger
                )
                if (least > 0 and record.count >= least) or triggers:
                    cells.update(record.positions)
            else:
                for win in getattr(record, "wins", ()):
                    cells.update(win.positions)
        return cells

    def chain(
        self,
        ctx: Context,
        round_: Round,
        setup: SpinSetup,
        stops: tuple[int, ...],
        grid: npt.NDArray[np.int8],
        read: Read,
        rng: RandomSource,
    ) -> tuple[dict[str, Any], int, Chain, tuple[Any, ...]]:
        rules = self.rules
        free = setup.kind == "free"

        def at(step: int) -> tuple[SpinSetup, int]:
            m = rules.multiplier(free, step)
            return replace(setup, line_multiplier=setup.line_multiplier * m), m

        first_setup, first_multiplier = at(1)
        first, win = read(first_setup, grid)
        reel_set = ctx.variant(round_.variant, round_.rules_version).reel_sets[setup.reel_set]
        strips, lengths = reel_set.padded, reel_set.lengths
        tops = np.array(stops, dtype=np.int64)
        screen = grid.copy()
        screens = [grid]
        records, fallen = first, []
        for step in range(2, rules.limit + 1):
            cells = self.removed(records, screen, least_paid(setup.scatter_pays))
            if not cells:
                break
            mask = np.zeros(screen.shape, dtype=np.bool_)
            for row, reel in cells:
                mask[row, reel] = True
            screen = screen.copy()
            if rules.refill_cells:
                refill_cells(screen, mask, reel_set, rng)
            else:
                fall(screen, mask, strips, lengths, tops)
            screens.append(screen)
            step_setup, multiplier = at(step)
            records, coins = read(step_setup, screen)
            win += coins
            fallen.append(
                Fallen(
                    step,
                    tuple(sorted(cells)),
                    to_screen(self.model, screen),
                    multiplier,
                    records,
                    coins,
                )
            )
        if rules.scatter_final:
            # the scatter counts on the final screen alone: the others' scatter pays go, and
            # only the final screen counts for the free spins
            first, win, fallen = self._final_scatter(first, win, fallen)
            return first, win, Chain(first_multiplier, tuple(fallen)), (screens[-1],)
        return first, win, Chain(first_multiplier, tuple(fallen)), tuple(screens)

    def _final_scatter(
        self, first: dict[str, Any], win: int, fallen: list[Fallen]
    ) -> tuple[dict[str, Any], int, list[Fallen]]:
        def unpaid(records: dict[str, Any]) -> tuple[dict[str, Any], int]:
            shown = records.get("scatter")
            if shown is None or shown.win is None:
                return records, 0
            return {**records, "scatter": replace(shown, win=None)}, shown.win.coins

        screens = [first, *(f.records for f in fallen)]
        for index in range(len(screens) - 1):
            screens[index], coins = unpaid(screens[index])
            win -= coins
            if index > 0:
                f = fallen[index - 1]
                fallen[index - 1] = replace(
                    f, records=screens[index], win_coins=f.win_coins - coins
                )
        return screens[0], win, fallen


def refill_cells(
    screen: npt.NDArray[np.int8],
    removed: npt.NDArray[np.bool_],
    reel_set: ReelSet,
    rng: RandomSource,
) -> None:
    """Remove ``removed``'s cells, drop the rest and draw each empty top cell from its reel's
    cell table, in place: reels left to right, each reel's new cells top to bottom."""
    for reel in range(screen.shape[1]):
        for row in range(drop(screen, removed, reel)):
            screen[row, reel] = reel_set.strips[reel][draw_cell(reel_set, reel, rng)]


def part(model: GameModel) -> CascadePart:
    return CascadePart(model)
