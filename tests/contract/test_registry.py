"""The suite covers every title reelsmith ships (or names what a shipped title still lacks), and
each title's adapter answers for it."""

from __future__ import annotations

import pytest

from reelsmith.games import TITLE_FOLDERS
from tests.contract.titles import (
    PENDING_TITLES,
    adapter,
    contract_titles,
    markets,
    titles,
    variants,
)


def test_every_shipped_title_is_under_contract_or_pending_with_a_reason():
    listed = set(contract_titles())
    assert listed.isdisjoint(PENDING_TITLES)
    assert listed | set(PENDING_TITLES) == set(TITLE_FOLDERS)
    assert all(reason.strip() for reason in PENDING_TITLES.values())


def test_every_title_the_server_plays_is_under_contract():
    """A pending title the server starts to play must come under contract."""
    assert set(contract_titles()) == set(titles())


def test_an_unlisted_title_is_named_in_the_error():
    with pytest.raises(KeyError, match="'no-such-title' is not under contract"):
        adapter("no-such-title")


@pytest.mark.parametrize("game_id", contract_titles())
def test_adapter_describes_its_title(game_id):
    contract = adapter(game_id)
    assert contract.game_id == game_id
    assert variants(game_id), "a title has at least one variant"
    offering = [m for m in markets().values() if game_id in m.games]
    assert "default" in {m.id for m in offering}, f"the default market does not offer {game_id}"
    for market in offering:  # a market may decline a title (de: none with local jackpots)
        assert contract.bets(market), f"{market.id} offers {game_id} no bet the suite can play"
