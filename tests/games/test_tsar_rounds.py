"""Days of the Tsar rounds on the catalogue engine: free spins, gamble, collect, malfunction
voids, replay.

Seed: shared/seeds/days-of-the-tsar.txt. Outcomes are forced with scripted draws.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reelsmith.engine.catalogue import mechanics
from reelsmith.engine.errors import RuleError
from reelsmith.engine.gamble import CHOICES, Card
from reelsmith.rng import Draw, ReplayError, SeededSource
from tests import catalogue_rounds as tsar
from tests.conftest import ScriptedSource, find_stop, stops_with_eggs

REVEAL_DRAW = {3: 0, 4: 18, 5: 40, 6: 60, 8: 74, 10: 84, 12: 92, 15: 97}  # draw -> value


def bet(model, lines=25, cpl=1, size="0.01"):
    return tsar.bet_options(model).validate(lines, cpl, size)


def variant(model):
    return model.variant()


def free_set(model):
    return variant(model).reel_sets["free_spins"]


def base_set(model):
    return variant(model).reel_sets["base"]


def trigger(model, egg_reels=(0, 1, 2), reveals=(3, 4, 5), the_bet=None):
    stops = stops_with_eggs(model, base_set(model), egg_reels)
    source = ScriptedSource([*stops, *(REVEAL_DRAW[v] for v in reveals)])
    return tsar.start_round(model, the_bet or bet(model), source), source


def test_reveal_table_matches_the_published_draw_mapping(tsar_model):
    free = mechanics(tsar_model).free_spins
    assert free is not None and free.reveal == "egg_reveal"
    values, weights = free.reveal_table(variant(tsar_model))
    assert values == [3, 4, 5, 6, 8, 10, 12, 15]
    # each value's first draw is the cumulative weight before it
    cumulative = 0
    for value, weight in zip(values, weights, strict=True):
        assert REVEAL_DRAW[value] == cumulative
        cumulative += weight


class TestFreeSpins:
    def test_three_eggs_start_free_spins_and_reveals_sum(self, tsar_model):
        """Seed: 'The Fabergé Egg symbols that activated the bonus game, reveal random numbers.
        These numbers indicate the number of free spins you win.'"""
        round_, source = trigger(tsar_model, (0, 2, 4), (3, 4, 5))
        assert round_.phase is tsar.Phase.FREE_SPINS
        assert round_.spins[0].reveals == (3, 4, 5)
        assert round_.free_spins_awarded == round_.free_spins_remaining == 12
        assert [p for p, _ in source.asked].count("egg_reveal") == 3

    def test_each_triggering_egg_reveals_once(self, tsar_model):
        round_, _ = trigger(tsar_model, (0, 1, 2, 3, 4), (3, 3, 4, 15, 6))
        assert round_.spins[0].triggers == 5
        assert round_.free_spins_awarded == 31

    def test_two_eggs_do_not_start_free_spins(self, tsar_model):
        stops = stops_with_eggs(tsar_model, base_set(tsar_model), (0, 1))
        round_ = tsar.start_round(tsar_model, bet(tsar_model), ScriptedSource(stops))
        assert round_.free_spins_awarded == 0
        assert round_.phase is not tsar.Phase.FREE_SPINS

    def test_free_spins_use_free_spin_strips_and_the_triggering_bet(self, tsar_model):
        """Seed: 'All the bets and paylines played in the free spins are the same as the game
        that activated the Free Spins bonus game.'"""
        the_bet = bet(tsar_model, lines=7, cpl=3, size="0.05")
        round_, _ = trigger(tsar_model, the_bet=the_bet)
        free = free_set(tsar_model)
        no_egg = [find_stop(free, r, 3, lambda w: tsar_model.scatter not in w) for r in range(5)]
        source = ScriptedSource(no_egg)
        after = tsar.play_free_spin(tsar_model, round_, source)
        assert source.asked == [("reel_stop", int(n)) for n in free.lengths]
        spin = after.spins[-1]
        assert spin.kind == "free" and after.bet == the_bet
        assert all(w.line <= 7 for w in spin.wins.line_wins)
        assert all(w.coins % 3 == 0 for w in spin.wins.line_wins)

    def test_each_egg_in_a_free_spin_adds_one_spin(self, tsar_model):
        """Seed: 'If Fabergé Egg symbols are scattered on the reels during a free spin, you win
        an additional free spin for each Fabergé Egg symbol displayed.'"""
        round_, _ = trigger(tsar_model)
        assert round_.free_spins_remaining == 12
        for eggs, expected in ((2, 12 - 1 + 2), (0, 12), (1, 12), (3, 14)):
            stops = stops_with_eggs(tsar_model, free_set(tsar_model), tuple(range(eggs)))
            source = ScriptedSource(stops)
            round_ = tsar.play_free_spin(tsar_model, round_, source)
            assert round_.spins[-1].spins_added == eggs
            assert round_.free_spins_remaining == expected
            # eggs in free spins add spins one each: no reveal draw, even for three or more
            assert all(p == "reel_stop" for p, _ in source.asked)

    def test_scatter_wins_pay_during_free_spins(self, tsar_model):
        """Seed: 'The Fabergé Egg symbol is also a scatter symbol' in the free spins."""
        the_bet = bet(tsar_model, lines=10, cpl=2)
        round_, _ = trigger(tsar_model, the_bet=the_bet)
        stops = stops_with_eggs(tsar_model, free_set(tsar_model), (1, 3))
        round_ = tsar.play_free_spin(tsar_model, round_, ScriptedSource(stops))
        scatter = round_.spins[-1].wins.scatter_win
        assert scatter is not None and scatter.coins == 2 * the_bet.total_coins

    def test_free_spin_total_joins_the_round_win(self, tsar_model):
        """Seed: 'your Free Spins bonus game wins are added to your win total.'"""
        round_, _ = trigger(tsar_model)
        source = SeededSource(11)
        while round_.phase is tsar.Phase.FREE_SPINS:
            round_ = tsar.play_free_spin(tsar_model, round_, source)
        assert len(round_.free_spins) == round_.free_spins_awarded
        assert round_.win_coins == round_.spins[0].win_coins + round_.free_spins_win_coins
        assert round_.spin_win_coins == sum(s.win_coins for s in round_.spins)

    def test_no_free_spin_outside_free_spins(self, tsar_model):
        stops = stops_with_eggs(tsar_model, base_set(tsar_model), ())
        round_ = tsar.start_round(tsar_model, bet(tsar_model), ScriptedSource(stops))
        with pytest.raises(RuleError, match="no free spins"):
            tsar.play_free_spin(tsar_model, round_, SeededSource(1))


