"""The rules a player reads for a catalogue title, written from its model's own values.

Every sentence is derived from the tables the engine pays from (the line rule and its wild,
the scatter, the free spins, the gamble, the bet options), so the page cannot say one thing
while the game does another; a test plays the rules it states.
"""

from __future__ import annotations

from typing import Any

from reelsmith.engine.catalogue import (
    RETRIGGER_NONE,
    RETRIGGER_PER_SYMBOL,
    RETRIGGER_TABLE,
    mechanics,
)
from reelsmith.engine.catalogue_round import bet_options
from reelsmith.engine.model import GameModel


def _counts(table: Any, low: int, high: int) -> list[tuple[int, int]]:
    """``(count, value)`` for the counts from ``low`` on whose value differs from the next."""
    out = []
    for count in range(low, high + 1):
        out.append((count, int(table[min(count, len(table) - 1)])))
    # a count above the table's last entry pays as that entry: list it as "N or more"
    while len(out) > 1 and out[-1][1] == out[-2][1]:
        out.pop()
    return out


def _spins_text(table: Any, low: int, high: int, symbol: str, noun: str = "free spins") -> str:
    entries = [(c, v) for c, v in _counts(table, low, high) if v > 0]
    parts = [f"{count} {symbol}s: {value} {noun}" for count, value in entries]
    if entries and entries[-1][0] < high:
        parts[-1] = f"{entries[-1][0]} or more {symbol}s: {entries[-1][1]} {noun}"
    return "; ".join(parts) + "."


def _wild_example(model: GameModel) -> str:
    """An example of the higher-pay rule from the paytable: one wild short of a full line
    and a regular symbol whose full line pays less than the wilds' own combination (empty
    when the paytable has none)."""
    wild = model.wild
    run = model.reels - 1
    wild_pay = int(model.line_pays[wild, run])
    candidates = [
        (int(model.line_pays[s.index, model.reels]) * model.wild_multiplier, -s.index, s.name)
        for s in model.symbols
        if model.substitutable[s.index]
        and 0 < int(model.line_pays[s.index, model.reels]) * model.wild_multiplier < wild_pay
    ]
    if not candidates:
        return ""
    pay, _, name = max(candidates)
    wilds = f"{run} {model.symbols[wild].name}s"
    return (
        f" ({wilds} and a {name} pay {wild_pay:,} coins for {wilds}, not {pay:,} for "
        f"{model.reels} {name}s)"
    )


