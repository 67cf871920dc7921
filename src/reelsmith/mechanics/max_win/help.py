"""The cap's sentences of the rules page (``[max_win]`` in the help files, English and German):
the cap in total bets (the market's where it is lower), and that a round reaching it pays the
cap and ends at once. The rules page puts them in place of "every win is paid in full"."""

from __future__ import annotations

from typing import Any

from reelsmith.engine.model import GameModel
from reelsmith.help import Phrases
from reelsmith.mechanics.max_win.rules import max_win_rules


def rules(p: Phrases, model: GameModel, terms: Any = None) -> list[str]:
    multiplier = max_win_rules(model).multiplier
    market = getattr(terms, "max_win_multiplier", None)
    if market is not None:
        multiplier = min(multiplier, market)
    text = [p("max_win.capped", multiplier=p.number(multiplier, 0))]
    if "free_spins" in model.raw:
        text.append(p("max_win.capped_ends_free_spins"))
    else:
        text.append(p("max_win.capped_ends"))
    if "gamble" in model.raw:
        text.append(p("max_win.capped_gamble"))
    return text


def general(p: Phrases, model: GameModel, terms: Any, text: list[str]) -> list[str]:
    """The rules page's general rules with the cap's sentences in place of "every win is paid
    in full"."""
    uncapped = p("max_win.uncapped")
    return [line for line in text if line != uncapped] + rules(p, model, terms)
