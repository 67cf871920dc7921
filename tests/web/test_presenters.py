"""The client's presenter registry (``web/js/presenters/index.js``) has a presenter for every
event kind the server can send: the registry's mechanics' and the core's
(:func:`reelsmith.mechanics.event_kinds`), which are also the kinds the versioned JSON Schema
lists (:func:`reelsmith.mechanics.event_schema`). Read from the file itself, without a
browser: a kind removed from the registry, or a mechanic adding a kind the client does not
present, fails here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import reelsmith
from reelsmith.mechanics import event_kinds, event_schema
from reelsmith.server.registry import TITLE_FOLDERS

WEB = Path(reelsmith.__file__).resolve().parent / "web"
REGISTRY = WEB / "js" / "presenters" / "index.js"

#: ``export const PRESENTERS = { ... };``: the registry's object literal.
_OBJECT = re.compile(r"export const PRESENTERS = \{(?P<body>.*?)\n\};", re.S)
#: One entry of it: ``kind: presenterFunction,``.
_ENTRY = re.compile(r"^\s*(?P<kind>[a-z_]+):\s*(?P<presenter>[A-Za-z_$][\w$]*),?\s*$")
_IMPORT = re.compile(r"import \{(?P<names>[^}]*)\} from '(?P<path>\./[\w./-]+)';")


def registry(source: str) -> dict[str, str]:
    """The registry's kinds and presenter names, from the text of ``index.js``; ValueError on
    a line of its object that is not one ``kind: presenter`` entry."""
    found = _OBJECT.search(source)
    if found is None:
        raise ValueError("no 'export const PRESENTERS = {...};' in the registry")
    entries: dict[str, str] = {}
    for line in found["body"].strip().splitlines():
        entry = _ENTRY.match(line)
        if entry is None:
            raise ValueError(f"not a 'kind: presenter' entry: {line.strip()!r}")
        entries[entry["kind"]] = entry["presenter"]
    return entries


def schema_kinds() -> set[str]:
    return {entry["properties"]["type"]["const"] for entry in event_schema()["items"]["oneOf"]}


def test_every_event_kind_the_server_sends_has_a_presenter() -> None:
    presented = registry(REGISTRY.read_text(encoding="utf-8"))
    kinds = set(event_kinds())
    assert kinds == schema_kinds()
    assert not kinds - presented.keys(), f"no presenter for {sorted(kinds - presented.keys())}"
    # a presenter for a kind no mechanic emits is dead code (a kind renamed on one side)
    assert not presented.keys() - kinds, f"presenters of no kind: {presented.keys() - kinds}"


def test_every_presenter_is_imported_from_a_module_that_exports_it() -> None:
    source = REGISTRY.read_text(encoding="utf-8")
    imported: dict[str, Path] = {}
    for found in _IMPORT.finditer(source):
        for name in (n.strip() for n in found["names"].split(",")):
            if name:
                imported[name] = REGISTRY.parent / found["path"]
    for kind, presenter in registry(source).items():
        assert presenter in imported, f"{kind}: {presenter} is not imported"
        module = imported[presenter].read_text(encoding="utf-8")
        assert re.search(rf"export (async )?function {re.escape(presenter)}\(", module), (
            f"{kind}: {imported[presenter].name} does not export {presenter}"
        )


def test_a_kind_removed_from_the_registry_is_missed() -> None:
    source = REGISTRY.read_text(encoding="utf-8")
    without = re.sub(r"\n\s*cascade: \w+,", "", source, count=1)
    assert without != source
    assert "cascade" not in registry(without)
    assert "cascade" in set(event_kinds()) - registry(without).keys()


def test_a_line_that_is_not_an_entry_is_refused() -> None:
    source = REGISTRY.read_text(encoding="utf-8").replace(
        "  cascade: presentCascade,", "  ...others,", 1
    )
    with pytest.raises(ValueError, match="not a 'kind: presenter' entry"):
        registry(source)


# -- no code of a title's own --------------------------------------------------------------------

JS = WEB / "js"
#: Where a title may be named: its look (art and theme), chosen by game id.
LOOKS = {JS / "look.js"}


def modules() -> list[Path]:
    return sorted(JS.rglob("*.js"))


def test_no_module_but_the_looks_names_a_title() -> None:
    """A title is played from its description and events: only its look (``look.js``, with
    the art files it lists) is chosen by its id; a module of the round, the bet or the panels
    naming a title is per-title code. Every shipped title has a look."""
    named = {
        path.relative_to(JS).as_posix(): sorted(
            title for title in TITLE_FOLDERS if title in path.read_text(encoding="utf-8")
        )
        for path in modules()
        if path not in LOOKS and path.parent != JS / "art"
    }
    assert not {path: titles for path, titles in named.items() if titles}
    looks = (JS / "look.js").read_text(encoding="utf-8")
    assert all(title in looks for title in TITLE_FOLDERS)


def test_no_module_asks_what_kind_a_title_is() -> None:
    """The game list's ``client`` (catalogue, ladder) is not read: one module (``title.js``)
    plays every title, and the per-kind scripts are gone."""
    assert not (JS / "titles").exists()
    readers = [
        path.relative_to(JS).as_posix()
        for path in modules()
        if re.search(r"\.client\b|\[['\"]client['\"]\]", path.read_text(encoding="utf-8"))
    ]
    assert not readers
