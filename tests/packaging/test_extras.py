"""The core install and its extras: what each extra brings, and what a command that needs a
missing one says. A missing module is simulated by a ``None`` in ``sys.modules``, which makes
``import`` fail exactly as for a module that is not installed."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from reelsmith.cli import app
from reelsmith.extras import EXTRA_MODULES, MissingExtraError, require

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def requirement_names(requirements: list[str]) -> set[str]:
    return {r.split(";")[0].split("[")[0].split(">")[0].split("=")[0].strip() for r in requirements}


def test_each_extra_brings_its_module_and_the_core_brings_none_of_them() -> None:
    extras = PROJECT["optional-dependencies"]
    core = requirement_names(PROJECT["dependencies"])
    for extra, module in EXTRA_MODULES.items():
        assert module in requirement_names(extras[extra]), (extra, extras[extra])
        assert module not in core
    # the live engine calls numba's kernels: numba and numpy stay in the core
    assert {"numba", "numpy"} <= core
    # the test tools are not an operator's concern
    assert not {"pytest", "playwright", "schemathesis", "scipy", "hypothesis"} & core


def test_require_names_the_extra_of_a_missing_module(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(MissingExtraError) as caught:
        require("lab", "--report draws the PAR sheet's plots")
    assert str(caught.value) == (
        "--report draws the PAR sheet's plots with matplotlib, which is not installed: "
        "pip install 'reelsmith[lab]'"
    )


def test_require_passes_when_the_module_is_there() -> None:
    pytest.importorskip("matplotlib")
    require("lab", "--report draws the PAR sheet's plots")


def test_analyze_report_without_the_lab_extra_fails_before_any_work(monkeypatch, tmp_path) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    report = tmp_path / "par.html"
    result = CliRunner().invoke(app, ["analyze", "days-of-the-tsar", "--report", str(report)])
    assert result.exit_code == 2
    assert result.stderr == (
        "error: --report draws the PAR sheet's plots with matplotlib, which is not installed: "
        "pip install 'reelsmith[lab]'\n"
    )
    assert result.stdout == ""  # no analysis was run
    assert not report.exists()


def test_simulate_on_a_cluster_without_the_cluster_extra(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    result = CliRunner().invoke(
        app, ["simulate", "days-of-the-tsar", "--spins", "1000", "--cluster", "local"]
    )
    assert result.exit_code == 2
    assert result.stderr == (
        "error: --cluster runs the chunks on a cluster with ray, which is not installed: "
        "pip install 'reelsmith[cluster]'\n"
    )


BLOCK_EXTRAS = """
import importlib, pkgutil, sys
blocked = {blocked!r}
class Blocker:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in blocked:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None
sys.meta_path.insert(0, Blocker())
import reelsmith
for module in pkgutil.walk_packages(reelsmith.__path__, "reelsmith."):
    importlib.import_module(module.name)
from reelsmith.server.app import create_app
print("imported")
"""


def test_every_module_imports_without_the_extras_and_the_test_tools() -> None:
    # a fresh interpreter, so that modules this test run already imported do not hide one
    # (httpx is a dependency of the core since the seamless wallet calls the operator with it)
    blocked = [*EXTRA_MODULES.values(), "scipy", "pytest", "hypothesis", "playwright"]
    result = subprocess.run(
        [sys.executable, "-c", BLOCK_EXTRAS.format(blocked=blocked)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "imported"


def test_the_package_data_covers_every_file_the_package_reads() -> None:
    # Every file of src/reelsmith that is not a module must match a package-data pattern, or
    # the wheel leaves it out (the wheel smoke in CI checks the built wheel itself).
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    package = ROOT / "src" / "reelsmith"
    patterns = setuptools["package-data"]["reelsmith"]
    covered = {path for pattern in patterns for path in package.glob(pattern)}
    data = {
        path
        for path in package.rglob("*")
        if path.is_file() and path.suffix not in (".py", ".pyc") and "__pycache__" not in path.parts
    }
    assert data, "the package has data files (models, markets, the web client)"
    assert sorted(str(p.relative_to(package)) for p in data - covered) == []
    # the migrations have no __init__.py: their modules are named as package data too, so
    # they are packed whether or not setuptools takes their folders for namespace packages
    migrations = set((package / "store" / "migrations").rglob("*.py"))
    assert migrations and migrations <= covered
