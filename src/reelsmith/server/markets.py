"""Market profiles: currency and formatting, allowed bets and max stake, autoplay, turbo,
gamble, minimum round duration, RTP variant — one TOML file per market in ``markets/``."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from reelsmith.games import TITLE_FOLDERS, load_game
from reelsmith.money import Currency, MoneyError

MARKETS_DIR = Path(__file__).parent / "markets"


class MarketError(ValueError):
    pass


@dataclass(frozen=True)
class GameRules:
    """What a market allows for one title."""

    variant: str
    coin_sizes: tuple[Decimal, ...] = ()  # coin-bet titles
    bets: tuple[Decimal, ...] = ()  # bet-ladder titles
    gamble_limit: Decimal | None = None


@dataclass(frozen=True)
class Market:
    id: str
    name: str
    currency: Currency
    locale: str
    autoplay: bool
    turbo: bool
    slam_stop: bool
    gamble: bool
    min_round_ms: int
    celebrate_wins_not_above_stake: bool
    show_session_net: bool
    max_stake: Decimal
    games: dict[str, GameRules] = field(default_factory=dict)

    def game(self, game_id: str) -> GameRules:
        try:
            return self.games[game_id]
        except KeyError:
            raise MarketError(f"{game_id} is not offered in market {self.id}") from None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "currency": self.currency.code,
            "currency_exponent": self.currency.exponent,
            "locale": self.locale,
            "autoplay": self.autoplay,
            "turbo": self.turbo,
            "slam_stop": self.slam_stop,
            "gamble": self.gamble,
            "min_round_ms": self.min_round_ms,
            "celebrate_wins_not_above_stake": self.celebrate_wins_not_above_stake,
            "show_session_net": self.show_session_net,
            "max_stake": str(self.max_stake),
            "games": {
                game: {
                    "variant": rules.variant,
                    "coin_sizes": [str(s) for s in rules.coin_sizes],
                    "bets": [str(b) for b in rules.bets],
                    "gamble_limit": None if rules.gamble_limit is None else str(rules.gamble_limit),
                }
                for game, rules in self.games.items()
            },
        }


def _decimals(values: Any, where: str) -> tuple[Decimal, ...]:
    if not isinstance(values, list) or not values:
        raise MarketError(f"{where} must be a non-empty list of amounts")
    try:
        return tuple(Decimal(str(v)) for v in values)
    except ArithmeticError:
        raise MarketError(f"{where} has an amount that is not a number") from None


def load_market(path: Path) -> Market:
    where = str(path)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise MarketError(f"{where}: {exc}") from None
    try:
        currency = Currency.of(str(raw["currency"]))
        games: dict[str, GameRules] = {}
        for game_id, table in raw.get("games", {}).items():
            at = f"{where}: games.{game_id}"
            if game_id not in TITLE_FOLDERS:
                raise MarketError(f"{at}: unknown game")
            model = load_game(game_id)
            variant = str(table["variant"])
            model.variant(variant)
            rules = GameRules(
                variant=variant,
                coin_sizes=_decimals(table["coin_sizes"], f"{at}.coin_sizes")
                if "coin_sizes" in table
                else (),
                bets=_decimals(table["bets"], f"{at}.bets") if "bets" in table else (),
                gamble_limit=Decimal(str(table["gamble_limit"]))
                if "gamble_limit" in table
                else None,
            )
            for amount in (*rules.coin_sizes, *rules.bets):
                currency.to_minor(amount)  # every amount fits the currency's minor unit
            games[game_id] = rules
        market = Market(
            id=str(raw["id"]),
            name=str(raw["name"]),
            currency=currency,
            locale=str(raw["locale"]),
            autoplay=bool(raw["autoplay"]),
            turbo=bool(raw["turbo"]),
            slam_stop=bool(raw["slam_stop"]),
            gamble=bool(raw["gamble"]),
            min_round_ms=int(raw["min_round_ms"]),
            celebrate_wins_not_above_stake=bool(raw["celebrate_wins_not_above_stake"]),
            show_session_net=bool(raw["show_session_net"]),
            max_stake=Decimal(str(raw["max_stake"])),
            games=games,
        )
    except KeyError as exc:
        raise MarketError(f"{where}: missing key {exc.args[0]!r}") from None
    except MoneyError as exc:
        raise MarketError(f"{where}: {exc}") from None
    if market.id != path.stem:
        raise MarketError(f"{where}: id {market.id!r} does not match the file name")
    return market


def load_markets(folder: Path = MARKETS_DIR) -> dict[str, Market]:
    markets = {m.id: m for m in (load_market(p) for p in sorted(folder.glob("*.toml")))}
    if "default" not in markets:
        raise MarketError(f"{folder}: no default market")
    return markets
