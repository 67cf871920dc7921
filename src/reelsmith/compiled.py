"""Compiled code: where numba keeps it, whether a piece of work will compile, and saying so.

The lab's kernels are numba functions compiled on first call and cached on disk
(``cache=True``). Three things make that first use bearable:

* **A cache a wheel install can write.** numba caches beside the source by default, which a
  wheel installed into a read-only ``site-packages`` cannot write. :func:`configure_cache` sets
  ``NUMBA_CACHE_DIR`` to the user's cache folder (``$XDG_CACHE_HOME/reelsmith/numba``, else
  ``~/.cache/reelsmith/numba``; ``%LOCALAPPDATA%`` on Windows) unless the environment already
  names one. It runs when the ``reelsmith`` package is imported, before any module of it
  imports numba, because a numba function reads the cache folder when it is decorated; worker
  processes inherit the variable, so they load what their parent compiled.
* **Knowing before compiling.** A piece of work (a *phase*: "the simulation kernel of a
  catalogue title") records in the cache folder, once it has run, which cached numba functions
  it compiled and for which argument types (:data:`MANIFEST`). The next process asks numba's
  own index of each whether that compiled code is there and fresh (same numba, same source
  file stamp, same bytecode); only then is the phase called cached. A phase never recorded, a
  cache folder emptied, a source file edited or numba upgraded all count as not cached, so the
  announcement errs towards saying it compiles.
* **Saying so.** :func:`compiling` wraps a phase: when it is not cached, a terminal shows a
  spinner with the elapsed time while it runs, and stderr gets one line naming what compiled,
  where it is kept and the seconds it took, printed once done and only when numba did compile
  (a phase that fails prints nothing, so the command's one-line error stays alone); a cached
  phase prints nothing.

The index is read through numba's caching internals (``Dispatcher._cache``); if a numba
release changes them, :func:`phase_cached` answers "not cached" rather than fail, which costs
one needless announcement, never a wrong figure.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

#: The environment variable numba reads its cache folder from.
CACHE_ENV = "NUMBA_CACHE_DIR"
#: The file, in the cache folder, naming each phase's compiled functions.
MANIFEST = "reelsmith-phases.json"


def default_cache_dir() -> Path:
    """The user's cache folder for reelsmith's compiled code (not created here)."""
    if sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
        return Path(os.environ["LOCALAPPDATA"]) / "reelsmith" / "numba"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "reelsmith" / "numba"


def configure_cache() -> Path | None:
    """Point numba's cache at a folder this user can write, unless ``NUMBA_CACHE_DIR`` names
    one already; returns the folder, or None when none could be made (numba then keeps its
    own default: beside the source, or nowhere on a read-only install)."""
    chosen = os.environ.get(CACHE_ENV)
    if chosen:
        folder = Path(chosen).expanduser()
    else:
        folder = default_cache_dir()
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError:
            return None
        if not os.access(folder, os.W_OK | os.X_OK):
            return None
        os.environ[CACHE_ENV] = str(folder)
    numba_config = sys.modules.get("numba.core.config")
    if numba_config is not None:  # imported before reelsmith: numba read the variable already
        numba_config.CACHE_DIR = str(folder)  # type: ignore[attr-defined]
    return folder


def cache_dir() -> Path | None:
    """Where numba caches compiled code in this process (None: numba's own default)."""
    chosen = os.environ.get(CACHE_ENV)
    return Path(chosen).expanduser() if chosen else None


def shown(folder: Path | None) -> str:
    """A cache folder as the announcement prints it: under the home folder as ``~/...``."""
    if folder is None:
        return "numba's default cache"
    try:
        return "~/" + str(folder.resolve().relative_to(Path.home().resolve()))
    except (ValueError, RuntimeError):
        return str(folder)


# ---------------------------------------------------------------------------------------
# Which compiled functions a phase uses, and whether numba has them cached
# ---------------------------------------------------------------------------------------


def _dispatchers() -> dict[str, Any]:
    """Every numba function with an on-disk cache defined in a loaded reelsmith module, by
    ``module:qualified name``."""
    from numba.core.caching import FunctionCache
    from numba.core.dispatcher import Dispatcher

    found: dict[str, Any] = {}
    for name, module in list(sys.modules.items()):
        if not name.startswith("reelsmith") or module is None:
            continue
        for value in list(vars(module).values()):
            cached = isinstance(value, Dispatcher) and isinstance(
                getattr(value, "_cache", None), FunctionCache
            )
            if cached and value.py_func.__module__ == name:
                found[f"{name}:{value.py_func.__qualname__}"] = value
    return found


def _compiled_signatures() -> dict[str, list[str]]:
    """The argument types each cached numba function has been compiled or loaded for in this
    process."""
    return {
        key: sorted(str(signature) for signature in dispatcher.signatures)
        for key, dispatcher in _dispatchers().items()
        if dispatcher.signatures
    }


def _compiles() -> int:
    """How many times this process has compiled a cached numba function of reelsmith because
    numba's cache did not have it (numba's own count of cache misses)."""
    try:
        return sum(sum(d._cache_misses.values()) for d in _dispatchers().values())
    except Exception:  # numba's internals changed: count nothing
        return 0


def _cached_signatures(dispatcher: Any) -> set[str]:
    """The argument types numba's on-disk index holds fresh compiled code of ``dispatcher``
    for, on this machine (empty when the index is missing or stale)."""
    cache = dispatcher._cache
    index = cache._cache_file._load_index()
    if not index:
        return set()
    codegen = dispatcher.targetctx.codegen()
    return {
        str(signature) for signature, *_ in index if cache._index_key(signature, codegen) in index
    }


def _manifest_path() -> Path | None:
    folder = cache_dir()
    return None if folder is None else folder / MANIFEST


def _read_manifest() -> dict[str, dict[str, list[str]]]:
    path = _manifest_path()
    if path is None:
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def phase_cached(phase: str) -> bool:
    """Whether every cached numba function ``phase`` compiled when it last ran is in numba's
    cache, fresh, for the argument types it used; False for a phase never recorded here (the
    modules defining those functions are imported to ask)."""
    recorded = _read_manifest().get(phase)
    if not recorded:
        return False
    try:
        for module in {key.partition(":")[0] for key in recorded}:
            importlib.import_module(module)  # the phase imports them anyway
        loaded = _dispatchers()
        for key, signatures in recorded.items():
            dispatcher = loaded.get(key)
            if dispatcher is None or not set(signatures) <= _cached_signatures(dispatcher):
                return False
    except Exception:  # numba's internals changed: say it compiles rather than fail
        return False
    return True


def record_phase(phase: str) -> None:
    """Note in the manifest the numba functions this process has compiled or loaded, once
    ``phase`` has run (a few it did not need, run earlier in the process, may be named too:
    that can only make a later announcement err towards compiling). Best effort: a cache
    folder that cannot be written only means the next run announces compiling again."""
    path = _manifest_path()
    if path is None:
        return
    manifest = _read_manifest()
    manifest[phase] = _compiled_signatures()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_text(json.dumps(manifest, indent=1, sort_keys=True), encoding="utf-8")
        temporary.replace(path)
    except OSError:
        pass


# ---------------------------------------------------------------------------------------
# The announcement
# ---------------------------------------------------------------------------------------


@contextmanager
def compiling(what: str, phase: str, console: Any) -> Iterator[None]:
    """Run the body as ``phase`` and say on ``console`` (a rich Console on stderr) when it
    compiled: "compiling <what> (first use; cached in <folder>) ... 38.2 s", one line once it
    is done, printed when numba compiled anything the cache lacked (its count of cache misses),
    so a title new to the manifest whose code is all cached (a copy of a shipped title) is not
    announced. A terminal shows a spinner with the elapsed time while a phase not known to be
    cached runs. A phase that fails prints nothing: the command's one-line error follows
    alone. What a phase not known to be cached used is recorded, so the next process knows."""
    expected = not phase_cached(phase)
    compiled_before = _compiles()
    folder = cache_dir()
    where = f"cached in {shown(folder)}" if folder is not None else "numba's default cache"
    line = f"compiling {what} (first use; {where})"
    started = time.perf_counter()
    if expected and console.is_terminal:
        from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

        with Progress(
            SpinnerColumn(),
            TextColumn(line.replace("[", "\\[") + " ..."),
            TimeElapsedColumn(),
            console=console,
            transient=True,
        ) as progress:
            progress.add_task("compiling", total=None)
            yield
    else:
        yield
    seconds = time.perf_counter() - started
    if _compiles() > compiled_before:
        console.print(f"{line} ... {seconds:.1f} s", markup=False, highlight=False, soft_wrap=True)
    if expected:
        record_phase(phase)
