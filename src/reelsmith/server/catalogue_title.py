"""Any catalogue title, served from its model alone.

:class:`CatalogueTitle` drives :mod:`reelsmith.engine.catalogue_round` for a model with
``mechanics = "catalogue"``: the bets are the model's bet options priced by the market (its coin
sizes, its maximum stake), the gamble is offered where the model has one and the market allows
it (the market's gamble limit in place of the model's), and a round is stored as the record
that replays it: bet, options, variant, actions and draws.

The model's optional ``[view]`` table renames (or, with ``false``, leaves out) keys of the
round's view for the title's client: ``spin`` for each screen's keys, ``round`` for the round's
(e.g. ``spin = { scatters = "eggs", ... }`` for a title whose scatters are eggs). It changes
names only, never what a round is, so rounds stored under those names read and replay as
before.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reelsmith.engine import catalogue_round as live
from reelsmith.engine.bets import CoinBet, CoinBetOptions
from reelsmith.engine.catalogue import mechanics
from reelsmith.engine.catalogue_help import examples_of
from reelsmith.engine.model import GameModel, ModelError
from reelsmith.help import HelpError
from reelsmith.rng import Draw, RandomSource
from reelsmith.server.markets import Market
from reelsmith.server.titles import CoinBetTitle, Outcome, Price, PricedCoinBet, public_draws

_STATUS = {live.Phase.COMPLETE: "complete", live.Phase.VOIDED: "voided"}

#: The keys ``[view]`` may rename, per part: a screen's and the round's own.
SPIN_KEYS = frozenset(
    {"scatters", "scatter_positions", "triggers", "reveals", "spins_added", "free_spins_remaining"}
)
ROUND_KEYS = frozenset({"free_spins_multiplier", "gamble_choices", "gamble_limit_minor"})

#: A view's renames: key -> new name, or None to leave the key out.
Names = dict[str, str | None]


def view_names(model: GameModel) -> tuple[Names, Names]:
    """The model's ``[view]`` table, checked: (a screen's renames, the round's renames)."""
    where = f"{model.source or model.id}: view"
    raw = model.raw.get("view", {})
    if not isinstance(raw, Mapping) or set(raw) - {"spin", "round"}:
        raise ModelError(f"{where} must be a table of spin = {{...}} and round = {{...}}")
    parts: list[Names] = []
    for part, known in (("spin", SPIN_KEYS), ("round", ROUND_KEYS)):
        table = raw.get(part, {})
        if not isinstance(table, Mapping):
            raise ModelError(f"{where}.{part} must be a table of key = new name (or false)")
        names: Names = {}
        for key, name in table.items():
            if key not in known:
                raise ModelError(
                    f"{where}.{part}.{key}: not a key the view renames; "
                    f"those are {', '.join(sorted(known))}"
                )
            if name is False:
                names[key] = None
            elif isinstance(name, str) and name.isidentifier():
                names[key] = name
            else:
                raise ModelError(f"{where}.{part}.{key} must be a name or false, got {name!r}")
        parts.append(names)
    return parts[0], parts[1]


def renamed(data: dict[str, Any], names: Names) -> dict[str, Any]:
    """``data``, a dict of its caller's own, with its keys renamed by ``names`` in place (a
    key named None is left out; a renamed key moves to the end)."""
    for key, name in names.items():
        if key in data:
            value = data.pop(key)
            if name is not None:
                data[name] = value
    return data


