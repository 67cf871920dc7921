"""Record round trips: for random rounds of every title (random market, variant, bet, carried
state, the gamble taken or declined, actions, stopped at any step as the server stores an
open round), the record the server stores restores to the same round, whose record is the
same text; an open round restored and continued gives what the original gives."""

from __future__ import annotations

import json

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from reelsmith.rng import SeededSource
from reelsmith.server.jsontext import json_text
from tests.contract.rounds import Player, chooser
from tests.contract.titles import (
    adapter,
    contract_titles,
    market_for,
    markets,
    server_title,
    variants,
)


@pytest.mark.parametrize("game_id", contract_titles())
@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    market_id=st.sampled_from(sorted(markets())),
    warm_up=st.integers(0, 3),
    stop=st.integers(0, 50),
    gamble=st.booleans(),
    data=st.data(),
)
def test_record_restore_record_is_identical(game_id, seed, market_id, warm_up, stop, gamble, data):
    assume(game_id in markets()[market_id].games)  # a market need not offer every title
    title = server_title(game_id)
    market = market_for(market_id, game_id, data.draw(st.sampled_from(variants(game_id))))
    raw_bet = data.draw(st.sampled_from(adapter(game_id).bets(market)))
    rng = SeededSource(seed)
    player = Player(title)
    for _ in range(warm_up):  # a carried state (pots, meter) from earlier rounds at this bet
        player.play(market, raw_bet, rng, chooser(seed), gamble=gamble)
    steps = player.play(market, raw_bet, rng, chooser(seed + 1), gamble=gamble)
    round_ = steps[min(stop, len(steps) - 1)]

    text = json_text(title.record(round_), sort_keys=True)
    restored = title.restore(json.loads(text))
    assert restored == round_
    assert json_text(title.record(restored), sort_keys=True) == text
    price = title.market_price(market, round_)
    assert title.market_price(market, restored) == price
    assert title.view(price, restored) == title.view(price, round_)
    assert title.outcome(price, restored) == title.outcome(price, round_)
    assert title.kept_state(restored) == title.kept_state(round_)

    offered = title.actions(round_)
    if offered:
        action = data.draw(st.sampled_from(offered))
        later = data.draw(st.integers(0, 2**32 - 1))
        going_on = title.act(round_, action, SeededSource(later))
        assert title.act(restored, action, SeededSource(later)) == going_on
        text = json_text(title.record(going_on), sort_keys=True)
        assert title.restore(json.loads(text)) == going_on
