"""A newcomer's first use of the lab, from the wheel: wall time, CPU time and peak memory of
the first ``analyze`` and ``simulate`` a fresh install runs (numba's cache empty), beside the
same command run again in a new process (the cache warm), measured in the same run.

The wheel is built from this checkout (or from the git revision ``BENCH_FIRST_USE_REF`` names,
e.g. ``main``, to measure another version the same way) and installed, core only, into a fresh
venv in a temporary folder, as ``pip install reelsmith`` would. Each command runs in a process
of its own through the installed ``reelsmith`` script, with ``XDG_CACHE_HOME`` a folder of its
own that starts empty, so the first run compiles what it calls and the second loads it; the
installed package's folder is not where the cache goes. The figures come from the operating
system's accounting of each process (``os.wait4``: its CPU time and peak resident memory) and
the wall clock around it; "compile s" is what the command itself printed on stderr for its
compiling (the "compiling ... N s" lines), "-" when it printed none.
``BENCH_FIRST_USE_SPINS`` sets the simulation's rounds (100,000).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "packaging"))

from wheel_smoke import build_wheel, fresh_venv, install  # noqa: E402

SPINS = os.environ.get("BENCH_FIRST_USE_SPINS", "100000")
REF = os.environ.get("BENCH_FIRST_USE_REF")
COMMANDS = {
    "analyze days-of-the-tsar": ["analyze", "days-of-the-tsar", "--json"],
    f"simulate aurora-fox ({int(SPINS):,} rounds)": [
        "simulate",
        "aurora-fox",
        "--spins",
        SPINS,
        "--seed",
        "1",
        "--workers",
        "1",
        "--json",
    ],
}
#: How the command line reports a compile's seconds (reelsmith.compiled.compiling).
COMPILED = re.compile(r"^compiling .*\.\.\. (\d+(?:\.\d+)?) s$", re.M)


@dataclass(frozen=True)
class Use:
    wall: float
    cpu: float
    peak_mb: float
    compile_seconds: float | None


def run(reelsmith: Path, args: list[str], cache_home: Path, work: Path) -> Use:
    """One process running ``reelsmith <args>`` with the user's cache under ``cache_home``."""
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "PYTHONPATH")}
    env["XDG_CACHE_HOME"] = str(cache_home)
    start = time.perf_counter()
    process = subprocess.Popen(
        [str(reelsmith), *args],
        env=env,
        cwd=work,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None
    error = process.stderr.read()  # read before waiting: a full pipe would stall the child
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"reelsmith {' '.join(args)} failed: {error.strip()}")
    compiled = [float(seconds) for seconds in COMPILED.findall(error)]
    # ru_maxrss is in kilobytes on Linux
    return Use(
        wall,
        usage.ru_utime + usage.ru_stime,
        usage.ru_maxrss / 1024,
        sum(compiled) if compiled else None,
    )


def wheel_from(work: Path, python: Path) -> Path:
    """The wheel of this checkout, or of the revision ``BENCH_FIRST_USE_REF`` names."""
    if REF is None:
        return build_wheel(work, python)
    source = work / "ref-source"
    source.mkdir()
    archive = work / "ref.tar"
    subprocess.run(["git", "-C", str(ROOT), "archive", "-o", str(archive), REF], check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(source, filter="data")
    dist = work / "dist"
    subprocess.run(
        [str(python), "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(dist), str(source)],
        check=True,
    )
    return next(dist.glob("reelsmith-*.whl"))


def main() -> None:
    work = Path(tempfile.mkdtemp(prefix="reelsmith-first-use-"))
    try:
        measure(work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def measure(work: Path) -> None:
    """Build and install the wheel under ``work``, then time each command cold and warm."""
    bin_dir = fresh_venv(work)
    wheel = wheel_from(work, bin_dir / "python")
    install(bin_dir, wheel)
    print(
        f"python {sys.version.split()[0]}, {os.cpu_count()} cores; {wheel.name} "
        f"({REF or 'this checkout'}) installed in a fresh venv; each command's cache starts empty"
    )
    header = (
        f"{'command':38} {'run':>7} {'wall s':>8} {'cpu s':>8} {'peak MB':>8} {'compile s':>10}"
    )
    print(header)
    print("-" * len(header))
    for name, args in COMMANDS.items():
        with tempfile.TemporaryDirectory(prefix="reelsmith-cache-") as cache:
            first = run(bin_dir / "reelsmith", args, Path(cache), work)
            second = run(bin_dir / "reelsmith", args, Path(cache), work)
            cached = sum(1 for _ in Path(cache).rglob("*.nbi"))
        for label, use in (("first", first), ("second", second)):
            compiled = "-" if use.compile_seconds is None else f"{use.compile_seconds:.1f}"
            print(
                f"{name:38} {label:>7} {use.wall:8.1f} {use.cpu:8.1f} {use.peak_mb:8.0f}"
                f" {compiled:>10}"
            )
        print(
            f"{'':38} {'ratio':>7} {first.wall / second.wall:8.1f} {first.cpu / second.cpu:8.1f}"
            f" {first.peak_mb / second.peak_mb:8.2f}   ({cached} compiled functions cached)",
            flush=True,
        )


if __name__ == "__main__":
    main()