class CatalogueTitle(CoinBetTitle):
    """A catalogue model as a served title (one instance per model)."""

    client = "catalogue"

    def __init__(self, model: GameModel) -> None:
        rules = mechanics(model)  # a model the catalogue cannot play is refused here
        try:
            examples_of(model)  # and so are worked examples its rules page cannot show
        except HelpError as exc:
            raise ModelError(str(exc)) from None
        super().__init__(model)
        if not model.variants:
            raise ModelError(f"{model.source or model.id}: a served title needs a variant")
        self.game_id = model.id
        self.mechanics = rules
        self._bets = live.bet_options(model)
        self.spin_names, self.round_names = view_names(model)

    @property
    def bet_options(self) -> CoinBetOptions:
        return self._bets

    # -- rounds ----------------------------------------------------------------------
    def _options(self, market: Market, gamble: bool) -> live.RoundOptions:
        rules = market.game(self.game_id)
        limit = rules.gamble_limit  # in the market's money; the engine's limit is in credits
        return live.RoundOptions(
            gamble_allowed=market.gamble and gamble and self.mechanics.gamble is not None,
            gamble_limit_credits=None if limit is None else limit / rules.credit_value,
        )

    def start(
        self, market: Market, bet: PricedCoinBet, state: Any, rng: RandomSource, gamble: bool = True
    ) -> live.CatalogueRound:
        variant = market.game(self.game_id).variant
        return live.start_round(
            self.model, bet.coins, rng, variant=variant, options=self._options(market, gamble)
        )

    def act(
        self, round_: live.CatalogueRound, action: str, rng: RandomSource
    ) -> live.CatalogueRound:
        return live.apply_action(self.model, round_, action, rng)

    def finish(self, round_: live.CatalogueRound, rng: RandomSource) -> live.CatalogueRound:
        return live.finish(self.model, round_, rng)

    def record(self, round_: live.CatalogueRound) -> dict[str, Any]:
        return {
            "bet": {  # the engine's bet: its coin size in credits
                "lines": round_.bet.lines,
                "coins_per_line": round_.bet.coins_per_line,
                "coin_size": str(round_.bet.coin_size),
            },
            "options": round_.options.to_json(),
            "variant": round_.variant,
            "actions": list(round_.actions),
            "draws": [[d.purpose, d.bound, d.value] for d in round_.draws],  # Draw.to_json
        }

    def restore(self, record: dict[str, Any]) -> live.CatalogueRound:
        return live.replay_from(
            self.model,
            CoinBet.from_json(record["bet"]),
            live.RoundOptions.from_json(record["options"]),
            record["variant"],
            record["actions"],
            [Draw.from_json(d) for d in record["draws"]],
        )

    def bet_units(self, round_: live.CatalogueRound) -> int:
        """A coin bet is priced by its coin: its units are its coins."""
        return round_.bet.total_coins

    def market_price(self, market: Market, round_: live.CatalogueRound) -> Price:
        credit = market.game(self.game_id).credit_value
        return Price(market.currency, market.currency.to_minor(round_.bet.coin_size * credit))

    def outcome(self, price: Price, round_: live.CatalogueRound) -> Outcome:
        status = _STATUS.get(round_.phase, "open")
        return Outcome(status, price.minor(round_.paid_coins), 0, price.minor(round_.refund_coins))

    def actions(self, round_: live.CatalogueRound) -> list[str]:
        if round_.phase is live.Phase.FREE_SPINS:
            return ["free_spin"]
        if round_.phase is live.Phase.GAMBLE:
            choices = live.gamble_choices(self.model, round_)
            return [*(f"gamble {c}" for c in choices), "collect"]
        return []

    def feature_triggered(self, round_: live.CatalogueRound) -> bool:
        return round_.free_spins_awarded > 0

    def view(self, price: Price, round_: live.CatalogueRound) -> dict[str, Any]:
        """The round as the client renders it: the engine's round (every screen with its line
        and scatter wins and trigger symbols, free spins, gambles) in minor units beside coins,
        the trigger draws public, and what the player may do next."""
        size = price.unit_minor
        free = self.mechanics.free_spins
        data = round_.to_json()
        data["draws"] = public_draws(data["draws"])  # type: ignore[arg-type]
        shown = price.currency.to_decimal(size)  # the coin in the wallet's money: "10" yen
        data["bet"] = {**data["bet"], "coin_size": str(shown)}  # type: ignore[dict-item]
        data["bet_minor"] = round_.bet.total_coins * size
        data["win_minor"] = round_.win_coins * size
        data["coin_size_minor"] = size
        data["free_spins_multiplier"] = free.multiplier if free is not None else 1
        data["gamble_choices"] = (
            list(live.gamble_choices(self.model, round_))
            if round_.phase is live.Phase.GAMBLE
            else []
        )
        data["gamble_limit_minor"] = round_.gamble_limit_coins * size
        data["actions_allowed"] = self.actions(round_)
        if self.spin_names:
            data["spins"] = [renamed(spin, self.spin_names) for spin in data["spins"]]  # type: ignore[attr-defined]
        return renamed(data, self.round_names)
