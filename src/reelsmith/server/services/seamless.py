"""A spin with the seamless wallet: the operator holds the money, so the bet is taken by a call
to it, and the round is played only once the bet is acknowledged.

Three steps, never a network call inside a database transaction:

1. the bet's intent is written (pending, under the spin's idempotency key) with the checks a
   spin makes before it takes money: the session, the key, the market, the bet, no round of
   the game open and no bet of it in flight;
2. the bet is sent (`SeamlessWallet.place_bet`, on the wallet's threads): refused, the spin is
   refused as the operator said; unanswered, it is rolled back (the rollback's intent written
   with the bet marked unanswered) and the spin is answered 503;
3. the round is played, in one transaction with the bet marked acknowledged, the ledger's
   postings (against the house account ``operator``), the round, the audit entry, the win's
   intent and the answer stored under the key. A refusal there leaves the bet to be rolled
   back.

Steps 1 and 3 are write calls of the server's commit groups (`CommitGroup`), committed with
the other requests' writes of the same pass of the event loop; each answers only once its
group committed, so the bet is sent only after its intent is durable, and the spin answers
only after its round is. The round's wins are then handed to the win sender
(`SeamlessWallet.send_wins`) and the spin answers without waiting for the operator: the
balance it shows is the operator's after the bet plus the round's wins, which the operator
books moments later (and the outbox, if the win sender cannot). A retry with the same key
gets the stored answer, or, while its bet is in flight or after it failed, the same refusal.
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection

from reelsmith.engine.bets import BetError
from reelsmith.engine.errors import RuleError
from reelsmith.money import MoneyError
from reelsmith.rng import ReplayError
from reelsmith.server import sessions
from reelsmith.server.errors import (
    ConflictError,
    DomainError,
    InsufficientBalanceError,
    InvalidInputError,
    NotAllowedError,
    RetryLaterError,
    UnauthenticatedError,
    WalletUnavailableError,
)
from reelsmith.server.jsontext import Rendered, dumps
from reelsmith.server.markets import MarketError
from reelsmith.server.services.idempotency import check_key
from reelsmith.server.services.player import Player, read_player
from reelsmith.server.services.rounds import Rounds, closed, min_round_wait, time_ordered_id
from reelsmith.server.services.stored import broken_start, load_state
from reelsmith.store import idempotency, players, rounds
from reelsmith.store.db import CommitGroup
from reelsmith.wallet import ledger
from reelsmith.wallet.seamless import ACCOUNT, SeamlessWallet

log = logging.getLogger("reelsmith.server")


def refusal_of(state: str, status: str | None) -> DomainError:
    """The refusal a spin whose bet ended in ``state`` (refused or unanswered) answers with."""
    if state == "unanswered":
        return WalletUnavailableError(
            "wallet_unavailable",
            "the operator's wallet did not answer the bet; it is being rolled back and nothing"
            " was played: spin again with a new Idempotency-Key",
            retry_after_ms=1000,
        )
    if status == "RS_ERROR_NOT_ENOUGH_MONEY":
        return InsufficientBalanceError(
            "insufficient_balance", "the operator's balance does not cover the bet"
        )
    if status in ("RS_ERROR_INVALID_TOKEN", "RS_ERROR_TOKEN_EXPIRED"):
        return UnauthenticatedError(
            "operator_token_refused",
            f"the operator refused this session's token ({status}); start a new session",
        )
    return NotAllowedError("wallet_refused", f"the operator refused the bet ({status})")


@dataclass(frozen=True)
class Intent:
    """A spin whose bet's intent is written (step 1): what its call and its round need."""

    player_id: str
    session_id: str | None
    game: str
    key: str
    fingerprint: str
    bet_id: str
    token: str
    round_id: str
    selected: Any  # the bet, as the title parsed it
    bet_minor: int
    source: Any  # the round's draws: fresh, or forced (QA)
    gamble: bool
    forced: Any


