"""Kernel parity: for identical draws the numba kernel and the live engine give identical
rounds, for every title and variant.

The kernel plays a seeded run and keeps each round's draws (purpose, bound, value) and
figures (its wins and what the title's adapter names: line and scatter wins, free spins,
pots, meter, ...). Each round's draws go to the live engine through a ``ReplaySource``,
which checks that live play asks for the same purposes and bounds in the same order; live
play must use every draw and give the same figures, carrying the title's state (Sultan Spins'
pots, trigger points and meter) from round to round as the kernel does. ``make test`` replays
100,000 rounds of each title's market variant and 20,000 of each other; the million-round runs
per title are marked slow (``make test-slow``).
"""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor

import pytest

from reelsmith.rng import ReplaySource
from tests.contract.titles import adapter, contract_titles, markets, model, variants

SEED = 99


def replay_and_compare(game_id: str, variant_id: str, seed: int, chunk: int, rounds: int):
    """Replay ``rounds`` kernel rounds of stream ``chunk`` through live play: (rounds
    compared, rounds with a win, rounds with free spins)."""
    contract = adapter(game_id)
    game = model(game_id)
    state, played = contract.kernel_rounds(game, variant_id, seed, chunk, rounds)
    assert len(played) == rounds
    wins = features = 0
    for number, kernel in enumerate(played):
        source = ReplaySource(kernel.draws)
        live, state = contract.live_summary(game, variant_id, state, source)
        assert source.remaining == 0, (number, source.remaining)
        assert live == kernel.summary, (number, live, kernel.summary)
        wins += kernel.summary["win"] > 0
        features += kernel.summary["free_spins"] > 0
    return rounds, wins, features


def market_variant(game_id: str) -> str:
    return markets()["default"].game(game_id).variant


CASES = [
    (g, v, 100_000 if v == market_variant(g) else 20_000)
    for g in contract_titles()
    for v in variants(g)
]


@pytest.mark.parametrize(("game_id", "variant_id", "rounds"), CASES)
def test_kernel_and_live_play_agree(game_id, variant_id, rounds):
    compared, wins, features = replay_and_compare(game_id, variant_id, SEED, 0, rounds)
    assert compared == rounds
    assert wins > rounds // 10 and features > 0, (wins, features)


@pytest.mark.slow
@pytest.mark.parametrize("game_id", contract_titles())
def test_one_million_rounds_of_the_market_variant(game_id):
    """Four streams of 250,000 rounds on two processes."""
    variant_id = market_variant(game_id)
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=2, mp_context=context) as pool:
        parts = list(
            pool.map(
                replay_and_compare,
                [game_id] * 4,
                [variant_id] * 4,
                [SEED] * 4,
                range(4),
                [250_000] * 4,
            )
        )
    assert sum(p[0] for p in parts) == 1_000_000
    assert sum(p[2] for p in parts) > 4_000
