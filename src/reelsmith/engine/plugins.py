"""Plug-in mechanics: a mechanic the catalogue lacks, as one Python module named in the model.

A catalogue model may name one plug-in module in its ``[plugin]`` table
(``docs/model-format.md``)::

    [plugin]
    module = "win_multiplier.py"     # a file of the title's folder, or a dotted module name
    spins = "all"                    # where it acts: "base", "free" or "all" (the default)
    [plugin.params]                  # the plug-in's own table, checked by the plug-in
    multipliers = { 1 = 70, 2 = 20, 3 = 8, 10 = 2 }

The hook: a spin's win modifier
-------------------------------
A plug-in acts on one spin's win after its paylines and scatter are paid (in the base game,
in free spins or both), with at most one draw of its own, and returns the spin's new win. The
hook sits there because a spin's win is the one quantity live play, the kernel and the exact
analysis all hold per spin: the kernel keeps no screen once its lines are paid, and the exact
analysis holds the law of a spin's win by the count of the trigger symbol, so a rule that
maps (the spin's win, one uniform draw) to a new win composes with everything downstream
(free spins, retriggers, the cap, Wald's identity) without a new analysis. The class covers
random win multipliers, multipliers on free spins only, win boosts or caps by win size,
"double or nothing" coin flips and pick-a-prize awards on a win. A rule that needs the screen
(mystery symbols, expanding wilds) or state carried between spins (a multiplier that climbs
through the feature) is outside it: its draw would not be independent of the rest of the
spin given the win, and the exact composition would no longer hold.

What a module provides (:class:`PluginModule`)
----------------------------------------------
``PURPOSE``
    The purpose its draw is recorded under (e.g. ``"win_multiplier"``); live play records the
    draw ``(PURPOSE, bound, value)`` in the round's draws, so replay, recall and forced draws
    treat it like a reel stop.
``NAME``
    What the reports call its part of the RTP ("win multiplier").
``check(params) -> list[str]``
    Every problem of its ``[plugin.params]`` table, each naming its key; empty when sound.
``table(params) -> int64 array``
    The parameters as one integer array, the only thing its compiled functions read.
``draw_bound(table, free, win, total_bet) -> int`` (numba)
    The bound of the spin's one draw, 0 for none (e.g. no draw on a spin that pays nothing).
``apply(table, free, win, total_bet, value) -> (new_win, outcome)`` (numba)
    The spin's new win given the draw ``value`` (below the bound; 0 when there is no draw),
    and the outcome the round records and the client shows (e.g. the multiplier drawn).
``win_law(table, free, win, total_bet) -> list[(new_win, weight)]``
    The exact law of ``apply`` over the draw: weights proportional to the number of draw
    values below ``draw_bound`` that give each new win (``[(win, 1)]`` when there is none). The
    exact analysis reads it; a test of the plug-in checks it against ``apply`` value by value.
``rules(params, spins) -> list[str]``
    The sentences of the rules page, ``spins`` where the model lets it act (``"base"``,
    ``"free"`` or ``"all"``).

``free`` is whether the spin is a free spin, ``win`` and ``total_bet`` are in coins. The rule
must scale with the bet: ``apply`` of ``c * win`` at ``c * total_bet`` is ``c`` times the new
win (the lab analyses and simulates at one coin per line, live play at the player's bet), and
it may not depend on anything but its arguments. live play (:mod:`reelsmith.engine.round`)
and the kernel (:mod:`reelsmith.analysis.kernel`) call the same two compiled functions, so the
plug-in's rule is written once.

A plug-in module is code: it runs in the server's process with the server's rights. An
operator serving ``--titles DIR`` trusts every title folder in it as much as the server
itself.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from reelsmith.engine.model import GameModel, ModelError
from reelsmith.rng import RandomSource

#: Keys of the ``[plugin]`` table.
PLUGIN_KEYS = frozenset({"module", "spins", "params"})
#: Where a plug-in acts: ``[plugin] spins``.
SPINS = {"base": (True, False), "free": (False, True), "all": (True, True)}
#: What a module must define.
REQUIRED = ("PURPOSE", "NAME", "check", "table", "draw_bound", "apply", "win_law", "rules")
#: The draw purposes catalogue rounds use already; a plug-in's must differ.
RESERVED_PURPOSES = frozenset({"reel_stop", "gamble_card"})


@runtime_checkable
class PluginModule(Protocol):
    """The functions a plug-in module defines (see the module's account for each contract)."""

    PURPOSE: str
    NAME: str

    def check(self, params: Mapping[str, Any]) -> list[str]: ...

    def table(self, params: Mapping[str, Any]) -> npt.NDArray[np.int64]: ...

    def draw_bound(
        self, table: npt.NDArray[np.int64], free: bool, win: int, total_bet: int
    ) -> int: ...

    def apply(
        self, table: npt.NDArray[np.int64], free: bool, win: int, total_bet: int, value: int
    ) -> tuple[int, int]: ...

    def win_law(
        self, table: npt.NDArray[np.int64], free: bool, win: int, total_bet: int
    ) -> list[tuple[int, int]]: ...

    def rules(self, params: Mapping[str, Any], spins: str) -> list[str]: ...


@dataclass(frozen=True, eq=False)
class Plugin:
    """A model's plug-in, loaded and checked."""

    module: PluginModule
    source: str  # the file or module name it was loaded from
    params: Mapping[str, Any]
    table: npt.NDArray[np.int64]
    spins: str  # where it acts: "base", "free" or "all"

    @property
    def in_base(self) -> bool:
        return SPINS[self.spins][0]

    @property
    def in_free(self) -> bool:
        return SPINS[self.spins][1]

    @property
    def purpose(self) -> str:
        return self.module.PURPOSE

    @property
    def name(self) -> str:
        return self.module.NAME

    def acts(self, free: bool) -> bool:
        """Whether the plug-in acts on a free spin (``free``) or a base spin."""
        return self.in_free if free else self.in_base

    def step(self, free: bool, win: int, total_bet: int, rng: RandomSource) -> tuple[int, int]:
        """Live play's step: the spin's new win and the outcome, drawing through ``rng`` under
        the plug-in's purpose (the draw is recorded and replayed like every other)."""
        bound = int(self.module.draw_bound(self.table, free, win, total_bet))
        value = rng.randbelow(bound, self.purpose) if bound > 0 else 0
        new_win, outcome = self.module.apply(self.table, free, win, total_bet, value)
        return int(new_win), int(outcome)

    def law(self, free: bool, win: int, total_bet: int) -> list[tuple[int, int]]:
        """The exact law of the spin's new win given its win (``win_law``); ``[(win, 1)]`` where
        the plug-in does not act."""
        if not self.acts(free):
            return [(win, 1)]
        return [(int(w), int(n)) for w, n in self.module.win_law(self.table, free, win, total_bet)]

    def rules(self) -> list[str]:
        """The rules page's sentences of the plug-in."""
        return list(self.module.rules(self.params, self.spins))


def _load_module(spec: str, folder: Path | None) -> ModuleType:
    """Load ``spec``: a ``.py`` file of ``folder`` (by its path, under a name of its own) or a
    dotted module name of an installed package. Raises ``ModelError`` naming what is wrong."""
    if spec.endswith(".py"):
        if folder is None:
            raise ModelError(f"plugin.module: {spec!r} is a file, but the model has no folder")
        path = (folder / spec).resolve()
        if folder.resolve() not in path.parents:
            raise ModelError(f"plugin.module: {spec!r} must be a file inside {folder}")
        if not path.is_file():
            raise ModelError(f"plugin.module: {path} does not exist")
        # A name of its own, the same in every process for the same text wherever the file
        # lies (numba's on-disk cache of the module's compiled functions, kept beside the file,
        # finds the module again by that name, so it is registered); an edited file is a new
        # module, and two copies of one file are one module.
        digest = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
        name = f"reelsmith_plugin_{path.stem}_{digest}"
        if name in sys.modules:
            return sys.modules[name]
        loader_spec = importlib.util.spec_from_file_location(name, path)
        if loader_spec is None or loader_spec.loader is None:  # pragma: no cover - a .py path
            raise ModelError(f"plugin.module: {path} cannot be loaded as a module")
        module = importlib.util.module_from_spec(loader_spec)
        sys.modules[name] = module
        try:
            loader_spec.loader.exec_module(module)
        except Exception as exc:  # the module's own error, reported with its file
            del sys.modules[name]
            raise ModelError(f"plugin.module: {path} failed to load: {exc!r}") from exc
        return module
    try:
        return importlib.import_module(spec)
    except ImportError as exc:
        raise ModelError(f"plugin.module: no module named {spec!r} ({exc})") from exc


def _interface_problems(module: ModuleType, where: str) -> list[str]:
    problems = [
        f"{where}: defines no {name!r} (a plug-in module defines {', '.join(REQUIRED)})"
        for name in REQUIRED
        if not hasattr(module, name)
    ]
    if problems:
        return problems
    purpose = module.PURPOSE
    if not isinstance(purpose, str) or not purpose or purpose in RESERVED_PURPOSES:
        problems.append(
            f"{where}: PURPOSE must be a draw purpose of its own, not one of "
            f"{', '.join(sorted(RESERVED_PURPOSES))}; got {purpose!r}"
        )
    for name in ("draw_bound", "apply"):
        if not hasattr(getattr(module, name), "py_func"):
            problems.append(
                f"{where}: {name} must be a numba function (@njit): the kernel calls it"
            )
    for name in ("check", "table", "win_law", "rules"):
        if not callable(getattr(module, name)):
            problems.append(f"{where}: {name} must be a function")
    return problems


def plugin_problems(raw: Mapping[str, Any], folder: Path | None, where: str) -> list[str]:
    """Every problem of a model's ``[plugin]`` table, one per entry (empty when sound or
    absent): the table's keys, the module (missing, failing to load, lacking a function of the
    interface) and the plug-in's own check of its parameters."""
    return _read(raw, folder, where)[1]


def _read(
    raw: Mapping[str, Any], folder: Path | None, where: str
) -> tuple[Plugin | None, list[str]]:
    table = raw.get("plugin")
    if table is None:
        return None, []
    if isinstance(table, list):
        return None, [f"{where}: plugin must be one table ([plugin]); a model has one plug-in"]
    if not isinstance(table, dict):
        return None, [f"{where}: plugin must be a table"]
    problems = [
        f"{where}: plugin: unknown key {key!r}; the keys are: {', '.join(sorted(PLUGIN_KEYS))}"
        for key in sorted(set(table) - PLUGIN_KEYS)
    ]
    spins = table.get("spins", "all")
    if spins not in SPINS:
        problems.append(f'{where}: plugin.spins must be "base", "free" or "all", got {spins!r}')
    params = table.get("params", {})
    if not isinstance(params, dict):
        problems.append(f"{where}: plugin.params must be a table")
        params = {}
    spec = table.get("module")
    if not isinstance(spec, str) or not spec:
        problems.append(f"{where}: plugin.module must name a .py file of the folder or a module")
        return None, problems
    try:
        module = _load_module(spec, folder)
    except ModelError as exc:
        return None, [*problems, f"{where}: {exc}"]
    source = getattr(module, "__file__", None) or spec
    interface = _interface_problems(module, f"{where}: plugin.module {source}")
    if interface:
        return None, problems + interface
    try:
        problems.extend(f"{where}: plugin.params.{p}" for p in module.check(params))
        if problems:
            return None, problems
        compiled = np.ascontiguousarray(module.table(params), dtype=np.int64)
    except Exception as exc:  # the module's own error, reported with its file
        return None, [
            *problems,
            f"{where}: plugin.module {source}: its check or table failed: {exc!r}",
        ]
    plugin = Plugin(
        module=module,  # checked against REQUIRED above
        source=str(source),
        params=params,
        table=compiled,
        spins=spins,
    )
    return plugin, []


@cache
def model_plugin(model: GameModel) -> Plugin | None:
    """The model's plug-in, loaded once per model (None without a ``[plugin]`` table); raises
    ``ModelError`` listing every problem, one per line."""
    folder = model.source.parent if model.source is not None else None
    plugin, problems = _read(model.raw, folder, str(model.source or model.id))
    if problems:
        raise ModelError("\n".join(problems))
    return plugin


def exact_law_of_draws(plugin: Plugin, free: bool, win: int, total_bet: int) -> list[int]:
    """The new win for every draw value of a spin (the brute-force law of ``apply``): what a
    plug-in's ``win_law`` must equal, grouped and weighted."""
    module = plugin.module
    bound = int(module.draw_bound(plugin.table, free, win, total_bet))
    values: Sequence[int] = range(bound) if bound > 0 else (0,)
    return [int(module.apply(plugin.table, free, win, total_bet, v)[0]) for v in values]
