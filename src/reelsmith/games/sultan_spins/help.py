"""The rules a player reads for Sultan Spins, written from the model's own values."""

from __future__ import annotations

from typing import Any

from reelsmith.engine.model import GameModel
from reelsmith.games.sultan_spins.rules import WILD_REEL, sultan_rules


def feature_rules(model: GameModel, variant_id: str | None = None) -> dict[str, Any]:
    rules = sultan_rules(model)
    variant = model.variant(variant_id)
    reveal = rules.gem_reveal(variant)
    first = rules.jackpots[0]
    total = sum(reveal.weights)
    names = {s.id: s.name for s in model.symbols}
    names[WILD_REEL] = "Wild reel (the whole reel turns wild)"
    levels = [
        {"level": n, "free_spins": rules.spins_per_level, "multiplier": f"{m}x"}
        for n, m in enumerate(rules.multipliers, start=1)
    ]
    return {
        "general": [
            f"{model.name} is a {model.reels} columns and {model.rows} rows slot machine "
            f"featuring {model.line_count} paylines.",
            "Winning combinations and payouts are made according to the paytable.",
            "Only the highest paying combination for each payline is paid.",
            "Wins are evaluated consecutively on a payline, starting from the leftmost reel.",
            "Wins on multiple paylines are added.",
            f"Line pays are in line bets: the bet divided by the {model.line_count} paylines.",
            "Once a spin has been initiated, the bet size for that round is locked and cannot "
            "be changed; free spins play at the bet that triggered them.",
            "Winnings are presented in the user's currency.",
            f"The theoretical RTP (return to player) of this version is {variant.id}%, "
            "jackpots included, over the long run.",
            "Malfunction voids all pays and plays: the bet is returned and the pots and the "
            "collection meter stay as they were before the round.",
            "Incomplete games will be automatically resolved after 2 days. Any winnings "
            "resulting from automatic resolve shall be paid to the player's account.",
            "If your balance decreases so it becomes lower than the selected bet size, the bet "
            "size will automatically be lowered to the highest applicable bet size.",
        ],
        "wild": [
            "The Wild symbol substitutes for all paying symbols on the reels for payline wins; "
            "it does not substitute for the Bonus or Gem symbols.",
            "Wilds in a row from the leftmost reel pay on their own row of the paytable when "
            "that pays more.",
        ],
        "jackpots": {
            "text": [
                "Above each reel is a jackpot pot: teal, blue, green, purple and red for reels "
                "1 to 5.",
                "Landing a Gem symbol on a reel always increases that reel's pot by the bet size.",
                "Jackpots are independent to each bet size and kept between rounds and sessions.",
                "Once the pot has been updated the gem reveals a normal symbol, a Wild, a wild "
                "reel or the Jackpot Spin.",
                "The Jackpot Spin is played out on the main game area and awards the pot, which "
                "then resets to its seed value. Jackpots are never multiplied.",
                "All jackpots need to be won before a certain point:",
                *(
                    f"{j.name.capitalize()} Gem Jackpot must be won before {j.cap}x bet"
                    for j in rules.jackpots
                ),
                "Each pot hides a trigger point drawn at random above its seed and below that "
                "point; the gem that takes the pot to it reveals the Jackpot Spin. A pot grows "
                "by one bet per gem, so it is won at the latest one bet below that point: the "
                f"{first.name.capitalize()} Gem Jackpot pays at most {first.last_trigger}x bet.",
                "The jackpot feature is active in the free spins too.",
            ],
            "pots": [
                {
                    "pot": j.name,
                    "reel": j.reel + 1,
                    "seed": f"{j.seed}x bet",
                    "must_be_won_before": f"{j.cap}x bet",
                    "largest_award": f"{j.last_trigger}x bet",
                }
                for j in rules.jackpots
            ],
            "gem_reveals": [
                {
                    "reveal": names[outcome],
                    "weight": weight,
                    "probability": round(weight / total, 6),
                }
                for outcome, weight in zip(reveal.outcomes, reveal.weights, strict=True)
            ],
        },
        "free_spins": {
            "text": [
                f"{rules.trigger_count} or more Bonus symbols anywhere trigger the free spins.",
                f"The free spins feature {rules.levels} levels played consecutively, "
                f"{rules.spins_per_level} free spins each; the multiplier applies only to line "
                "wins.",
                f"Collecting {rules.spots} Bonus symbols in the free spins unlocks the next "
                "level; after a level's last spin the next level is played if it is unlocked, "
                "otherwise the free spins end.",
                f"{rules.main_game_bonus_per_spot} Bonus symbols landing in the main game award "
                f"1 of the {rules.spots} collection spots needed to unlock a new level.",
                "The collection meter belongs to your bet size and is kept between rounds. "
                "The free spins start with the meter as you left it: a full meter unlocks "
                "level 2 at once.",
                "Bonus symbols collected in the free spins that do not unlock a new level are "
                "stored and carried into the main game.",
                f"Once level {rules.levels} is unlocked, Bonus symbols fill the meter up to "
                "full, and a full meter is carried into the main game; Bonus symbols beyond a "
                "full meter are not kept.",
                "The free spins include the local jackpot feature.",
            ],
            "levels": levels,
        },
        "bets": {
            "text": [
                "Bet sizes: " + ", ".join(str(s) for s in rules.ladder.sizes) + " (your market "
                "may offer fewer).",
                "To use autoplay, press the Autoplay button and select the desired number of "
                "rounds; you can always see how many autoplay spins you have left.",
            ],
            "ladder": [str(s) for s in rules.ladder.sizes],
            "default": str(rules.ladder.default),
        },
    }