def winning_round(model, options=None, the_bet=None, minimum=1):
    """A seeded round that won on the base spin without free spins."""
    for seed in range(5000):
        round_ = tsar.start_round(model, the_bet or bet(model), SeededSource(seed), options=options)
        if not round_.free_spins_awarded and round_.spin_win_coins >= minimum:
            return round_
    raise AssertionError("no winning round found")


HEART = 0  # card index 0: 2 of hearts (red)
SPADE = 39  # card index 39: 2 of spades (black)


class TestGamble:
    def test_any_win_offers_the_gamble(self, tsar_model):
        """Seed: 'Any win on the reels activates the Gamble bonus game.'"""
        round_ = winning_round(tsar_model)
        assert round_.phase is tsar.Phase.GAMBLE
        assert tsar.gamble_choices(tsar_model, round_) == CHOICES

    def test_no_win_no_gamble(self, tsar_model):
        for seed in range(200):
            round_ = tsar.start_round(tsar_model, bet(tsar_model), SeededSource(seed))
            if round_.spin_win_coins == 0:
                break
        assert round_.phase is tsar.Phase.COMPLETE
        with pytest.raises(RuleError, match="no win to gamble"):
            tsar.gamble(tsar_model, round_, "red", SeededSource(1))
        with pytest.raises(RuleError, match="nothing to collect"):
            tsar.collect(round_)

    def test_right_colour_doubles(self, tsar_model):
        """Seed: 'A correct guess for the card color doubles your win.'"""
        round_ = winning_round(tsar_model)
        after = tsar.gamble(tsar_model, round_, "red", ScriptedSource([HEART]))
        assert after.win_coins == 2 * round_.win_coins
        assert after.gambles[-1].card == Card("2", "hearts") and after.gambles[-1].won

    def test_right_suit_quadruples(self, tsar_model):
        """Seed: 'A correct guess for the card suit quadruples your win.'"""
        round_ = winning_round(tsar_model)
        after = tsar.gamble(tsar_model, round_, "spades", ScriptedSource([SPADE + 12]))
        assert after.gambles[-1].card == Card("A", "spades")
        assert after.win_coins == 4 * round_.win_coins

    def test_wrong_guess_loses_the_amount(self, tsar_model):
        round_ = winning_round(tsar_model)
        after = tsar.gamble(tsar_model, round_, "black", ScriptedSource([HEART]))
        assert after.win_coins == 0 and after.phase is tsar.Phase.COMPLETE
        assert after.paid_coins == 0
        after = tsar.gamble(tsar_model, round_, "diamonds", ScriptedSource([HEART]))
        assert after.win_coins == 0

    def test_at_most_five_gambles_then_collected(self, tsar_model):
        """Seed: 'The gamble limit is set at five gambles per game' and 'winnings are
        automatically collected'."""
        round_ = winning_round(tsar_model)
        start = round_.win_coins
        for _ in range(5):
            assert round_.phase is tsar.Phase.GAMBLE
            round_ = tsar.gamble(tsar_model, round_, "red", ScriptedSource([HEART]))
        assert len(round_.gambles) == 5
        assert round_.phase is tsar.Phase.COMPLETE
        assert round_.paid_coins == start * 2**5

    def test_choice_past_the_amount_limit_is_not_offered(self, tsar_model):
        """Issue: 'a choice whose win would pass the limit is not offered'."""
        round_ = winning_round(tsar_model)
        stake = round_.win_coins
        # a limit between 2x and 4x the stake: colours only
        options = tsar.RoundOptions(gamble_limit_credits=Decimal(3 * stake) * Decimal("0.01"))
        limited = winning_round(tsar_model, options=options)
        assert limited.win_coins == stake
        assert tsar.gamble_choices(tsar_model, limited) == ("red", "black")
        with pytest.raises(RuleError, match="not offered"):
            tsar.gamble(tsar_model, limited, "hearts", ScriptedSource([HEART]))

    def test_limit_reached_collects_automatically(self, tsar_model):
        """Issue: 'when a limit is reached the win is collected automatically'."""
        round_ = winning_round(tsar_model)
        stake = round_.win_coins
        options = tsar.RoundOptions(gamble_limit_credits=Decimal(3 * stake) * Decimal("0.01"))
        limited = winning_round(tsar_model, options=options)
        after = tsar.gamble(tsar_model, limited, "red", ScriptedSource([HEART]))
        # 2x stake won; doubling again would pass 3x: nothing left to offer, collected
        assert after.phase is tsar.Phase.COMPLETE and after.paid_coins == 2 * stake

    def test_win_above_the_limit_is_collected_without_a_gamble(self, tsar_model):
        round_ = winning_round(tsar_model)
        options = tsar.RoundOptions(
            gamble_limit_credits=Decimal(round_.win_coins) * Decimal("0.01")
        )
        limited = winning_round(tsar_model, options=options)
        assert limited.phase is tsar.Phase.COMPLETE
        assert limited.paid_coins == round_.win_coins

    def test_market_may_switch_the_gamble_off(self, tsar_model):
        round_ = winning_round(tsar_model, options=tsar.RoundOptions(gamble_allowed=False))
        assert round_.phase is tsar.Phase.COMPLETE and round_.paid_coins > 0

    def test_model_default_limit(self, tsar_model):
        round_ = winning_round(tsar_model, the_bet=bet(tsar_model, 25, 20, "0.25"))
        # 2,500.00 credits at a 0.25 coin: 10,000 coins
        assert round_.gamble_limit_coins == 10000 and round_.max_gambles == 5

    def test_collect_at_any_time(self, tsar_model):
        """Seed: 'Click the Collect button to collect your winnings and end the Gamble bonus
        game.'"""
        round_ = winning_round(tsar_model)
        collected = tsar.collect(round_)
        assert collected.phase is tsar.Phase.COMPLETE
        assert collected.paid_coins == round_.win_coins
        doubled = tsar.gamble(tsar_model, round_, "red", ScriptedSource([HEART]))
        assert tsar.collect(doubled).paid_coins == 2 * round_.win_coins

    def test_gamble_offered_on_total_win_after_free_spins(self, tsar_model):
        round_, _ = trigger(tsar_model)
        source = SeededSource(3)
        while round_.phase is tsar.Phase.FREE_SPINS:
            round_ = tsar.play_free_spin(tsar_model, round_, source)
        assert round_.phase is tsar.Phase.GAMBLE
        assert round_.win_coins == round_.spin_win_coins

    def test_unknown_choice(self, tsar_model):
        round_ = winning_round(tsar_model)
        with pytest.raises(RuleError, match="not a gamble choice"):
            tsar.gamble(tsar_model, round_, "purple", SeededSource(1))

    def test_deck_is_fair(self):
        cards = [Card.from_index(i) for i in range(52)]
        assert len(set(cards)) == 52
        assert sum(c.colour == "red" for c in cards) == 26
        for suit in ("hearts", "diamonds", "clubs", "spades"):
            assert sum(c.suit == suit for c in cards) == 13


