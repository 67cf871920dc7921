"""The free spins' live step: the trigger, its award (by the table, or each triggering symbol
revealing spins), the free spins on their own reel set and pay tables, retriggers and the cap.

The transitions are the catalogue's compiled ones (:func:`reelsmith.engine.catalogue.trigger_spins`,
:func:`~reelsmith.engine.catalogue.award_spins`), which the kernel and the exact analysis call
too. Draws: after a base spin that triggers with a revealed award, one weighted draw of the
reveal table per triggering symbol.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from reelsmith.engine.catalogue import Mechanics, award_spins, mechanics, trigger_spins
from reelsmith.engine.model import GameModel
from reelsmith.engine.round import (
    SPINNING,
    Context,
    Round,
    Spin,
    SpinFeature,
    SpinSetup,
)
from reelsmith.engine.rounds import replaced
from reelsmith.rng import RandomSource, weighted_index

#: The phase of a round whose free spins remain.
FREE_SPINS = "free_spins"
FREE_SPIN = "free_spin"


@dataclass(frozen=True)
class FeatureSpins:
    """The round's free spins: awarded in all (retriggers included), still to play, and the
    multiplier on their line and way wins that the trigger's count set."""

    awarded: int = 0
    remaining: int = 0
    multiplier: int = 1


@dataclass(frozen=True)
class SpinAward:
    """What a spin's trigger symbols did: how many it showed, each one's reveal (a base spin
    with a revealed award), the spins it added and those remaining after it."""

    triggers: int
    reveals: tuple[int, ...]
    spins_added: int
    free_spins_remaining: int

    def to_json(self) -> dict[str, object]:
        return {
            "triggers": self.triggers,
            "reveals": list(self.reveals),
            "spins_added": self.spins_added,
            "free_spins_remaining": self.free_spins_remaining,
        }

    def events(self) -> list[dict[str, object]]:
        if not self.spins_added:
            return []
        return [
            {
                "type": "free_spins_awarded",
                "triggers": self.triggers,
                "reveals": list(self.reveals),
                "spins": self.spins_added,
                "remaining": self.free_spins_remaining,
            }
        ]


class FreeSpinsPart(SpinFeature):
    name = "free_spins"
    stage = 50

    def __init__(self, rules: Mechanics) -> None:
        assert rules.free_spins is not None
        self.rules = rules
        self.free = rules.free_spins
        self.setup = SpinSetup(
            "free", self.free.reel_set, rules.free_line_pays, rules.free_scatter_pays
        )

    def prepare(self, ctx: Context, round_: Round) -> Round:
        return round_.with_part(self.name, FeatureSpins())

    def spin_events(self, spin: Spin) -> list[dict[str, object]]:
        award: SpinAward | None = spin.parts.get(self.name)
        if spin.kind != "free" or award is None:
            return []
        return [{"type": "free_spin", "remaining": award.free_spins_remaining}]

    def after_spin(self, ctx: Context, round_: Round, spin: Spin, rng: RandomSource) -> Round:
        free = self.free
        # every screen the spin read counts (a cascade's chain: each screen that shows the
        # trigger awards its spins)
        counts = [free.counted(grid, self.rules.trigger_mask) for grid in spin.grids]
        triggers = max(counts)
        state: FeatureSpins = round_.part(self.name)
        if spin.kind == "base":
            reveals: tuple[int, ...] = ()
            awarded = 0
            if len(counts) > 1:
                for count in counts:
                    if count >= free.trigger:
                        awarded += int(trigger_spins(free.spins, count, -1, free.max_spins))
                if free.max_spins:
                    awarded = min(awarded, free.max_spins)
            elif triggers >= free.trigger:
                if free.reveal is not None:
                    variant = ctx.variant(round_.variant, round_.rules_version)
                    values, weights = free.reveal_table(variant)
                    reveals = tuple(
                        values[weighted_index(rng, weights, free.reveal)] for _ in range(triggers)
                    )
                revealed = sum(reveals) if free.reveal is not None else -1
                awarded = int(trigger_spins(free.spins, triggers, revealed, free.max_spins))
            record = SpinAward(triggers, reveals, awarded, awarded)
            state = FeatureSpins(awarded, awarded, free.multiplier_for(triggers) if awarded else 1)
            phase = FREE_SPINS if awarded else round_.phase
        else:
            added = 0
            for count in counts:
                added += int(
                    award_spins(
                        free.retrigger,
                        free.retrigger_spins,
                        free.spins_per_symbol,
                        count,
                        state.awarded + added,
                        free.max_spins,
                    )
                )
            remaining = state.remaining - 1 + added
            record = SpinAward(triggers, (), added, remaining)
            state = FeatureSpins(state.awarded + added, remaining, state.multiplier)
            phase = FREE_SPINS if remaining > 0 else SPINNING
        spins = (*round_.spins[:-1], spin.with_record(self.name, record))
        return replaced(round_, spins=spins, phase=phase, parts={**round_.parts, self.name: state})

    def start_directly(
        self, ctx: Context, round_: Round, triggers: int, rng: RandomSource
    ) -> tuple[Round, dict[str, Any]]:
        """The feature as a base spin showing ``triggers`` trigger symbols starts it: the
        table's award, or one reveal draw per symbol; the trigger's multiplier."""
        free = self.free
        reveals: tuple[int, ...] = ()
        if free.reveal is not None:
            variant = ctx.variant(round_.variant, round_.rules_version)
            values, weights = free.reveal_table(variant)
            reveals = tuple(
                values[weighted_index(rng, weights, free.reveal)] for _ in range(triggers)
            )
        revealed = sum(reveals) if free.reveal is not None else -1
        awarded = int(trigger_spins(free.spins, triggers, revealed, free.max_spins))
        state = FeatureSpins(awarded, awarded, free.multiplier_for(triggers))
        started = replaced(round_, phase=FREE_SPINS, parts={**round_.parts, self.name: state})
        return started, {"spins": awarded, "reveals": list(reveals)}

    def spin_setup(self, ctx: Context, round_: Round) -> SpinSetup | None:
        if round_.phase != FREE_SPINS:
            return None
        state: FeatureSpins = round_.part(self.name)
        if state.multiplier == 1:
            return self.setup
        return replace(self.setup, line_multiplier=state.multiplier)

    def void(self, ctx: Context, round_: Round, voided: Round) -> Round:
        state: FeatureSpins | None = voided.part(self.name)
        if state is None:
            return voided
        return voided.with_part(self.name, FeatureSpins(state.awarded, 0, state.multiplier))

    def round_json(self, ctx: Context, round_: Round) -> dict[str, object]:
        state: FeatureSpins = round_.part(self.name) or FeatureSpins()
        out: dict[str, object] = {
            "free_spins_awarded": state.awarded,
            "free_spins_remaining": state.remaining,
            "free_spins_win_coins": sum(s.win_coins for s in round_.spins if s.kind == "free"),
        }
        if self.free.trigger_multipliers is not None:
            out["free_spins_trigger_multiplier"] = state.multiplier
        return out


def part(model: GameModel) -> FreeSpinsPart:
    return FreeSpinsPart(mechanics(model))
