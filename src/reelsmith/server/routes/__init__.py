"""The HTTP routes, one module per audience: the player's, the round steps (the player's
hottest requests, with their own router), the operator's, the demo's, and the site's (the
web client, health and metrics).

Each audience's module makes an `APIRouter` (its tags, its dependencies, its body reading);
`adopt` puts its routes into the application's own table."""

from __future__ import annotations

from fastapi import APIRouter


def adopt(into: APIRouter, router: APIRouter) -> None:
    """Add ``router``'s routes (complete: the router's tags and dependencies are applied as a
    route is declared) to ``into``'s own table, matched as if declared there: FastAPI's
    ``include_router`` keeps an included router as a branch expanded at request time, one
    more step on the path of every request."""
    into.routes.extend(router.routes)
