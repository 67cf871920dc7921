"""Market profiles: currency and formatting, allowed bets and max stake, autoplay and what it
must stop on, turbo, gamble, minimum round duration, reality checks, RTP variant, the client's
win tiers — one TOML file per market in ``markets/``."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from reelsmith.engine.model import GameModel
from reelsmith.games import TITLE_FOLDERS, load_game
from reelsmith.money import Currency, MoneyError

MARKETS_DIR = Path(__file__).parent / "markets"


class MarketError(ValueError):
    pass


# The client's win tiers: a win of at least this many times the stake is presented as a big,
# mega or epic win. A market's [win_tiers] table may set any of them (or leave one out).
WIN_TIER_NAMES = ("big", "mega", "epic")
DEFAULT_WIN_TIERS: dict[str, Decimal] = {
    "big": Decimal(15),
    "mega": Decimal(30),
    "epic": Decimal(60),
}


def _win_tiers(raw: Any, where: str) -> dict[str, Decimal]:
    if raw is None:
        return dict(DEFAULT_WIN_TIERS)
    if not isinstance(raw, dict) or not raw:
        raise MarketError(f"{where}: win_tiers must be a table such as {{big = 15, mega = 30}}")
    tiers: dict[str, Decimal] = {}
    for name, value in raw.items():
        if name not in WIN_TIER_NAMES:
            known = ", ".join(WIN_TIER_NAMES)
            raise MarketError(f"{where}: win_tiers.{name} is not a win tier (known: {known})")
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
            raise MarketError(
                f"{where}: win_tiers.{name} must be a positive multiple of the stake, not {value!r}"
            )
        tiers[name] = Decimal(str(value))
    ordered = [tiers[name] for name in WIN_TIER_NAMES if name in tiers]
    if ordered != sorted(set(ordered)):
        raise MarketError(f"{where}: win_tiers must rise from big to mega to epic")
    return tiers


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
    # responsible play: a reality check every N minutes of a session (0: none); what an
    # autoplay must have (a loss limit) and must stop on, whatever the player chose
    reality_check_minutes: int = 0
    autoplay_requires_loss_limit: bool = False
    autoplay_requires_stop_on_jackpot: bool = False
    autoplay_requires_stop_on_balance_change: bool = False
    win_tiers: dict[str, Decimal] = field(default_factory=lambda: dict(DEFAULT_WIN_TIERS))

    def game(self, game_id: str) -> GameRules:
        try:
            return self.games[game_id]
        except KeyError:
            raise MarketError(f"{game_id} is not offered in market {self.id}") from None

    def money(self, minor: int) -> dict[str, Any]:
        """An amount of this market's currency as the API gives it."""
        return {
            "minor": minor,
            "amount": str(self.currency.to_decimal(minor)),
            "formatted": self.currency.format(minor, self.locale),
        }

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
            "reality_check_minutes": self.reality_check_minutes,
            "autoplay_requires_loss_limit": self.autoplay_requires_loss_limit,
            "autoplay_requires_stop_on_jackpot": self.autoplay_requires_stop_on_jackpot,
            "autoplay_requires_stop_on_balance_change": (
                self.autoplay_requires_stop_on_balance_change
            ),
            "win_tiers": {name: float(at) for name, at in self.win_tiers.items()},
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


def _flag(raw: dict[str, Any], key: str, where: str) -> bool:
    """An optional true/false setting (false when absent)."""
    value = raw.get(key, False)
    if not isinstance(value, bool):
        raise MarketError(f"{where}: {key} must be true or false, not {value!r}")
    return value


def _reality_check_minutes(raw: dict[str, Any], where: str) -> int:
    value = raw.get("reality_check_minutes", 0)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 1440:
        raise MarketError(
            f"{where}: reality_check_minutes must be a whole number of minutes from 0 (none)"
            f" to 1440, not {value!r}"
        )
    if value and not raw.get("show_session_net"):
        raise MarketError(
            f"{where}: a reality check shows the session's net position, so"
            " reality_check_minutes needs show_session_net = true"
        )
    return value


def shipped_models() -> dict[str, GameModel]:
    return {game_id: load_game(game_id) for game_id in TITLE_FOLDERS}


def load_market(path: Path, models: Mapping[str, GameModel] | None = None) -> Market:
    """The market in ``path``; the games it lists must be among ``models`` (the titles
    served; the shipped titles if not given)."""
    where = str(path)
    models = shipped_models() if models is None else models
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise MarketError(f"{where}: {exc}") from None
    try:
        currency = Currency.of(str(raw["currency"]))
        games: dict[str, GameRules] = {}
        for game_id, table in raw.get("games", {}).items():
            at = f"{where}: games.{game_id}"
            if game_id not in models:
                known = ", ".join(sorted(models))
                raise MarketError(f"{at}: unknown game; the games served are {known}")
            model = models[game_id]
            variant = str(table["variant"])
            if variant not in model.variants:
                raise MarketError(
                    f"{at}: {game_id} has no variant {variant!r}; "
                    f"its variants are {', '.join(sorted(model.variants))}"
                )
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
            reality_check_minutes=_reality_check_minutes(raw, where),
            autoplay_requires_loss_limit=_flag(raw, "autoplay_requires_loss_limit", where),
            autoplay_requires_stop_on_jackpot=_flag(
                raw, "autoplay_requires_stop_on_jackpot", where
            ),
            autoplay_requires_stop_on_balance_change=_flag(
                raw, "autoplay_requires_stop_on_balance_change", where
            ),
            win_tiers=_win_tiers(raw.get("win_tiers"), where),
        )
    except KeyError as exc:
        raise MarketError(f"{where}: missing key {exc.args[0]!r}") from None
    except MoneyError as exc:
        raise MarketError(f"{where}: {exc}") from None
    if market.id != path.stem:
        raise MarketError(f"{where}: id {market.id!r} does not match the file name")
    return market


def load_markets(
    folder: Path = MARKETS_DIR, models: Mapping[str, GameModel] | None = None
) -> dict[str, Market]:
    """Every market in ``folder`` (one TOML file each), checked against ``models``."""
    models = shipped_models() if models is None else models
    markets = {m.id: m for m in (load_market(p, models) for p in sorted(folder.glob("*.toml")))}
    if "default" not in markets:
        raise MarketError(f"{folder}: no default market")
    return markets
