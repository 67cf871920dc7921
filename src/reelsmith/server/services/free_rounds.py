"""Free-round campaigns: rounds an operator gives a player at a fixed bet of a title, played
without the bet being charged; their wins are paid like any round's.

- **Created** by the operator for one player (`FreeRounds.create`): the title, a bet the
  title and the player's market allow (the same bet object a spin sends), the number of
  rounds and the expiry. The campaign id is the operator's (``campaign_id``), or made from
  the request's Idempotency-Key: the same id with the same request answers the campaign as
  it is now (nothing new is written); the same id with another request is refused
  (``campaign_id_reused``).
- **Played** by the player (`FreeRounds.play`), one round a request, each under its own
  Idempotency-Key in the player's key scope like a spin (a retry gets the first answer and
  plays nothing twice). The round is written with the campaign's bet as its stake, but no
  bet is posted to the ledger; its wins, jackpot wins and refunds are settled as any round's
  (`Settlement.settle`). The campaign's count moves in the round's own transaction, under
  the player's lock, by a conditional update, and the round is linked to the campaign by
  its number in it (unique): a campaign never gives more rounds than it holds.
- **Cancelled** by the operator (`FreeRounds.cancel`): its unplayed rounds lapse; a round
  already started finishes as usual. **Expired** at ``expires_ms``: no round starts after
  it, and the campaign is answered as ``expired``.

With the seamless wallet a free round sends no bet to the operator's wallet; its win goes
with ``is_free: true`` (see `reelsmith.wallet.seamless`).
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import uuid
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection

from reelsmith.engine.bets import BetError
from reelsmith.engine.errors import RuleError
from reelsmith.money import MoneyError
from reelsmith.rng import ReplayError
from reelsmith.server import sessions
from reelsmith.server.auth import acting_operator
from reelsmith.server.errors import (
    ConflictError,
    InvalidInputError,
    NotAllowedError,
    RetryLaterError,
    not_found,
)
from reelsmith.server.jsontext import Rendered, dumps
from reelsmith.server.markets import Market, MarketError
from reelsmith.server.services.context import Context
from reelsmith.server.services.idempotency import Idempotency, check_key
from reelsmith.server.services.player import Player, read_player
from reelsmith.server.services.rounds import Rounds, closed, min_round_wait, time_ordered_id
from reelsmith.server.services.seamless import refusal_of
from reelsmith.server.services.stored import broken_start, load_state
from reelsmith.server.titles import Title
from reelsmith.store import audit, free_rounds, idempotency, players, rounds
from reelsmith.wallet import ledger
from reelsmith.wallet.seamless import SeamlessWallet

log = logging.getLogger("reelsmith.server")

#: The most rounds one campaign gives.
MAX_ROUNDS = 10_000
#: The latest expiry a campaign may have, from its creation (a year).
MAX_LIFETIME_MS = 366 * 86_400_000
_CAMPAIGN_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,63}")
_FIELDS = {"campaign_id", "game", "bet", "rounds", "expires_at"}


def iso_ms(moment_ms: int) -> str:
    """A time in milliseconds as ISO 8601 in UTC (``2026-12-31T23:59:59.000Z``)."""
    moment = datetime.fromtimestamp(moment_ms / 1000, tz=UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment_ms % 1000:03d}Z"


def parse_expiry(raw: object) -> int:
    """``expires_at`` (ISO 8601 with a time zone) in milliseconds since the epoch."""
    if not isinstance(raw, str):
        raise InvalidInputError(
            "invalid_expiry",
            "expires_at is a time in ISO 8601 with a zone, e.g. 2026-12-31T23:59:59Z",
        )
    try:
        moment = datetime.fromisoformat(raw.strip().replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        raise InvalidInputError(
            "invalid_expiry", f"expires_at {raw!r} is not a time in ISO 8601"
        ) from None
    if moment.tzinfo is None:
        raise InvalidInputError(
            "invalid_expiry", f"expires_at {raw!r} has no time zone (add Z for UTC)"
        )
    return int(moment.timestamp() * 1000)


def campaign_json(market: Market, row: Any, now_ms: int, wins_minor: int = 0) -> dict[str, Any]:
    """A campaign as the operator and the player see it now: its state (an active campaign
    past its expiry is ``expired``), the rounds left to play and those that lapsed."""
    status = str(row["status"])
    total, played = int(row["rounds"]), int(row["played"])
    if status == "active" and now_ms >= int(row["expires_ms"]):
        status = "expired"
    left = total - played
    return {
        "campaign_id": row["id"],
        "player_id": row["player_id"],
        "game": row["game"],
        "bet": json.loads(row["bet"]),
        "bet_total": market.money(int(row["bet_minor"])),
        "rounds": total,
        "played": played,
        "remaining": left if status == "active" else 0,
        "lapsed": left if status in ("cancelled", "expired") else 0,
        "status": status,
        "expires_at": iso_ms(int(row["expires_ms"])),
        "expires_ms": int(row["expires_ms"]),
        "created_ms": int(row["created_ms"]),
        "wins": market.money(wins_minor),
    }


class FreeRounds:
    def __init__(self, context: Context, idempotency: Idempotency, rounds_service: Rounds) -> None:
        self.context = context
        self.idempotency = idempotency
        self.rounds = rounds_service

    def _json(self, connection: Connection, row: Any) -> dict[str, Any]:
        market = self.context.market_of(*free_rounds.player_market(connection, row["player_id"]))
        wins = free_rounds.wins_minor(connection, str(row["id"]))
        return campaign_json(market, row, self.context.clock.now_ms(), wins)

    # -- the operator ----------------------------------------------------------------------

    def create(self, player_id: str, body: object, key: str | None) -> tuple[int, dict[str, Any]]:
        """Create a campaign for the player (201), or answer the one created by the same
        request before (200); see the module's docstring. Every field is checked before
        anything is written."""
        context = self.context
        if not isinstance(body, dict):
            raise InvalidInputError("invalid_request", "the body is a JSON object")
        unknown = sorted(set(body) - _FIELDS)
        if unknown:
            raise InvalidInputError(
                "invalid_request",
                f"unknown field(s) {', '.join(unknown)}; a campaign has "
                + ", ".join(sorted(_FIELDS)),
            )
        campaign_id = body.get("campaign_id")
        if campaign_id is None:
            if not key:
                raise InvalidInputError(
                    "campaign_id_required",
                    "give a campaign_id, or an Idempotency-Key to make one from",
                )
            campaign_id = str(uuid.uuid5(uuid.NAMESPACE_URL, f"reelsmith:{player_id}:{key}"))
        elif not isinstance(campaign_id, str) or not _CAMPAIGN_ID.fullmatch(campaign_id):
            raise InvalidInputError(
                "invalid_campaign_id",
                "campaign_id is 1 to 64 letters, digits and . _ : - (starting with a letter"
                " or digit)",
            )
        game = body.get("game")
        if not isinstance(game, str):
            raise InvalidInputError("invalid_game", "game is the title's id, e.g. days-of-the-tsar")
        title = context.title(game)
        count = body.get("rounds")
        if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= MAX_ROUNDS:
            raise InvalidInputError(
                "invalid_rounds",
                f"rounds is a whole number from 1 to {MAX_ROUNDS}, not {count!r}",
            )
        if "expires_at" not in body:
            raise InvalidInputError("invalid_expiry", "the campaign needs expires_at")
        expires_ms = parse_expiry(body["expires_at"])
        now = context.clock.now_ms()
        if expires_ms <= now:
            raise InvalidInputError(
                "invalid_expiry",
                f"expires_at {body['expires_at']} is not in the future (now {iso_ms(now)})",
            )
        if expires_ms > now + MAX_LIFETIME_MS:
            raise InvalidInputError(
                "invalid_expiry", f"expires_at {body['expires_at']} is more than a year ahead"
            )
        bet_raw = body.get("bet")
        if not isinstance(bet_raw, dict):
            raise InvalidInputError(
                "invalid_bet", "bet is the title's bet object, as a spin sends it"
            )

        def work(connection: Connection, locked: Player | None) -> tuple[int, dict[str, Any]]:
            assert locked is not None
            player = locked
            market = context.market_of(player.market, player.currency)
            if market.closed:
                raise closed(market)
            try:
                market.game(game)
                bet = title.parse_bet(market, bet_raw)
            except MarketError as exc:
                raise NotAllowedError("game_not_offered", str(exc)) from None
            except (BetError, MoneyError) as exc:
                raise InvalidInputError(
                    "invalid_bet", f"the bet is not one {game} takes in market {market.id}: {exc}"
                ) from None
            bet_json = title.bet_json(bet)
            digest = hashlib.sha256(
                dumps(
                    {
                        "player": player.id,
                        "game": game,
                        "bet": bet_json,
                        "rounds": count,
                        "expires_ms": expires_ms,
                    }
                ).encode()
            ).hexdigest()
            found = free_rounds.campaign(connection, campaign_id)
            if found is not None:
                if found["request_hash"] != digest:
                    raise ConflictError(
                        "campaign_id_reused",
                        f"campaign {campaign_id} exists with another player, title, bet,"
                        " rounds or expiry; a campaign is never changed (cancel it and create"
                        " another)",
                    )
                return 200, self._json(connection, found)
            bet_minor = title.bet_minor(market, bet)
            free_rounds.insert(
                connection,
                {
                    "id": campaign_id,
                    "player": player.id,
                    "game": game,
                    "bet": dumps(bet_json),
                    "bet_minor": bet_minor,
                    "currency": player.currency,
                    "rounds": count,
                    "expires": expires_ms,
                    "hash": digest,
                    "now": now,
                },
            )
            audit.append(
                connection,
                player.id,
                "free_rounds_created",
                {
                    "campaign_id": campaign_id,
                    "game": game,
                    "bet": bet_json,
                    "bet_minor": bet_minor,
                    "rounds": count,
                    "expires_ms": expires_ms,
                    **acting_operator(),
                },
                now,
            )
            row = free_rounds.campaign(connection, campaign_id)
            return 201, campaign_json(market, row, now)

        return self._locked(player_id, work)

    def _locked(self, player_id: str, work: Any) -> tuple[int, dict[str, Any]]:
        """``work`` in one write transaction with the player locked (its refusals raised,
        nothing of it written)."""
        db = self.context.db
        with db.write() as connection:
            player = read_player(connection, player_id, db.is_sqlite, lock=True)
            result: tuple[int, dict[str, Any]] = work(connection, player)
            return result

    def campaign(self, campaign_id: str) -> dict[str, Any]:
        with self.context.db.read() as connection:
            row = free_rounds.campaign(connection, campaign_id)
            if row is None:
                raise not_found(f"free-round campaign {campaign_id}")
            return self._json(connection, row)

    def of_player(self, player_id: str, every: bool = True) -> dict[str, Any]:
        """The player's campaigns, newest first; ``every`` False: only those that can be
        played now (active, not expired)."""
        context = self.context
        with context.db.read() as connection:
            player = read_player(connection, player_id, context.db.is_sqlite, lock=False)
            market = context.market_of(player.market, player.currency)
            now = context.clock.now_ms()
            found = []
            for row in free_rounds.of_player(connection, player_id):
                shown = campaign_json(
                    market, row, now, free_rounds.wins_minor(connection, str(row["id"]))
                )
                if every or shown["status"] == "active":
                    found.append(shown)
            return {"campaigns": found}

    def cancel(self, campaign_id: str) -> dict[str, Any]:
        """Cancel a campaign: its unplayed rounds lapse (a round already started finishes).
        A cancelled campaign is answered as it is; a finished one is refused."""
        context = self.context
        with context.db.read() as connection:
            row = free_rounds.campaign(connection, campaign_id)
        if row is None:
            raise not_found(f"free-round campaign {campaign_id}")

        def work(connection: Connection, player: Player | None) -> tuple[int, dict[str, Any]]:
            assert player is not None
            now = context.clock.now_ms()
            found = free_rounds.campaign(connection, campaign_id)
            if found["status"] == "finished":
                raise ConflictError(
                    "campaign_finished",
                    f"campaign {campaign_id} has played all its {found['rounds']} rounds;"
                    " there is nothing to cancel",
                )
            if found["status"] == "active":
                free_rounds.cancel(connection, campaign_id, now)
                audit.append(
                    connection,
                    player.id,
                    "free_rounds_cancelled",
                    {
                        "campaign_id": campaign_id,
                        "lapsed": int(found["rounds"]) - int(found["played"]),
                        **acting_operator(),
                    },
                    now,
                )
            return 200, self._json(connection, free_rounds.campaign(connection, campaign_id))

        return self._locked(str(row["player_id"]), work)[1]

    # -- the player ------------------------------------------------------------------------

    def _ready(
        self, connection: Connection, player: Player, campaign_id: str, now: int
    ) -> tuple[Any, Market, Title, Any]:
        """The checks before a campaign's round starts, under the player's lock: the campaign
        is the player's and active, its title and bet still offered in the player's market,
        no round of the title open and the market's time between rounds kept. The campaign's
        row, the market, the title and the bet."""
        context = self.context
        row = free_rounds.campaign(connection, campaign_id)
        if row is None or row["player_id"] != player.id:
            raise not_found(f"free-round campaign {campaign_id}")
        market = context.market_of(player.market, player.currency)
        shown = campaign_json(market, row, now)
        if shown["status"] != "active":
            shown = campaign_json(market, row, now, free_rounds.wins_minor(connection, row["id"]))
            raise ConflictError(
                f"campaign_{shown['status']}",
                {
                    "cancelled": f"campaign {campaign_id} was cancelled",
                    "finished": f"campaign {campaign_id} has played all its"
                    f" {shown['rounds']} rounds",
                    "expired": f"campaign {campaign_id} expired at {shown['expires_at']}",
                }[shown["status"]],
                free_round=shown,
            )
        if market.closed:
            raise closed(market)
        game = str(row["game"])
        title = context.title(game)
        try:
            market.game(game)
            bet = title.parse_bet(market, json.loads(row["bet"]))
        except MarketError as exc:
            raise NotAllowedError("game_not_offered", str(exc)) from None
        except (BetError, MoneyError) as exc:
            raise NotAllowedError(
                "bet_not_offered", f"the campaign's bet is no longer offered: {exc}"
            ) from None
        open_round = rounds.open_round(connection, player.id, game)
        if open_round is not None:
            raise ConflictError(
                "round_open", "finish the open round of this game first", round_id=open_round["id"]
            )
        if context.seamless is None and player.balance_minor > ledger.MAX_BALANCE_MINOR:
            # as for a spin: the wallet's cap leaves room for one round's win, no more
            raise ConflictError(
                "balance_limit",
                f"the balance is above the cap of "
                f"{market.currency.to_decimal(ledger.MAX_BALANCE_MINOR)} {player.currency}"
                "; a round starts only below it (withdraw first)",
            )
        wait = min_round_wait(market.min_round_ms, player.last_round_ms, now)
        if wait:
            raise RetryLaterError(
                "min_round_duration",
                f"a round lasts at least {market.min_round_ms} ms in this market; wait {wait} ms",
                retry_after_ms=wait,
            )
        return row, market, title, bet

    def _start(
        self,
        connection: Connection,
        player: Player,
        session_id: str | None,
        campaign_id: str,
        source: Any,
        gamble: bool,
        forced: bool,
        now: int,
        round_id: str | None = None,
    ) -> tuple[int, dict[str, Any]]:
        """Start and settle the campaign's next round (the checks of :meth:`_ready` made
        again here, in the round's own transaction): the campaign counted, the round linked
        to it, written with the campaign's stake and no bet posted. ``round_id``: the id
        its bet at the operator was sent with (seamless), else a new one."""
        settlement = self.rounds.settlement
        row, market, title, bet = self._ready(connection, player, campaign_id, now)
        game = str(row["game"])
        number = int(row["played"]) + 1
        if not free_rounds.count_play(connection, campaign_id, number, now):
            raise ConflictError(
                "campaign_changed", f"campaign {campaign_id} changed meanwhile; try again"
            )
        bet_minor = int(row["bet_minor"])
        state = load_state(connection, player.id, title, bet)
        try:
            engine_round = title.start(market, bet, state, source, gamble)
        except ReplayError as exc:
            raise InvalidInputError("invalid_forced_draw", str(exc)) from None
        except (RuleError, ValueError) as exc:
            raise broken_start(player.id, game, state, exc) from None
        round_id = round_id or time_ordered_id(now)
        new_round = {
            "player": player.id,
            "number": player.rounds_played + 1,
            "session": session_id,
            "game": game,
            "variant": market.game(game).variant,
            "currency": player.currency,
            "bet_minor": bet_minor,
            "bet": row["bet"],
            "before": player.balance_minor,
            "autoplay": None,
        }
        # linked before it settles: a void of it (a fault) sees a free round
        free_rounds.link(connection, round_id, campaign_id, number)
        settled = settlement.settle(
            connection,
            player,
            title.price(market.currency, bet_minor, engine_round),
            title,
            round_id,
            engine_round,
            "spin",
            now,
            started_with=0,  # the bet is not charged: the session's bets do not move
            new_round=new_round,
            forced=forced,
        )
        after = free_rounds.campaign(connection, campaign_id)
        wins = free_rounds.wins_minor(connection, campaign_id)
        shown_after = {**campaign_json(market, after, now, wins), "number": number}
        extra = {"bet_lowered": None, "free_round": shown_after}
        return 200, settlement.response(connection, market, round_id, settled, session_id, extra)

    def play(
        self,
        player_id: str,
        session_id: str | None,
        campaign_id: str,
        body: dict[str, Any],
        key: str | None,
        fingerprint: str,
    ) -> tuple[int, dict[str, Any]]:
        """Play the campaign's next round: the answer a spin gives, with ``free_round`` (the
        campaign after it). Idempotent under ``key`` like a spin. With the seamless wallet,
        see :meth:`_play_seamless`."""
        context = self.context
        gamble = body.get("gamble", True)
        if not isinstance(gamble, bool):
            raise InvalidInputError("invalid_request", "gamble must be true or false")
        forced = body.get("forced_draws")
        source = self.rounds._source(forced)
        if context.seamless is not None:
            return self._play_seamless(
                context.seamless,
                player_id,
                session_id,
                campaign_id,
                source,
                gamble,
                forced is not None,
                key,
                fingerprint,
            )

        def work(connection: Connection, locked: Player | None) -> tuple[int, dict[str, Any]]:
            assert locked is not None
            now = context.clock.now_ms()
            return self._start(
                connection, locked, session_id, campaign_id, source, gamble, forced is not None, now
            )

        return self.idempotency.for_player(player_id, session_id, key, fingerprint, work)

    def _play_seamless(
        self,
        wallet: SeamlessWallet,
        player_id: str,
        session_id: str | None,
        campaign_id: str,
        source: Any,
        gamble: bool,
        forced: bool,
        key: str | None,
        fingerprint: str,
    ) -> tuple[int, dict[str, Any]]:
        """A free round with the seamless wallet, in the three steps of a seamless spin
        (`reelsmith.server.services.seamless`): a bet of 0 with ``is_free: true`` is written
        and sent (it opens the round at the operator and moves nothing; its wins reference
        it, and go with ``is_free: true`` too), and the round is played once the operator
        acknowledged it. A bet with no usable answer is rolled back and nothing is played."""
        context = self.context
        db = context.db
        checked = check_key(key)
        scope = f"player:{player_id}"
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
                stored = str(found["response"])
                return int(found["status_code"]), Rendered(json.loads(stored), stored)
            row, _market, _title, _bet = self._ready(connection, player, campaign_id, now)
            game = str(row["game"])
            earlier = wallet.earlier_bet(connection, player.id, game, checked)
            if earlier is not None and earlier["idempotency_key"] == checked:
                if earlier["state"] == "pending":
                    raise RetryLaterError(
                        "wallet_bet_in_flight",
                        "this round's bet is still with the operator; retry shortly",
                        retry_after_ms=1000,
                    )
                raise refusal_of(str(earlier["state"]), earlier["status"])
            if earlier is not None:
                raise RetryLaterError(
                    "wallet_bet_in_flight",
                    "another round of this game is waiting for the operator's answer",
                    retry_after_ms=1000,
                )
            token = wallet.operator_token(connection, session_id)
            if token is None:
                raise NotAllowedError(
                    "no_operator_token",
                    "this session has no operator token: the operator gives one when it starts"
                    " the session (docs/operator-integration.md)",
                )
            round_id = time_ordered_id(now)
            bet_id = wallet.insert_call(
                connection,
                "bet",
                player.id,
                player.external_ref,
                game,
                round_id,
                player.currency,
                0,
                now,
                idempotency_key=checked,
                is_free=True,
            )
        placed = wallet.place_bet(bet_id, token)
        if placed.outcome != "acknowledged":
            raise refusal_of(placed.outcome, placed.status)
        assert placed.balance_minor is not None
        balance = placed.balance_minor

        def work(connection: Connection, locked: Player | None) -> tuple[int, dict[str, Any]]:
            assert locked is not None
            now = context.clock.now_ms()
            if not wallet.acknowledge_bet(connection, bet_id, balance, now, round_id, True):
                raise refusal_of("unanswered", None)
            locked.balance_minor = balance
            return self._start(
                connection, locked, session_id, campaign_id, source, gamble, forced, now, round_id
            )

        try:
            status, response = self.idempotency.for_player(
                player_id, session_id, key, fingerprint, work
            )
        except BaseException:
            wallet.abandon_bet(bet_id, "the round could not be played")
            raise
        if status != 200:
            wallet.abandon_bet(bet_id, "the round was refused after the bet")
            return status, response
        # the wins are committed with the round: sent off this request's path (the outbox
        # sends what the win sender does not get acknowledged)
        wallet.send_wins(player_id, round_id)
        return status, response
