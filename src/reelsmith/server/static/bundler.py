"""The ES module bundler: the modules the entry page loads, joined into one script.

Only what can be joined without renaming anything is admitted: relative static imports with
named or namespace clauses, and exports of ``function``, ``class`` or ``const`` declarations.
Anything else is refused with a `BuildError` naming the file (and line), so a module the
bundler cannot keep exact never reaches a browser changed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath


class BuildError(ValueError):
    """The client's files cannot be built: names the file and what is wrong with it."""


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
