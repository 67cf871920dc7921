"""The ladder's and the pots' transitions, written once (engine/features/ladder_steps.py):
the invariants the help page's rules imply, for any sizes a model can declare."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from reelsmith.engine.features.ladder_steps import (
    advance,
    collect,
    fill_spot,
    raise_pot,
    start_ladder,
    trigger_point,
)

sizes = st.integers(min_value=1, max_value=9)
#: The first call of each compiled function loads it from numba's cache: no deadline.
loaded = settings(deadline=None)


@loaded
@given(spots=sizes, levels=sizes, data=st.data())
def test_collect_keeps_the_meter_in_range_and_unlocks_in_order(spots, levels, data):
    unlocked = data.draw(st.integers(1, levels))
    meter = data.draw(st.integers(0, spots if unlocked == levels else spots - 1))
    bonus = data.draw(st.integers(0, 3 * spots))
    new_meter, new_unlocked = collect(meter, unlocked, bonus, spots, levels)
    assert 0 <= new_meter <= spots
    assert unlocked <= new_unlocked <= levels
    if new_unlocked < levels:  # symbols are kept, spots * levels unlocked, the rest carried
        assert new_meter < spots
        assert (new_unlocked - unlocked) * spots + new_meter == meter + bonus
    else:  # every level unlocked: the meter fills up to full and nothing beyond is kept
        assert new_meter == min(meter + bonus - (new_unlocked - unlocked) * spots, spots)


@loaded
@given(spots=sizes, meter=st.integers(0, 9))
def test_the_main_game_fills_one_spot_and_a_full_meter_unlocks_level_two(spots, meter):
    meter = min(meter, spots)
    assert fill_spot(meter, spots) == min(meter + 1, spots)
    unlocked, left = start_ladder(meter, spots)
    assert (unlocked, left) == ((2, 0) if meter == spots else (1, meter))


@loaded
@given(per_level=sizes, levels=sizes, data=st.data())
def test_a_level_is_played_to_its_end_then_the_next_if_unlocked(per_level, levels, data):
    level = data.draw(st.integers(1, levels))
    unlocked = data.draw(st.integers(level, levels))
    left = data.draw(st.integers(1, per_level))
    new_level, new_left, over = advance(level, left, unlocked, per_level)
    if left > 1:
        assert (new_level, new_left, over) == (level, left - 1, False)
    elif unlocked > level:
        assert (new_level, new_left, over) == (level + 1, per_level, False)
    else:
        assert over and new_level == level and new_left == 0


@loaded
@given(seed=st.integers(1, 100), span=st.integers(1, 5000), data=st.data())
def test_a_pot_hits_exactly_at_its_trigger_point_drawn_above_the_seed(seed, span, data):
    trigger = trigger_point(seed, data.draw(st.integers(0, span - 1)))
    assert seed < trigger <= seed + span
    pot, raised = seed, 0
    while True:
        pot, hit = raise_pot(pot, trigger)
        raised += 1
        if hit:
            break
    assert pot == trigger and raised == trigger - seed
