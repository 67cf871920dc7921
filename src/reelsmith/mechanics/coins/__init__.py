"""Coin bets: paylines played, coins on each and a coin size from the model's list; a round
staked in coins settles in coins (a market prices the coin)."""

from reelsmith.mechanics.base import Mechanic

MECHANIC = Mechanic(
    name="coins",
    role="bet",
    summary="a bet of coins: paylines played, coins per payline, a coin size",
    tables=frozenset({"bet"}),
    declared=lambda raw: isinstance(raw.get("bet"), dict) and "levels" not in raw["bet"],
    part="reelsmith.mechanics.coins.live:part",
    problems="reelsmith.mechanics.coins.live:problems",
    server="reelsmith.mechanics.coins.server:CoinBets",
)
