"""The round steps: ``POST /api/games/{game}/spin`` and
``POST /api/games/{game}/rounds/{round_id}/{free-spin|gamble|collect}``, and their own
router.

These are the requests a player sends most. They read their headers and JSON body
themselves, where FastAPI's dependency and body resolution would cost a tenth of the
request's CPU: same checks, same errors, same OpenAPI description."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from fastapi import APIRouter, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from pydantic import BaseModel, ValidationError
from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Receive, Scope, Send

from reelsmith.server import inputs, tokens
from reelsmith.server.auth import player_claims
from reelsmith.server.errors import DomainError
from reelsmith.server.responses import JsonBodyRoute, fingerprint, reply
from reelsmith.server.schemas import ActionRequest, GambleRequest, SpinRequest, documented
from reelsmith.server.service import GameService
from reelsmith.store.db import CommitGroup

ModelT = TypeVar("ModelT", bound=BaseModel)
STEP_SUFFIXES = ("/spin", "/free-spin", "/gamble", "/collect")


async def step_request(
    request: Request, model: type[ModelT]
) -> tuple[tokens.Claims, ModelT, str | None]:
    """A round step's player (from its token), body and Idempotency-Key. An empty body is the
    empty object: a step with nothing to say (a collect, a free spin) needs none, and one that
    needs a field is refused naming it."""
    claims = await player_claims(request, request.headers.get("authorization"))
    raw = await request.body()
    inputs.check_media_type(request.headers.get("content-type"), raw)
    try:
        body = model.model_validate(inputs.read_json(raw) if raw.strip() else {})
    except ValidationError as exc:
        raise RequestValidationError(exc.errors()) from None
    return claims, body, request.headers.get("idempotency-key")


def router(service: GameService, group: CommitGroup, bet_doc: dict[str, Any]) -> APIRouter:
    """The round steps, run on the event loop in commit groups (see `CommitGroup`)."""
    routes = APIRouter(route_class=JsonBodyRoute, tags=["player"])
    rounds = service.rounds

    @routes.post("/api/games/{game}/spin", openapi_extra=documented(SpinRequest, bet_doc))
    async def spin(game: str, request: Request) -> Response:
        claims, body, key = await step_request(request, SpinRequest)
        if service.seamless_spins is not None:
            # its writes in commit groups, its call to the operator's wallet on a thread
            return reply(
                await service.seamless_spins.spin(
                    group,
                    claims.player_id,
                    claims.session_id,
                    game,
                    body.model_dump(),
                    key,
                    fingerprint(request, body),
                )
            )
        return reply(
            await group.run(
                rounds.spin,
                claims.player_id,
                claims.session_id,
                game,
                body.model_dump(),
                key,
                fingerprint(request, body),
                writes=True,
                ahead=rounds.spin_ahead(claims.player_id, claims.session_id, game, key),
            )
        )

    async def act(
        request: Request,
        game: str,
        round_id: str,
        model: type[ActionRequest] | type[GambleRequest],
        action: Callable[[Any], str],
    ) -> Response:
        """A step of an open round: ``action`` names it from the request's body."""
        claims, body, key = await step_request(request, model)
        answer = await group.run(
            rounds.act,
            claims.player_id,
            claims.session_id,
            game,
            round_id,
            action(body),
            body.model_dump(),
            key,
            fingerprint(request, body),
            writes=True,
            ahead=rounds.act_ahead(claims.player_id, claims.session_id, round_id, key),
        )
        wallet = service.context.seamless
        if wallet is not None:
            # the step's win (if it paid or ended the round) is committed: sent off this path
            wallet.send_wins(claims.player_id, round_id)
        return reply(answer)

    @routes.post(
        "/api/games/{game}/rounds/{round_id}/free-spin", openapi_extra=documented(ActionRequest)
    )
    async def free_spin(game: str, round_id: str, request: Request) -> Response:
        return await act(request, game, round_id, ActionRequest, lambda _body: "free_spin")

    @routes.post(
        "/api/games/{game}/rounds/{round_id}/gamble", openapi_extra=documented(GambleRequest)
    )
    async def gamble(game: str, round_id: str, request: Request) -> Response:
        return await act(
            request, game, round_id, GambleRequest, lambda body: f"gamble {body.choice}"
        )

    @routes.post(
        "/api/games/{game}/rounds/{round_id}/collect", openapi_extra=documented(ActionRequest)
    )
    async def collect(game: str, round_id: str, request: Request) -> Response:
        return await act(request, game, round_id, ActionRequest, lambda _body: "collect")

    return routes


class StepRouter:
    """The round steps' own router: their paths go straight to their endpoints, the rest to
    the application.

    Their endpoints need nothing of FastAPI's per-request machinery (they read their token,
    key and body themselves): routing through every route's pattern, the request-response
    wrappers and the dependency solver cost more CPU than the HTTP server itself. The
    endpoints are the ones registered with FastAPI (and described in the OpenAPI document),
    called with the same ``Request``; their refusals go to the application's own exception
    handlers, anything else up to its error middleware."""

    def __init__(self, app: ASGIApp, routes: dict[str, Any], handlers: dict[Any, Any]) -> None:
        self.app = app
        self.routes = routes  # path template -> APIRoute
        self.handlers = handlers

    def _match(self, path: str) -> tuple[Any, dict[str, str]] | None:
        parts = path.split("/")
        if len(parts) < 5 or parts[1] != "api" or parts[2] != "games" or not parts[3]:
            return None
        if len(parts) == 5 and parts[4] == "spin":
            return self.routes["/api/games/{game}/spin"], {"game": parts[3]}
        if len(parts) == 7 and parts[4] == "rounds" and parts[5]:
            route = self.routes.get(f"/api/games/{{game}}/rounds/{{round_id}}/{parts[6]}")
            if route is not None:
                return route, {"game": parts[3], "round_id": parts[5]}
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = (
            self._match(scope["path"])
            if scope["type"] == "http" and scope["method"] == "POST"
            else None
        )
        if found is None:
            await self.app(scope, receive, send)
            return
        route, params = found
        scope["route"] = route  # as the router sets it: the request log names the route
        scope["path_params"] = params
        request = Request(scope, receive)
        try:
            response = await route.endpoint(request=request, **params)
        except DomainError as exc:
            response = await self.handlers[DomainError](request, exc)
        except RequestValidationError as exc:
            response = await self.handlers[RequestValidationError](request, exc)
        except ClientDisconnect:  # the client left (or was timed out) before its body came
            return
        await response(scope, receive, send)


def step_routes(app_routes: list[Any]) -> dict[str, Any]:
    """The round steps' routes of an application, by path template, for `StepRouter`."""
    return {
        path: route
        for route in app_routes
        if (path := getattr(route, "path", "")).startswith("/api/games/{game}/")
        and path.endswith(STEP_SUFFIXES)
    }
