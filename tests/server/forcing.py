"""Forced draws for the server tests (dev mode), computed from the shipped reel strips."""

from __future__ import annotations

from reelsmith.games import load_game
from tests.conftest import find_stop, stops_with_eggs

TSAR = load_game("days-of-the-tsar")
SULTAN = load_game("sultan-spins")
TSAR_BET = {"lines": 25, "coins_per_line": 2, "coin_size": "0.05"}  # 50 coins = 2.50


def tsar_no_win() -> list[int]:
    """The first stops (in a fixed search order) whose screen wins nothing."""
    import itertools

    from reelsmith.engine.evaluation import evaluate_screen
    from reelsmith.engine.screen import window

    base = TSAR.variant("96.00").reel_sets["base"]
    for stops in itertools.product(*(range(0, int(n), 5) for n in base.lengths)):
        grid = window(base, stops, 3)
        if evaluate_screen(TSAR, grid, 25, 1, 25).total_coins == 0:
            return list(stops)
    raise AssertionError("no losing screen found")


def tsar_win() -> list[int]:
    """Stops with three Aces from reel 1 on the middle row and no egg."""
    base = TSAR.variant("96.00").reel_sets["base"]
    ace, tsar, egg = TSAR.symbol_index("ace"), TSAR.wild, TSAR.scatter
    stops = []
    for reel in range(5):
        if reel < 3:
            stops.append(find_stop(base, reel, 3, lambda w: w[1] == ace and egg not in w))
        else:
            stops.append(
                find_stop(base, reel, 3, lambda w: w[1] not in (ace, tsar) and egg not in w)
            )
    return stops


def tsar_trigger(reveal_draws: tuple[int, ...] = (0, 0, 0)) -> list[int]:
    """Three eggs (each revealing 3 spins with draw 0)."""
    base = TSAR.variant("96.00").reel_sets["base"]
    return [*stops_with_eggs(TSAR, base, (0, 1, 2)), *reveal_draws]


def tsar_free_no_egg() -> list[int]:
    free = TSAR.variant("96.00").reel_sets["free_spins"]
    return stops_with_eggs(TSAR, free, ())


HEART_CARD = 0  # the 2 of hearts: red
SPADE_CARD = 39  # the 2 of spades: black


def sultan_stops(
    gem_reels: tuple[int, ...] = (), bonus_reels: tuple[int, ...] = (), reel_set: str = "base"
) -> list[int]:
    rs = SULTAN.variant("94.00").reel_sets[reel_set]
    gem, bonus = SULTAN.symbol_index("gem"), SULTAN.symbol_index("bonus")
    return [
        find_stop(
            rs,
            reel,
            4,
            lambda w, r=reel: (gem in w) == (r in gem_reels) and (bonus in w) == (r in bonus_reels),
        )
        for reel in range(5)
    ]


# Trigger draws for a bet size never played: each pot's trigger at its last point, one bet below
# its cap (far away) ...
NEW_POTS = [21, 43, 223, 1148, 4498]
# ... or each at seed + 1 (the first gem on a reel hits its pot).
NEAR_POTS = [0, 0, 0, 0, 0]


AURORA = load_game("aurora-fox")
AURORA_BET = {"lines": 20, "coins_per_line": 1, "coin_size": "0.10"}  # 20 coins = 2.00


def aurora_trigger(reels: tuple[int, ...] = (0, 1, 2)) -> list[int]:
    """An Aurora on each of ``reels`` (three: ten free spins) and none elsewhere."""
    return stops_with_eggs(AURORA, AURORA.variant("96.00").reel_sets["base"], reels)


def aurora_free_spin(reels: tuple[int, ...] = ()) -> list[int]:
    """A free spin with an Aurora on each of ``reels`` only."""
    return stops_with_eggs(AURORA, AURORA.variant("96.00").reel_sets["free_spins"], reels)
