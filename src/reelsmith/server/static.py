"""Delivery of the web client: its files fingerprinted, bundled and compressed, or plain.

**Optimised delivery** (``web_delivery = "optimised"``, the default) builds the client once,
from the installed package's ``web/`` folder, when the application is created:

- the ES modules the entry page loads (``js/main.js`` and everything it imports, statically)
  are joined into one script by `bundle_modules`; the stylesheets the page links are joined
  into one, in their order; every other file is kept as it is;
- every file gets its content's hash in its name (``js/main.3fa9c01b2e.js``) and every
  reference to a file is rewritten to that name: the page's ``src`` and ``href``, the CSS
  ``url()``, the ``/web/...`` strings of the scripts. A file's name changes when its content
  or the content of a file it names changes, so browsers may keep it for good (``Cache-Control:
  public, max-age=31536000, immutable``) and a new release is never mixed with the old;
- the entry page (``/``), which carries the fingerprinted names, is revalidated on every load
  (``no-cache`` with an ``ETag``);
- every text file is compressed with gzip once, at build time, and served compressed to a
  browser that accepts it (``Vary: Accept-Encoding``).

The page also carries a data block (``<script type="application/json" id="reelsmith-files">``,
which is never executed, so the Content-Security-Policy is untouched) with the fingerprinted
name of each file the scripts compute at run time (the message catalogues: ``js/files.js``
reads it) and the files and sizes of the first load (the loading screen's progress bar).

**Plain delivery** (``web_delivery = "plain"``, for working on the client) serves the files
as they are in the folder, each revalidated before use, and the page with the same data block
(every name its own). The plain files are served in optimised delivery too, revalidated, for
any address that names them directly.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import mimetypes
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path, PurePosixPath

from fastapi.staticfiles import StaticFiles
from starlette.datastructures import Headers
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

PREFIX = "/web/"
ENTRY_PAGE = "index.html"
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
DELIVERIES = ("optimised", "plain")
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


class BuildError(ValueError):
    """The client's files cannot be built: names the file and what is wrong with it."""


def media_type(path: str) -> str:
    suffix = PurePosixPath(path).suffix.lower()
    return MEDIA_TYPES.get(suffix) or mimetypes.guess_type(path)[0] or "application/octet-stream"


def fingerprinted(path: str, body: bytes) -> str:
    """``js/main.js`` -> ``js/main.<first 10 hex digits of the SHA-256 of body>.js``."""
    name = PurePosixPath(path)
    digest = hashlib.sha256(body).hexdigest()[:HASH_LENGTH]
    return str(name.with_name(f"{name.stem}.{digest}{name.suffix}"))


# ---------------------------------------------------------------------------------------
# The ES module bundler
# ---------------------------------------------------------------------------------------

# `import ... from '...';` at the start of a line (the clause may span lines), and the
# side-effect form `import '...';`
IMPORT = re.compile(
    r"^import\s+(?:(?P<clause>[^'\";]+?)\s+from\s+)?['\"](?P<spec>[^'\"]+)['\"]\s*;?", re.M
)
EXPORT_DECLARATION = re.compile(
    r"^export\s+(?=(?:async\s+function\*?|function\*?|class|const)\s+[\w$]+)", re.M
)
EXPORT_NAME = re.compile(
    r"^export\s+(?:async\s+function\*?|function\*?|class|const)\s+([\w$]+)", re.M
)
ANY_EXPORT = re.compile(r"^export\b.*$", re.M)
NAMED = re.compile(r"^\{(?P<names>[^}]*)\}$", re.S)
NAMESPACE = re.compile(r"^\*\s+as\s+(?P<name>[\w$]+)$")
IDENTIFIER = re.compile(r"^[A-Za-z_$][\w$]*$")
DYNAMIC_RELATIVE_IMPORT = re.compile(r"\bimport\s*\(\s*['\"`]\.")


