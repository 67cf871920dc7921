"""The rules a player reads for Days of the Tsar, written from the model's own values."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from reelsmith.engine.model import GameModel
from reelsmith.games.days_of_the_tsar.rules import tsar_rules


def feature_rules(model: GameModel, variant_id: str | None = None) -> dict[str, Any]:
    rules = tsar_rules(model)
    variant = model.variant(variant_id)
    reveal = rules.egg_reveal(variant)
    wild = model.symbols[model.wild].name
    egg = model.symbols[model.scatter].name
    total = reveal.total_weight
    mean = Fraction(sum(v * w for v, w in zip(reveal.values, reveal.weights, strict=True)), total)
    bets = rules.bets
    return {
        "general": [
            f"{model.name} is a {model.reels} reel, {model.line_count} payline, "
            f"{bets.max_total_coins} coin slot machine.",
            "Winnings are paid out on the highest combination on each enabled payline only, "
            "except for scatter wins.",
            "You are paid out for winning combinations on enabled paylines only, "
            "except for scatter wins.",
            "Regular winning combinations pay out from left to right, on consecutive reels, "
            "starting on reel 1.",
            "Line pay = the coins in the paytable x the coins bet per payline.",
            "Scatter and bonus game wins are added to payline wins.",
            "Credits won = coins won x coin size.",
            "Malfunctions void all plays and pays: a round interrupted by a malfunction pays "
            "nothing and its bet is returned.",
        ],
        "substitute": [
            f"The {wild} symbol is a substitute symbol: it stands in for every symbol "
            f"except the {egg}.",
            f"Multiple {wild} symbols on an enabled payline from reel 1 pay as {wild} "
            "combinations on their own row of the paytable.",
            f"A payline pays the higher of its {wild} combination and the combination the "
            f"{wild} symbols complete (four {wild}s and a Jack pay 1,000 coins for four "
            f"{wild}s, not 150 for five Jacks).",
            f"The {egg} symbol interrupts a payline.",
        ],
        "scatter": [
            f"The {egg} symbol is a scatter symbol: it pays anywhere on the screen, "
            "whatever paylines are enabled.",
            f"2, 3, 4 or 5 {egg} symbols pay the total coins bet x "
            + ", ".join(str(int(model.scatter_pays[k])) for k in range(2, model.reels + 1))
            + ".",
            f"The {wild} symbol does not substitute for the {egg} symbol.",
            "A reel shows at most one egg.",
        ],
        "free_spins": {
            "text": [
                f"{rules.trigger_count} or more {egg} symbols anywhere start the Free Spins "
                "bonus game.",
                f"Each {egg} that started the bonus game reveals a number of free spins; "
                "their sum is the number of free spins won.",
                "Free spins use the bet and paylines of the spin that started them.",
                f"Every {egg} shown during a free spin adds {rules.extra_spins_per_egg} free "
                "spin to those remaining; scatter wins pay during free spins.",
                "Free spins play on their own reel strips.",
                "When the free spins end, their wins are added to the round's win.",
            ],
            "reveal_distribution": [
                {
                    "spins": value,
                    "weight": weight,
                    "probability": round(weight / total, 6),
                }
                for value, weight in zip(reveal.values, reveal.weights, strict=True)
            ],
            "mean_spins_per_egg": round(float(mean), 4),
        },
        "gamble": {
            "text": [
                "Any win (free spins included) may be gambled on a card from a fair 52-card "
                "deck, or collected.",
                f"Guess the colour (red or black) to win x{rules.colour_multiplier}, "
                f"or the suit (hearts, diamonds, clubs, spades) to win x{rules.suit_multiplier}.",
                "A wrong guess loses the amount gambled.",
                f"At most {rules.max_gambles} gambles per round. A choice whose win would pass "
                f"the gamble limit of {rules.gamble_limit_credits} credits is not offered.",
                "When a limit is reached, the win is collected automatically. "
                "You may collect at any time.",
            ],
            "max_gambles": rules.max_gambles,
            "win_limit_credits": str(rules.gamble_limit_credits),
            "colour_multiplier": rules.colour_multiplier,
            "suit_multiplier": rules.suit_multiplier,
        },
        "bets": {
            "text": [
                f"Enable the first {bets.min_lines} to {bets.max_lines} paylines.",
                f"Bet {bets.min_coins_per_line} to {bets.max_coins_per_line} coins per payline.",
                "Coin sizes: " + ", ".join(str(s) for s in bets.coin_sizes) + ".",
                f"Total bet = coins per payline x paylines, at most {bets.max_total_coins} coins.",
            ],
            "lines": {"min": bets.min_lines, "max": bets.max_lines},
            "coins_per_line": {"min": bets.min_coins_per_line, "max": bets.max_coins_per_line},
            "coin_sizes": [str(s) for s in bets.coin_sizes],
            "max_total_coins": bets.max_total_coins,
            "default": {
                "lines": bets.default.lines,
                "coins_per_line": bets.default.coins_per_line,
                "coin_size": str(bets.default.coin_size),
            },
        },
    }