class SeamlessSpins:
    """Spins against the operator's wallet (see the module's docstring)."""

    def __init__(self, rounds_service: Rounds, wallet: SeamlessWallet) -> None:
        self.rounds = rounds_service
        self.wallet = wallet

    async def spin(
        self,
        group: CommitGroup,
        player_id: str,
        session_id: str | None,
        game: str,
        body: dict[str, Any],
        key: str | None,
        fingerprint: str,
    ) -> tuple[int, dict[str, Any]]:
        """A spin: the answer as `Rounds.spin` gives it (status, JSON body). Its two writes
        (the bet's intent, the round) run in ``group``'s commit groups on the event loop,
        committed with the other requests' writes; the bet's call runs on the wallet's
        threads between them."""
        loop = asyncio.get_running_loop()
        ahead = self.rounds.idempotency.ahead(player_id, session_id, key)
        intent: Intent | tuple[int, dict[str, Any]] = await group.run(
            self.intend,
            player_id,
            session_id,
            game,
            body,
            key,
            fingerprint,
            writes=True,
            ahead=ahead,
        )
        if not isinstance(intent, Intent):
            return intent  # the answer stored under the key
        wallet = self.wallet
        placed = await loop.run_in_executor(
            wallet.threads, wallet.place_bet, intent.bet_id, intent.token
        )
        if placed.outcome != "acknowledged":
            raise refusal_of(placed.outcome, placed.status)
        assert placed.balance_minor is not None
        try:
            status, response = await group.run(
                self.play,
                intent,
                placed.balance_minor,
                writes=True,
                ahead=self.rounds.idempotency.ahead(player_id, session_id, key),
            )
        except BaseException:
            # not played (the group's transaction is undone): the bet is rolled back; if it
            # was played after all (this request was cancelled while its group committed),
            # it is no longer pending and nothing is rolled back
            await loop.run_in_executor(
                wallet.threads, wallet.abandon_bet, intent.bet_id, "the round could not be played"
            )
            raise
        if status != 200:
            await loop.run_in_executor(
                wallet.threads,
                wallet.abandon_bet,
                intent.bet_id,
                "the round was refused after the bet",
            )
            return status, response
        # the wins are committed with the round: sent off this request's path (the outbox
        # sends what the win sender does not get acknowledged)
        wallet.send_wins(player_id, intent.round_id)
        return status, response

    def intend(
        self,
        player_id: str,
        session_id: str | None,
        game: str,
        body: dict[str, Any],
        key: str | None,
        fingerprint: str,
    ) -> Intent | tuple[int, dict[str, Any]]:
        """Step 1: the checks and the bet's intent (pending), in one write transaction; or
        the answer already stored under the key."""
        context = self.rounds.context
        wallet = self.wallet
        title = context.title(game)
        checked = check_key(key)
        bet_raw = body.get("bet")
        if not isinstance(bet_raw, dict):
            raise InvalidInputError("invalid_bet", "the request needs a bet object")
        if body.get("autoplay_id") is not None:
            raise NotAllowedError(
                "autoplay_not_offered", "autoplay is not offered with the seamless wallet yet"
            )
        if body.get("mode") is not None:
            raise NotAllowedError(
                "mode_not_offered",
                f"mode {body['mode']!r}: bet modes are not offered with the seamless wallet yet",
            )
        gamble = body.get("gamble", True)
        if not isinstance(gamble, bool):
            raise InvalidInputError("invalid_request", "gamble must be true or false")
        forced = body.get("forced_draws")
        source = self.rounds._source(forced)
        scope = f"player:{player_id}"
        db = context.db
        # 1. the bet's intent
        with db.write() as connection:
            player = read_player(connection, player_id, db.is_sqlite, lock=True)
            now = context.clock.now_ms()
            if session_id is not None:
                ended = sessions.refusal(players.session(connection, session_id), player_id, now)
                if ended is not None:
                    raise ended
            found = idempotency.find(connection, scope, checked)
            if found is not None:
                if found["request_hash"] != fingerprint:
                    raise ConflictError(
                        "idempotency_key_reused",
                        "this Idempotency-Key was used with a different request",
                    )
                text = str(found["response"])
                return int(found["status_code"]), Rendered(json.loads(text), text)
            earlier = wallet.earlier_bet(connection, player.id, game, checked)
            if earlier is not None and earlier["idempotency_key"] == checked:
                if earlier["state"] == "pending":
                    raise RetryLaterError(
                        "wallet_bet_in_flight",
                        "this spin's bet is still with the operator; retry shortly",
                        retry_after_ms=1000,
                    )
                raise refusal_of(str(earlier["state"]), earlier["status"])
            if earlier is not None:
                raise RetryLaterError(
                    "wallet_bet_in_flight",
                    "another spin of this game is waiting for the operator's answer",
                    retry_after_ms=1000,
                )
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
            open_round = rounds.open_round(connection, player.id, game)
            if open_round is not None:
                raise ConflictError(
                    "round_open",
                    "finish the open round of this game first",
                    round_id=open_round["id"],
                )
            wait = min_round_wait(market.min_round_ms, player.last_round_ms, now)
            if wait:
                raise RetryLaterError(
                    "min_round_duration",
                    f"a round lasts at least {market.min_round_ms} ms in this market; "
                    f"wait {wait} ms",
                    retry_after_ms=wait,
                )
            token = wallet.operator_token(connection, session_id)
            if token is None:
                raise NotAllowedError(
                    "no_operator_token",
                    "this session has no operator token: the operator gives one when it starts"
                    " the session (docs/operator-integration.md)",
                )
            bet_minor = title.bet_minor(market, selected)
            round_id = time_ordered_id(now)
            bet_id = wallet.insert_call(
                connection,
                "bet",
                player.id,
                player.external_ref,
                game,
                round_id,
                player.currency,
                bet_minor,
                now,
                idempotency_key=checked,
            )
        return Intent(
            player_id=player.id,
            session_id=session_id,
            game=game,
            key=checked,
            fingerprint=fingerprint,
            bet_id=bet_id,
            token=token,
            round_id=round_id,
            selected=selected,
            bet_minor=bet_minor,
            source=source,
            gamble=gamble,
            forced=forced,
        )

    def play(self, intent: Intent, after_bet: int) -> tuple[int, dict[str, Any]]:
        """Step 3: the round, played in one write transaction with its bet marked
        acknowledged (``after_bet``: the operator's balance after it, minor units)."""
        context = self.rounds.context
        wallet = self.wallet
        player_id, session_id, game = intent.player_id, intent.session_id, intent.game
        title = context.title(game)
        bet_id, round_id, selected = intent.bet_id, intent.round_id, intent.selected
        bet_minor, source, gamble, forced = (
            intent.bet_minor,
            intent.source,
            intent.gamble,
            intent.forced,
        )

        def work(connection: Connection, locked: Player | None) -> tuple[int, dict[str, Any]]:
            assert locked is not None
            player = locked
            now = context.clock.now_ms()
            if not wallet.acknowledge_bet(connection, bet_id, after_bet, now, round_id):
                raise refusal_of("unanswered", None)
            market = context.market_of(player.market, player.currency)
            if rounds.open_round(connection, player.id, game) is not None:
                raise ConflictError("round_open", "finish the open round of this game first")
            state = load_state(connection, player.id, title, selected)
            try:
                engine_round = title.start(market, selected, state, source, gamble)
            except ReplayError as exc:
                raise InvalidInputError("invalid_forced_draw", str(exc)) from None
            except (RuleError, ValueError) as exc:
                raise broken_start(player.id, game, state, exc) from None
            game_account = context.house_account(connection, f"game:{game}", player.currency)
            operator_account = context.house_account(connection, ACCOUNT, player.currency)
            ledger.post(
                connection,
                "bet",
                player.id,
                [(operator_account, -bet_minor), (game_account, bet_minor)],
                now,
                round_id,
                wallets=(),
            )
            player.balance_minor = after_bet
            context.metrics.bet(game, bet_minor)
            new_round = {
                "player": player.id,
                "number": player.rounds_played + 1,
                "session": session_id,
                "game": game,
                "variant": market.game(game).variant,
                "currency": player.currency,
                "bet_minor": bet_minor,
                "bet": dumps(title.bet_json(selected)),
                "before": after_bet + bet_minor,
                "autoplay": None,
            }
            settlement = self.rounds.settlement
            settled = settlement.settle(
                connection,
                player,
                title.price(market.currency, bet_minor, engine_round),
                title,
                round_id,
                engine_round,
                "spin",
                now,
                started_with=bet_minor,
                new_round=new_round,
                forced=forced is not None,
            )
            return 200, settlement.response(
                connection, market, round_id, settled, session_id, {"bet_lowered": None}
            )

        return self.rounds.idempotency.for_player(
            player_id, session_id, intent.key, intent.fingerprint, work
        )
