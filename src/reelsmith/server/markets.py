"""Market profiles: currency and formatting, allowed bets and max stake, autoplay and what it
must stop on, turbo, gamble, minimum round duration, reality checks, RTP variant, the client's
win tiers, a cap on a round's win (``max_win_multiplier``: lower than a title's own, never
higher) and whether titles with local jackpots may be offered (``jackpots``) — one TOML file per
market in ``markets/``.

A title bet in bet levels (its model's ``[bet] levels``: whole stake units, the bet spread over
its paylines) is priced here: the market names the value of one stake unit in its currency
(``stake_unit``) and the levels it offers (``levels``). The loader refuses a pricing under which
a win could be a fraction of the currency's minor unit, naming the game and the level: every
line win is a multiple of the smallest line pay, so a level is exact when
``smallest pay x level x stake unit / paylines`` is a whole number of minor units.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from reelsmith.engine.model import GameModel
from reelsmith.games import TITLE_FOLDERS, load_game
from reelsmith.money import Currency, MoneyError, locale_sign

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
    coin_sizes: tuple[Decimal, ...] = ()  # coin-bet titles, in the market's money
    credit_value: Decimal = Decimal(1)  # coin-bet titles: one credit of the model's in money
    # bet-level titles: the value of one stake unit, the levels offered and the default one
    stake_unit: Decimal | None = None
    levels: tuple[int, ...] = ()
    default_level: int | None = None
    gamble_limit: Decimal | None = None

    @property
    def bets(self) -> tuple[Decimal, ...]:
        """The bets of a bet-level title as amounts: each level offered times the stake unit."""
        unit = self.stake_unit
        return () if unit is None else tuple(level * unit for level in self.levels)

    @property
    def default_bet(self) -> Decimal | None:
        unit, level = self.stake_unit, self.default_level
        return None if unit is None or level is None else level * unit


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
    #: No longer served (its file removed): its players' rounds finish at their own terms and
    #: their money can be withdrawn, but it offers no game and takes no deposit.
    closed: bool = False
    #: The market's cap on a round's win, in total bets (None: each title's own cap, if any):
    #: a round is capped at the lower of this and the title's ``[max_win]``.
    max_win_multiplier: int | None = None
    #: Whether the market offers titles with local jackpots (pots); a market file that sets it
    #: false and lists such a title is refused when it loads, naming the title.
    jackpots: bool = True
    #: Whether the market offers bought features (a title's ``[modes]`` of kind ``buy``); an
    #: ante is offered wherever the title is.
    bought_features: bool = True

    def offers_mode(self, kind: str) -> bool:
        """Whether a bet mode of ``kind`` (``ante``, ``buy``) may be sold in this market."""
        return kind != "buy" or self.bought_features

    def game(self, game_id: str) -> GameRules:
        if self.closed:
            raise MarketError(f"market {self.id} is no longer served: it offers no game")
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

    def _amount(self, amount: Decimal) -> str:
        """An exact amount written with the currency's decimals ("1.00", "2000")."""
        return str(self.currency.to_decimal(self.currency.to_minor(amount)))

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "currency": self.currency.code,
            "currency_exponent": self.currency.exponent,
            "currency_sign": self.currency.sign,
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
            "closed": self.closed,
            "max_win_multiplier": self.max_win_multiplier,
            "jackpots": self.jackpots,
            "games": {
                game: {
                    "variant": rules.variant,
                    "coin_sizes": [str(s) for s in rules.coin_sizes],
                    "credit_value": str(rules.credit_value),
                    "bets": [
                        str(self.currency.to_decimal(self.currency.to_minor(b))) for b in rules.bets
                    ],
                    "levels": list(rules.levels),
                    "stake_unit": None if rules.stake_unit is None else str(rules.stake_unit),
                    "default_bet": None
                    if rules.default_bet is None
                    else self._amount(rules.default_bet),
                    "gamble_limit": None if rules.gamble_limit is None else str(rules.gamble_limit),
                }
                for game, rules in self.games.items()
            },
        }


def closed_market(market_id: str, currency: str) -> Market:
    """The market of players whose market is no longer served (its file removed): their
    wallet's currency written as English writes it, no game, no autoplay, no gamble."""
    return Market(
        id=market_id,
        name=f"{market_id} (no longer served)",
        currency=Currency.of(currency),
        locale="en",
        autoplay=False,
        turbo=False,
        slam_stop=False,
        gamble=False,
        min_round_ms=0,
        celebrate_wins_not_above_stake=False,
        show_session_net=False,
        max_stake=Decimal(0),
        closed=True,
    )


def _decimals(values: Any, where: str) -> tuple[Decimal, ...]:
    if not isinstance(values, list) or not values:
        raise MarketError(f"{where} must be a non-empty list of amounts")
    try:
        return tuple(Decimal(str(v)) for v in values)
    except ArithmeticError:
        raise MarketError(f"{where} has an amount that is not a number") from None


def _levels(values: Any, where: str) -> tuple[int, ...]:
    if not isinstance(values, list) or not values:
        raise MarketError(f"{where} must be a non-empty list of bet levels (whole stake units)")
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            raise MarketError(f"{where}: {value!r} is not a bet level (a whole number above 0)")
    if values != sorted(set(values)):
        raise MarketError(f"{where} must list the levels in ascending order, each once")
    return tuple(values)


