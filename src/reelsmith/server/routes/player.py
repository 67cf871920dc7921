"""The player's routes (behind a session token): the session, the games and their rules and
state, the round steps (see `steps`), autoplay, and the history."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from reelsmith.help import LanguageError
from reelsmith.server import inputs
from reelsmith.server.auth import PlayerClaims
from reelsmith.server.errors import DomainError, InvalidInputError, NotAllowedError
from reelsmith.server.markets import MarketError
from reelsmith.server.responses import IdempotencyKey, JsonBodyRoute, fingerprint, reply
from reelsmith.server.routes import adopt, steps
from reelsmith.server.schemas import AutoplayRequest, GameList
from reelsmith.server.service import GameService
from reelsmith.server.sessions import LiveSessions
from reelsmith.server.settings import Settings
from reelsmith.store.db import CommitGroup, ReadAhead


def router(
    service: GameService,
    settings: Settings,
    group: CommitGroup,
    readers: ThreadPoolExecutor,
    live_sessions: LiveSessions,
    demo_player: str | None,
    bet_doc: dict[str, Any],
) -> APIRouter:
    """The player's endpoints run the services on the event loop itself, their writes in
    commit groups (see `CommitGroup`), except a history page (on ``readers``' threads)."""
    routes = APIRouter(route_class=JsonBodyRoute, tags=["player"])
    context = service.context

    async def player_data(player_id: str, session_id: str | None = None) -> dict[str, Any]:
        data: dict[str, Any] = await group.run(service.players.get_player, player_id, session_id)
        return data

    @routes.post("/api/session/logout")
    async def logout(claims: PlayerClaims) -> dict[str, Any]:
        """End this session: its token is refused from now on (a shared demo session is not
        ended by one visitor: it ends at its expiry)."""
        if claims.player_id == demo_player:
            raise NotAllowedError(
                "demo_session_shared", "the demo session is shared; it ends at its expiry"
            )
        result = service.players.revoke_sessions(
            player_id=claims.player_id, session_id=claims.session_id, by="player"
        )
        live_sessions.forget(result["revoked"])
        return {"session_id": claims.session_id, "revoked": True}

    @routes.get("/api/me")
    async def me(claims: PlayerClaims) -> dict[str, Any]:
        data = await player_data(claims.player_id, claims.session_id)
        data["market"] = context.market_of(data["market"], data["currency"]).to_json()
        data["session_id"] = claims.session_id
        data["dev_mode"] = settings.dev_mode
        return data

    @routes.get("/api/games", response_model=GameList, response_model_exclude_none=True)
    async def games(claims: PlayerClaims) -> dict[str, Any]:
        """The titles the player's market offers, each with the web client's script for it."""
        data = await player_data(claims.player_id)
        market = context.market_of(data["market"], data["currency"])
        return {"games": [context.title(game).game_info(market) for game in market.games]}

    @routes.get("/api/games/{game}/rules")
    async def game_rules(
        game: str,
        claims: PlayerClaims,
        lang: Annotated[str, Query(max_length=35, description="The page's language")] = "en",
    ) -> dict[str, Any]:
        title = context.title(game)
        data = await player_data(claims.player_id)
        market = context.market_of(data["market"], data["currency"])
        try:
            return title.rules(market, lang, settings.resolve_after_seconds)
        except MarketError as exc:
            raise NotAllowedError("game_not_offered", str(exc)) from None
        except LanguageError as exc:
            raise InvalidInputError("unknown_language", str(exc)) from None

    @routes.get("/api/games/{game}/state")
    async def game_state(
        game: str,
        claims: PlayerClaims,
        bet: Annotated[
            str | None,
            Query(max_length=256, description="The bet as JSON, to see its pots and meter"),
        ] = None,
    ) -> dict[str, Any]:
        bet_raw = None
        if bet is not None:
            try:
                bet_raw = inputs.read_json(bet)
            except DomainError as exc:
                raise InvalidInputError("invalid_bet", f"bet: {exc.message}") from None
            if not isinstance(bet_raw, dict):
                raise InvalidInputError("invalid_bet", "bet must be a JSON object")
        state: dict[str, Any] = await group.run(
            service.rounds.game_state, claims.player_id, game, bet_raw
        )
        return state

    adopt(routes, steps.router(service, group, bet_doc))

    @routes.post("/api/games/{game}/autoplay", status_code=201)
    async def autoplay(
        game: str,
        body: AutoplayRequest,
        request: Request,
        claims: PlayerClaims,
        key: IdempotencyKey = None,
    ) -> Response:
        return reply(
            await group.run(
                service.autoplays.start,
                claims.player_id,
                game,
                body.model_dump(),
                key,
                fingerprint(request, body),
                claims.session_id,
                writes=True,
                ahead=ReadAhead(claims.player_id),
            )
        )

    @routes.post("/api/autoplay/{autoplay_id}/stop")
    async def stop_autoplay(
        autoplay_id: str, request: Request, claims: PlayerClaims, key: IdempotencyKey = None
    ) -> Response:
        return reply(
            await group.run(
                service.autoplays.stop,
                claims.player_id,
                autoplay_id,
                key,
                fingerprint(request, None),
                claims.session_id,
                writes=True,
                ahead=ReadAhead(claims.player_id),
            )
        )

    @routes.get("/api/history/rounds", response_class=Response)
    async def history(
        claims: PlayerClaims,
        game: Annotated[str | None, Query(max_length=32)] = None,
        limit: Annotated[int, Query()] = 10,
    ) -> Response:
        # off the event loop, on the readers' threads: a page of rounds is megabytes of
        # views, which the spins of other players must not wait behind
        loop = asyncio.get_running_loop()
        page = await loop.run_in_executor(
            readers, service.recall.history, claims.player_id, game, limit
        )
        return reply((200, page))

    @routes.get("/api/history/rounds/{round_id}")
    async def history_round(round_id: str, claims: PlayerClaims) -> dict[str, Any]:
        found: dict[str, Any] = await group.run(
            service.recall.player_round, claims.player_id, round_id
        )
        return found

    return routes
