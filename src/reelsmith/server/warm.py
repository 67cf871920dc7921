"""Throwaway rounds that load (or compile) the live engine's compiled code before a player
needs it.

The live engine calls numba functions (the payline evaluation, a pot's trigger point) that are
compiled on a machine's first use and loaded from the cache afterwards. Playing a few rounds
of each title in memory, with seeded draws and no database, makes both happen before the
server answers: ``reelsmith serve`` runs it once, announced, when a title's code is not cached
yet (:func:`live_phase`), and each worker process runs it again, silently, to load the code.
"""

from __future__ import annotations

from collections.abc import Mapping

from reelsmith.rng import SeededSource
from reelsmith.server.markets import Market
from reelsmith.server.titles import Title


def live_phase(game: str) -> str:
    """The compile phase of serving the title ``game`` (:mod:`reelsmith.compiled`)."""
    return f"serve {game}"


def play_throwaway_rounds(titles: Mapping[str, Title], markets: Mapping[str, Market]) -> int:
    """Play throwaway rounds of every title in every market that offers it, in memory (no
    database, seeded draws), until a few have gone through free spins and the gamble; returns
    the rounds played."""
    rng = SeededSource(2026)
    played = 0
    for market in markets.values():
        for game, title in titles.items():
            if game not in market.games:
                continue
            bet = title.sample_bet(market)
            featured = 0
            for _ in range(2000):
                round_ = title.start(market, bet, title.load_state(None), rng)
                played += 1
                title.view(title.market_price(market, round_), round_)
                title.record(round_)
                if title.actions(round_):
                    featured += 1
                    while "free_spin" in title.actions(round_):
                        round_ = title.act(round_, "free_spin", rng)
                    title.finish(round_, rng)
                if featured >= 3:
                    break
    return played