@dataclass
class Module:
    path: str  # relative to the web folder, e.g. "js/game.js"
    source: str
    imports: list[tuple[str, str]] = field(default_factory=list)  # (clause, module path)
    exports: list[str] = field(default_factory=list)


def _line_of(text: str, index: int) -> int:
    return text.count("\n", 0, index) + 1


def _resolve(importer: str, spec: str) -> str:
    if not spec.startswith(("./", "../")):
        raise BuildError(
            f"{importer}: import {spec!r}: only relative imports ('./x.js') can be bundled"
        )
    parts: list[str] = list(PurePosixPath(importer).parent.parts)
    for part in PurePosixPath(spec).parts:
        if part == "..":
            if not parts:
                raise BuildError(f"{importer}: import {spec!r} leaves the web folder")
            parts.pop()
        elif part != ".":
            parts.append(part)
    return "/".join(parts)


def _bindings(module: str, clause: str, target: str) -> str:
    """The declaration that takes the place of an import clause in a bundled module."""
    clause = " ".join(clause.split())
    named = NAMED.match(clause)
    if named:
        pairs = []
        for item in (part.strip() for part in named["names"].split(",")):
            if not item:
                continue
            words = item.split()
            if len(words) == 1 and IDENTIFIER.match(words[0]):
                pairs.append(words[0])
            elif len(words) == 3 and words[1] == "as" and all(map(IDENTIFIER.match, words[::2])):
                pairs.append(f"{words[0]}: {words[2]}")
            else:
                raise BuildError(f"{module}: cannot bundle the import of {item!r}")
        return f"const {{ {', '.join(pairs)} }} = {target};"
    namespace = NAMESPACE.match(clause)
    if namespace:
        return f"const {namespace['name']} = {target};"
    raise BuildError(
        f"{module}: cannot bundle `import {clause} from ...`: use named imports or `* as name`"
    )


def read_module(web_dir: Path, path: str) -> Module:
    file = web_dir / path
    try:
        source = file.read_text(encoding="utf-8")
    except OSError as exc:
        raise BuildError(f"{path}: cannot read it: {exc.strerror or exc}") from None
    module = Module(path, source)
    for found in IMPORT.finditer(source):
        module.imports.append((found["clause"] or "", _resolve(path, found["spec"])))
    module.exports = EXPORT_NAME.findall(source)
    for found in ANY_EXPORT.finditer(source):
        if not EXPORT_DECLARATION.match(found.group(0)):
            raise BuildError(
                f"{path}:{_line_of(source, found.start())}: cannot bundle {found.group(0)!r}: "
                "export a function, class or const declaration"
            )
    for pattern, what in (
        (re.compile(r"\bimport\.meta\b"), "import.meta"),
        (DYNAMIC_RELATIVE_IMPORT, "a dynamic import of a relative address"),
    ):
        hit = pattern.search(source)
        if hit:
            raise BuildError(f"{path}:{_line_of(source, hit.start())}: cannot bundle {what}")
    return module


def module_graph(web_dir: Path, entry: str) -> list[Module]:
    """The modules ``entry`` loads, each after the modules it imports (the order in which a
    browser evaluates them); an import cycle is refused, naming it."""
    ordered: list[Module] = []
    done: set[str] = set()
    visiting: list[str] = []

    def visit(path: str) -> None:
        if path in done:
            return
        if path in visiting:
            cycle = [*visiting[visiting.index(path) :], path]
            raise BuildError(f"import cycle: {' -> '.join(cycle)}")
        visiting.append(path)
        module = read_module(web_dir, path)
        for _clause, imported in module.imports:
            visit(imported)
        visiting.pop()
        done.add(path)
        ordered.append(module)

    visit(entry)
    return ordered


