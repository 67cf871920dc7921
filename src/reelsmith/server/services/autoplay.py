"""Autoplay: started and stopped by the player, counted and stopped by the rounds it plays
(when it stops is `autoplay_policy`'s decision)."""

from __future__ import annotations

import json
import uuid
from typing import Any

from sqlalchemy import Connection

from reelsmith.engine.bets import BetError
from reelsmith.money import MoneyError
from reelsmith.server.errors import (
    ConflictError,
    DomainError,
    InvalidInputError,
    NotAllowedError,
    not_found,
)
from reelsmith.server.jsontext import dumps
from reelsmith.server.markets import Market, MarketError
from reelsmith.server.services import autoplay_policy as policy
from reelsmith.server.services.context import Context
from reelsmith.server.services.idempotency import Idempotency
from reelsmith.server.services.player import Player
from reelsmith.server.services.players import amount_minor
from reelsmith.server.titles import Title
from reelsmith.store import autoplays


def autoplay_json(row: Any) -> dict[str, Any]:
    return {
        "id": row["id"],
        "game": row["game"],
        "bet": json.loads(row["bet"]),
        "total": row["total"],
        "remaining": row["remaining"],
        "status": row["status"],
        "stop_reason": row["stop_reason"],
        "stop_on_feature": bool(row["stop_on_feature"]),
        "stop_on_jackpot": bool(row["stop_on_jackpot"]),
        "stop_on_balance_change": bool(row["stop_on_balance_change"]),
        "stop_on_win_above_minor": row["stop_on_win_above_minor"],
        "loss_limit_minor": row["loss_limit_minor"],
        "net_minor": row["net_minor"],
    }


def not_allowed(market: Market) -> NotAllowedError:
    return NotAllowedError("autoplay_not_allowed", f"autoplay is not allowed in market {market.id}")


