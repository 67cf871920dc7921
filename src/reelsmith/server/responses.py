"""How routes read bodies and write answers: JSON read strictly, written once, and a
state-changing request's fingerprint for its idempotency key."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import Header, Request
from fastapi.responses import Response
from fastapi.routing import APIRoute
from pydantic import BaseModel

from reelsmith.server import inputs
from reelsmith.server.jsontext import Rendered, json_bytes
from reelsmith.server.services.idempotency import request_hash

IdempotencyKey = Annotated[str | None, Header(alias="idempotency-key")]


class FastJSONResponse(Response):
    """JSON rendered by orjson: the same compact text as ``json.dumps`` for the game's data
    (strings, integers, lists, objects) at a fraction of the cost."""

    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        return json_bytes(content, sort_keys=False)


class JsonBodyRoute(APIRoute):
    """FastAPI's route, its JSON body (if it takes one) read by `inputs.read_json` instead of
    the standard parser, and refused with 415 unless declared JSON: the same checks as the
    round steps' bodies."""

    def get_route_handler(self) -> Callable[[Request], Any]:
        handler = super().get_route_handler()
        if self.body_field is None:
            return handler

        async def read_strictly(request: Request) -> Response:
            raw = await request.body()
            inputs.check_media_type(request.headers.get("content-type"), raw)
            if raw:
                request._json = inputs.read_json(raw)  # what FastAPI's request.json() returns
            return await handler(request)

        return read_strictly


def reply(result: tuple[int, dict[str, Any]]) -> Response:
    """A service's (status, body) as the response; a `Rendered` body's text is sent as is."""
    status, body = result
    if isinstance(body, Rendered):  # its JSON is written already
        return Response(body.body, status, media_type="application/json")
    return FastJSONResponse(body, status_code=status)


def fingerprint(request: Request, body: BaseModel | None) -> str:
    """What an idempotency key is bound to: the method, the path and the body."""
    return request_hash(
        request.method, url_path(request), None if body is None else body.model_dump()
    )


def url_path(request: Request) -> str:
    """``request.url.path`` without building the whole URL (host, port, query) for it: the
    scope's path, escaped as the URL escapes it, less the tabs and line breaks that
    ``urllib.parse.urlsplit`` drops."""
    path: str = request.scope["path"]
    path = path.replace("?", "%3F").replace("#", "%23").replace("\\", "%5C")
    if "\t" in path or "\r" in path or "\n" in path:
        path = path.translate(_URL_DROPS)
    return path


_URL_DROPS = {ord("\t"): None, ord("\r"): None, ord("\n"): None}
