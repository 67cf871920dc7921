"""The gamble in the terminal: a win's gamble offered step by step (a colour, a suit, or
collect), each card shown."""

from __future__ import annotations

from typing import Any

from rich.markup import escape

from reelsmith.engine import round as core
from reelsmith.engine.errors import RuleError
from reelsmith.engine.model import GameModel
from reelsmith.engine.round import COMPLETE, VOIDED, Round
from reelsmith.mechanics import composition
from reelsmith.mechanics.gamble.live import COLLECT, GAMBLE, GamblePart, Gambles


class GambleTerminal:
    def __init__(self, model: GameModel) -> None:
        part = composition(model).named(GAMBLE)
        assert isinstance(part, GamblePart)
        self.part = part

    def handles(self, round_: Round) -> bool:
        return round_.phase == GAMBLE

    def step(self, game: Any, round_: Round) -> Round:
        state: Gambles = round_.part(GAMBLE)
        offered = self.part.choices(round_)
        game.print(
            f"Win [bold]{round_.win_coins:,}[/] coins ({game.money(round_, round_.win_coins)} "
            f"credits). Gamble {len(state.played) + 1} of {state.max_gambles}, limit "
            f"{game.money(round_, state.limit_coins)} credits."
        )
        answer = game.read("Gamble on " + " / ".join(offered) + " — or [c]ollect").strip().lower()
        if answer in ("", "c", "collect"):
            return core.act(game.composition, round_, COLLECT, game.rng)
        try:
            after = core.act(game.composition, round_, f"gamble {answer}", game.rng)
        except RuleError as exc:
            game.print(f"[red]{escape(str(exc))}[/]")
            return round_
        if after.phase == VOIDED:
            return after
        played = after.part(GAMBLE).played[-1]
        verdict = "[green]right[/]" if played.won else "[red]wrong[/]"
        game.print(f"  The card is the {played.card} ({played.card.colour}): {verdict}.")
        if after.phase == COMPLETE and played.won:
            game.print("  Gamble limit reached: the win is collected.")
        return after


def face(model: GameModel) -> GambleTerminal:
    return GambleTerminal(model)
