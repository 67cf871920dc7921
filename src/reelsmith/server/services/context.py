"""What every service reads: the database, the settings, the markets and titles served, the
clock, the metrics and the live random source."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sqlalchemy import Connection

from reelsmith.rng import RandomSource
from reelsmith.server.clock import Clock
from reelsmith.server.errors import InvalidInputError, NotFoundError
from reelsmith.server.markets import Market, closed_market
from reelsmith.server.metrics import Metrics
from reelsmith.server.registry import TitleRegistry
from reelsmith.server.services.versions import ModelVersions
from reelsmith.server.settings import Settings
from reelsmith.server.titles import Title
from reelsmith.store.db import Database
from reelsmith.wallet import ledger

if TYPE_CHECKING:
    from reelsmith.wallet.seamless import SeamlessWallet


@dataclass
class Context:
    db: Database
    settings: Settings
    markets: dict[str, Market]
    clock: Clock
    metrics: Metrics
    rng: RandomSource
    titles: TitleRegistry
    # house account ids by (name, currency): they never change once created
    house: dict[tuple[str, str], int] = field(default_factory=dict)
    # the seamless adapter when the operator holds the money (settings.wallet), else None
    seamless: SeamlessWallet | None = None
    # the versions of the titles stored rounds were played on (replay)
    versions: ModelVersions = field(init=False)

    def __post_init__(self) -> None:
        self.versions = ModelVersions(self.titles)

    def title(self, game: str) -> Title:
        try:
            return self.titles[game]
        except KeyError:
            known = ", ".join(sorted(self.titles))
            raise NotFoundError(
                "unknown_game", f"unknown game {game!r}; the games are {known}"
            ) from None

    def market(self, market_id: str) -> Market:
        try:
            return self.markets[market_id]
        except KeyError:
            known = ", ".join(sorted(self.markets))
            raise InvalidInputError(
                "unknown_market", f"unknown market {market_id!r}; the markets are {known}"
            ) from None

    def market_of(self, market_id: str, currency: str) -> Market:
        """A player's market: the one served under ``market_id``, or, when it is no longer
        served, a closed market of the player's ``currency`` (rounds finish at their own
        terms and the money can be withdrawn; nothing new starts)."""
        found = self.markets.get(market_id)
        return found if found is not None else closed_market(market_id, currency)

    def prepare_house_accounts(self) -> None:
        """Create (once, committed) and remember every house account the markets can use
        (with the seamless wallet, the operator's too: every seamless step posts to it)."""
        names = ["cash", *(f"game:{game}" for game in self.titles)]
        if self.seamless is not None:
            from reelsmith.wallet.seamless import ACCOUNT

            names.append(ACCOUNT)
        with self.db.write() as connection:
            for market in self.markets.values():
                code = market.currency.code
                for name in names:
                    self.house[(name, code)] = ledger.house_account(connection, name, code)

    def house_account(self, connection: Connection, name: str, currency: str) -> int:
        found = self.house.get((name, currency))
        return found if found is not None else ledger.house_account(connection, name, currency)
