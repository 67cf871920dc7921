"""Free-round campaigns over HTTP: the operator creates, lists, reads and cancels them (behind
the API key); the player lists theirs and plays them (behind a session token). See
`reelsmith.server.services.free_rounds` and docs/operator-integration.md."""

from __future__ import annotations

import asyncio
import functools
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response
from pydantic import Field, StrictBool, StrictInt
from starlette.concurrency import run_in_threadpool

from reelsmith.server import inputs
from reelsmith.server.auth import PlayerClaims, operator_key
from reelsmith.server.responses import IdempotencyKey, JsonBodyRoute, fingerprint, reply
from reelsmith.server.routes.steps import step_request
from reelsmith.server.schemas import Strict
from reelsmith.server.service import GameService
from reelsmith.store.db import CommitGroup, ReadAhead

_CREATE_BODY = {
    "requestBody": {
        "required": True,
        "content": {
            "application/json": {
                "schema": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["game", "bet", "rounds", "expires_at"],
                    "properties": {
                        "campaign_id": {
                            "type": "string",
                            "maxLength": 64,
                            "description": "The operator's id for the campaign: the same id"
                            " with the same body answers the same campaign; with another"
                            " body it is refused. Without it, the Idempotency-Key makes one.",
                        },
                        "game": {"type": "string", "description": "The title's id"},
                        "bet": {
                            "type": "object",
                            "description": "The bet each round is played at, as a spin sends"
                            " it; one the title and the player's market allow",
                        },
                        "rounds": {"type": "integer", "minimum": 1, "maximum": 10000},
                        "expires_at": {
                            "type": "string",
                            "format": "date-time",
                            "description": "ISO 8601 with a zone; in the future",
                        },
                    },
                }
            }
        },
    }
}


class FreeRoundPlay(Strict):
    gamble: StrictBool = Field(
        default=True,
        description="For a title with a gamble: false collects a win at once, as for a spin.",
    )
    forced_draws: list[StrictInt] | None = Field(
        default=None, max_length=200, description="Dev mode only"
    )


def operator_router(service: GameService) -> APIRouter:
    routes = APIRouter(
        route_class=JsonBodyRoute, tags=["operator"], dependencies=[Depends(operator_key)]
    )
    free_rounds = service.free_rounds

    @routes.post(
        "/operator/players/{player_id}/free-rounds",
        status_code=201,
        openapi_extra=_CREATE_BODY,
    )
    async def create_campaign(
        player_id: str, request: Request, key: IdempotencyKey = None
    ) -> Response:
        """Give the player a free-round campaign: 201 with the campaign, or 200 with the one
        the same campaign id and request created before."""
        body = inputs.read_json(await request.body())
        return reply(await run_in_threadpool(free_rounds.create, player_id, body, key))

    @routes.get("/operator/players/{player_id}/free-rounds")
    def player_campaigns(player_id: str) -> dict[str, Any]:
        """The player's campaigns, newest first, each with its state now."""
        return free_rounds.of_player(player_id)

    @routes.get("/operator/free-rounds/{campaign_id}")
    def get_campaign(campaign_id: str) -> dict[str, Any]:
        return free_rounds.campaign(campaign_id)

    @routes.post("/operator/free-rounds/{campaign_id}/cancel")
    def cancel_campaign(campaign_id: str) -> dict[str, Any]:
        """Cancel the campaign: its unplayed rounds lapse (a round started finishes)."""
        return free_rounds.cancel(campaign_id)

    return routes


def player_router(service: GameService, group: CommitGroup) -> APIRouter:
    routes = APIRouter(route_class=JsonBodyRoute, tags=["player"])
    free_rounds = service.free_rounds

    @routes.get("/api/free-rounds")
    async def my_campaigns(claims: PlayerClaims) -> dict[str, Any]:
        """The player's campaigns, newest first; ``status`` says which can be played."""
        found: dict[str, Any] = await group.run(free_rounds.of_player, claims.player_id)
        return found

    @routes.post("/api/free-rounds/{campaign_id}/play")
    async def play(campaign_id: str, request: Request) -> Response:
        """Play the campaign's next round (no bet charged): a spin's answer with
        ``free_round``, the campaign after it. Needs an Idempotency-Key."""
        claims, body, key = await step_request(request, FreeRoundPlay)
        if service.seamless_spins is not None:
            # calls to the operator's wallet: on its threads, never in a commit group
            return reply(
                await asyncio.get_running_loop().run_in_executor(
                    service.seamless_spins.wallet.threads,
                    functools.partial(
                        free_rounds.play,
                        claims.player_id,
                        claims.session_id,
                        campaign_id,
                        body.model_dump(),
                        key,
                        fingerprint(request, body),
                    ),
                )
            )
        return reply(
            await group.run(
                free_rounds.play,
                claims.player_id,
                claims.session_id,
                campaign_id,
                body.model_dump(),
                key,
                fingerprint(request, body),
                writes=True,
                ahead=ReadAhead(claims.player_id),
            )
        )

    return routes
