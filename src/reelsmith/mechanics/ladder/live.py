"""The free-spins ladder's live step: after each spin, the bonus symbols it landed start the
ladder (a base spin with the trigger count), fill a spot of the meter (a base spin with exactly
the feed count) or, in free spins, fill the meter, unlock levels and move the ladder on
(:mod:`reelsmith.engine.features.ladder_steps`, the transitions the kernel and the exact
analysis call too). Each free spin plays its level's multiplier on line wins. The meter is the
player's, per bet level, in the carried state the pots keep (``Round.parts["carried"]``)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from reelsmith.engine.features.ladder_steps import advance, collect, fill_spot, start_ladder
from reelsmith.engine.ladder import LadderRules, ladder_rules
from reelsmith.engine.ladder_state import BetState
from reelsmith.engine.model import GameModel
from reelsmith.engine.round import (
    SPINNING,
    VOIDED,
    Context,
    Round,
    Spin,
    SpinFeature,
    SpinSetup,
)
from reelsmith.engine.rounds import replaced
from reelsmith.mechanics.pots.live import CARRIED
from reelsmith.rng import RandomSource

FREE_SPINS = "free_spins"
FREE_SPIN = "free_spin"


@dataclass(frozen=True)
class Climb:
    """Where the round is on the ladder: the level played (0: the main game), the highest
    level unlocked and the spins of the level still to play."""

    level: int = 0
    unlocked: int = 0
    level_spins_left: int = 0


@dataclass(frozen=True)
class LadderSpin:
    """A spin's place on the ladder: its level and multiplier, its line win (multiplied), the
    bonus symbols it landed and the meter after it."""

    level: int
    multiplier: int
    line_coins: int
    bonus: int
    meter_after: int

    def to_json(self) -> dict[str, object]:
        return {
            "level": self.level,
            "multiplier": self.multiplier,
            "line_coins": self.line_coins,
            "bonus": self.bonus,
            "meter_after": self.meter_after,
        }

    def events(self) -> list[dict[str, object]]:
        return [{"type": "ladder_step", **self.to_json()}]


class LadderPart(SpinFeature):
    name = "ladder"
    stage = 50

    def __init__(self, model: GameModel) -> None:
        self.model = model
        ladder_rules(model)

    def rules(self, round_: Round) -> LadderRules:
        return ladder_rules(self.model, round_.rules_version)

    def prepare(self, ctx: Context, round_: Round) -> Round:
        return round_.with_part(self.name, Climb())

    def after_spin(self, ctx: Context, round_: Round, spin: Spin, rng: RandomSource) -> Round:
        rules = self.rules(round_)
        bonus = int((spin.grid == rules.bonus).sum())
        carried: BetState = round_.part(CARRIED)
        climb: Climb = round_.part(self.name)
        meter = carried.meter
        phase = round_.phase
        level = climb.level
        if spin.kind == "base":
            if bonus >= rules.trigger_count:
                unlocked, meter = start_ladder(meter, rules.spots)
                climb = Climb(1, unlocked, rules.spins_per_level)
                phase = FREE_SPINS
            elif bonus == rules.main_game_bonus_per_spot:
                meter = fill_spot(meter, rules.spots)
        else:
            meter, unlocked = collect(meter, climb.unlocked, bonus, rules.spots, rules.levels)
            next_level, left, over = advance(
                climb.level, climb.level_spins_left, unlocked, rules.spins_per_level
            )
            climb = Climb(next_level, unlocked, left)
            if over:
                phase = SPINNING
        multiplier = rules.multipliers[level - 1] if level else 1
        record = LadderSpin(level, multiplier, spin.win_coins - spin.fixed_coins, bonus, meter)
        spins = (*round_.spins[:-1], spin.with_record(self.name, record))
        parts = {**round_.parts, self.name: climb, CARRIED: replace(carried, meter=meter)}
        return replaced(round_, spins=spins, phase=phase, parts=parts)

    def spin_setup(self, ctx: Context, round_: Round) -> SpinSetup | None:
        if round_.phase != FREE_SPINS:
            return None
        rules = self.rules(round_)
        climb: Climb = round_.part(self.name)
        return SpinSetup(
            "free",
            rules.free_reel_set,
            self.model.line_pays,
            self.model.scatter_pays,
            rules.multipliers[climb.level - 1],
        )

    def round_json(self, ctx: Context, round_: Round) -> dict[str, object]:
        climb: Climb = round_.part(self.name) or Climb()
        carried: BetState = round_.part(CARRIED)
        line = sum(s.win_coins - s.fixed_coins for s in round_.spins)
        fixed = sum(s.fixed_coins for s in round_.spins)
        return {
            "level": climb.level,
            "unlocked": climb.unlocked,
            "level_spins_left": climb.level_spins_left,
            "meter": carried.meter,
            "line_coins": line,
            "win_coins": 0 if round_.phase == VOIDED else line + fixed,
        }


def part(model: GameModel) -> LadderPart:
    return LadderPart(model)


def table_problems(raw: dict[str, Any], reels: int, rows: int, where: str) -> list[str]:
    """Every problem of the ladder's and the pots' tables as ``model.toml`` gives them (the
    loader stops at the first)."""
    from reelsmith.engine.features.ladder_tables import read_tables, symbol_roles

    roles = symbol_roles(raw.get("symbols") or [])
    return list(read_tables(raw, raw.get("bet", {}), roles, reels, rows, where)[2])


def problems(model: GameModel) -> list[str]:
    """The ladder's and the pots' checks (:func:`reelsmith.modelio.validate.ladder_problems`),
    then whether the ladder plays the model's evaluator
    (:func:`reelsmith.analysis.ladder_window.problems`: paylines, or ways small enough for
    its exact analysis)."""
    from reelsmith.analysis.ladder_window import problems as window_problems
    from reelsmith.modelio.validate import ladder_problems

    found = ladder_problems(model)
    return found if found else window_problems(model)
