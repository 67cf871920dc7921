"""Delivery of the web client: optimised (fingerprinted, bundled, gzip, immutable) and plain,
through the application, and the bundler's contract on small module graphs of its own."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path
from typing import Any

import pytest

from reelsmith.server.headers import CLIENT_POLICY
from reelsmith.server.settings import Settings, SettingsError
from reelsmith.server.static import (
    IMMUTABLE,
    BuildError,
    build_client,
    bundle_modules,
    fingerprinted,
)
from tests.server.conftest import build

WEB = Path(__file__).resolve().parents[2] / "src" / "reelsmith" / "web"
NAMED = re.compile(r"""(?:src|href)="(/web/[^"]+)\"""")


def page_files(text: str) -> dict[str, Any]:
    found = re.search(r'<script type="application/json" id="reelsmith-files">(.*?)</script>', text)
    assert found, "the page has no files data block"
    data: dict[str, Any] = json.loads(found.group(1))
    return data


@pytest.fixture
def optimised(tmp_path: Any) -> Any:
    yield from build("sqlite", tmp_path)


@pytest.fixture
def plain(tmp_path: Any) -> Any:
    yield from build("sqlite", tmp_path, web_delivery="plain")


def test_the_page_names_fingerprinted_files_served_compressed_and_immutable(optimised):
    client = optimised.client
    page = client.get("/", headers={"Accept-Encoding": "gzip"})
    assert page.status_code == 200
    assert page.headers["cache-control"] == "no-cache"
    assert page.headers["content-encoding"] == "gzip"
    names = NAMED.findall(page.text)
    # one stylesheet, one script bundle, the loading screen's script and the icon
    assert sum(name.endswith(".css") for name in names) == 1
    assert sum(name.endswith(".js") for name in names) == 2
    for name in names:
        assert re.search(r"\.[0-9a-f]{10}\.\w+$", name), name
        served = client.get(name, headers={"Accept-Encoding": "gzip, br"})
        assert served.status_code == 200, name
        assert (
            served.headers["cache-control"] == IMMUTABLE == ("public, max-age=31536000, immutable")
        )
        assert served.headers["vary"] == "Accept-Encoding"
        assert served.headers["content-security-policy"].startswith(CLIENT_POLICY)
        assert served.headers["x-content-type-options"] == "nosniff"
        if name.endswith((".js", ".css")):
            assert served.headers["content-encoding"] == "gzip", name
            assert int(served.headers["content-length"]) < len(served.content), name
        # the name is the content's: what is served under it hashes to it
        source = name.removeprefix("/web/")
        assert fingerprinted(re.sub(r"\.[0-9a-f]{10}(\.\w+)$", r"\1", source), served.content) == (
            source
        )


def test_a_browser_that_does_not_accept_gzip_gets_the_plain_bytes(optimised):
    client = optimised.client
    page = client.get("/", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in page.headers
    script = next(name for name in NAMED.findall(page.text) if "/main." in name)
    raw = client.get(script, headers={"Accept-Encoding": "gzip;q=0"})
    assert "content-encoding" not in raw.headers
    packed = client.get(script, headers={"Accept-Encoding": "gzip"})
    assert packed.content == raw.content  # httpx decodes gzip: the same text either way


def test_the_page_and_files_answer_304_to_their_etag(optimised):
    client = optimised.client
    page = client.get("/")
    assert client.get("/", headers={"If-None-Match": page.headers["etag"]}).status_code == 304
    name = NAMED.findall(page.text)[0]
    first = client.get(name)
    again = client.get(name, headers={"If-None-Match": first.headers["etag"]})
    assert again.status_code == 304 and again.headers["cache-control"] == IMMUTABLE


def test_every_reference_in_the_bundle_and_stylesheet_is_a_served_fingerprinted_file(optimised):
    client = optimised.client
    page = client.get("/").text
    files = page_files(page)
    for source, name in files["names"].items():
        assert client.get(name).json() == json.loads(
            (WEB / source.removeprefix("/web/")).read_text()
        )
    css = next(name for name in NAMED.findall(page) if name.endswith(".css"))
    art = re.findall(r"url\((/web/[^)]+)\)", client.get(css).text)
    assert art and all(re.search(r"\.[0-9a-f]{10}\.svg$", url) for url in art)
    assert all(client.get(url).status_code == 200 for url in art)
    assert [entry["url"] for entry in files["first_load"]][-1] == files["names"][
        "/web/i18n/en.json"
    ]
    for entry in files["first_load"]:
        wire = client.get(entry["url"], headers={"Accept-Encoding": "gzip"})
        assert int(wire.headers["content-length"]) == entry["bytes"]


def test_the_plain_files_are_still_served_revalidated_under_optimised_delivery(optimised):
    script = optimised.client.get("/web/js/main.js")
    assert script.status_code == 200 and script.headers["cache-control"] == "no-cache"
    assert "import { Api, ApiError } from './api.js';" in script.text


def test_plain_delivery_serves_the_folder_as_it_is(plain):
    client = plain.client
    page = client.get("/")
    assert page.headers["cache-control"] == "no-cache"
    names = NAMED.findall(page.text)
    assert "/web/js/main.js" in names and "/web/css/base.css" in names
    files = page_files(page.text)
    assert files["names"]["/web/i18n/de.json"] == "/web/i18n/de.json"
    assert "/web/js/game.js" in [entry["url"] for entry in files["first_load"]]
    assert client.get("/web/js/main.js").headers["cache-control"] == "no-cache"


def test_the_delivery_setting_is_checked():
    assert Settings.load(web_delivery="plain").web_delivery == "plain"
    with pytest.raises(SettingsError, match="web_delivery: 'fast' is neither"):
        Settings.load(web_delivery="fast")


def test_the_build_is_the_same_bytes_each_time():
    first, second = build_client(WEB), build_client(WEB)
    assert first.entry.body == second.entry.body
    assert {name: asset.gzipped for name, asset in first.files.items()} == {
        name: asset.gzipped for name, asset in second.files.items()
    }


def test_every_module_main_loads_is_in_the_bundle_once():
    script, modules = bundle_modules(WEB, "js/main.js")
    on_disk = set()
    pending = ["js/main.js"]
    while pending:
        path = pending.pop()
        if path in on_disk:
            continue
        on_disk.add(path)
        text = (WEB / path).read_text()
        for spec in re.findall(r"^import[^'\"]*?from\s+'([^']+)'", text, re.M):
            imported = (WEB / path).parent / spec
            pending.append(imported.resolve().relative_to(WEB.resolve()).as_posix())
    assert sorted(modules) == sorted(on_disk)
    assert modules[-1] == "js/main.js"
    assert len(re.findall(r"^// ---- ", script, re.M)) == len(modules)
    assert not re.search(r"^\s*(import|export)\s", script, re.M)


# -- the bundler on module graphs of its own ---------------------------------------------


def write(folder: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    return folder


def run_in_browser(script: str, tmp_path: Path) -> list[str]:
    """The bundle run as a module script in Chromium; what it logged."""
    from playwright.sync_api import sync_playwright

    chromium = Path("/usr/bin/chromium")
    if not chromium.exists():
        pytest.skip("needs Debian's Chromium at /usr/bin/chromium")
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=str(chromium), args=["--no-sandbox"])
        page = browser.new_page()
        logged: list[str] = []
        page.on("console", lambda message: logged.append(message.text))
        page.set_content("<html><body></body></html>")
        page.add_script_tag(content=script, type="module")
        page.wait_for_function("() => document.body.dataset.done === 'yes'", timeout=10_000)
        browser.close()
    return logged


def test_a_bundle_runs_its_modules_in_order_with_their_own_scopes(tmp_path):
    folder = write(
        tmp_path / "web",
        {
            "js/main.js": (
                "import { twice as double, NAME } from './lib/maths.js';\n"
                "import * as words from './words.js';\n"
                "const secret = 'main';\n"
                "console.log(`${NAME} ${double(21)} ${words.greet()} ${secret}`);\n"
                "document.body.dataset.done = 'yes';\n"
            ),
            "js/lib/maths.js": (
                "import { greet } from '../words.js';\n"
                "const secret = 'maths';\n"
                "console.log(`maths sees ${greet()} ${secret}`);\n"
                "export const NAME = 'answer';\n"
                "export function twice(x) { return 2 * x; }\n"
            ),
            "js/words.js": (
                "const secret = 'words';\n"
                "console.log('words first');\n"
                "export function greet() { return `hello from ${secret}`; }\n"
            ),
        },
    )
    script, modules = bundle_modules(folder, "js/main.js")
    assert modules == ["js/words.js", "js/lib/maths.js", "js/main.js"]
    assert run_in_browser(script, tmp_path) == [
        "words first",
        "maths sees hello from words maths",
        "answer 42 hello from words main",
    ]


@pytest.mark.parametrize(
    ("files", "message"),
    [
        (
            {
                "js/main.js": "import { a } from './a.js';\n",
                "js/a.js": "import { b } from './main.js';\nexport const a = 1;\n",
            },
            r"import cycle: js/main.js -> js/a.js -> js/main.js",
        ),
        ({"js/main.js": "export let counter = 0;\n"}, r"js/main.js:1: cannot bundle 'export let"),
        ({"js/main.js": "export default 1;\n"}, r"js/main.js:1: cannot bundle 'export default"),
        ({"js/main.js": "import x from './a.js';\n", "js/a.js": ""}, r"use named imports"),
        (
            {"js/main.js": "import { nope } from './a.js';\n", "js/a.js": "export const a = 1;\n"},
            r"'nope', which js/a.js lacks",
        ),
        ({"js/main.js": "import { a } from 'lib';\n"}, r"only relative imports"),
        ({"js/main.js": "import { a } from './gone.js';\n"}, r"js/gone.js: cannot read it"),
        (
            {"js/main.js": "const here = import.meta.url;\n"},
            r"js/main.js:1: cannot bundle import.meta",
        ),
        ({"js/main.js": "await import('./a.js');\n"}, r"a dynamic import of a relative address"),
    ],
)
def test_what_the_bundler_cannot_join_is_refused_by_name(tmp_path, files, message):
    folder = write(tmp_path / "web", files)
    with pytest.raises(BuildError, match=message):
        bundle_modules(folder, "js/main.js")


def test_a_page_naming_a_missing_file_is_refused_by_name(tmp_path):
    folder = write(
        tmp_path / "web",
        {
            "index.html": (
                '<link rel="stylesheet" href="/web/css/a.css">\n'
                '<script type="module" src="/web/js/main.js"></script>\n'
                "<!-- reelsmith-files -->\n"
            ),
            "css/a.css": "body { background: url(/web/art/gone.svg); }\n",
            "js/main.js": "",
            "i18n/en.json": "{}",
        },
    )
    with pytest.raises(
        BuildError, match=r"css/a.css: names /web/art/gone.svg, which is not a file"
    ):
        build_client(folder)


def test_the_delivery_must_be_known(tmp_path):
    with pytest.raises(BuildError, match="web_delivery must be one of optimised, plain"):
        build_client(WEB, "fast")


def test_the_gzip_bytes_are_the_files(optimised):
    build_of = optimised.client.app.state.client.build
    for name, asset in build_of.files.items():
        if asset.gzipped is not None:
            assert gzip.decompress(asset.gzipped) == asset.body, name
