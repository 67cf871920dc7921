"""The title boundary: :class:`Title`, through which the server, the contract suite and the
tools reach a title, for every title alike.

A title is a model file; the mechanics it declares compose its round
(:mod:`reelsmith.mechanics`, :mod:`reelsmith.engine.round`). The server's part of each mechanic
is that mechanic's own *server face*: the bet mechanic's (coins or levels) turns the market's
money into the engine's bets and back, writes and reads the round's record and shows its bet and
win in money; the others add their money to a round's view (pots, a gamble limit), say what a
player may see of a carried state, and whether a round triggered a feature. Nothing here asks
which mechanics a title has.

A stored round is the *record* that replays it (bet, options or starting state, variant,
actions, draws): to continue an open round the server replays its record, which also proves
the stored round is intact, then applies the next action with a live random source.
"""

from __future__ import annotations

import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from babel.numbers import get_currency_name

from reelsmith.engine.events import minor_key, round_events
from reelsmith.engine.ladder_state import BetState
from reelsmith.engine.model import GameModel, ModelError, load_model, model_hash
from reelsmith.engine.round import (
    COMPLETE,
    FINISHED,
    VOIDED,
    Round,
    act,
    actions,
    coins_in_units,
    finish,
    replay_from,
    round_json,
    start_round,
)
from reelsmith.help import HelpError, Terms, language_of, page_locale
from reelsmith.money import Currency
from reelsmith.rng import Draw, RandomSource
from reelsmith.rules_page import check_help, rules_document
from reelsmith.server.bet_bodies import BetBody
from reelsmith.server.markets import Market

HIDDEN_DRAWS = ("jackpot_trigger",)  # trigger points stay secret from players


class ModeError(ValueError):
    """A bet mode the title does not have (``refused`` False) or the market does not sell
    (``refused`` True); the message names the mode, and the market where it refuses it."""

    def __init__(self, message: str, refused: bool = False) -> None:
        super().__init__(message)
        self.refused = refused


@dataclass(frozen=True)
class Outcome:
    """What settling a finished round moves: wins and jackpot wins in minor units."""

    status: str  # open complete voided
    win_minor: int
    jackpot_minor: int
    refund_minor: int


@dataclass(frozen=True)
class Price:
    """What a round is paid at: the currency of the player's wallet and the minor units one
    unit of the round's bet is worth (a coin-bet title's coin, a bet-level title's stake
    unit); every amount the round settles is a count of those units times ``unit_minor``.

    A round's price is its bet as it was taken at the start (``rounds.bet_minor``, in the
    wallet's currency) over its bet in units (:meth:`Title.price`): the same figure at every
    step, whatever a market's pricing has become since ("Once a spin has been initiated, the
    bet size for that round is locked"), and whether or not the market still exists."""

    currency: Currency
    unit_minor: int

    def minor(self, units: int | Fraction) -> int:
        """``units`` of the round's bet in minor units; a fraction of a minor unit is an
        error (a market's pricing is refused at load when it could make one)."""
        minor = units * self.unit_minor
        if isinstance(minor, Fraction):
            if minor.denominator != 1:
                raise ArithmeticError(
                    f"{units} units at {self.unit_minor} minor units of {self.currency.code} is"
                    " not a whole number of minor units"
                )
            return int(minor)
        return minor


def public_draws(draws: list[list[Any]]) -> list[list[Any]]:
    """``draws`` (``[purpose, bound, value]`` lists of the caller's own, made for this view)
    with the value of each draw players must not see blanked, in place."""
    for draw in draws:
        if str(draw[0]).startswith(HIDDEN_DRAWS):
            draw[2] = None
    return draws


