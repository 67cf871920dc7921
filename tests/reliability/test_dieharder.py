"""The raw CSPRNG bytes through dieharder (Debian's ``dieharder``; ``make test-long`` installs it).

Live draws come from ``secrets.randbelow``, which takes its bits from ``os.urandom``
(``getrandom(2)``): those bytes, streamed from this process into dieharder's raw stdin
generator (``-g 200``), go through a bounded list of the Diehard, NIST STS and RGB tests.
``-Y 1`` makes dieharder re-test an ambiguous (WEAK) result with more samples until it resolves.
Passes, weak results and failures are reported; the test fails on any FAILED.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time

import pytest

from tests.reliability import figures

# diehard: birthdays, rank 32x32, rank 6x8, bitstream, count-1s (stream, byte), parking lot,
# 2d circles, 3d spheres, squeeze, runs, craps; STS: monobit, runs, serial; RGB: bit
# distribution, minimum distance, permutations, KS, byte distribution, DCT, fill tree (two
# kinds), monobit 2. The RGB tuple tests run at the tuple sizes ``dieharder -a`` uses: run
# alone without ``-n``, rgb_minimum_distance uses a degenerate 0-tuple that fails for every
# generator (MT19937 included: p = 0.00000000), which says nothing about the source.
DIEHARD = (0, 2, 3, 4, 8, 9, 10, 11, 12, 13, 15, 16)
STS = (100, 101, 102)
RGB = ((200, range(1, 13)), (201, range(2, 6)), (202, range(2, 6)))
OTHER = (204, 205, 206, 207, 208, 209)
CALLS: tuple[tuple[int, int | None], ...] = (
    *((t, None) for t in (*DIEHARD, *STS)),
    *((t, n) for t, sizes in RGB for n in sizes),
    *((t, None) for t in OTHER),
)
FEED = (
    "import os, sys\n"
    "out = sys.stdout.buffer\n"
    "try:\n"
    "    while True:\n"
    "        out.write(os.urandom(1 << 20))\n"
    "except (BrokenPipeError, OSError):\n"
    "    pass\n"
)


def run_one(test: int, ntuple: int | None) -> list[tuple[str, str, str]]:
    feed = subprocess.Popen([sys.executable, "-c", FEED], stdout=subprocess.PIPE)
    try:
        out = subprocess.run(
            ["dieharder", "-g", "200", "-d", str(test), "-Y", "1"]
            + ([] if ntuple is None else ["-n", str(ntuple)]),
            stdin=feed.stdout,
            capture_output=True,
            text=True,
            timeout=3600,
            check=True,
        ).stdout
    finally:
        assert feed.stdout is not None
        feed.stdout.close()
        feed.kill()
        feed.wait()
    results = []
    for line in out.splitlines():
        cells = [c.strip() for c in line.split("|")]
        if len(cells) == 6 and cells[5] in ("PASSED", "WEAK", "FAILED"):
            results.append((f"{cells[0]} ntup {cells[1]}", cells[4], cells[5]))
    return results


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("dieharder") is None, reason="apt-get install dieharder")
def test_os_urandom_through_dieharder():
    start = time.perf_counter()
    results = [r for test, ntuple in CALLS for r in run_one(test, ntuple)]
    elapsed = time.perf_counter() - start
    verdicts = [v for _, _, v in results]
    summary = (
        f"{len(results)} results from {len({t for t, _ in CALLS})} tests in {elapsed:.0f} s: "
        f"{verdicts.count('PASSED')} PASSED, {verdicts.count('WEAK')} WEAK, "
        f"{verdicts.count('FAILED')} FAILED"
    )
    figures.note("dieharder (os.urandom bytes, -g 200, -Y 1)", summary)
    for name, p, verdict in results:
        if verdict != "PASSED":
            figures.note("dieharder (os.urandom bytes, -g 200, -Y 1)", f"{name}: p={p} {verdict}")
    assert len(results) >= len(CALLS)
    assert "FAILED" not in verdicts, [r for r in results if r[2] == "FAILED"]
