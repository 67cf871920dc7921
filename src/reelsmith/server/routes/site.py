"""The site's routes: the web client (its page and its files), health and metrics."""

from __future__ import annotations

from fastapi import Depends, FastAPI, Request
from fastapi.responses import RedirectResponse, Response

from reelsmith.server.auth import metrics_access
from reelsmith.server.metrics import Metrics
from reelsmith.server.static import ClientDelivery, ClientFiles


def add(app: FastAPI, client: ClientDelivery | None, metrics: Metrics) -> None:
    """The client's page at ``/`` (the API's documentation without a client) and its files
    under ``/web``; ``/healthz``; ``/metrics`` for the operator or a scraper."""

    @app.get("/", include_in_schema=False)
    def index(request: Request) -> Response:
        if client is None:
            return RedirectResponse("/docs")
        return client.page().response(request.headers)

    if client is not None:
        app.mount("/web", ClientFiles(client), name="web")

    @app.get("/healthz", tags=["service"])
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @app.get(
        "/metrics",
        tags=["service"],
        response_class=Response,
        dependencies=[Depends(metrics_access)],
    )
    def prometheus() -> Response:
        return Response(metrics.render(), media_type="text/plain; version=0.0.4")