class Title:
    """A title as the server plays it (one instance per model). Bets, rounds and carried states
    are the mechanics' own values (``Any`` here): only the title reads them; the server stores
    what :meth:`record`, :meth:`bet_json`, :meth:`view` and :meth:`kept_state` make of them."""

    def __init__(self, model: GameModel) -> None:
        from reelsmith import mechanics

        try:
            self.composition = mechanics.composition(model)
            faces = [
                (m, m.server_face()) for m in mechanics.declared(model.raw) if m.server is not None
            ]
            self.bets = next(face(model) for m, face in faces if m.role == "bet")
            self.faces = [face(model) for m, face in faces if m.role != "bet"]
        except HelpError as exc:
            raise ModelError(str(exc)) from None
        if not model.variants:
            raise ModelError(f"{model.source or model.id}: a served title needs a variant")
        self.model = model
        self.game_id = model.id
        self._hashes: dict[str, str] = {}
        #: The web client's script for the title (see :func:`reelsmith.mechanics.client`).
        self.client = mechanics.client(model)
        #: The bet a player sends for this title (documented in the OpenAPI spec).
        self.bet_body: type[BetBody] = self.bets.body
        self.faces.sort(key=lambda f: getattr(f, "last", False))
        check_help(model)  # worked examples its rules page cannot show are refused here

    @property
    def name(self) -> str:
        return self.model.name

    def model_hash(self, variant_id: str) -> str:
        """The hash of this model and its variant ``variant_id`` as loaded
        (:func:`reelsmith.engine.model.model_hash`): what a round played on them stores.
        Computed once per variant (the model does not change while it is served)."""
        found = self._hashes.get(variant_id)
        if found is None:
            found = self._hashes[variant_id] = model_hash(self.model, variant_id)
        return found

    def version_files(self) -> dict[str, str] | None:
        """The texts of the files this model was loaded from, by their paths in its folder
        (``model.toml``, ``variants/<id>.toml``): what is kept of a version so that its rounds
        replay on it later (:func:`title_from_files`). None for a model not read from files."""
        if self.model.source is None:
            return None
        folder = self.model.source.parent
        found = {"model.toml": self.model.source.read_text(encoding="utf-8")}
        for variant in self.model.variants.values():
            if variant.source is None:
                return None
            path = variant.source.relative_to(folder).as_posix()
            found[path] = variant.source.read_text(encoding="utf-8")
        return found

    def _faces(self, hook: str) -> list[Any]:
        return [getattr(f, hook) for f in self.faces if hasattr(f, hook)]

    def game_info(self, market: Market) -> dict[str, Any]:
        """The title as ``GET /api/games`` lists it for ``market`` (``schemas.GameInfo``): its
        id, name, the variant the market plays, its client script and what that script needs
        beyond the rules page."""
        out = {
            "id": self.game_id,
            "name": self.name,
            "variant": market.game(self.game_id).variant,
            "client": self.client,
            **self.client_info(),
        }
        if "modes" in self.model.raw:
            # an ante names the reel set its base spins spin: the client's reels run through
            # that set's symbols (the rules page's ``reel_symbols``) while it is on
            out["modes"] = [
                {"name": m.name, "kind": m.kind, "price": m.price_text}
                | ({"reel_set": m.reel_set} if m.reel_set else {})
                for m in self.modes_offered(market)
            ]
        return out

    # -- bet modes -------------------------------------------------------------------
    def modes_offered(self, market: Market) -> list[Any]:
        """The title's bet modes (``[modes]``) that ``market`` may sell, in the model's order."""
        from reelsmith.mechanics.modes.rules import modes_of

        return [m for m in modes_of(self.model).modes.values() if market.offers_mode(m.kind)]

    def mode(self, market: Market, name: str) -> Any:
        """The mode ``name`` as ``market`` sells it; ModeError naming the mode (and the market
        where it refuses it)."""
        from reelsmith.mechanics.modes.rules import modes_of

        found = modes_of(self.model).modes.get(name)
        if found is None:
            known = ", ".join(modes_of(self.model).modes) or "none"
            raise ModeError(f"{self.game_id} has no mode {name!r}; its modes are: {known}")
        if not market.offers_mode(found.kind):
            raise ModeError(
                f"mode {name!r} ({'a bought feature' if found.kind == 'buy' else found.kind}) "
                f"of {self.game_id} is not offered in market {market.id}",
                refused=True,
            )
        return found

    def mode_price(self, round_: Round) -> Fraction:
        """What the round's mode multiplies its bet by (1: the base game)."""
        from reelsmith.mechanics.modes.rules import MODE, modes_of

        name = round_.part(MODE)
        if name is None:
            return Fraction(1)
        return modes_of(self.model).get(name).price

    def client_info(self) -> dict[str, Any]:
        """What the client script needs to draw the title that its rules page does not say."""
        out: dict[str, Any] = {}
        for info in self._faces("client_info"):
            out.update(info())
        return out

    def rules(
        self, market: Market, language: str = "en", resolve_after_seconds: int | None = None
    ) -> dict[str, Any]:
        """The paytable and rules page of the variant the market plays, in ``language``, for
        the market's bets, limits and features; ``resolve_after_seconds``: the server's period
        after which an incomplete round is resolved."""
        rules = market.game(self.game_id)
        lang = language_of(language)
        locale = page_locale(lang, market.locale)
        terms = Terms(
            market=market.id,
            money=lambda minor: market.currency.format(minor, locale),
            to_minor=market.currency.to_minor,
            currency=get_currency_name(market.currency.code, locale=locale),
            autoplay=market.autoplay,
            autoplay_loss_limit=market.autoplay_requires_loss_limit,
            autoplay_stop_on_jackpot=market.autoplay_requires_stop_on_jackpot,
            autoplay_stop_on_balance_change=market.autoplay_requires_stop_on_balance_change,
            turbo=market.turbo,
            slam_stop=market.slam_stop,
            gamble=market.gamble,
            max_stake_minor=market.currency.to_minor(market.max_stake),
            resolve_after_seconds=resolve_after_seconds,
            coin_sizes=rules.coin_sizes,
            bets_minor=self.rules_bets_minor(market),
            gamble_limit=rules.gamble_limit,
            credit_value=rules.credit_value,
            max_win_multiplier=market.max_win_multiplier,
            modes_offered=tuple(m.name for m in self.modes_offered(market)),
        )
        return rules_document(self.model, rules.variant, language=lang, locale=locale, terms=terms)

    def rules_bets_minor(self, market: Market) -> tuple[int, ...]:
        """The bets the rules page lists, in minor units (none for a coin-bet title, whose page
        lists the market's coin sizes)."""
        bets: tuple[int, ...] = self.bets.rules_bets_minor(market)
        return bets

    # -- bets ------------------------------------------------------------------------
    def parse_bet(self, market: Market, raw: dict[str, Any]) -> Any:
        """The bet ``raw`` (request JSON) asks for, checked against the title and the market;
        BetError naming what is wrong."""
        return self.bets.parse_bet(market, raw)

    def bet_minor(self, market: Market, bet: Any) -> int:
        minor: int = self.bets.bet_minor(market, bet)
        return minor

    def bet_json(self, bet: Any) -> dict[str, Any]:
        out: dict[str, Any] = self.bets.bet_json(bet)
        return out

    def sample_bet(self, market: Market) -> Any:
        """The smallest bet the market takes for this title (for warming the engine up)."""
        return self.bets.sample_bet(market)

    def lower(self, market: Market, balance_minor: int, bet: Any) -> Any | None:
        """The bet to play when the balance may not cover ``bet`` (None: no bet fits)."""
        return self.bets.lower(market, balance_minor, bet)

    def state_key(self, bet: Any) -> str | None:
        """The key of the player's carried state for this bet (None: the title carries none)."""
        if not self._faces("kept_state"):
            return None
        key: str | None = self.bets.state_key(bet)
        return key

    def carried_view(self, market: Market, bet: Any, state: Any) -> dict[str, Any] | None:
        """What the player may see of the carried state for ``bet`` (None: the title carries
        no state); ``state`` None is the state of a bet never played."""
        views = self._faces("carried_view")
        if not views:
            return None
        bet_minor = self.bet_minor(market, bet)
        out: dict[str, Any] = {"bet": self.bet_json(bet)}
        for view in views:
            shown = view(bet_minor, state)
            out.update(shown)
            if "pots_minor" in shown:
                out["pots"] = [market.money(p) for p in shown["pots_minor"]]
        ordered = ("bet", "pots_minor", "pots", "caps_minor", "meter", "spots")
        return {key: out[key] for key in ordered if key in out} | out

    # -- rounds ----------------------------------------------------------------------
    def start(
        self,
        market: Market,
        bet: Any,
        state: Any,
        rng: RandomSource,
        gamble: bool = True,
        mode: str | None = None,
    ) -> Round:
        """A new round. ``gamble`` False: the player declines the gamble for this round, and a
        win is collected at once (titles without a gamble ignore it). ``mode``: the bet mode
        it is sold in (None: the base game), checked by :meth:`mode` before."""
        from reelsmith.mechanics.modes.rules import MODE
        from reelsmith.mechanics.pots.live import CARRIED_BEFORE

        engine_bet, stake = self.bets.engine_bet(bet)
        parts: dict[str, Any] = self.bets.start_parts(market, gamble)
        if mode is not None:
            parts[MODE] = mode
        if self.state_key(bet) is not None:
            parts[CARRIED_BEFORE] = state
        variant = market.game(self.game_id).variant
        return start_round(self.composition, engine_bet, stake, rng, variant=variant, parts=parts)

    def act(self, round_: Round, action: str, rng: RandomSource) -> Round:
        return act(self.composition, round_, action, rng)

    def finish(self, round_: Round, rng: RandomSource) -> Round:
        return finish(self.composition, round_, rng)

    def record(self, round_: Round) -> dict[str, Any]:
        """The round's record (the bet mechanic's), with the mode it was sold in where it was."""
        from reelsmith.mechanics.modes.rules import MODE

        out: dict[str, Any] = self.bets.record(round_)
        if round_.part(MODE) is not None:
            out["mode"] = round_.part(MODE)
        return out

    def restore(self, record: dict[str, Any]) -> Round:
        from reelsmith.mechanics.modes.rules import MODE

        found = self.bets.restored(record)
        parts = dict(found["parts"])
        if record.get("mode") is not None:
            parts[MODE] = record["mode"]
        return replay_from(
            self.composition,
            found["bet"],
            found["stake"],
            record["variant"],
            record["actions"],
            [Draw.from_json(d) for d in record["draws"]],
            parts=parts,
            rules_version=found.get("rules_version", 1),
        )

    def bet_units(self, round_: Round) -> int:
        """The round's bet in the units it is priced in (see :class:`Price`)."""
        units: int = self.bets.units(round_)
        return units

    def price(self, currency: Currency, bet_minor: int, round_: Round) -> Price:
        """The price of a round whose bet was ``bet_minor`` minor units of ``currency`` when it
        started: ValueError when that bet is not a whole, positive number of minor units per
        unit (a stored round whose bet and record disagree)."""
        units = self.bet_units(round_)
        times = self.mode_price(round_)
        if times != 1:  # a round sold in a mode took its bet times the mode's price
            exact = Fraction(bet_minor) / (units * times) if units > 0 else Fraction(0)
            unit_minor, rest = exact.numerator, exact.denominator - 1
        else:
            unit_minor, rest = divmod(bet_minor, units) if units > 0 else (0, 1)
        if rest or unit_minor <= 0:
            raise ValueError(
                f"a bet of {bet_minor} minor units is not a whole, positive number of minor"
                f" units per unit of a bet of {units} units"
            )
        return Price(currency, unit_minor)

    def market_price(self, market: Market, round_: Round) -> Price:
        """The price ``market`` puts on the round's bet now: what a spin in that market starts
        such a round at (a round already started keeps its own, :meth:`price`)."""
        minor = self.bets.market_bet_minor(market, round_) * self.mode_price(round_)
        return self.price(market.currency, int(minor), round_)

    def outcome(self, price: Price, round_: Round) -> Outcome:
        """What the round settles, at its price: its win (its pots apart) and refund."""
        units = self.bet_units(round_)
        if round_.phase not in FINISHED:
            return Outcome("open", 0, 0, 0)
        if round_.phase == VOIDED:
            refund = price.minor(
                coins_in_units(round_, round_.refund_coins, units) * self.mode_price(round_)
            )
            return Outcome(VOIDED, 0, 0, refund)
        fixed = sum(s.fixed_coins for s in round_.spins)
        won = price.minor(coins_in_units(round_, round_.paid_coins - fixed, units))
        return Outcome(COMPLETE, won, price.minor(coins_in_units(round_, fixed, units)), 0)

    def view(self, price: Price, round_: Round) -> dict[str, Any]:
        """The round as the client renders it: the engine's round (every screen with its wins
        and features) in minor units beside coins, the trigger draws public, and what the
        player may do next."""
        data = round_json(self.composition, round_)
        data["draws"] = public_draws(data["draws"])  # type: ignore[arg-type]
        self.bets.view(price, round_, data)
        times = self.mode_price(round_)
        staked = data.get("bet_minor")
        if times != 1 and isinstance(staked, int):  # a round sold in a mode cost its price
            data["bet_minor"] = int(staked * times)
        for view in self._faces("view"):
            view(price, round_, data)
        data["actions_allowed"] = self.actions(round_)
        return data

    def actions(self, round_: Round) -> list[str]:
        return actions(self.composition, round_)

    def events(self, price: Price, round_: Round) -> list[dict[str, Any]]:
        """The round as the events a client plays (:mod:`reelsmith.engine.events`): each
        amount in coins (``coins``, ``win_coins``, ...) beside it in the currency's minor units
        at the round's price (``minor``, ``win_minor``, ...)."""
        units = self.bet_units(round_)
        found = round_events(self.composition, round_)
        times = self.mode_price(round_)
        for event in found:
            for key in [k for k in event if k.endswith("coins")]:
                event[minor_key(key)] = price.minor(coins_in_units(round_, event[key], units))
            if event["type"] == "round_started" and times != 1:
                # a round sold in a mode cost its bet times the mode's price (a whole number
                # of minor units: a spin whose price is not is refused)
                staked = price.minor(coins_in_units(round_, event["total_coins"], units))
                event["total_minor"] = int(staked * times)
        return found

    def feature_triggered(self, round_: Round) -> bool:
        return any(triggered(round_) for triggered in self._faces("feature_triggered"))

    def kept_state(self, round_: Round) -> tuple[str, dict[str, Any]] | None:
        kept = self._faces("kept_state")
        if not kept:
            return None
        state = kept[0](round_)
        if state is None:
            return None
        key = self.bets.state_key(round_.bet)
        return key, state.to_json()

    def load_state(self, data: dict[str, Any] | None) -> Any:
        if data is None or not self._faces("kept_state"):
            return None
        return BetState.from_json(data)


def title_from_files(files: Mapping[str, str]) -> Title:
    """The title a kept version's files (:meth:`Title.version_files`) load to, read from a
    folder of its own that is removed afterwards; :class:`ModelError` when they do not load."""
    with tempfile.TemporaryDirectory(prefix="reelsmith-version-") as folder:
        root = Path(folder)
        for name, text in files.items():
            path = (root / name).resolve()
            if root.resolve() not in path.parents:
                raise ModelError(f"a kept version names a file outside its folder: {name!r}")
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        return Title(load_model(root))