def bundle_modules(web_dir: Path, entry: str) -> tuple[str, list[str]]:
    """One script holding ``entry`` and every module it imports, and the modules' paths.

    Each module becomes a function run once, in evaluation order, whose imports are
    constants read from the objects the modules before it returned: the modules keep their
    own scopes, so no name is renamed. A module's bindings are read once, which equals an ES
    module's live binding because the bundler admits only exports that cannot be reassigned
    (``function``, ``class``, ``const``); anything else is refused, naming file and line."""
    modules = module_graph(web_dir, entry)
    names = {module.path: f"$m{index}" for index, module in enumerate(modules)}
    parts = [f"// {entry} and the modules it imports, joined by reelsmith.server.static\n"]
    for module in modules:
        exported = {name: module.path for name in module.exports}
        for clause, imported in module.imports:
            wanted = NAMED.match(" ".join(clause.split()))
            if wanted is None:
                continue
            target_exports = set(next(m.exports for m in modules if m.path == imported))
            for item in filter(None, (p.strip() for p in wanted["names"].split(","))):
                name = item.split()[0]
                if name not in target_exports:
                    raise BuildError(f"{module.path}: imports {name!r}, which {imported} lacks")

        def replace(found: re.Match[str], module: Module = module) -> str:
            target = names[_resolve(module.path, found["spec"])]
            if not found["clause"]:
                return ""
            return _bindings(module.path, found["clause"], target)

        body = IMPORT.sub(replace, module.source)
        body = EXPORT_DECLARATION.sub("", body)
        returned = ", ".join(exported)
        parts.append(
            f"// ---- {module.path}\nconst {names[module.path]} = (() => {{\n{body.rstrip()}\n"
            f"return Object.freeze({{ __proto__: null, {returned} }});\n}})();\n"
        )
    return "".join(parts), [module.path for module in modules]


# ---------------------------------------------------------------------------------------
# The build
# ---------------------------------------------------------------------------------------


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


STYLESHEET = re.compile(r'^[ \t]*<link rel="stylesheet" href="/web/(?P<path>[^"]+)">\n', re.M)
MODULE_SCRIPT = re.compile(r'<script type="module" src="/web/(?P<path>[^"]+)"></script>')
WEB_ADDRESS = re.compile(r"(?<=['\"`(])/web/(?P<path>[\w./-]+)(?=['\"`)])")
FILES_BLOCK = "<!-- reelsmith-files -->"


@dataclass
class ClientBuild:
    """The client as served: the entry page and the files, by address."""

    delivery: str
    entry: Asset
    files: dict[str, Asset]  # "/web/js/main.3fa9c01b2e.js" -> its asset
    names: dict[str, str]  # "/web/i18n/de.json" -> "/web/i18n/de.4c1d0a9e7b.json"
    first_load: list[tuple[str, int]]  # (address, bytes on the wire) of the first load
    modules: list[str]  # the bundled modules, in evaluation order


def _web_files(web_dir: Path) -> Iterator[tuple[str, bytes]]:
    for file in sorted(web_dir.rglob("*")):
        if file.is_file() and "__pycache__" not in file.parts:
            yield file.relative_to(web_dir).as_posix(), file.read_bytes()


def _rewrite(text: str, names: dict[str, str], where: str) -> str:
    def replace(found: re.Match[str]) -> str:
        address = PREFIX + found["path"]
        if address not in names:
            raise BuildError(f"{where}: names {address}, which is not a file of the client")
        return names[address]

    return WEB_ADDRESS.sub(replace, text)


def _files_block(names: dict[str, str], first_load: list[tuple[str, int]]) -> str:
    data = {
        "names": {source: name for source, name in names.items() if "/i18n/" in source},
        "first_load": [{"url": url, "bytes": size} for url, size in first_load],
    }
    text = json.dumps(data, separators=(",", ":"), sort_keys=True).replace("<", "\\u003c")
    return f'<script type="application/json" id="reelsmith-files">{text}</script>'


def _wire_size(asset: Asset) -> int:
    return len(asset.gzipped if asset.gzipped is not None else asset.body)


