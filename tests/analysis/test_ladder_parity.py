"""Parity: the compiled Sultan Spins kernel and live play give identical rounds for identical
draws, carrying the same pots, trigger points and meter from round to round.

Each kernel round's draws (purpose, bound, value) are fed to the live engine
(``rules.start_round`` then ``rules.finish``, with the state the previous live round left)
through a ``ReplaySource``, which also checks that live play asks for the same purposes and
bounds in the same order and uses every draw; the round's wins, bonus count, free spins and
the state after it must be identical. The shipped variants are replayed by the contract suite
(tests/contract/test_parity.py); here 5,000 rounds of a micro model whose free spins follow
most main spins and whose pots hit every few gems, and 2,000 from a fresh player.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from reelsmith.analysis import kernel as k
from reelsmith.analysis.kernel import KernelGame
from reelsmith.analysis.simulation import chunk_stream
from reelsmith.engine.ladder_state import BetState
from reelsmith.rng import Draw, ReplaySource, SeededSource
from tests import ladder_rounds as rules


def purposes(model) -> list[str]:
    names = [j.name for j in rules.ladder_rules(model).jackpots]
    return ["reel_stop", "gem_reveal", *(f"jackpot_trigger_{n}" for n in names)]


def trace_from(game, rng, rounds, start="stationary"):
    """The kernel's trace of a player starting from ``start`` (drawn from ``rng``): that start
    state, each round's results and each round's draws."""
    state = game.start_state(rng, start)
    pots, triggers, meter = (a.copy() for a in state)
    results, draws, _stats, _floats = game.trace(rng, rounds, state=state)
    return (pots, triggers, int(meter[0])), results, draws


def replay_and_compare(model, variant_id, seed, rounds, chunk=0, start="stationary"):
    """Replay ``rounds`` kernel rounds of stream ``chunk`` through live play; returns (rounds
    compared, triggers, free spins, jackpots)."""
    game = KernelGame.build(model, variant_id)
    names = purposes(model)
    (pots, triggers, meter), results, draws = trace_from(
        game, chunk_stream(seed, chunk), rounds, start
    )
    state = BetState(
        tuple(int(p) for p in pots),
        tuple(int(t) for t in triggers),
        meter,
        (rules.RULES_VERSION,) * len(triggers),
    )
    compared = triggered = free_spins = jackpots = 0
    for result, log in zip(results, draws, strict=True):
        source = ReplaySource(
            Draw(names[kind], int(bound), int(value)) for kind, bound, value in log
        )
        live = rules.finish(
            model, rules.start_round(model, 5, state, source, variant=variant_id), source
        )
        assert live.phase is rules.Phase.COMPLETE and source.remaining == 0
        observed = (
            live.win_coins,
            live.spins[0].line_coins,
            sum(s.line_coins for s in live.free_spins),
            live.jackpot_coins // live.lines,
            live.spins[0].bonus,
            len(live.free_spins),
            live.state.meter,
            *live.state.pots,
            *live.state.triggers,
        )
        assert observed == tuple(int(x) for x in result), (compared, observed, result)
        state = live.state
        compared += 1
        triggered += result[k.R_FREE_SPINS] > 0
        free_spins += result[k.R_FREE_SPINS]
        jackpots += result[k.R_JACKPOT] > 0
    return compared, triggered, free_spins, jackpots


def test_the_kernel_pays_the_models_line_rule(sultan_model):
    """A ladder model whose wild doubles the wins it completes, ties paid as the symbol's run:
    the kernel pays what live play pays (its line automaton is built from the model's rule),
    which is more than the plain rule pays on the same draws."""
    from tests.analysis.test_ladder_exact import micro_model

    plain = micro_model(sultan_model)
    doubled = dataclasses.replace(plain, wild_multiplier=2, ties_to_wild=False)
    compared, _triggered, _free_spins, _jackpots = replay_and_compare(doubled, "micro", 12, 2_000)
    assert compared == 2_000
    wins = [
        KernelGame.build(m, "micro").trace(chunk_stream(12, 0), 2_000)[0][:, k.R_WIN].sum()
        for m in (plain, doubled)
    ]
    assert wins[1] > wins[0]


def test_micro_model_with_frequent_free_spins_and_jackpots(sultan_model):
    from tests.analysis.test_ladder_exact import micro_model

    model = micro_model(sultan_model)
    compared, triggered, free_spins, jackpots = replay_and_compare(model, "micro", 11, 5_000)
    assert compared == 5_000 and triggered > 2_000 and free_spins > triggered
    assert jackpots > 2_000


def test_fresh_player(sultan_model):
    compared, _, _, _ = replay_and_compare(sultan_model, "94.00", 5, 2_000, start="fresh")
    assert compared == 2_000


def test_live_play_the_kernel_the_exact_analysis_and_the_simulation_win_pots_before_the_cap(
    sultan_model,
):
    """One rule in four places: a trigger point is drawn from seed + 1 to one bet below the
    cap. Live play and the kernel draw it with the same bound (the kernel's draws replay
    through live play above); the simulation's long-run start and every state it reaches hold
    trigger points below the caps; the exact analysis's hit probability per gem is
    2 / (cap - seed), and the kernel's pots hit at that rate."""
    from reelsmith.analysis import ladder_spin
    from reelsmith.analysis.ladder_exact import rtp_parts

    jackpots = rules.ladder_rules(sultan_model).jackpots
    caps = np.array([j.cap for j in jackpots])
    spans = [j.cap - 1 - j.seed for j in jackpots]
    assert [j.trigger_span for j in jackpots] == spans

    game = KernelGame.build(sultan_model, "94.00")
    assert game.ladder is not None
    assert list(game.ladder.lasts) == [j.cap - 1 for j in jackpots]
    (pots, triggers, _), results, logs = trace_from(game, chunk_stream(8, 0), 20_000)
    assert (triggers < caps).all() and (pots < triggers).all()
    reels = len(jackpots)
    assert (results[:, k.R_POTS + reels : k.R_POTS + 2 * reels] < caps).all()
    drawn = [(kind, bound) for log in logs for kind, bound, _ in log if kind >= k.DRAW_TRIGGER]
    assert drawn and all(bound == spans[kind - k.DRAW_TRIGGER] for kind, bound in drawn)
    live = rules.start_round(sultan_model, 5, None, SeededSource(8))
    assert [d.bound for d in live.draws[:5]] == spans

    q = [ladder_spin.jackpot_hit_probability(j) for j in jackpots]
    assert q == [2 / (j.cap - j.seed) for j in jackpots]
    parts = rtp_parts(sultan_model, "94.00")
    stats, _floats, _batches = game.run(chunk_stream(8, 1), 500_000, "stationary", 1_000)
    at = game.ladder.slots
    gems = stats[at.gems : at.gems + reels]
    hits = stats[at.pot_hits : at.pot_hits + reels]
    for reel in (0, 1):  # the small pots hit about a thousand times in these rounds
        assert hits[reel] / 500_000 == pytest.approx(parts.pot_hits[reel], rel=0.1), reel
        assert hits[reel] / gems[reel] == pytest.approx(q[reel], rel=0.1), reel
    wins = stats[at.pot_bets : at.pot_bets + reels]
    assert all(w <= h * (c - 1) for w, h, c in zip(wins, hits, caps, strict=True))
