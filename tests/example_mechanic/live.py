"""The mystery symbols' live step (see the package): one ``mystery`` draw on a screen that shows
the symbol, none on a screen that does not."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from reelsmith.engine.model import GameModel, ModelError
from reelsmith.engine.round import Context, Part, Round, SpinSetup
from reelsmith.rng import RandomSource, weighted_index


@dataclass(frozen=True)
class Mystery:
    symbol: int
    becomes: tuple[int, ...]
    weights: tuple[int, ...]


def read(model: GameModel) -> Mystery:
    where = f"{model.source or model.id}: mystery"
    raw = model.raw.get("mystery")
    if not isinstance(raw, dict) or set(raw) != {"symbol", "becomes"}:
        raise ModelError(f"{where} must be a table of symbol and becomes")
    try:
        symbol = model.symbol_index(raw["symbol"])
        table = raw["becomes"]
        becomes = tuple(model.symbol_index(s) for s in table)
    except KeyError as exc:
        raise ModelError(f"{where}: {exc.args[0]}") from None
    weights = tuple(table.values())
    if any(not isinstance(w, int) or isinstance(w, bool) or w < 0 for w in weights) or not sum(
        weights
    ):
        raise ModelError(f"{where}.becomes: weights must be whole numbers >= 0, not all 0")
    return Mystery(symbol, becomes, weights)


def problems(model: GameModel) -> list[str]:
    try:
        read(model)
    except ModelError as exc:
        return [str(exc)]
    return []


@dataclass(frozen=True)
class Revealed:
    """The symbol the mysteries of a spin became (None: the spin showed none)."""

    symbol: str | None

    def to_json(self) -> dict[str, object]:
        return {"mystery": self.symbol}

    def events(self) -> list[dict[str, object]]:
        return [] if self.symbol is None else [{"type": "mystery_revealed", "symbol": self.symbol}]


#: The events the mechanic emits: kind -> its description and fields (a JSON Schema's).
EVENTS = {
    "mystery_revealed": {
        "description": "The screen's mystery symbols all became one symbol.",
        "properties": {"symbol": {"type": "string", "minLength": 1}},
    },
}


class MysteryPart(Part):
    name = "mystery"
    stage = 20

    def __init__(self, model: GameModel) -> None:
        self.model = model
        self.rules = read(model)

    def modify_window(
        self,
        ctx: Context,
        round_: Round,
        setup: SpinSetup,
        grid: npt.NDArray[np.int8],
        rng: RandomSource,
    ) -> tuple[Round, npt.NDArray[np.int8], Revealed, int]:
        rules = self.rules
        shown = grid == rules.symbol
        if not shown.any():
            return round_, grid, Revealed(None), 0
        becomes = rules.becomes[weighted_index(rng, list(rules.weights), "mystery")]
        revealed = np.where(shown, np.int8(becomes), grid).astype(np.int8)
        return round_, revealed, Revealed(self.model.symbol_id(becomes)), 0


def part(model: GameModel) -> MysteryPart:
    return MysteryPart(model)
