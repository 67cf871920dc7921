"""The build of the client for a delivery: the entry page, the files by address and the
manifest the page carries (the files' data block), optimised or plain (see the package)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from reelsmith.server.static.assets import IMMUTABLE, REVALIDATE, Asset, fingerprinted
from reelsmith.server.static.bundler import BuildError, bundle_modules, module_graph

PREFIX = "/web/"
ENTRY_PAGE = "index.html"
DELIVERIES = ("optimised", "plain")
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
