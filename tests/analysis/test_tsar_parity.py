"""Parity: the generic compiled kernel and the catalogue live engine (the one the game server
plays Days of the Tsar on) give identical rounds for identical draws.

Each kernel round's draws (purpose, bound, value) are fed to the live engine
(``catalogue_round.start_round`` then ``catalogue_round.finish``) through a ``ReplaySource``,
which also checks that live play asks for the same purposes and bounds in the same order and
uses every draw. The shipped variants are replayed by the contract suite
(tests/contract/test_parity.py); here 3,000 rounds of a small model that triggers free
spins on most spins.
"""

from __future__ import annotations

from reelsmith.analysis import kernel as k
from reelsmith.analysis.simulation import chunk_stream
from reelsmith.rng import ReplaySource
from tests import catalogue_rounds as rules


def replay_and_compare(model, variant_id, seed, rounds, chunk=0):
    """Replay ``rounds`` kernel rounds of stream ``chunk`` through live play; returns
    (rounds compared, triggers, free spins)."""
    game = k.KernelGame.build(model, variant_id)
    bet = rules.bet_options(model).default
    assert bet.lines == 25 and bet.coins_per_line == 1
    options = rules.RoundOptions(gamble_allowed=False)
    compared = triggers = free_spins = 0
    results, draws, _, _ = game.trace(chunk_stream(seed, chunk), rounds)
    for result, log in zip(results, draws, strict=True):
        source = ReplaySource(game.draws_of(log))
        live = rules.finish(
            model, rules.start_round(model, bet, source, variant=variant_id, options=options),
            source,
        )  # fmt: skip
        assert live.phase is rules.Phase.COMPLETE, live.void_reason
        base = live.spins[0]
        scatter = base.wins.scatter_win.coins if base.wins.scatter_win else 0
        observed = (
            live.win_coins,
            base.wins.line_coins,
            scatter,
            base.triggers,
            sum(base.reveals),
            len(live.free_spins),
            live.free_spins_win_coins,
            sum(s.triggers for s in live.free_spins),
            sum(s.spins_added for s in live.free_spins),
        )
        assert observed == tuple(int(x) for x in result), (compared, observed, result)
        assert source.remaining == 0
        compared += 1
        triggers += result[k.R_AWARDED] > 0
        free_spins += result[k.R_FREE_SPINS]
    return compared, triggers, free_spins


def test_small_model_with_frequent_retriggers(small):
    compared, triggers, free_spins = replay_and_compare(small, "small", 11, 3_000)
    assert compared == 3_000 and triggers > 500 and free_spins > 5 * triggers