class FailingSource:
    """A source that breaks after ``n`` draws: a malfunction in the middle of a round."""

    def __init__(self, inner, n):
        self.inner, self.n = inner, n

    def randbelow(self, bound, purpose):
        if self.n == 0:
            raise OSError("random source unavailable")
        self.n -= 1
        return self.inner.randbelow(bound, purpose)


class TestMalfunction:
    def test_malfunction_voids_the_spin_and_returns_the_bet(self, tsar_model):
        """Seed: 'Malfunctions void all plays and pays.'"""
        the_bet = bet(tsar_model, 20, 5)
        round_ = tsar.start_round(tsar_model, the_bet, FailingSource(SeededSource(1), 3))
        assert round_.phase is tsar.Phase.VOIDED
        assert round_.refund_coins == the_bet.total_coins == 100
        assert round_.paid_coins == 0
        assert "random source unavailable" in round_.void_reason
        assert len(round_.draws) == 3  # what it drew before failing is kept for audit
        assert round_.to_json()["phase"] == "voided"

    def test_malfunction_during_free_spins_voids_all_pays(self, tsar_model):
        round_, _ = trigger(tsar_model)
        round_ = tsar.play_free_spin(tsar_model, round_, SeededSource(1))
        voided = tsar.play_free_spin(tsar_model, round_, FailingSource(SeededSource(2), 1))
        assert voided.phase is tsar.Phase.VOIDED
        assert voided.win_coins == 0 and voided.paid_coins == 0
        assert voided.refund_coins == round_.bet.total_coins

    def test_malfunction_in_evaluation_voids(self, tsar_model, monkeypatch):
        def broken(*args, **kwargs):
            raise RuntimeError("evaluation fault")

        from reelsmith.mechanics.paylines import live as paylines

        monkeypatch.setattr(paylines, "paid_lines", broken)
        round_ = tsar.start_round(tsar_model, bet(tsar_model), SeededSource(1))
        assert round_.phase is tsar.Phase.VOIDED and "evaluation fault" in round_.void_reason

    def test_gamble_malfunction_voids(self, tsar_model):
        round_ = winning_round(tsar_model)
        voided = tsar.gamble(tsar_model, round_, "red", FailingSource(SeededSource(1), 0))
        assert voided.phase is tsar.Phase.VOIDED and voided.paid_coins == 0


