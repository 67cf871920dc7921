"""The client of a running server and the ASGI app that serves its files at ``/web``."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from fastapi.staticfiles import StaticFiles
from starlette.datastructures import Headers
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from reelsmith.server.static.assets import REVALIDATE, Asset
from reelsmith.server.static.build import DELIVERIES, ClientBuild, build_client
from reelsmith.server.static.bundler import BuildError


@lru_cache(maxsize=4)
def _optimised(web_dir: Path) -> ClientBuild:
    return build_client(web_dir, "optimised")


class ClientDelivery:
    """The client of a running server: the optimised build, made once per process (and per
    folder), or plain delivery, whose page is read again on each load so that an edit of the
    client shows at the next reload."""

    def __init__(self, web_dir: Path, delivery: str) -> None:
        if delivery not in DELIVERIES:
            raise BuildError(
                f"web_delivery must be one of {', '.join(DELIVERIES)}, not {delivery!r}"
            )
        self.web_dir = web_dir
        self.delivery = delivery
        self.build = (
            _optimised(web_dir) if delivery == "optimised" else build_client(web_dir, "plain")
        )

    def page(self) -> Asset:
        if self.delivery == "plain":
            self.build = build_client(self.web_dir, "plain")
        return self.build.entry


def client_build(web_dir: Path, delivery: str) -> ClientDelivery:
    return ClientDelivery(web_dir, delivery)


class RevalidatedStaticFiles(StaticFiles):
    """The web client's files under their own names, which browsers must revalidate (ETag)
    before each use: a new release of the client is picked up at once, never mixed with
    cached modules of the old."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        response.headers["Cache-Control"] = REVALIDATE
        return response


class ClientFiles:
    """The ASGI app mounted at ``/web``: a built (fingerprinted) file from memory, compressed
    when the browser accepts it; any other address from the folder, revalidated."""

    def __init__(self, client: ClientDelivery) -> None:
        self.client = client
        self.plain = RevalidatedStaticFiles(directory=client.web_dir, html=True)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in ("GET", "HEAD"):
            # Starlette's Mount keeps the whole path (newer) or cuts the mount's (older)
            files = self.client.build.files
            asset = files.get(scope["path"]) or files.get(
                scope.get("root_path", "") + scope["path"]
            )
            if asset is not None:
                await asset.response(Headers(scope=scope))(scope, receive, send)
                return
        await self.plain(scope, receive, send)
