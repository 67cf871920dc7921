"""What the database holds that the served markets and titles no longer cover, told once at
start: players of a market no longer served, open rounds of a title no longer served, and open
rounds of a title their player's market no longer offers.

None of them stops the server: an open round finishes at the terms recorded with it, and a
player whose market is gone can still be paid out (see :meth:`Context.market_of`). But an
operator who removed a market or a title with players or rounds on it should hear of them
before a player does, and a round of a title no longer served cannot be played on or resolved
until the title is served again.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import Connection, text

from reelsmith.server.markets import Market

_PLAYERS_BY_MARKET = "SELECT market, COUNT(*) AS n FROM players GROUP BY market"
_OPEN_ROUNDS = (
    "SELECT r.game, p.market, COUNT(*) AS n FROM rounds r JOIN players p ON p.id = r.player_id"
    " WHERE r.status = 'open' GROUP BY r.game, p.market"
)


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def orphans(
    connection: Connection, markets: Mapping[str, Market], titles: Mapping[str, Any]
) -> list[str]:
    """A sentence for each group of players or open rounds the served markets and titles no
    longer cover (none: everything stored is served)."""
    found = []
    for row in connection.execute(text(_PLAYERS_BY_MARKET)):
        if row.market not in markets:
            found.append(
                f"{_count(int(row.n), 'player', 'players')} of market {row.market!r}, which is"
                " no longer served: their open rounds finish at their own terms and their"
                " money can be withdrawn, but nothing new starts"
            )
    for row in connection.execute(text(_OPEN_ROUNDS)):
        rounds = _count(int(row.n), "open round", "open rounds")
        if row.game not in titles:
            found.append(
                f"{rounds} of title {row.game!r}, which is not served: they cannot be played"
                " on or resolved until it is served again"
            )
        elif row.market in markets and row.game not in markets[row.market].games:
            found.append(
                f"{rounds} of title {row.game!r} in market {row.market!r}, which no longer"
                " offers it: they finish at their own terms"
            )
    return found
