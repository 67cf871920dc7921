"""The autoplay's stop policy, a pure function: each condition, when it applies, and which
wins when several do."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reelsmith.server.services.autoplay_policy import (
    Counters,
    Limits,
    Step,
    balance_changed,
    count,
    status_after,
    stop_reason,
)

NO_LIMITS = Limits()


def spin(bet: int = 100, finished: bool = True, **paid: int) -> Step:
    return Step(bet_minor=bet, finished=finished, **paid)


def later(finished: bool = True, **paid: int) -> Step:
    return Step(bet_minor=None, finished=finished, **paid)


def test_the_spin_that_starts_a_round_counts_it_and_takes_its_bet():
    assert count(Counters(10, 0), spin(100, finished=False)) == Counters(9, -100)


def test_the_step_that_finishes_a_round_adds_its_pay_and_refund():
    after = count(Counters(9, -100), later(win_minor=250, jackpot_minor=50, refund_minor=0))
    assert after == Counters(9, 200)
    assert count(Counters(9, -100), later(refund_minor=100)) == Counters(9, 0)


def test_an_open_round_adds_nothing_yet():
    assert count(Counters(9, -100), later(finished=False, win_minor=500)) == Counters(9, -100)


def test_nothing_stops_an_autoplay_without_limits_before_its_rounds_are_done():
    step = spin(win_minor=10_000, jackpot_minor=5_000)
    assert stop_reason(NO_LIMITS, count(Counters(5, 0), step), step) is None


def test_the_last_round_finishes_the_autoplay():
    step = spin()
    after = count(Counters(1, 0), step)
    assert stop_reason(NO_LIMITS, after, step) == "rounds_done"
    assert status_after("rounds_done") == "finished"


def test_the_last_round_still_open_does_not_finish_it():
    step = spin(finished=False)
    assert stop_reason(NO_LIMITS, count(Counters(1, 0), step), step) is None


def test_a_feature_stops_it_on_the_spin_that_triggers_it_only():
    limits = Limits(stop_on_feature=True)
    triggered = Step(bet_minor=100, finished=False, feature_triggered=True)
    assert stop_reason(limits, Counters(4, -100), triggered) == "feature"
    # a later step of the same round (its free spins) does not stop it again
    free_spin = Step(bet_minor=None, finished=False, feature_triggered=True)
    assert stop_reason(limits, Counters(4, -100), free_spin) is None
    # without the setting, a feature does not stop it
    assert stop_reason(NO_LIMITS, Counters(4, -100), triggered) is None


def test_a_jackpot_stops_it_on_the_step_that_pays_it():
    limits = Limits(stop_on_jackpot=True)
    step = later(finished=False, jackpot_minor=1)
    assert stop_reason(limits, Counters(4, 0), step) == "jackpot"
    assert stop_reason(limits, Counters(4, 0), later(finished=False)) is None


@pytest.mark.parametrize(
    ("win", "jackpot", "stops"), [(500, 0, False), (501, 0, True), (400, 101, True)]
)
def test_a_single_win_above_the_limit_stops_it(win, jackpot, stops):
    limits = Limits(stop_on_win_above_minor=500)
    step = later(win_minor=win, jackpot_minor=jackpot)
    assert (stop_reason(limits, Counters(4, 0), step) == "single_win_above") is stops


def test_a_win_above_the_limit_counts_when_the_round_finishes():
    limits = Limits(stop_on_win_above_minor=500)
    assert stop_reason(limits, Counters(4, 0), later(finished=False, win_minor=900)) is None


@pytest.mark.parametrize(("net", "stops"), [(-999, False), (-1000, True), (-1500, True)])
def test_the_loss_limit_stops_it_once_the_net_loss_reaches_it(net, stops):
    limits = Limits(loss_limit_minor=1000)
    assert (stop_reason(limits, Counters(4, net), later()) == "loss_limit") is stops


def test_which_condition_wins_when_several_apply():
    every = Limits(
        stop_on_feature=True,
        stop_on_jackpot=True,
        stop_on_win_above_minor=0,
        loss_limit_minor=1,
    )
    all_at_once = Step(bet_minor=100, finished=True, feature_triggered=True, jackpot_minor=5)
    assert stop_reason(every, Counters(0, -100), all_at_once) == "feature"
    no_feature = Step(bet_minor=100, finished=True, jackpot_minor=5)
    assert stop_reason(every, Counters(0, -100), no_feature) == "jackpot"
    a_win = Step(bet_minor=100, finished=True, win_minor=5)
    assert stop_reason(every, Counters(0, -100), a_win) == "single_win_above"
    a_loss = Step(bet_minor=100, finished=True)
    assert stop_reason(every, Counters(0, -100), a_loss) == "loss_limit"
    assert status_after("loss_limit") == "stopped"
    assert status_after(None) == "active"


def test_a_balance_change_outside_the_autoplay():
    assert balance_changed(True, 1000, 1500)
    assert not balance_changed(True, 1000, 1000)
    assert not balance_changed(False, 1000, 1500)
    assert not balance_changed(True, None, 1500)  # no step of its own yet


@given(
    remaining=st.integers(1, 1000),
    net=st.integers(-(10**6), 10**6),
    bet=st.integers(1, 10**4),
    win=st.integers(0, 10**6),
    finished=st.booleans(),
)
def test_counting_moves_the_net_by_exactly_the_money_the_step_moved(
    remaining, net, bet, win, finished
):
    after = count(Counters(remaining, net), spin(bet, finished=finished, win_minor=win))
    assert after.remaining == remaining - 1
    assert after.net_minor == net - bet + (win if finished else 0)
    # with no limits, only the last round finished ends it
    reason = stop_reason(NO_LIMITS, after, spin(bet, finished=finished, win_minor=win))
    assert (reason == "rounds_done") is (finished and after.remaining <= 0)
    assert reason in (None, "rounds_done")