def build_client(web_dir: Path, delivery: str = "optimised") -> ClientBuild:
    """Build the client in ``web_dir`` for ``delivery`` ("optimised" or "plain")."""
    if delivery not in DELIVERIES:
        raise BuildError(f"web_delivery must be one of {', '.join(DELIVERIES)}, not {delivery!r}")
    page_path = web_dir / ENTRY_PAGE
    try:
        page = page_path.read_text(encoding="utf-8")
    except OSError as exc:
        raise BuildError(f"{ENTRY_PAGE}: cannot read it: {exc.strerror or exc}") from None
    if FILES_BLOCK not in page:
        raise BuildError(
            f"{ENTRY_PAGE}: the marker {FILES_BLOCK} (the files' data block) is missing"
        )
    scripts = MODULE_SCRIPT.findall(page)
    if len(scripts) != 1:
        raise BuildError(f"{ENTRY_PAGE}: expected one module script, found {len(scripts)}")
    stylesheets = STYLESHEET.findall(page)
    if delivery == "plain":
        return _plain_build(web_dir, page, scripts[0], stylesheets)

    sources = dict(_web_files(web_dir))
    names: dict[str, str] = {}
    files: dict[str, Asset] = {}

    def publish(path: str, body: bytes) -> str:
        name = PREFIX + fingerprinted(path, body)
        files[name] = Asset.of(name, body, IMMUTABLE)
        return name

    # files that name no other file first (art, catalogues), then the ones naming them
    for path, body in sources.items():
        if path.endswith((".css", ".js", ".html")):
            continue
        names[PREFIX + path] = publish(path, body)
    css_parts = []
    for path in stylesheets:
        if path not in sources:
            raise BuildError(f"{ENTRY_PAGE}: links {path}, which is not a file of the client")
        css_parts.append(f"/* {path} */\n" + _rewrite(sources[path].decode("utf-8"), names, path))
    css_name = publish(stylesheets[0], "\n".join(css_parts).encode()) if stylesheets else None
    script, modules = bundle_modules(web_dir, scripts[0])
    script_name = publish(scripts[0], _rewrite(script, names, scripts[0]).encode())
    for path, body in sources.items():  # scripts not in the bundle (loaded by address)
        if path.endswith(".js") and path not in modules:
            names[PREFIX + path] = publish(
                path, _rewrite(body.decode("utf-8"), names, path).encode()
            )

    first_load = [(script_name, _wire_size(files[script_name]))]
    if css_name:
        first_load.insert(0, (css_name, _wire_size(files[css_name])))
    first_load.append((names["/web/i18n/en.json"], _wire_size(files[names["/web/i18n/en.json"]])))
    # the page links the joined stylesheet in the first one's place, the others are dropped
    linked = iter(range(len(stylesheets)))
    page = STYLESHEET.sub(lambda found: found.group(0) if next(linked) == 0 else "", page)
    bundles = {PREFIX + scripts[0]: script_name}
    if css_name:
        bundles[PREFIX + stylesheets[0]] = css_name
    page = _rewrite(page, {**names, **bundles}, ENTRY_PAGE)
    page = page.replace(FILES_BLOCK, _files_block(names, first_load))
    return ClientBuild(
        delivery,
        Asset.of(ENTRY_PAGE, page.encode(), REVALIDATE),
        files,
        names,
        first_load,
        modules,
    )


def _plain_build(web_dir: Path, page: str, script: str, stylesheets: list[str]) -> ClientBuild:
    """Plain delivery: the page with the data block, every file under its own name."""
    modules = [module.path for module in module_graph(web_dir, script)]
    names = {
        PREFIX + path: PREFIX + path
        for path, _body in _web_files(web_dir)
        if "/i18n/" in PREFIX + path
    }
    first_load = [
        (PREFIX + path, (web_dir / path).stat().st_size)
        for path in [*stylesheets, *modules, "i18n/en.json"]
    ]
    page = page.replace(FILES_BLOCK, _files_block(names, first_load))
    return ClientBuild(
        "plain", Asset.of(ENTRY_PAGE, page.encode(), REVALIDATE), {}, names, first_load, modules
    )


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
