"""Rounds: a spin starts one (the bet taken, the engine round started, settled at once), a
step plays it on (free spin, gamble, collect), and the game's state shows what is open."""

from __future__ import annotations

import json
import logging
import os
import uuid
from typing import Any

from sqlalchemy import Connection

from reelsmith.engine.bets import BetError
from reelsmith.engine.errors import RuleError
from reelsmith.money import MoneyError
from reelsmith.rng import RandomSource, ReplayError
from reelsmith.server.errors import (
    ConflictError,
    InsufficientBalanceError,
    InvalidInputError,
    NotAllowedError,
    RetryLaterError,
    not_found,
)
from reelsmith.server.http_errors import status_of
from reelsmith.server.jsontext import dumps
from reelsmith.server.markets import Market, MarketError
from reelsmith.server.services.autoplay import Autoplays, autoplay_json
from reelsmith.server.services.context import Context
from reelsmith.server.services.idempotency import Idempotency
from reelsmith.server.services.player import Player, read_player
from reelsmith.server.services.settlement import Settlement
from reelsmith.server.services.stored import broken_start, load_state, restore, stored_price
from reelsmith.server.titles import ModeError
from reelsmith.store import rounds
from reelsmith.store.db import ReadAhead
from reelsmith.wallet import ledger

log = logging.getLogger("reelsmith.server")


def _spin_reads(player_id: str, game: str) -> list[tuple[str, dict[str, Any]]]:
    """What a spin reads after the player, its session and key: the game's open round."""
    return [(rounds.OPEN_ROUND_QUERY, rounds.open_round_params(player_id, game))]


def _act_reads(round_id: str) -> list[tuple[str, dict[str, Any]]]:
    """What a round's step reads after the player, its session and key: the round."""
    return [(rounds.ROUND_QUERY, {"id": round_id})]


def time_ordered_id(now_ms: int) -> str:
    """A UUID of version 7 (RFC 9562): the time in milliseconds, then 74 random bits.

    Rounds get these ids: they sort by creation time, so a new round's entry in every index
    keyed by round (the rounds' key, the steps', the ledger's) lands at the index's end, on a
    page the last rounds already brought into memory, where a random id lands on any page of
    an index that grows with every round (one more page read and written per index)."""
    value = (now_ms & (2**48 - 1)) << 80 | int.from_bytes(os.urandom(10), "big")
    value = value & ~(0xF << 76) | 0x7 << 76  # version 7
    value = value & ~(0x3 << 62) | 0x2 << 62  # the RFC's variant
    return str(uuid.UUID(int=value))


def closed(market: Market) -> NotAllowedError:
    return NotAllowedError(
        "market_closed",
        f"market {market.id} is no longer served: no new round starts (an open round can be"
        " finished)",
    )


def min_round_wait(min_round_ms: int, last_round_ms: int | None, now_ms: int) -> int:
    """How long (ms) a round must wait for the market's minimum time between rounds: 0 when
    it may start. Never longer than the rule itself, whatever the clocks did: a last round
    stamped ahead of ``now_ms`` by less than the rule (the clocks' jitter) counts as just
    started, and one stamped further ahead, which only a clock that disagreed can have
    written, holds nothing up (the rule cannot be measured against it), so a skewed clock
    never holds a player up for the clocks' difference."""
    if not min_round_ms or last_round_ms is None:
        return 0
    elapsed = now_ms - last_round_ms
    if elapsed < -min_round_ms or elapsed >= min_round_ms:
        return 0
    return min(min_round_ms, min_round_ms - elapsed)


class PrefixedSource:
    """Forced draws first (dev mode QA), then the live source."""

    def __init__(self, values: list[int], then: RandomSource) -> None:
        self.values = list(values)
        self.then = then

    def randbelow(self, bound: int, purpose: str) -> int:
        if self.values:
            value = self.values.pop(0)
            if not 0 <= value < bound:
                raise ReplayError(f"forced draw {value} does not fit {purpose} below {bound}")
            return value
        return self.then.randbelow(bound, purpose)


