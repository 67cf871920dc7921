"""One file of the web client as served: its fingerprinted name, its media type, its gzip
form (made once, when worth it) and the response with its cache headers and validators."""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
from dataclasses import dataclass
from pathlib import PurePosixPath

from starlette.datastructures import Headers
from starlette.responses import Response

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
#: Files smaller than this are not worth compressing (the gzip header and a round of the
#: dictionary cost more than they save).
COMPRESS_ABOVE = 256
COMPRESSIBLE = {".html", ".js", ".css", ".json", ".svg", ".txt", ".map"}
HASH_LENGTH = 10

MEDIA_TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".html": "text/html; charset=utf-8",
    ".json": "application/json",
    ".svg": "image/svg+xml",
}


def media_type(path: str) -> str:
    suffix = PurePosixPath(path).suffix.lower()
    return MEDIA_TYPES.get(suffix) or mimetypes.guess_type(path)[0] or "application/octet-stream"


def fingerprinted(path: str, body: bytes) -> str:
    """``js/main.js`` -> ``js/main.<first 10 hex digits of the SHA-256 of body>.js``."""
    name = PurePosixPath(path)
    digest = hashlib.sha256(body).hexdigest()[:HASH_LENGTH]
    return str(name.with_name(f"{name.stem}.{digest}{name.suffix}"))


@dataclass(frozen=True)
class Asset:
    """One file as served: its bytes, gzip-compressed bytes when worth it, and validators."""

    body: bytes
    gzipped: bytes | None
    media_type: str
    cache_control: str

    @property
    def etag(self) -> str:
        return '"' + hashlib.sha256(self.body).hexdigest()[:20] + '"'

    @classmethod
    def of(cls, path: str, body: bytes, cache_control: str) -> Asset:
        packed = None
        if PurePosixPath(path).suffix.lower() in COMPRESSIBLE and len(body) > COMPRESS_ABOVE:
            candidate = gzip.compress(body, compresslevel=9, mtime=0)
            packed = candidate if len(candidate) < len(body) else None
        return cls(body, packed, media_type(path), cache_control)

    def response(self, headers: Headers) -> Response:
        etag = self.etag
        common = {"Cache-Control": self.cache_control, "ETag": etag, "Vary": "Accept-Encoding"}
        if etag in {tag.strip() for tag in headers.get("if-none-match", "").split(",")}:
            return Response(status_code=304, headers=common)
        accepts = headers.get("accept-encoding", "")
        if self.gzipped is not None and _accepts_gzip(accepts):
            return Response(
                self.gzipped,
                media_type=self.media_type,
                headers={**common, "Content-Encoding": "gzip"},
            )
        return Response(self.body, media_type=self.media_type, headers=common)


def _accepts_gzip(header: str) -> bool:
    for item in header.split(","):
        name, _, params = item.strip().partition(";")
        if name.strip().lower() in ("gzip", "*"):
            quality = params.strip().removeprefix("q=")
            try:
                return not params or float(quality) > 0
            except ValueError:
                return False
    return False