def feature_rules(model: GameModel, variant_id: str | None = None) -> dict[str, Any]:
    rules = mechanics(model)
    variant = model.variant(variant_id)
    bets = bet_options(model)
    out: dict[str, Any] = {
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
    }
    names = {s.index: s.name for s in model.symbols}
    if model.wild >= 0:
        wild = names[model.wild]
        others = [s.name for s in model.symbols if s.role != "regular" and s.index != model.wild]
        subs = [s.name for s in model.symbols if model.substitutable[s.index]]
        regular = [s.name for s in model.symbols if s.role == "regular"]
        if subs == regular:
            stands = "every symbol" + (f" except the {', '.join(others)}" if others else "")
        else:
            stands = ", ".join(subs)
        text = [f"The {wild} symbol is a substitute symbol: it stands in for {stands}."]
        if model.line_pays[model.wild].any():
            text.append(
                f"Multiple {wild} symbols on an enabled payline from reel 1 pay as {wild} "
                "combinations on their own row of the paytable."
            )
            text.append(
                f"A payline pays the higher of its {wild} combination and the combination the "
                f"{wild} symbols complete"
                + _wild_example(model)
                + (
                    f"; when both pay the same, the {wild} combination is paid."
                    if model.ties_to_wild
                    else "; when both pay the same, the completed combination is paid."
                )
            )
        if model.wild_multiplier > 1:
            text.append(
                f"A winning combination completed by one or more {wild} symbols pays "
                f"x{model.wild_multiplier}."
            )
        if model.wild_reels and len(model.wild_reels) < model.reels:
            text.append(
                f"The {wild} symbol appears on reels "
                + ", ".join(str(r + 1) for r in model.wild_reels)
                + " only."
            )
        out["substitute"] = text
    if model.scatter >= 0:
        scatter = names[model.scatter]
        per_reel = int(model.raw.get("scatter", {}).get("max_per_reel", model.rows))
        most = len(model.scatter_reels or range(model.reels)) * per_reel  # most on a screen
        pays = [
            (count, int(model.scatter_pays[min(count, len(model.scatter_pays) - 1)]))
            for count in range(1, most + 1)
        ]
        listed = [(c, p) for c, p in pays if p > 0]
        while len(listed) > 1 and listed[-1][1] == listed[-2][1]:
            listed.pop()
        text = [
            f"The {scatter} symbol is a scatter symbol: it pays anywhere on the screen, "
            "whatever paylines are enabled.",
            "Scatter pays = the total coins bet x "
            + "; ".join(f"{c} {scatter}s: {p}" for c, p in listed)
            + (" (or more)" if listed and listed[-1][0] < most else "")
            + ".",
        ]
        if model.scatter_reels and len(model.scatter_reels) < model.reels:
            text.append(
                f"{scatter} symbols count on reels "
                + ", ".join(str(r + 1) for r in model.scatter_reels)
                + " only."
            )
        if model.wild >= 0:
            text.append(f"The {names[model.wild]} symbol does not substitute for the {scatter}.")
        text.append(f"The {scatter} symbol interrupts a payline.")
        if per_reel == 1 and model.rows > 1:
            text.append(f"A reel shows at most one {scatter}.")
        out["scatter"] = text
    free = rules.free_spins
    if free is not None:
        symbol = names[free.symbol]
        high = model.reels * model.rows
        text = [f"{free.trigger} or more {symbol} symbols anywhere start the free spins."]
        if free.reveal is None:
            text.append(_spins_text(free.spins, free.trigger, high, symbol))
        else:
            text.append(
                f"Each {symbol} that started the free spins reveals a number of free spins; "
                "their sum is the number of free spins won."
            )
        text.append("Free spins use the bet and paylines of the spin that started them.")
        if free.retrigger == RETRIGGER_TABLE:
            text.append(
                "Free spins can be won again during free spins: "
                + _spins_text(free.retrigger_spins, 1, high, symbol, "more free spins")
            )
        elif free.retrigger == RETRIGGER_PER_SYMBOL:
            text.append(
                f"Every {symbol} shown during a free spin adds {free.spins_per_symbol} free "
                f"spin{'s' if free.spins_per_symbol != 1 else ''} to those remaining."
            )
        elif free.retrigger == RETRIGGER_NONE:
            text.append("Free spins cannot be won again during free spins.")
        if free.max_spins:
            text.append(f"One free spins feature plays at most {free.max_spins} free spins.")
        if free.multiplier > 1:
            what = "every win" if free.multiply_scatter else "every line win"
            text.append(f"During free spins {what} is multiplied by {free.multiplier}.")
        for ex_symbol, count, multiplier in free.exceptions:
            text.append(
                f"Except: {count} {names[ex_symbol]} symbols on a payline pay x{multiplier} "
                "during free spins."
            )
        if model.scatter >= 0 and not model.scatter_pays_in_free_spins:
            text.append(f"{names[model.scatter]} symbols do not pay during free spins.")
        elif model.scatter >= 0:
            text.append(f"{names[model.scatter]} wins pay during free spins too.")
        if free.reel_set != "base":
            text.append("Free spins play on their own reel strips.")
        text.append("When the free spins end, their wins are added to the round's win.")
        section: dict[str, Any] = {"text": text}
        if free.reveal is not None:
            values, weights = free.reveal_table(variant)
            total = sum(weights)
            section["reveal_distribution"] = [
                {"spins": v, "weight": w, "probability": round(w / total, 6)}
                for v, w in zip(values, weights, strict=True)
            ]
            mean = sum(v * w for v, w in zip(values, weights, strict=True)) / total
            section["mean_spins_per_symbol"] = round(mean, 4)
        out["free_spins"] = section
    gamble = rules.gamble
    if gamble is not None:
        out["gamble"] = {
            "text": [
                "Any win (free spins included) may be gambled on a card from a fair 52-card "
                "deck, or collected.",
                f"Guess the colour (red or black) to win x{gamble.colour_multiplier}, "
                f"or the suit (hearts, diamonds, clubs, spades) to win x{gamble.suit_multiplier}.",
                "A wrong guess loses the amount gambled.",
                f"At most {gamble.max_gambles} gambles per round. A choice whose win would pass "
                f"the gamble limit of {gamble.win_limit_credits} credits is not offered.",
                "When a limit is reached, the win is collected automatically. "
                "You may collect at any time.",
            ],
            "max_gambles": gamble.max_gambles,
            "win_limit_credits": gamble.win_limit_credits,
            "colour_multiplier": gamble.colour_multiplier,
            "suit_multiplier": gamble.suit_multiplier,
        }
    out["bets"] = {
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
    }
    return out