class Autoplays:
    def __init__(self, context: Context, idempotency: Idempotency) -> None:
        self.context = context
        self.idempotency = idempotency

    def start(
        self,
        player_id: str,
        game: str,
        body: dict[str, Any],
        key: str | None,
        fingerprint: str,
        session_id: str | None = None,
    ) -> tuple[int, dict[str, Any]]:
        title = self.context.title(game)

        def work(connection: Connection, locked: Player | None) -> tuple[int, dict[str, Any]]:
            assert locked is not None
            player = locked
            market = self.context.market_of(player.market, player.currency)
            if not market.autoplay:
                raise not_allowed(market)
            try:
                market.game(game)
                raw_bet = body.get("bet")
                bet = title.parse_bet(market, raw_bet if isinstance(raw_bet, dict) else {})
            except MarketError as exc:
                raise NotAllowedError("game_not_offered", str(exc)) from None
            except (BetError, MoneyError) as exc:
                raise InvalidInputError("invalid_bet", str(exc)) from None
            total = body.get("rounds")
            if not isinstance(total, int) or isinstance(total, bool) or not 1 <= total <= 1000:
                raise InvalidInputError(
                    "invalid_rounds", "rounds must be a whole number from 1 to 1000"
                )
            limits: dict[str, int | None] = {}
            for name in ("stop_on_win_above", "loss_limit"):
                value = body.get(name)
                if value is None:
                    limits[name] = None
                    continue
                try:
                    limits[name] = amount_minor(market, {"amount": value})
                except DomainError as exc:
                    raise InvalidInputError(f"invalid_{name}", f"{name}: {exc.message}") from None
            if limits["loss_limit"] is None and market.autoplay_requires_loss_limit:
                raise InvalidInputError(
                    "loss_limit_required", f"market {market.id} requires a loss limit for autoplay"
                )
            stops = {}
            for name in ("stop_on_feature", "stop_on_jackpot", "stop_on_balance_change"):
                stops[name] = body.get(name, False)
                if not isinstance(stops[name], bool):
                    raise InvalidInputError(f"invalid_{name}", f"{name} must be true or false")
            # what the market requires applies whatever the player chose
            stops["stop_on_jackpot"] |= market.autoplay_requires_stop_on_jackpot
            stops["stop_on_balance_change"] |= market.autoplay_requires_stop_on_balance_change
            now = self.context.clock.now_ms()
            autoplays.stop_active(connection, player.id, game, "replaced", now)
            autoplay_id = str(uuid.uuid4())
            autoplays.insert_autoplay(
                connection,
                id=autoplay_id,
                player_id=player.id,
                game=game,
                bet=dumps(title.bet_json(bet)),
                total=total,
                remaining=total,
                **stops,
                stop_on_win_above_minor=limits["stop_on_win_above"],
                loss_limit_minor=limits["loss_limit"],
                balance_minor=player.balance_minor,
                net_minor=0,
                status="active",
                created_ms=now,
                updated_ms=now,
            )
            return 201, autoplay_json(autoplays.autoplay(connection, autoplay_id))

        return self.idempotency.for_player(player_id, session_id, key, fingerprint, work)

    def stop(
        self,
        player_id: str,
        autoplay_id: str,
        key: str | None,
        fingerprint: str,
        session_id: str | None = None,
    ) -> tuple[int, dict[str, Any]]:
        def work(connection: Connection, _player: Player | None) -> tuple[int, dict[str, Any]]:
            row = autoplays.autoplay(connection, autoplay_id)
            if row is None or row["player_id"] != player_id:
                raise not_found(f"autoplay {autoplay_id}")
            if row["status"] == "active":
                autoplays.stop(connection, autoplay_id, "player", self.context.clock.now_ms())
            return 200, autoplay_json(autoplays.autoplay(connection, autoplay_id))

        return self.idempotency.for_player(player_id, session_id, key, fingerprint, work)

    def active_json(self, connection: Connection, player_id: str, game: str) -> Any:
        active = autoplays.active(connection, player_id, game)
        return None if active is None else autoplay_json(active)

    def for_spin(
        self, connection: Connection, player: Player, market: Market, game: str, autoplay_id: Any
    ) -> Any:
        """The active autoplay a spin names (None if it names none)."""
        if autoplay_id is None:
            return None
        if not market.autoplay:
            raise not_allowed(market)
        row = autoplays.autoplay(connection, str(autoplay_id))
        if row is None or row["player_id"] != player.id or row["game"] != game:
            raise not_found(f"autoplay {autoplay_id}")
        if row["status"] != "active" or row["remaining"] <= 0:
            raise ConflictError(
                "autoplay_finished",
                f"autoplay {autoplay_id} is {row['status']}",
                autoplay=autoplay_json(row),
            )
        return row

    def of_round(self, connection: Connection, autoplay_id: str) -> Any:
        return autoplays.autoplay_fast(connection, autoplay_id)

    @staticmethod
    def balance_changed(autoplay: Any, player: Player) -> bool:
        left = autoplay["balance_minor"]
        return policy.balance_changed(
            bool(autoplay["stop_on_balance_change"]),
            None if left is None else int(left),
            player.balance_minor,
        )

    def stop_row(
        self, connection: Connection, autoplay: Any, reason: str, now: int
    ) -> dict[str, Any]:
        autoplays.stop(connection, autoplay["id"], reason, now)
        row = dict(autoplay)
        row.update(status="stopped", stop_reason=reason)
        return autoplay_json(row)

    @staticmethod
    def hold(
        connection: Connection, autoplay: Any, bet: dict[str, Any], shown: dict[str, Any]
    ) -> None:
        """An autoplay goes on at a lowered bet: it holds that bet from now on."""
        autoplays.hold_bet(connection, autoplay["id"], dumps(bet))
        shown["bet"] = bet

    def after_step(
        self,
        connection: Connection,
        autoplay: Any,
        title: Title,
        engine_round: Any,
        settled: dict[str, Any],
        now: int,
        player: Player,
        bet_minor: int | None = None,
    ) -> dict[str, Any]:
        """Count an autoplay round and apply its stop conditions (`autoplay_policy`). Every
        step records the balance it leaves, which the next autoplay spin compares with
        (stop_on_balance_change)."""
        outcome = settled["outcome"]
        step = policy.Step(
            bet_minor=bet_minor,
            finished=bool(settled["finished"]),
            feature_triggered=bet_minor is not None and title.feature_triggered(engine_round),
            win_minor=outcome.win_minor,
            jackpot_minor=outcome.jackpot_minor,
            refund_minor=outcome.refund_minor,
        )
        after = policy.count(
            policy.Counters(int(autoplay["remaining"]), int(autoplay["net_minor"])), step
        )
        status, reason = str(autoplay["status"]), autoplay["stop_reason"]
        if status == "active":
            limits = policy.Limits(
                stop_on_feature=bool(autoplay["stop_on_feature"]),
                stop_on_jackpot=bool(autoplay["stop_on_jackpot"]),
                stop_on_win_above_minor=_optional_int(autoplay["stop_on_win_above_minor"]),
                loss_limit_minor=_optional_int(autoplay["loss_limit_minor"]),
            )
            verdict = policy.stop_reason(limits, after, step)
            if verdict is not None:
                status, reason = policy.status_after(verdict), verdict
        autoplays.after_step(
            connection,
            autoplay["id"],
            after.remaining,
            after.net_minor,
            status,
            reason,
            player.balance_minor,
            now,
        )
        row = dict(autoplay)
        row.update(
            remaining=after.remaining,
            net_minor=after.net_minor,
            status=status,
            stop_reason=reason,
            balance_minor=player.balance_minor,
        )
        return autoplay_json(row)


def _optional_int(value: Any) -> int | None:
    return None if value is None else int(value)