def _level_pricing(
    table: dict[str, Any], model: GameModel, currency: Currency, at: str
) -> dict[str, Any]:
    """A bet-level title's pricing: the stake unit, the levels offered and the default level,
    each checked against the model and exact in ``currency`` (see the module's docstring)."""
    if "bets" in table or "coin_sizes" in table:
        raise MarketError(
            f"{at}: {model.id} is bet in bet levels; price them with stake_unit (one stake "
            "unit in the market's currency) and levels (the levels offered), not bets"
        )
    if "stake_unit" not in table or "levels" not in table:
        raise MarketError(f"{at}: {model.id} needs stake_unit and levels")
    unit = _decimals([table["stake_unit"]], f"{at}.stake_unit")[0]
    unit_minor = currency.to_minor(unit)
    if unit_minor <= 0:
        raise MarketError(f"{at}.stake_unit must be above 0, not {unit}")
    levels = _levels(table["levels"], f"{at}.levels")
    known = tuple(model.bet["levels"])
    pays = [int(p) for p in model.line_pays.flatten() if p]
    smallest, lines = math.gcd(*pays), model.line_count
    for level in levels:
        if level not in known:
            raise MarketError(
                f"{at}: {model.id} has no bet level {level}; its levels are "
                f"{', '.join(str(n) for n in known)}"
            )
        if smallest * level * unit_minor % lines:
            raise MarketError(
                f"{at}: {model.id} level {level} at a stake unit of {unit} {currency.code} "
                f"could pay a fraction of a minor unit (a line win of {smallest} line bets is "
                f"{smallest} x {level * unit} / {lines}); offer other levels or another "
                "stake unit"
            )
    default = table.get("default_level")
    if default is None:
        default = model.bet["default"] if model.bet["default"] in levels else levels[0]
    elif default not in levels:
        raise MarketError(f"{at}.default_level {default!r} is not one of the levels offered")
    return {"stake_unit": unit, "levels": levels, "default_level": default}


def _credit(table: dict[str, Any], at: str) -> dict[str, Any]:
    if "credit_value" not in table:
        return {}
    value = _decimals([table["credit_value"]], f"{at}.credit_value")[0]
    if value <= 0:
        raise MarketError(f"{at}.credit_value must be above 0, not {value}")
    return {"credit_value": value}


def _check_coin_sizes(rules: GameRules, model: GameModel, at: str) -> None:
    """Each of the market's coin sizes, in credits, is one of the model's."""
    known = [Decimal(str(s)) for s in model.bet.get("coin_sizes", ())]
    for size in rules.coin_sizes:
        credits = size / rules.credit_value
        if credits not in known:
            listed = ", ".join(str(k * rules.credit_value) for k in known)
            raise MarketError(
                f"{at}: {model.id} has no coin size {size} ({credits} credits at a credit of "
                f"{rules.credit_value}); at that credit its coin sizes are {listed}"
            )


def _currency(raw: dict[str, Any], where: str) -> Currency:
    """The market's currency with the sign its amounts carry in every language: the
    market's ``currency_sign`` when set, else the sign of the market's locale."""
    code = str(raw["currency"])
    sign = raw.get("currency_sign")
    if sign is None:
        sign = locale_sign(code.upper(), str(raw["locale"]))
    elif not isinstance(sign, str):
        raise MarketError(f'{where}: currency_sign must be a text such as "¥", not {sign!r}')
    return Currency.of(code, sign)  # a bad code or sign: a MoneyError, named by the caller


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


def _max_win_multiplier(raw: dict[str, Any], where: str) -> int | None:
    value = raw.get("max_win_multiplier")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise MarketError(
            f"{where}: max_win_multiplier must be a whole number of total bets above 0, "
            f"not {value!r}"
        )
    return value


def _has_jackpots(model: GameModel) -> bool:
    """Whether a title pays jackpots (a mechanic of it does: local pots, jackpot tiers)."""
    from reelsmith.mechanics import pays_jackpots

    return pays_jackpots(model)


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
        currency = _currency(raw, where)
        jackpots = _flag(raw, "jackpots", where) if "jackpots" in raw else True
        games: dict[str, GameRules] = {}
        for game_id, table in raw.get("games", {}).items():
            at = f"{where}: games.{game_id}"
            if game_id not in models:
                known = ", ".join(sorted(models))
                raise MarketError(f"{at}: unknown game; the games served are {known}")
            model = models[game_id]
            if not jackpots and _has_jackpots(model):
                raise MarketError(
                    f"{at}: {game_id} plays local jackpots, which this market does not offer "
                    "(jackpots = false)"
                )
            variant = str(table["variant"])
            if variant not in model.variants:
                raise MarketError(
                    f"{at}: {game_id} has no variant {variant!r}; "
                    f"its variants are {', '.join(sorted(model.variants))}"
                )
            pricing = _level_pricing(table, model, currency, at) if "levels" in model.bet else {}
            rules = GameRules(
                variant=variant,
                coin_sizes=_decimals(table["coin_sizes"], f"{at}.coin_sizes")
                if "coin_sizes" in table
                else (),
                gamble_limit=Decimal(str(table["gamble_limit"]))
                if "gamble_limit" in table
                else None,
                **pricing,
                **_credit(table, at),
            )
            for amount in rules.coin_sizes:
                currency.to_minor(amount)  # every amount fits the currency's minor unit
            if rules.coin_sizes:
                _check_coin_sizes(rules, model, at)
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
            max_win_multiplier=_max_win_multiplier(raw, where),
            jackpots=jackpots,
            bought_features=_flag(raw, "bought_features", where)
            if "bought_features" in raw
            else True,
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