def play_randomly(model, seed, choices):
    """A full round with the player's choices taken from ``choices``."""
    rng = SeededSource(seed)
    round_ = tsar.start_round(model, bet(model, 25, 2), rng)
    picks = iter(choices)
    while not round_.is_finished:
        if round_.phase is tsar.Phase.FREE_SPINS:
            round_ = tsar.play_free_spin(model, round_, rng)
            continue
        pick = next(picks, "collect")
        offered = tsar.gamble_choices(model, round_)
        if pick == "collect" or pick not in offered:
            round_ = tsar.collect(round_)
        else:
            round_ = tsar.gamble(model, round_, pick, rng)
    return round_


class TestReplay:
    def test_replay_of_a_free_spins_round(self, tsar_model):
        round_, _ = trigger(tsar_model)
        round_ = tsar.finish(tsar_model, round_, SeededSource(9))
        assert round_.phase is tsar.Phase.COMPLETE and len(round_.free_spins) >= 12
        assert tsar.replay(tsar_model, round_) == round_

    def test_draws_survive_json(self, tsar_model):
        round_ = play_randomly(tsar_model, 77, ["red"])
        data = round_.to_json()["draws"]
        assert tuple(Draw.from_json(d) for d in data) == round_.draws

    def test_tampered_draws_are_refused(self, tsar_model):
        round_ = play_randomly(tsar_model, 5, [])
        short = tsar.with_draws(round_, round_.draws[:-1])
        with pytest.raises(ReplayError, match="only"):
            tsar.replay(tsar_model, short)
        wrong = tsar.with_draws(round_, (Draw("gamble_card", 52, 1), *round_.draws[1:]))
        with pytest.raises(ReplayError, match="recorded gamble_card"):
            tsar.replay(tsar_model, wrong)

    def test_every_draw_is_recorded(self, tsar_model):
        round_, source = trigger(tsar_model)
        assert [(d.purpose, d.bound) for d in round_.draws] == source.asked


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), choices=st.lists(st.sampled_from(CHOICES), max_size=6))
def test_round_accounting_invariants(tsar_model, seed, choices):
    round_ = play_randomly(tsar_model, seed, choices)
    assert round_.phase is tsar.Phase.COMPLETE
    # free spins: every awarded spin was played; awards = reveals + eggs seen in free spins
    assert len(round_.free_spins) == round_.free_spins_awarded
    assert round_.free_spins_awarded == sum(round_.spins[0].reveals) + sum(
        s.triggers for s in round_.free_spins
    )
    # the win is the spins' total, doubled/quadrupled by each right guess, or lost
    expected = round_.spin_win_coins
    for step in round_.gambles:
        assert step.stake_coins == expected
        expected = step.result_coins
        assert step.result_coins in (0, 2 * step.stake_coins, 4 * step.stake_coins)
    assert round_.paid_coins == expected
    assert len(round_.gambles) <= 5
    assert all(g.result_coins <= round_.gamble_limit_coins for g in round_.gambles)
