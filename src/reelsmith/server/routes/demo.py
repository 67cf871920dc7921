"""The demo's route: a shared session of the demo player (``--demo``)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from reelsmith.server.errors import NotFoundError
from reelsmith.server.guard import Bucket, too_many
from reelsmith.server.responses import JsonBodyRoute
from reelsmith.server.service import GameService


def router(service: GameService, demo_player: str | None, requests: Bucket) -> APIRouter:
    routes = APIRouter(route_class=JsonBodyRoute, tags=["demo"])

    @routes.post("/demo/session")
    def demo_session(request: Request) -> Response:
        """A session of the demo player (``--demo``), shared: the live one is handed out
        again while more than half its life is left. Throttled per client address."""
        if demo_player is None:
            raise NotFoundError("not_found", "demo sessions are off on this server")
        address = request.client.host if request.client else "unknown"
        if not requests.take(address):
            raise too_many(
                "rate_limited",
                "too many demo sessions asked from this address; wait",
                requests.wait_ms(address),
            )
        return JSONResponse(service.demo.session(demo_player), status_code=201)

    return routes