class Rounds:
    def __init__(
        self,
        context: Context,
        idempotency: Idempotency,
        settlement: Settlement,
        autoplays: Autoplays,
    ) -> None:
        self.context = context
        self.idempotency = idempotency
        self.settlement = settlement
        self.autoplays = autoplays

    def _source(self, forced: list[int] | None) -> RandomSource:
        if forced is None:
            return self.context.rng
        if not self.context.settings.dev_mode:
            raise NotAllowedError("dev_mode_only", "forced draws are only accepted in dev mode")
        if not isinstance(forced, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in forced
        ):
            raise InvalidInputError(
                "invalid_forced_draw", "forced_draws must be a list of integers"
            )
        return PrefixedSource(forced, self.context.rng)

    def spin(
        self,
        player_id: str,
        session_id: str | None,
        game: str,
        body: dict[str, Any],
        key: str | None,
        fingerprint: str,
    ) -> tuple[int, dict[str, Any]]:
        context = self.context
        title = context.title(game)
        source = self._source(body.get("forced_draws"))
        bet_raw = body.get("bet")
        if not isinstance(bet_raw, dict):
            raise InvalidInputError("invalid_bet", "the request needs a bet object")
        autoplay_id = body.get("autoplay_id")
        gamble = body.get("gamble", True)
        if not isinstance(gamble, bool):
            raise InvalidInputError("invalid_request", "gamble must be true or false")
        mode = body.get("mode")
        if mode is not None and not isinstance(mode, str):
            raise InvalidInputError("invalid_mode", "mode must be the name of a bet mode")
        if mode is not None and autoplay_id is not None:
            raise InvalidInputError(
                "invalid_mode", f"mode {mode!r}: an autoplay plays the base game only"
            )

        def work(connection: Connection, locked: Player | None) -> tuple[int, dict[str, Any]]:
            assert locked is not None
            player = locked
            market = context.market_of(player.market, player.currency)
            if market.closed:
                raise closed(market)
            try:
                market.game(game)
                selected = title.parse_bet(market, bet_raw)
            except MarketError as exc:
                raise NotAllowedError("game_not_offered", str(exc)) from None
            except (BetError, MoneyError) as exc:
                raise InvalidInputError("invalid_bet", str(exc)) from None
            sold = None
            if mode is not None:
                try:
                    sold = title.mode(market, mode)
                except ModeError as exc:
                    if exc.refused:
                        raise NotAllowedError("mode_not_offered", str(exc)) from None
                    raise InvalidInputError("invalid_mode", str(exc)) from None
            open_round = rounds.open_round(connection, player.id, game)
            if open_round is not None:
                raise ConflictError(
                    "round_open",
                    "finish the open round of this game first",
                    round_id=open_round["id"],
                )
            if player.balance_minor > ledger.MAX_BALANCE_MINOR:
                raise ConflictError(
                    "balance_limit",
                    f"the balance is above the cap of "
                    f"{market.currency.to_decimal(ledger.MAX_BALANCE_MINOR)} {player.currency}"
                    "; a round starts only below it (withdraw first)",
                )
            now = context.clock.now_ms()
            wait = min_round_wait(market.min_round_ms, player.last_round_ms, now)
            if wait:
                raise RetryLaterError(
                    "min_round_duration",
                    f"a round lasts at least {market.min_round_ms} ms in this market; "
                    f"wait {wait} ms",
                    retry_after_ms=wait,
                )
            autoplay = self.autoplays.for_spin(connection, player, market, game, autoplay_id)
            if autoplay is not None and json.loads(autoplay["bet"]) != title.bet_json(selected):
                # an autoplay plays the bet it was started with (or the one lowering left it)
                raise ConflictError(
                    "autoplay_bet_mismatch",
                    f"autoplay {autoplay['id']} plays the bet {autoplay['bet']}; this spin asked"
                    f" for {dumps(title.bet_json(selected))}",
                    autoplay=autoplay_json(autoplay),
                )
            if autoplay is not None and self.autoplays.balance_changed(autoplay, player):
                # stopped for good (committed), and this spin refused: it was not played
                stopped = self.autoplays.stop_row(connection, autoplay, "balance_changed", now)
                refused = ConflictError(
                    "autoplay_finished",
                    f"autoplay {autoplay['id']} stopped: the balance changed outside it",
                    autoplay=stopped,
                )
                return status_of(refused), refused.body()
            # a round in a mode is played at the bet asked for, never lowered
            bet = (
                selected
                if sold is not None
                else title.lower(market, player.balance_minor, selected)
            )
            if bet is None:
                raise InsufficientBalanceError(
                    "insufficient_balance", "the balance does not cover the lowest bet"
                )
            lowered = (
                None
                if bet == selected
                else {"from": title.bet_json(selected), "to": title.bet_json(bet)}
            )
            bet_minor = title.bet_minor(market, bet)
            if sold is not None:
                charged = bet_minor * sold.price
                if charged.denominator != 1:
                    raise InvalidInputError(
                        "invalid_bet",
                        f"mode {sold.name!r} costs {sold.price_text} times the bet: the bet "
                        f"{market.currency.to_decimal(bet_minor)} makes that a fraction of a "
                        f"minor unit of {player.currency}",
                    )
                bet_minor = int(charged)
                if market.currency.to_decimal(bet_minor) > market.max_stake:
                    raise InvalidInputError(
                        "invalid_bet",
                        f"mode {sold.name!r} costs {market.currency.to_decimal(bet_minor)}, above "
                        f"the market's maximum stake {market.max_stake}",
                    )
            state = load_state(connection, player.id, title, bet)
            try:
                engine_round = title.start(market, bet, state, source, gamble, mode)
            except ReplayError as exc:
                raise InvalidInputError("invalid_forced_draw", str(exc)) from None
            except (RuleError, ValueError) as exc:
                # the bet and the forced draws are checked above: what is left is the state the
                # server stored for the player, or the engine itself, never the player's request
                raise broken_start(player.id, game, state, exc) from None
            round_id = time_ordered_id(now)
            game_account = context.house_account(connection, f"game:{game}", player.currency)
            new_round = {  # the columns known at the start; settle adds the id and the rest
                "player": player.id,
                "number": player.rounds_played + 1,
                "session": session_id,
                "game": game,
                "variant": market.game(game).variant,
                "currency": player.currency,
                "bet_minor": bet_minor,
                "bet": dumps(title.bet_json(bet)),
                "before": player.balance_minor,
                "autoplay": autoplay["id"] if autoplay else None,
                "mode": mode,
            }
            try:
                ledger.post(
                    connection,
                    "bet",
                    player.id,
                    [(player.account_id, -bet_minor), (game_account, bet_minor)],
                    now,
                    round_id,
                    wallets={player.account_id: player.balance_minor},
                )
            except ledger.InsufficientFundsError:
                raise InsufficientBalanceError(
                    "insufficient_balance", "the balance does not cover the bet"
                ) from None
            player.balance_minor -= bet_minor
            context.metrics.bet(game, bet_minor)
            price = title.price(market.currency, bet_minor, engine_round)
            settled = self.settlement.settle(
                connection,
                player,
                price,
                title,
                round_id,
                engine_round,
                "spin",
                now,
                started_with=bet_minor,
                new_round=new_round,
                forced=body.get("forced_draws") is not None,
            )
            extra: dict[str, Any] = {"bet_lowered": lowered}
            following = self.settlement.next_bet(title, market, bet, settled)
            if following is not None:
                extra["next_bet"] = following
            if autoplay:
                extra["autoplay"] = self.autoplays.after_step(
                    connection, autoplay, title, engine_round, settled, now, player, bet_minor
                )
                held = following["to"] if following else lowered["to"] if lowered else None
                if held is not None:
                    self.autoplays.hold(connection, autoplay, held, extra["autoplay"])
            return 200, self.settlement.response(
                connection, market, round_id, settled, session_id, extra
            )

        return self.idempotency.for_player(
            player_id, session_id, key, fingerprint, work, prefetch=_spin_reads(player_id, game)
        )

    def spin_ahead(
        self, player_id: str, session_id: str | None, game: str, key: str | None
    ) -> ReadAhead:
        """What :meth:`spin` reads first, for its commit group to read ahead."""
        return self.idempotency.ahead(player_id, session_id, key, _spin_reads(player_id, game))

    def act_ahead(
        self, player_id: str, session_id: str | None, round_id: str, key: str | None
    ) -> ReadAhead:
        """What :meth:`act` reads first, for its commit group to read ahead."""
        return self.idempotency.ahead(player_id, session_id, key, _act_reads(round_id))

    def act(
        self,
        player_id: str,
        session_id: str | None,
        game: str,
        round_id: str,
        action: str,
        body: dict[str, Any],
        key: str | None,
        fingerprint: str,
    ) -> tuple[int, dict[str, Any]]:
        context = self.context
        context.title(game)  # an unknown game is refused before any read
        source = self._source(body.get("forced_draws"))

        def work(connection: Connection, locked: Player | None) -> tuple[int, dict[str, Any]]:
            assert locked is not None
            player = locked
            market = context.market_of(player.market, player.currency)
            row = rounds.round_(connection, round_id)
            if row is None or row["player_id"] != player.id or row["game"] != game:
                raise not_found(f"round {round_id}")
            if row["status"] != "open":
                raise ConflictError(
                    "round_finished",
                    f"round {round_id} is {row['status']}; there is nothing left to play",
                )
            # the round goes on on the version of the title it was played on
            title = context.versions.of_round(connection, row)
            engine_round = self.settlement.open_rounds.get(round_id, row["record"]) or restore(
                title, row
            )
            allowed_now = title.actions(engine_round)
            if action not in allowed_now:
                allowed = ", ".join(allowed_now)
                if action.split(" ")[0] == "gamble" and not any(
                    a.startswith("gamble") for a in allowed_now
                ):
                    raise ConflictError(
                        "gamble_not_available", f"no gamble is available now; allowed: {allowed}"
                    )
                raise ConflictError(
                    "action_not_allowed", f"{action!r} is not allowed now; allowed: {allowed}"
                )
            try:
                engine_round = title.act(engine_round, action, source)
            except ReplayError as exc:
                raise InvalidInputError("invalid_forced_draw", str(exc)) from None
            except RuleError as exc:
                raise ConflictError("action_not_allowed", str(exc)) from None
            now = context.clock.now_ms()
            if context.seamless is not None:  # the operator holds the money
                player.balance_minor = context.seamless.known_balance(connection, player.id)
            price = stored_price(title, row, engine_round)
            settled = self.settlement.settle(
                connection,
                player,
                price,
                title,
                round_id,
                engine_round,
                action,
                now,
                forced=body.get("forced_draws") is not None,
            )
            extra: dict[str, Any] = {}
            following = None
            if settled["finished"]:
                try:
                    bet = title.parse_bet(market, json.loads(row["bet"]))
                except (BetError, MoneyError, MarketError):
                    pass  # a bet the market has stopped offering: the next spin chooses again
                else:
                    following = self.settlement.next_bet(title, market, bet, settled)
                    if following is not None:
                        extra["next_bet"] = following
            if row["autoplay_id"]:
                autoplay = self.autoplays.of_round(connection, row["autoplay_id"])
                if autoplay is not None:
                    extra["autoplay"] = self.autoplays.after_step(
                        connection, autoplay, title, engine_round, settled, now, player
                    )
                    if following is not None:
                        self.autoplays.hold(
                            connection, autoplay, following["to"], extra["autoplay"]
                        )
            return 200, self.settlement.response(
                connection, market, round_id, settled, session_id, extra
            )

        return self.idempotency.for_player(
            player_id, session_id, key, fingerprint, work, prefetch=_act_reads(round_id)
        )

    def game_state(
        self, player_id: str, game: str, bet_raw: dict[str, Any] | None
    ) -> dict[str, Any]:
        """The game as the player finds it: the market's variant, the balance, the open round
        (if any), the carried state at ``bet_raw`` (if given) and the active autoplay."""
        context = self.context
        title = context.title(game)
        with context.db.read() as connection:
            player = read_player(connection, player_id, context.db.is_sqlite, lock=False)
            market = context.market_of(player.market, player.currency)
            if market.closed:
                raise closed(market)
            try:
                variant = market.game(game).variant
            except MarketError as exc:
                raise NotAllowedError("game_not_offered", str(exc)) from None
            row = rounds.open_round(connection, player.id, game)
            if context.seamless is not None:  # the operator holds the money
                player.balance_minor = context.seamless.known_balance(connection, player.id)
            result: dict[str, Any] = {
                "game": game,
                "variant": variant,
                "balance": market.money(player.balance_minor),
                "market": market.to_json(),
                "open_round": None,
            }
            if row is not None:
                result["open_round"] = {"round_id": row["id"], "round": json.loads(row["view"])}
            if bet_raw is not None:
                try:
                    bet = title.parse_bet(market, bet_raw)
                except (BetError, MoneyError) as exc:
                    raise InvalidInputError("invalid_bet", str(exc)) from None
                state = load_state(connection, player.id, title, bet)
                carried = title.carried_view(market, bet, state)
                if carried is not None:
                    result["carried_state"] = carried
            result["autoplay"] = self.autoplays.active_json(connection, player.id, game)
            return result
